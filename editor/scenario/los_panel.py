"""LOS panel: conditions (night, storm, fog, OP/spotting use), range rings, the explanation of
the last line (crossings with rule cases), and the viewshed toggle. For a system whose LOS is
off (SFN, TKG) it says why, from the system data. The line, viewshed and rings it finds are put
on the selection, which the scenario layer draws."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSpinBox, QVBoxLayout,
                               QWidget)

from editor.tools.los_tool import LosTool
from model.hexes import Hex
from model.los import LosResult
from model.los_fast import FastLos

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection


class LosPanel(QWidget):
    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.night, self.storm, self.fog = QCheckBox("night"), QCheckBox("storm"), QCheckBox("fog/rain")
        self.op = QCheckBox("OP / spotting use")
        self.rings = QSpinBox()
        self.rings.setRange(0, 20)
        self.rings.setPrefix("rings every ")
        self.rings.setValue(5)
        self.active = QPushButton("LOS tool")
        self.active.setCheckable(True)
        self.active.toggled.connect(self._toggle)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        row = QHBoxLayout()
        for w in (self.night, self.storm, self.fog, self.op):
            row.addWidget(w)
            w.toggled.connect(lambda _on: self._retrace())
        row2 = QHBoxLayout()
        for w in (self.active, self.rings, clear):
            row2.addWidget(w)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.status)
        lay.addLayout(row)
        lay.addLayout(row2)
        lay.addWidget(self.text, 1)
        self._engine: tuple[int, FastLos] | None = None
        self.tool = LosTool(self.engine, self.conditions, self.show_line, self.show_viewshed)
        self.last: LosResult | None = None
        self._line: tuple[Hex, Hex] | None = None

    def engine(self) -> FastLos:
        doc = self.document
        key = id(doc.hmap) ^ doc.undo_stack.index()
        if self._engine is None or self._engine[0] != key:
            self._engine = (key, FastLos(doc.hmap, doc.system))
        return self._engine[1]

    def conditions(self) -> dict[str, Any]:
        return {"night": self.night.isChecked(), "storm": self.storm.isChecked(), "fog": self.fog.isChecked(),
                "purpose": "spot" if self.op.isChecked() else "direct"}

    def refresh(self) -> None:
        system = self.document.system
        los = system.los
        if los.enabled:
            self.status.setText(f"{system.name}: LOS rules [{system.cited(los.rule)}]. Drag from hex to "
                                f"hex; right-click a hex for its viewshed.")
        else:
            self.status.setText(f"LOS is not used by {system.name}: "
                                f"{los.disabled_reason or 'the rules have no line-of-sight rules'}")
        self.active.setEnabled(los.enabled)

    def _toggle(self, on: bool) -> None:
        self.selection.set_tool("los" if on else "setup")

    def show_line(self, a: Hex, b: Hex, res: LosResult) -> None:
        self.last, self._line = res, (a, b)
        self.text.setPlainText(res.explain())  # the verdict, the case that decided it, every crossing
        self.selection.set_los((a, b, res.visible))

    def show_viewshed(self, h: Hex, seen: set[Hex]) -> None:
        step = self.rings.value()
        rng = max((h.distance(x) for x in seen), default=0)
        self.selection.set_viewshed(h, seen, list(range(step, rng + 1, step)) if step else [])
        self.text.setPlainText(f"Viewshed from {self.document.hmap.label(h)}: {len(seen)} hexes seen "
                               f"({self.tool.last_seconds * 1000:.1f} ms)")

    def _retrace(self) -> None:
        if self._line is not None:
            self.tool.trace(*self._line)

    def clear(self) -> None:
        self.selection.clear_los()
        self.text.clear()
