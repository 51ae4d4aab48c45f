"""Beach-overlay dock: each overlay with its sub-beaches, landing hexes (planned/actual),
gap hexsides, defence-track start levels, drift chart and reinforcement hexes.

Editing: pick what to edit (planned/actual landing hexes of the selected sub-beach, gap
hexsides, reinforcement hexes) and press "Edit on map": a click on the map toggles that hex
(for gap hexsides: the hexside nearest the click). Drift entries are edited in the tree
(double-click the shift); track start levels with the spin boxes. Every change is an undo
command over a pure edit in :mod:`model.scenario_edits`. The check box shows or hides the
overlay on the map (view state, kept on the selection); "Toggle saved visibility" changes the
file's ``visible``. The panel owns its map tool (:attr:`OverlayPanel.tool`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QPushButton, QSpinBox, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout, QWidget)

from editor.commands.scenario import (SetDrift, SetTrackLevel, ShowOverlay, ToggleGapHexside, ToggleLandingHex,
                                      ToggleReinforcementHex)
from editor.scenario.tools import OverlayTool
from editor.tools.base import hex_at, nearest_hexside
from model import scenario_edits as se
from model.hexes import Hex
from model.scenario import BeachOverlay, SubBeach

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.map_view.view import MapView
    from editor.scenario.selection import ScenarioSelection

ROLE = Qt.ItemDataRole.UserRole          # overlay id (top-level items)
SUB_ROLE = Qt.ItemDataRole.UserRole + 1  # sub-beach id (sub-beach items and their children)
DRIFT_ROLE = Qt.ItemDataRole.UserRole + 2  # overlay version of a drift row
# What a map click edits: (label, key). Landing hexes need a sub-beach selected.
MAP_EDITS = (("planned landing hexes", "planned"), ("actual landing hexes", "actual"),
             ("gap hexsides", "gap"), ("reinforcement hexes", "reinforcement"))
DRIFT_VERSIONS = ("planned", "actual")  # overlay versions in the GTS drift chart [Excl 4.5.2]
TRACK_MAX = 10


def _level(value: Any) -> int | None:
    """A track level as a number (levels are kept as text from YAML); None if not numeric."""
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


class OverlayPanel(QWidget):
    status = Signal(str, int)  # a hint for the status bar, and for how many ms

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.tool = OverlayTool(self.map_click)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Overlay", "Detail"])
        self.tree.setColumnWidth(0, 170)
        self.tree.itemChanged.connect(self._changed)
        self.tree.currentItemChanged.connect(lambda _c, _p: self._current_changed())
        self.toggle_saved = QPushButton("Toggle saved visibility")
        self.toggle_saved.clicked.connect(self._toggle_saved)
        self.what = QComboBox()
        for label, key in MAP_EDITS:
            self.what.addItem(label, key)
        self.edit_btn = QPushButton("Edit on map")
        self.edit_btn.setCheckable(True)
        self.edit_btn.setToolTip("A click on the map toggles the chosen hex (gap hexsides: the side nearest the click)")
        self.edit_btn.toggled.connect(self._edit_mode)
        self.tracks_form = QFormLayout()
        self.spins: dict[str, QSpinBox] = {}
        self._tracks_key: tuple[str, tuple[str, ...]] | None = None
        self._selected: tuple[str | None, str | None] = (None, None)
        row = QHBoxLayout()
        row.addWidget(self.what, 1)
        row.addWidget(self.edit_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.tree, 1)
        lay.addLayout(row)
        lay.addWidget(QLabel("Defence-track start levels:"))
        lay.addLayout(self.tracks_form)
        lay.addWidget(self.toggle_saved)

    # --- reading ---------------------------------------------------------------------------------

    def _owner(self, overlay_id: str) -> str | None:
        sid = self.selection.scenario_id
        return se.overlay_owner(self.document.bundle.scenarios, sid, overlay_id) if sid else None

    def current(self) -> tuple[BeachOverlay | None, SubBeach | None]:
        """The overlay (and sub-beach, if one is selected) of the tree's current item."""
        it = self.tree.currentItem()
        sub = it.data(0, SUB_ROLE) if it is not None else None
        while it is not None and it.parent() is not None:
            it = it.parent()
        scen = self.selection.resolved()
        if scen is None or not scen.beach_overlays:
            return None, None
        oid = it.data(0, ROLE) if it is not None else scen.beach_overlays[0].id
        ov = next((o for o in scen.beach_overlays if o.id == oid), None)
        sb = next((b for b in ov.sub_beaches if b.id == sub), None) if ov is not None else None
        return ov, sb

    # --- building ----------------------------------------------------------------------------------

    def refresh(self) -> None:
        ov_sel, sb_sel = self._selected
        self.tree.blockSignals(True)
        self.tree.clear()
        scen = self.selection.resolved()
        lab = self.document.hmap.label
        restore: QTreeWidgetItem | None = None
        for ov in scen.beach_overlays if scen else []:
            top = QTreeWidgetItem([ov.name, f"{ov.version or ''} {len(ov.hexes)} hexes".strip()])
            top.setData(0, ROLE, ov.id)
            top.setFlags(top.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            top.setCheckState(0, Qt.CheckState.Checked if self.selection.overlay_shown.get(ov.id, True) and ov.visible
                              else Qt.CheckState.Unchecked)
            self.tree.addTopLevelItem(top)
            if ov.id == ov_sel and sb_sel is None:
                restore = top
            for sb in ov.sub_beaches:
                s = QTreeWidgetItem([f"sub-beach {sb.name}", f"{len(sb.hexes)} hexes"])
                s.setData(0, SUB_ROLE, sb.id)
                top.addChild(s)
                if ov.id == ov_sel and sb.id == sb_sel:
                    restore = s
                for which in ("planned", "actual"):
                    c = QTreeWidgetItem([f"{which} landing", ", ".join(lab(h) for h in getattr(sb.landing, which)) or "—"])
                    c.setData(0, SUB_ROLE, sb.id)
                    s.addChild(c)
                for version in [*DRIFT_VERSIONS, *[k for k in sb.drift if k not in DRIFT_VERSIONS]]:
                    d = QTreeWidgetItem([f"drift ({version})", sb.drift.get(version, "")])
                    d.setData(0, SUB_ROLE, sb.id)
                    d.setData(0, DRIFT_ROLE, version)
                    d.setFlags(d.flags() | Qt.ItemFlag.ItemIsEditable)
                    d.setToolTip(1, "Double-click to edit the shift (e.g. '1 Left'); empty removes the entry")
                    s.addChild(d)
                s.setExpanded(True)
            top.addChild(QTreeWidgetItem(["gap hexsides", ", ".join(
                f"{lab(g.hex)}/{g.direction}" for g in ov.gap_hexsides) or "—"]))
            for track, level in ov.tracks.items():
                top.addChild(QTreeWidgetItem([f"track {track}", str(level)]))
            top.addChild(QTreeWidgetItem(["reinforcement hexes", ", ".join(lab(h) for h in ov.reinforcement_hexes) or "—"]))
            top.setExpanded(True)
        if restore is not None:
            self.tree.setCurrentItem(restore)
        self.tree.blockSignals(False)
        self._refresh_tracks()

    def _refresh_tracks(self) -> None:
        ov, _sb = self.current()
        key = (ov.id, tuple(ov.tracks)) if ov is not None else None
        if key != self._tracks_key:
            # Rebuilt only when the overlay or its track names change, never during a spin
            # box's own signal (a value edit just updates the values below).
            while self.tracks_form.rowCount():
                self.tracks_form.removeRow(0)
            self.spins = {}
            for track, level in (ov.tracks.items() if ov is not None else []):
                if _level(level) is None and level is not None:
                    self.tracks_form.addRow(track, QLabel(str(level)))  # a named level: edited in the file
                    continue
                sp = QSpinBox()
                sp.setRange(0, TRACK_MAX)
                sp.setSpecialValueText("—")  # 0 shown as a dash only when the level is unset
                sp.valueChanged.connect(lambda v, t=track: self.set_track(t, v))
                self.spins[track] = sp
                self.tracks_form.addRow(track.replace("_", " "), sp)
            self._tracks_key = key
        if ov is not None:
            for track, sp in self.spins.items():
                level = _level(ov.tracks.get(track))
                sp.blockSignals(True)
                sp.setSpecialValueText("—" if level is None else "")
                sp.setValue(level or 0)
                sp.blockSignals(False)

    def _current_changed(self) -> None:
        ov, sb = self.current()
        self._selected = (ov.id if ov else None, sb.id if sb else None)
        self._refresh_tracks()

    # --- edits ---------------------------------------------------------------------------------------

    def _push(self, overlay_id: str, make: Any) -> bool:
        owner = self._owner(overlay_id)
        if owner is None:
            return False
        self.document.push(make(owner))
        return True

    def set_track(self, track: str, level: int) -> None:
        ov, _sb = self.current()
        if ov is not None and _level(ov.tracks.get(track)) != level:
            # Levels load as text (YAML numbers stay text): write text too, so the saved file
            # keeps one representation and undo restores it byte for byte.
            self._push(ov.id, lambda sid: SetTrackLevel(self.document, sid, ov.id, track, str(level)))

    def set_drift(self, sub_id: str, version: str, shift: str | None) -> None:
        ov, _sb = self.current()
        if ov is not None:
            self._push(ov.id, lambda sid: SetDrift(self.document, sid, ov.id, sub_id, version, shift))

    def toggle_hex(self, h: Hex, what: str | None = None) -> bool:
        """Toggle ``h`` in what the combo names (or ``what``): landing hexes of the selected
        sub-beach, or the overlay's reinforcement hexes."""
        what = what or self.what.currentData()
        ov, sb = self.current()
        if ov is None:
            return False
        doc = self.document
        if what in ("planned", "actual"):
            if sb is None:
                self.status.emit("Select a sub-beach first", 5000)
                return False
            return self._push(ov.id, lambda sid: ToggleLandingHex(doc, sid, ov.id, sb.id, what, h))
        if what == "reinforcement":
            return self._push(ov.id, lambda sid: ToggleReinforcementHex(doc, sid, ov.id, h))
        return False

    def toggle_gap(self, key: Any) -> bool:
        ov, _sb = self.current()
        if ov is None:
            return False
        return self._push(ov.id, lambda sid: ToggleGapHexside(self.document, sid, ov.id, key))

    def map_click(self, view: "MapView", pos: QPointF) -> None:
        if self.what.currentData() == "gap":
            self.toggle_gap(nearest_hexside(view, pos))
        else:
            self.toggle_hex(hex_at(view, pos))

    def _edit_mode(self, on: bool) -> None:
        self.selection.set_tool("overlay" if on else "setup")

    # --- view state ------------------------------------------------------------------------------

    def _changed(self, item: QTreeWidgetItem, col: int) -> None:
        version = item.data(0, DRIFT_ROLE)
        if version and col == 1:
            self.set_drift(item.data(0, SUB_ROLE), version, item.text(1))
            return
        oid = item.data(0, ROLE)
        if oid:
            self.set_shown(oid, item.checkState(0) == Qt.CheckState.Checked)

    def set_shown(self, overlay_id: str, on: bool) -> None:
        """Show/hide on the map only (view state, not saved)."""
        self.selection.set_overlay_shown(overlay_id, on)

    def _toggle_saved(self) -> None:
        ov, _sb = self.current()
        if ov is not None:
            self._push(ov.id, lambda sid: ShowOverlay(self.document, sid, ov.id, not ov.visible))
