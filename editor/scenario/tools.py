"""Map tools of Scenario mode: the setup tool (click a stack to list it, drag a stack to
another hex, or pick a hex for a dock that asked for one) and the drop-zone hex tool
(click toggles a hex, drag paints a run of hexes, Shift+drag draws a lasso)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent, QPolygonF

from editor.tools.base import BaseTool, hex_at
from model import scenario_edits as se
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.map_view.view import MapView
    from editor.scenario.mode import ScenarioMode


class SetupTool(BaseTool):
    name = "setup"

    def __init__(self, mode: "ScenarioMode") -> None:
        self.mode = mode
        self._pressed: Hex | None = None
        self.pick: Callable[[Hex], None] | None = None  # a dock waiting for a hex

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton and self.pick is None:
            menu = self.mode.stack_menu(hex_at(view, pos))  # "in or adjacent to" / "exactly on"
            if menu is not None:
                menu.popup(event.globalPosition().toPoint())
        self._pressed = hex_at(view, pos) if event.button() == Qt.MouseButton.LeftButton else None

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._pressed is None:
            return
        start, end = self._pressed, hex_at(view, pos)
        self._pressed = None
        if self.pick is not None:
            cb, self.pick = self.pick, None
            cb(end)
            return
        scen = self.mode.resolved()
        units = se.stacks(scen).get(start, []) if scen else []
        if start != end and units:
            # Alt+drag: "in or adjacent to" the target hex, as Alt+drop from the OOB.
            alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
            self.mode.drop_unit(units, hex=end, adjacent=alt)
        self.mode.show_stack(end)


class ZoneTool(BaseTool):
    name = "zone"

    def __init__(self, mode: "ScenarioMode") -> None:
        self.mode = mode
        self._start: Hex | None = None
        self._hexes: list[Hex] = []
        self._lasso: list[QPointF] = []
        self._remove = False

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        self._start = hex_at(view, pos)
        self._remove = event.button() == Qt.MouseButton.RightButton
        self._hexes = [self._start]
        self._lasso = [pos] if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else []
        self._preview()

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._start is None:
            return
        if self._lasso:
            self._lasso.append(pos)
            self._hexes = self._inside(view)
        else:
            h = hex_at(view, pos)
            if h not in self._hexes:
                self._hexes.append(h)
        self._preview()

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._start is None:
            return
        hexes = [h for h in self._hexes if self.mode.hmap.contains(h)]
        single = len(self._hexes) == 1 and not self._lasso
        self._start, self._hexes, self._lasso = None, [], []
        self._preview()
        zone = self.mode.zone_panel.current_zone()
        if zone is None or not hexes:
            return
        if single and not self._remove:
            mode = "remove" if hexes[0] in set(zone.hexes) else "add"  # a click toggles
        else:
            mode = "remove" if self._remove else "add"
        self.mode.zone_panel.edit_hexes(hexes, mode)

    def _inside(self, view: "MapView") -> list[Hex]:
        poly = QPolygonF(self._lasso)
        lay = view.map_scene.layout
        xs = [p.x() for p in self._lasso]
        ys = [p.y() for p in self._lasso]
        out = []
        corner_hexes = {lay.hex_at(x, y) for x in (min(xs), max(xs)) for y in (min(ys), max(ys))}
        lo = min(corner_hexes, key=lambda h: h.q)
        span = max(h.distance(lo) for h in corner_hexes) + 2
        for h in lo.range(span):
            if poly.containsPoint(QPointF(*lay.center(h)), Qt.FillRule.OddEvenFill):
                out.append(h)
        return out

    def _preview(self) -> None:
        if self.mode.layer is not None:
            self.mode.layer.zone_preview = list(self._hexes)
            self.mode.layer.update()


class OverlayTool(BaseTool):
    """Beach-overlay editing: a left click hands the point to the overlay dock, which toggles
    a landing/reinforcement hex or the nearest gap hexside."""

    name = "overlay"

    def __init__(self, mode: "ScenarioMode") -> None:
        self.mode = mode

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.mode.overlay_panel.map_click(view, pos)
