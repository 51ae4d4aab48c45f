"""Named-locations dock: the scenario's reinforcement hexes, assembly areas and rally points
(owner, label, hex) — add, rename and move (pick a hex on the map), each an undo command.
Map-wide locations (on the map file) are listed read-only. Prompts go out on ``status``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QInputDialog, QListWidget, QListWidgetItem, QPushButton,
                               QVBoxLayout, QWidget)

from editor.commands.scenario import AddLocation, MoveLocation, RenameLocation
from model.hexes import Hex
from model.mapdata import NamedLocation

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection

ROLE = Qt.ItemDataRole.UserRole
KINDS = ("reinforcement", "assembly_area", "rally_point", "location")


class LocationPanel(QWidget):
    status = Signal(str, int)  # a prompt for the status bar, and for how many ms

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.list = QListWidget()
        self.kind = QComboBox()
        self.kind.addItems(KINDS)
        add = QPushButton("Add at hex…")
        ren = QPushButton("Rename…")
        move = QPushButton("Move…")
        add.clicked.connect(self.add_by_pick)
        ren.clicked.connect(lambda: self.rename())
        move.clicked.connect(self.move_by_pick)
        row = QHBoxLayout()
        for w in (self.kind, add, ren, move):
            row.addWidget(w)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addWidget(self.list)

    def refresh(self) -> None:
        self.list.clear()
        scen = self.selection.scenario()
        if scen is None:
            return
        lab = self.document.hmap.label
        for loc in scen.locations:
            it = QListWidgetItem(f"{loc.name} [{loc.kind}] {', '.join(lab(h) for h in loc.all_hexes())}"
                                 f"{f' owner {loc.owner}' if loc.owner else ''}")
            it.setData(ROLE, loc.id)
            self.list.addItem(it)
        for loc in self.document.hmap.locations:
            it = QListWidgetItem(f"(map) {loc.name} [{loc.kind}]")
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(it)

    def current_id(self) -> str | None:
        it = self.list.currentItem()
        return it.data(ROLE) if it is not None else None

    def add_by_pick(self) -> None:
        self.status.emit("Click the location's hex on the map", 5000)
        self.selection.ask_for_hex(lambda h: self.add(h))

    def add(self, h: Hex, name: str | None = None, kind: str | None = None, owner: str | None = None) -> None:
        kind = kind or self.kind.currentText()
        if name is None:
            text, ok = QInputDialog.getText(self, "New location", "Name:")
            if not ok or not text.strip():
                return
            name = text.strip()
        sid = self.selection.scenario_id or ""
        taken = {x.id for x in self.document.bundle.scenarios[sid].locations}
        base = "-".join(name.lower().split()) or "location"
        lid, n = base, 2
        while lid in taken:
            lid, n = f"{base}-{n}", n + 1
        self.document.push(AddLocation(self.document, sid, NamedLocation(id=lid, name=name, hex=h, kind=kind,
                                                                         owner=owner, label=name)))

    def rename(self, name: str | None = None) -> None:
        lid = self.current_id()
        if lid is None:
            return
        if name is None:
            text, ok = QInputDialog.getText(self, "Rename location", "Name:")
            if not ok or not text.strip():
                return
            name = text.strip()
        self.document.push(RenameLocation(self.document, self.selection.scenario_id or "", lid, name))

    def move_by_pick(self) -> None:
        lid = self.current_id()
        if lid is None:
            return
        self.status.emit("Click the new hex on the map", 5000)
        doc, sid = self.document, self.selection.scenario_id or ""
        self.selection.ask_for_hex(lambda h: doc.push(MoveLocation(doc, sid, lid, h)))
