"""Drop-zone dock: create and rename zones, pick one to edit with the zone tool (click,
drag or Shift+lasso on the map), and per-zone info: hex count, terrain mix and the drop-table
modifiers that terrain implies (TerrainType.drop_modifier in the system data). The chosen zone
is the selection's (the layer draws it bold, the zone tool edits it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QHBoxLayout, QInputDialog, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QVBoxLayout, QWidget)

from editor.commands.scenario import AddDropZone, RenameDropZone
from editor.scenario.tools import set_zone_hexes
from model import scenario_edits as se
from model.hexes import Hex
from model.scenario import DropZone, Scenario

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection

ROLE = Qt.ItemDataRole.UserRole


class ZonePanel(QWidget):
    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.list = QListWidget()
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.RichText)
        new = QPushButton("New…")
        ren = QPushButton("Rename…")
        self.edit_btn = QPushButton("Edit hexes")
        self.edit_btn.setCheckable(True)
        self.edit_btn.setToolTip("Click toggles a hex, drag adds a run, Shift+drag lassos, right button removes")
        new.clicked.connect(lambda: self.new_zone())
        ren.clicked.connect(lambda: self.rename_zone())
        self.edit_btn.toggled.connect(self._edit_mode)
        self.list.currentItemChanged.connect(lambda _c, _p: self._show())
        row = QHBoxLayout()
        for b in (new, ren, self.edit_btn):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.info)

    def _scen(self) -> Scenario | None:
        return self.selection.scenario()

    def current_zone(self) -> DropZone | None:
        it = self.list.currentItem()
        scen = self._scen()
        if it is None or scen is None:
            return None
        return next((z for z in scen.drop_zones if z.id == it.data(ROLE)), None)

    def refresh(self) -> None:
        cur = self.list.currentItem().data(ROLE) if self.list.currentItem() else None
        self.list.blockSignals(True)
        self.list.clear()
        scen = self._scen()
        for z in scen.drop_zones if scen is not None else []:
            assert scen is not None
            it = QListWidgetItem(f"{z.name} ({z.kind}, {len(se.zone_hexes(scen, z))} hexes)")
            it.setData(ROLE, z.id)
            self.list.addItem(it)
            if z.id == cur:
                self.list.setCurrentItem(it)
        self.list.blockSignals(False)
        self._show()

    def _show(self) -> None:
        z = self.current_zone()
        self.selection.set_zone(z.id if z else None)
        if z is None:
            self.info.setText("No zone selected.")
            return
        scen = self._scen()
        assert scen is not None
        zi = se.zone_info(scen, z, self.document.hmap, self.document.system)
        names = self.document.system.terrain_by_id
        rows = "".join(f"<tr><td>{names[t].name if t in names else t}</td><td align=right>{n}</td>"
                       f"<td align=right>{'—' if zi.modifiers.get(t) is None else f'{zi.modifiers[t]:+d}'}</td></tr>"
                       for t, n in zi.terrain.items())
        self.info.setText(f"<b>{z.name}</b> ({z.id}{f', extends {z.extends}' if z.extends else ''}): "
                          f"{zi.hexes} hexes{f', {zi.off_map} off the map' if zi.off_map else ''}"
                          f"{f' [{z.rule}]' if z.rule else ''}<table><tr><th>terrain</th><th>hexes</th>"
                          f"<th>drop DRM</th></tr>{rows}</table>")

    def _edit_mode(self, on: bool) -> None:
        self.selection.set_tool("zone" if on else "setup")

    def new_zone(self, zone_id: str | None = None, name: str | None = None) -> None:
        if zone_id is None:
            text, ok = QInputDialog.getText(self, "New drop zone", "Zone name (e.g. DZ X):")
            if not ok or not text.strip():
                return
            name = text.strip()
            zone_id = "-".join(name.lower().split())
        scen = self._scen()
        side = next((z.side for z in scen.drop_zones if z.side), None) if scen else None
        self.document.push(AddDropZone(self.document, self.selection.scenario_id or "",
                                       DropZone(id=zone_id, name=name or zone_id, side=side)))
        self.select(zone_id)

    def select(self, zone_id: str) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).data(ROLE) == zone_id:
                self.list.setCurrentRow(i)

    def rename_zone(self, name: str | None = None) -> None:
        z = self.current_zone()
        if z is None:
            return
        if name is None:
            text, ok = QInputDialog.getText(self, "Rename drop zone", "Name:", text=z.name)
            if not ok or not text.strip():
                return
            name = text.strip()
        self.document.push(RenameDropZone(self.document, self.selection.scenario_id or "", z.id, name))

    def edit_hexes(self, hexes: list[Hex], mode: str) -> None:
        if self.current_zone() is not None:
            set_zone_hexes(self.document, self.selection, hexes, mode)
