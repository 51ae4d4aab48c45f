"""LOS tool: drag from one hex to another to trace line of sight; the line is drawn green
(visible) or red (blocked) and the explanation (every crossing with its rule case) goes to the
LOS panel. A right click (or the panel's button) shows the viewshed from a hex with range rings.
The geometry and rules are model.los_fast (fast path, same results as model.los)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from editor.tools.base import BaseTool, hex_at
from model.hexes import Hex
from model.los import LosResult
from model.los_fast import FastLos

if TYPE_CHECKING:
    from editor.map_view.view import MapView


class LosTool(BaseTool):
    name = "los"

    def __init__(self, engine: Callable[[], FastLos], conditions: Callable[[], dict[str, Any]],
                 on_line: Callable[[Hex, Hex, LosResult], None], on_viewshed: Callable[[Hex, set[Hex]], None]) -> None:
        self.engine = engine
        self.conditions = conditions
        self.on_line = on_line
        self.on_viewshed = on_viewshed
        self._from: Hex | None = None
        self._last: Hex | None = None
        self.last_seconds = 0.0

    def press(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        h = hex_at(view, pos)
        if event.button() == Qt.MouseButton.RightButton:
            self.viewshed(h)
            return
        self._from, self._last = h, None
        self.trace(h, h)

    def move(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._from is None:
            return
        h = hex_at(view, pos)
        if h != self._last:
            self.trace(self._from, h)

    def release(self, view: "MapView", pos: QPointF, event: QMouseEvent) -> None:
        if self._from is not None:
            self.trace(self._from, hex_at(view, pos))
        self._from = None

    def trace(self, a: Hex, b: Hex) -> LosResult:
        self._last = b
        res = self.engine().query(a, b, **self.conditions())
        self.on_line(a, b, res)
        return res

    def viewshed(self, h: Hex) -> set[Hex]:
        t0 = time.perf_counter()
        seen = self.engine().viewshed(h, **self.conditions())
        self.last_seconds = time.perf_counter() - t0
        self.on_viewshed(h, seen)
        return seen
