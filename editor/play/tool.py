"""PlayTool: the map tool of Play mode. Click a stack to select it, click a hex to move it
there (or drag the stack), click an enemy stack in a Combat phase to attack it, right-click to
clear the selection. Ctrl+click a hex (or click it with Check LOS on) to check line of sight to
it from the selected unit; with Show Fire Zone on, hovering a hex checks it too (:meth:`PlayTool.hover`,
drawn by the layer like Check LOS). Every decision about legality is the engine's."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.play.controller import PlayController
from editor.play.los_check import LosCheck, check
from editor.tools.base import BaseTool, hex_at
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class PlayTool(BaseTool):
    name = "play"

    def __init__(self, ctl: PlayController,
                 map_first: Callable[[], AbstractContextManager[object]] = nullcontext,
                 pressed_on: Callable[[Hex | None], None] | None = None) -> None:
        self.ctl = ctl
        # Around a click's selection change: the map answers first, the panels after its paint
        # (PlayMode.map_first); nullcontext: all at once (a tool with no mode around it).
        self.map_first = map_first
        # Told of a left press's hex before the release acts: a tap or a click with no pointer
        # movement before it is where the pointer is now (PlayMode prefetches what the release
        # will compute while the button is held).
        self.pressed_on = pressed_on
        self._pressed: Hex | None = None
        # Hover LOS cache: the check is recomputed only when its inputs change (hovered hex,
        # firer and its hex, game state), not on every mouse-move pixel.
        self._hover_key: tuple[object, ...] | None = None
        self.hover_line: LosCheck | None = None
        self.hover_checks = 0  # checks actually computed (a test counts them)

    def hover(self, h: Hex | None) -> LosCheck | None:
        """The hover LOS check to ``h`` from the selected unit (None: off the map or Show Fire
        Zone off). The same engine query and drawing data as Check LOS (:func:`los_check.check`),
        cached on (hex, firer, firer hex, log length): the log grows with every game action
        and shrinks on undo, so a changed state always recomputes."""
        ctl = self.ctl
        if h is None or not ctl.fire_zone_on:
            self._hover_key, self.hover_line = None, None
            return None
        sel = [u for u in ctl.selected_units() if u.on_map and u.hex is not None]
        firer = sel[0] if sel else None
        key = (h, firer.id if firer else None, firer.hex if firer else None, len(ctl.game.log))
        if key != self._hover_key:
            self._hover_key = key
            self.hover_checks += 1
            self.hover_line = check(ctl.game, firer, h, ctl.query)
        return self.hover_line

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            with self.map_first():
                self.ctl.clear_selection()
            self._pressed = None
            return
        self._pressed = hex_at(view, pos)
        if self.pressed_on is not None:
            self.pressed_on(self._pressed)

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._pressed is None or event.button() != Qt.MouseButton.LeftButton:
            return
        start, end = self._pressed, hex_at(view, pos)
        self._pressed = None
        if self.wants_los(event.modifiers()):
            self.ctl.check_los_line(end)  # a query: never a move, even after a drag
            return
        if start != end:
            self.drag(start, end)
        else:
            self.click(end)

    def wants_los(self, modifiers: Qt.KeyboardModifier) -> bool:
        """Ctrl+click checks LOS; so does any click while Check LOS is on — once a unit is
        selected (the first click of a Check LOS session still selects the firer)."""
        if bool(modifiers & Qt.KeyboardModifier.ControlModifier):
            return True
        return self.ctl.los_mode and bool(self.ctl.selected_units())

    def drag(self, start: Hex, end: Hex) -> None:
        """Drag a stack from ``start`` to ``end``: select it, then ask the engine to move it."""
        if self.ctl.units_at(start):
            if not (self.ctl.selected_units() and self.ctl.selected_units()[0].hex == start):
                self.ctl.select_hex(start)
            self.ctl.move_to(end)

    def click(self, h: Hex) -> None:
        ctl = self.ctl
        outcome = ctl.click_outcome(h)
        if outcome == "select":  # nothing selected, or another friendly stack out of reach
            with self.map_first():
                ctl.select_hex(h)
        elif outcome == "attack":
            ctl.attack(h)
        elif outcome == "move":
            ctl.move_to(h)  # in reach; else the engine explains why not (rule case in the status bar and log)
        # "keep": clicking the selected stack keeps it selected
