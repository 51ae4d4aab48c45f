"""Beach-overlay dock: each overlay with its sub-beaches, landing hexes (planned/actual),
gap hexsides, defence-track start levels, drift chart and reinforcement hexes; a check box
shows or hides the overlay on the map (the view-only toggle; the saved ``visible`` flag is
changed with the ShowOverlay command from the context button)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from editor.commands.scenario import ShowOverlay

if TYPE_CHECKING:
    from editor.scenario.mode import ScenarioMode

ROLE = Qt.ItemDataRole.UserRole


class OverlayPanel(QWidget):
    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Overlay", "Detail"])
        self.tree.setColumnWidth(0, 170)
        self.tree.itemChanged.connect(self._changed)
        self.toggle_saved = QPushButton("Toggle saved visibility")
        self.toggle_saved.clicked.connect(self._toggle_saved)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.tree)
        lay.addWidget(self.toggle_saved)

    def refresh(self) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        scen = self.mode.resolved()
        lab = self.mode.hmap.label
        for ov in scen.beach_overlays if scen else []:
            top = QTreeWidgetItem([ov.name, f"{ov.version or ''} {len(ov.hexes)} hexes".strip()])
            top.setData(0, ROLE, ov.id)
            top.setFlags(top.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            top.setCheckState(0, Qt.CheckState.Checked if self.mode.overlay_shown.get(ov.id, True) and ov.visible
                              else Qt.CheckState.Unchecked)
            self.tree.addTopLevelItem(top)
            for sb in ov.sub_beaches:
                s = QTreeWidgetItem([f"sub-beach {sb.name}", f"{len(sb.hexes)} hexes"])
                top.addChild(s)
                s.addChild(QTreeWidgetItem(["planned landing", ", ".join(lab(h) for h in sb.landing.planned)]))
                s.addChild(QTreeWidgetItem(["actual landing", ", ".join(lab(h) for h in sb.landing.actual)]))
                for k, v in sb.drift.items():
                    s.addChild(QTreeWidgetItem([f"drift ({k})", v]))
            top.addChild(QTreeWidgetItem(["gap hexsides", ", ".join(
                f"{lab(g.hex)}/{g.direction}" for g in ov.gap_hexsides) or "—"]))
            for track, level in ov.tracks.items():
                top.addChild(QTreeWidgetItem([f"track {track}", str(level)]))
            top.addChild(QTreeWidgetItem(["reinforcement hexes", ", ".join(lab(h) for h in ov.reinforcement_hexes) or "—"]))
            top.setExpanded(True)
        self.tree.blockSignals(False)

    def _changed(self, item: QTreeWidgetItem, col: int) -> None:
        oid = item.data(0, ROLE)
        if oid:
            self.set_shown(oid, item.checkState(0) == Qt.CheckState.Checked)

    def set_shown(self, overlay_id: str, on: bool) -> None:
        """Show/hide on the map only (view state, not saved)."""
        self.mode.overlay_shown[overlay_id] = on
        if self.mode.layer is not None:
            self.mode.layer.update()

    def _toggle_saved(self) -> None:
        it = self.tree.currentItem()
        while it is not None and it.parent() is not None:
            it = it.parent()
        scen = self.mode.resolved()
        if it is None or scen is None:
            return
        ov = next(o for o in scen.beach_overlays if o.id == it.data(0, ROLE))
        self.mode.doc.push(ShowOverlay(self.mode.doc, self.mode.scenario_id or "", ov.id, not ov.visible))
