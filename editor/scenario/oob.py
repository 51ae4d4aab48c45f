"""Setup docks: the order-of-battle tree (side → division → formation → unit, with each
unit's place in the current scenario), the off-map boxes as drop targets, and the stack /
initial-state panel for the selected hex or unit.

Drags carry unit ids as ``application/x-hexproof-unit``; every drop ends in
:meth:`ScenarioMode.drop_unit`, the one code path tests and benchmarks call too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QBrush, QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QGridLayout, QLabel, QListWidget, QListWidgetItem,
                               QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from editor.scenario.counter_preview import CounterPreview

if TYPE_CHECKING:
    from editor.scenario.mode import ScenarioMode

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
    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode
        self.setHeaderLabels(["Unit", "Placed"])
        self.setColumnWidth(0, 200)
        self.setDragEnabled(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)

    def mimeData(self, items: list[QTreeWidgetItem]) -> QMimeData:  # type: ignore[override]
        return unit_mime([u for it in items if (u := it.data(0, ROLE))])

    def mimeTypes(self) -> list[str]:
        return [UNIT_MIME]

    def selected_units(self) -> list[str]:
        return [u for it in self.selectedItems() if (u := it.data(0, ROLE))]

    def refresh(self) -> None:
        mode = self.mode
        expanded = {self._path(it) for it in self._all() if it.isExpanded()}
        first = self.topLevelItemCount() == 0
        current = self.currentItem().data(0, ROLE) if self.currentItem() else None
        self.clear()
        scen = mode.resolved()
        placed = {e.unit: e for e in scen.setup} if scen else {}
        scheduled = {u: e for e in (scen.schedule if scen else []) for u in e.units}
        sides = {s.id: s.name for s in mode.system.sides}
        tree: dict[str, dict[str, dict[str, list]]] = {}
        for c in mode.doc.bundle.counters:
            tree.setdefault(c.side, {}).setdefault(c.division or "(no division)", {}).setdefault(
                c.formation or "(no formation)", []).append(c)
        for side, divs in tree.items():
            n_side = sum(len(u) for f in divs.values() for u in f.values())
            top = QTreeWidgetItem([sides.get(side, side), f"{n_side}"])
            self.addTopLevelItem(top)
            for div, forms in divs.items():
                d_item = QTreeWidgetItem([div, ""])
                top.addChild(d_item)
                for form, units in forms.items():
                    f_item = QTreeWidgetItem([form, ""])
                    d_item.addChild(f_item)
                    for c in units:
                        where = mode.describe_place(placed.get(c.id))
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

    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)

    def refresh(self) -> None:
        self.clear()
        scen = self.mode.resolved()
        inside: dict[str, int] = {}
        for e in scen.setup if scen else []:
            if e.box:
                inside[e.box] = inside.get(e.box, 0) + 1
        for b in self.mode.doc.bundle.game.boxes:
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
            self.mode.drop_unit(units, box=it.data(ROLE))
            e.acceptProposedAction()


class UnitPanel(QWidget):
    """The stack in the selected hex (expanded list) and the selected unit's preview and state flags."""

    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode
        self.unit: str | None = None
        self.title = QLabel("Click a stack or a unit")
        self.title.setWordWrap(True)
        self.stack = QListWidget()
        self.stack.setMaximumHeight(90)
        self.stack.setDragEnabled(True)
        self.stack.currentItemChanged.connect(lambda it, _p: it is not None and self.show_unit(it.data(ROLE)))
        self.preview = CounterPreview(lambda: mode.system)
        self.flags: dict[str, QCheckBox] = {}
        grid = QGridLayout()
        for i, flag in enumerate(STATE_FLAGS):
            box = QCheckBox(flag)
            box.toggled.connect(lambda on, f=flag: self._flag(f, on))
            grid.addWidget(box, i // 4, i % 4)
            self.flags[flag] = box
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.title)
        lay.addWidget(self.stack)
        lay.addWidget(self.preview)
        lay.addLayout(grid)
        self._sync = False

    def show_stack(self, units: list[str], where: str) -> None:
        self.stack.clear()
        for u in units:
            c = self.mode.counters().get(u)
            it = QListWidgetItem(f"{u} — {c.name if c else '?'}")
            it.setData(ROLE, u)
            self.stack.addItem(it)
        self.title.setText(f"{where}: {len(units)} unit(s)")
        if units:
            self.stack.setCurrentRow(0)

    def show_unit(self, unit: str | None) -> None:
        self.unit = unit
        c = self.mode.counters().get(unit) if unit else None
        self.preview.set_counter(c)
        entry = self.mode.own_setup_entry(unit) if unit else None
        self._sync = True
        for flag, box in self.flags.items():
            box.setEnabled(entry is not None)
            box.setChecked(entry is not None and flag in entry.state)
        self._sync = False

    def _flag(self, flag: str, on: bool) -> None:
        if not self._sync and self.unit:
            self.mode.set_state(self.unit, flag, on)
