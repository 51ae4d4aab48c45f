"""Setup docks: the order-of-battle tree (side → division → formation → unit, with each
unit's place in the current scenario), the off-map boxes as drop targets, and the stack /
initial-state panel for the selected hex or unit.

Drags carry unit ids as ``application/x-hexproof-unit``; every drop ends in
:func:`editor.scenario.placing.drop_units`, the one code path tests and benchmarks call too.
Each widget takes the document and the selection: picking a unit writes to the selection, and
the unit panel follows the selection's chosen unit or stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QBrush, QColor, QContextMenuEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QGridLayout, QLabel, QListWidget, QListWidgetItem, QMenu,
                               QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from editor.scenario.counter_preview import CounterPreview
from editor.scenario.placing import PlacementDialog, describe_place, drop_units, open_placement, set_unit_state, units_at
from model.hexes import Hex

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection

UNIT_MIME = "application/x-hexproof-unit"
ROLE = Qt.ItemDataRole.UserRole
# Initial-state flags offered as check boxes (SetupEntry.state is free text; these are the
# states the three rulebooks name: reduced/untried [TKG], column/mounted [GTS], immobile [SFN]).
STATE_FLAGS = ("reduced", "untried", "column", "mounted", "immobile", "disrupted", "fatigued")


def unit_mime(units: list[str]) -> QMimeData:
    md = QMimeData()
    md.setData(UNIT_MIME, "\n".join(units).encode())
    md.setText(" ".join(units))
    return md


def units_from(md: QMimeData) -> list[str]:
    if not md.hasFormat(UNIT_MIME):
        return []
    return [u for u in bytes(md.data(UNIT_MIME).data()).decode().split("\n") if u]


class OobTree(QTreeWidget):
    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.setHeaderLabels(["Unit", "Placed"])
        self.setColumnWidth(0, 200)
        self.setDragEnabled(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.currentItemChanged.connect(self._current_changed)

    def _current_changed(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        unit = item.data(0, ROLE) if item is not None else None
        if unit:  # side, division and formation rows carry no unit
            self.selection.choose_unit(unit)

    def mimeData(self, items: list[QTreeWidgetItem]) -> QMimeData:  # type: ignore[override]
        return unit_mime([u for it in items if (u := it.data(0, ROLE))])

    def mimeTypes(self) -> list[str]:
        return [UNIT_MIME]

    def selected_units(self) -> list[str]:
        return [u for it in self.selectedItems() if (u := it.data(0, ROLE))]

    def place_selected(self) -> PlacementDialog:
        """The placement dialog for the selected units (exact hex, in or adjacent, area, box, location)."""
        return open_placement(self.document, self.selection, self.selected_units(), parent=self)

    def contextMenuEvent(self, e: QContextMenuEvent) -> None:
        if not self.selected_units():
            return
        menu = QMenu(self)
        act = menu.addAction(f"Place {len(self.selected_units())} unit(s)…")
        act.setObjectName("oob-place")
        act.triggered.connect(self.place_selected)
        menu.exec(e.globalPos())

    def refresh(self) -> None:
        expanded = {self._path(it) for it in self._all() if it.isExpanded()}
        first = self.topLevelItemCount() == 0
        current = self.currentItem().data(0, ROLE) if self.currentItem() else None
        self.clear()
        scen = self.selection.resolved()
        placed = {e.unit: e for e in scen.setup} if scen else {}
        scheduled = {u: e for e in (scen.schedule if scen else []) for u in e.units}
        sides = {s.id: s.name for s in self.document.system.sides}
        tree: dict[str, dict[str, dict[str, list]]] = {}
        for c in self.document.bundle.counters:
            tree.setdefault(c.side, {}).setdefault(c.division or "(no division)", {}).setdefault(
                c.formation or "(no formation)", []).append(c)
        hmap = self.document.hmap

        def tally(units: list) -> str:
            # Set up (a setup entry that places it), of all: "0 of 15", never the bare count.
            placed_here = sum(1 for c in units if describe_place(hmap, placed.get(c.id)))
            return f"{placed_here} of {len(units)}"

        for side, divs in tree.items():
            side_units = [c for f in divs.values() for u in f.values() for c in u]
            top = QTreeWidgetItem([sides.get(side, side), tally(side_units)])
            top.setToolTip(1, "Units of this side set up in the scenario, of all its units")
            self.addTopLevelItem(top)
            for div, forms in divs.items():
                d_item = QTreeWidgetItem([div, tally([c for u in forms.values() for c in u])])
                top.addChild(d_item)
                for form, units in forms.items():
                    f_item = QTreeWidgetItem([form, tally(units)])
                    d_item.addChild(f_item)
                    for c in units:
                        where = describe_place(self.document.hmap, placed.get(c.id))
                        if not where and c.id in scheduled:
                            where = f"arrives turn {scheduled[c.id].turn}"
                        it = QTreeWidgetItem([f"{c.id} — {c.name}", where or "unplaced"])
                        it.setData(0, ROLE, c.id)
                        it.setToolTip(0, f"{c.name} ({c.category})")
                        if not where:
                            it.setForeground(1, QBrush(QColor("#9e9e9e")))
                        f_item.addChild(it)
                        if c.id == current:
                            self.setCurrentItem(it)
        for it in self._all():
            if first or self._path(it) in expanded:
                it.setExpanded(first and it.parent() is None or self._path(it) in expanded)

    def _all(self) -> list[QTreeWidgetItem]:
        out: list[QTreeWidgetItem] = []
        stack = [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        while stack:
            it = stack.pop()
            out.append(it)
            stack += [it.child(i) for i in range(it.childCount())]
        return out

    @staticmethod
    def _path(it: QTreeWidgetItem) -> str:
        parts = []
        while it is not None:
            parts.append(it.text(0))
            it = it.parent()
        return "/".join(reversed(parts))

    def item_for(self, unit: str) -> QTreeWidgetItem | None:
        return next((it for it in self._all() if it.data(0, ROLE) == unit), None)


class BoxList(QListWidget):
    """Off-map and holding boxes of the bundle; drop units here to set them up in a box."""

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)

    def refresh(self) -> None:
        self.clear()
        scen = self.selection.resolved()
        inside: dict[str, int] = {}
        for e in scen.setup if scen else []:
            if e.box:
                inside[e.box] = inside.get(e.box, 0) + 1
        for b in self.document.bundle.game.boxes:
            it = QListWidgetItem(f"{b.name} [{b.kind}] — {inside.get(b.id, 0)} unit(s)")
            it.setData(ROLE, b.id)
            it.setToolTip(f"{b.id}{f' ({b.rule})' if b.rule else ''}")
            self.addItem(it)

    def dragEnterEvent(self, e: QDragEnterEvent) -> None:
        if e.mimeData().hasFormat(UNIT_MIME):
            e.acceptProposedAction()

    def dragMoveEvent(self, e: QDragMoveEvent) -> None:
        if e.mimeData().hasFormat(UNIT_MIME):
            e.acceptProposedAction()

    def dropEvent(self, e: QDropEvent) -> None:
        it = self.itemAt(e.position().toPoint())
        units = units_from(e.mimeData())
        if it is not None and units:
            drop_units(self.document, self.selection.scenario_id, units, box=it.data(ROLE))
            e.acceptProposedAction()


class UnitPanel(QWidget):
    """The stack in the selected hex (expanded list) and the selected unit's preview and state flags."""

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.unit: str | None = None
        self.title = QLabel("Click a stack or a unit")
        self.title.setWordWrap(True)
        self.stack = QListWidget()
        self.stack.setMaximumHeight(90)
        self.stack.setDragEnabled(True)
        self.stack.currentItemChanged.connect(lambda it, _p: it is not None and self.show_unit(it.data(ROLE)))
        self.preview = CounterPreview(lambda: document.system)
        self.flags: dict[str, QCheckBox] = {}
        grid = QGridLayout()
        for i, flag in enumerate(STATE_FLAGS):
            box = QCheckBox(flag)
            box.toggled.connect(lambda on, f=flag: self._flag(f, on))
            grid.addWidget(box, i // 4, i % 4)
            self.flags[flag] = box
        self.place_button = QPushButton("Place…")
        self.place_button.setToolTip("Place this unit: exactly on a hex, in or adjacent to a hex, an area, a box "
                                     "or a named location")
        self.place_button.setEnabled(False)
        self.place_button.clicked.connect(self.place)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.title)
        lay.addWidget(self.stack)
        lay.addWidget(self.preview)
        lay.addLayout(grid)
        lay.addWidget(self.place_button)
        self._sync = False
        self.where: str | None = None  # the printed label of the stack shown, None when none is
        selection.unitChosen.connect(self.show_unit)
        selection.stackChosen.connect(self._stack_chosen)
        # Bound methods, so the connections go with this panel when a new document replaces it.
        selection.scenarioChanged.connect(self._on_change)
        document.changed.connect(self._on_change)

    def _on_change(self, _what: object) -> None:
        self.refresh()

    def _stack_chosen(self, h: Hex) -> None:
        self.show_stack(units_at(self.selection, h), self.document.hmap.label(h))

    def refresh(self) -> None:
        """Show the document as it is now (after an edit, an undo, another scenario): the
        selected stack's units again, and the shown unit only while the bundle still has it."""
        if self.selection.stack is not None and self.where is not None:
            keep = self.unit
            self.show_stack(units_at(self.selection, self.selection.stack), self.where, select=False)
            row = next((i for i in range(self.stack.count()) if self.stack.item(i).data(ROLE) == keep), -1)
            if row >= 0:
                self.stack.blockSignals(True)
                self.stack.setCurrentRow(row)
                self.stack.blockSignals(False)
        known = self.unit is not None and self.unit in self.document.bundle.counter_index()
        self.show_unit(self.unit if known else None)

    def show_stack(self, units: list[str], where: str, select: bool = True) -> None:
        self.where = where
        self.stack.blockSignals(True)
        self.stack.clear()
        self.stack.blockSignals(False)
        counters = self.document.bundle.counter_index()
        for u in units:
            c = counters.get(u)
            it = QListWidgetItem(f"{u} — {c.name if c else '?'}")
            it.setData(ROLE, u)
            self.stack.addItem(it)
        self.title.setText(f"{where}: {len(units)} unit(s)")
        if units and select:
            self.stack.setCurrentRow(0)

    def place(self) -> PlacementDialog | None:
        """The placement dialog for the shown unit, at its current hex if it has one."""
        if self.unit is None:
            return None
        scen = self.selection.resolved()
        entry = next((e for e in scen.setup if e.unit == self.unit), None) if scen is not None else None
        h = (entry.hex or entry.adjacent_to) if entry is not None else None
        return open_placement(self.document, self.selection, [self.unit], h, parent=self)

    def show_unit(self, unit: str | None) -> None:
        self.unit = unit
        self.place_button.setEnabled(unit is not None)
        c = self.document.bundle.counter_index().get(unit) if unit else None
        self.preview.set_counter(c)
        entry = self.selection.own_setup_entry(unit) if unit else None
        self._sync = True
        for flag, box in self.flags.items():
            box.setEnabled(entry is not None)
            box.setChecked(entry is not None and flag in entry.state)
        self._sync = False

    def _flag(self, flag: str, on: bool) -> None:
        if not self._sync and self.unit:
            set_unit_state(self.document, self.selection, self.unit, flag, on)
