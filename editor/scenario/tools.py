"""Map tools of Scenario mode: the setup tool (click a stack to list it, drag a stack to
another hex, or pick a hex for a dock that asked for one), the drop-zone hex tool (click
toggles a hex, drag paints a run of hexes, Shift+drag draws a lasso) and the beach-overlay
click tool. Each works on the document and the selection only."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent, QPolygonF

from editor.commands.scenario import SetZoneHexes
from editor.scenario.placing import drop_units, stack_menu, units_at
from editor.tools.base import BaseTool, hex_at
from model.hexes import Hex
from model.scenario import DropZone

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.map_view.view import MapView
    from editor.scenario.selection import ScenarioSelection


def selected_zone(selection: "ScenarioSelection") -> DropZone | None:
    """The drop zone chosen in the zone dock, in the selected scenario's own file."""
    scen = selection.scenario()
    if scen is None or selection.zone is None:
        return None
    return next((z for z in scen.drop_zones if z.id == selection.zone), None)


def set_zone_hexes(document: "MapDocument", selection: "ScenarioSelection", hexes: list[Hex], mode: str) -> None:
    """Add ("add") or remove ("remove") hexes of the chosen zone: one undo step."""
    z = selected_zone(selection)
    if z is not None and selection.scenario_id is not None:
        document.push(SetZoneHexes(document, selection.scenario_id, z.id, hexes, mode))


class SetupTool(BaseTool):
    name = "setup"

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        self.document, self.selection = document, selection
        self._pressed: Hex | None = None

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton and self.selection.pick is None:
            # "in or adjacent to" / "exactly on"
            menu = stack_menu(self.document, self.selection, hex_at(view, pos), view)
            if menu is not None:
                menu.popup(event.globalPosition().toPoint())
        self._pressed = hex_at(view, pos) if event.button() == Qt.MouseButton.LeftButton else None

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._pressed is None:
            return
        start, end = self._pressed, hex_at(view, pos)
        self._pressed = None
        then = self.selection.take_pick()
        if then is not None:
            then(end)
            return
        units = units_at(self.selection, start)
        if start != end and units:
            # Alt+drag: "in or adjacent to" the target hex, as Alt+drop from the OOB.
            alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
            drop_units(self.document, self.selection.scenario_id, units, hex=end, adjacent=alt)
        self.selection.choose_stack(end)


class ZoneTool(BaseTool):
    name = "zone"

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        self.document, self.selection = document, selection
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
        hexes = [h for h in self._hexes if self.document.hmap.contains(h)]
        single = len(self._hexes) == 1 and not self._lasso
        self._start, self._hexes, self._lasso = None, [], []
        self._preview()
        zone = selected_zone(self.selection)
        if zone is None or not hexes:
            return
        if single and not self._remove:
            mode = "remove" if hexes[0] in set(zone.hexes) else "add"  # a click toggles
        else:
            mode = "remove" if self._remove else "add"
        set_zone_hexes(self.document, self.selection, hexes, mode)

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
        self.selection.set_zone_preview(self._hexes)


class OverlayTool(BaseTool):
    """Beach-overlay editing: a left click hands the point to the overlay dock (``on_click``),
    which toggles a landing/reinforcement hex or the nearest gap hexside."""

    name = "overlay"

    def __init__(self, on_click: Callable[["MapView", QPointF], None]) -> None:
        self.on_click = on_click

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.on_click(view, pos)
