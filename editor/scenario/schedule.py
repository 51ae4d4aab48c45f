"""Reinforcement schedule dock: a per-turn table (turn, calendar label and date, kind, side,
units, event text, entry point, attachment, condition, note), add/remove rows, pick an entry
hex on the map, and a bar chart of arrivals per turn per side (plain QPainter).

The kind column edits with a combo (reinforcement, withdrawal, event, drop…); the entry column
with a kind combo (hex, box, drop zone, beach, location, area, edge) plus a value combo filled
from the bundle (boxes, the scenario's zones, beaches and locations; a hex is typed as its
printed label). Every edit is one ChangeScheduleEntry undo step. Complaints about an edit go
out on ``status`` (the model's, relayed by the panel)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QPushButton, QStyledItemDelegate, QStyleOptionViewItem,
                               QTableView, QVBoxLayout, QWidget)

from editor.commands.scenario import AddScheduleEntry, ChangeScheduleEntry, RemoveScheduleEntry
from model import scenario_edits as se
from model.calendar import build_turns, resolve_turn
from model.hexes import Hex
from model.scenario import Entry, ScheduleEntry

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection

COLUMNS = ("turn", "label", "kind", "side", "units", "text", "entry", "attached_to", "condition", "note")
EDITABLE = {"turn", "kind", "side", "units", "text", "entry", "attached_to", "condition", "note"}
KINDS: tuple[str, ...] = ScheduleEntry.model_fields["kind"].annotation.__args__  # type: ignore[union-attr]
Index = QModelIndex | QPersistentModelIndex


def describe_entry(e: Entry | None, label: Any) -> str:
    if e is None:
        return ""
    parts = []
    for k in e.kinds():
        v = getattr(e, k)
        if k == "hex":
            v = label(v)
        elif k == "hexes":
            v = ", ".join(label(h) for h in v[:4]) + ("…" if len(v) > 4 else "")
        parts.append(f"{k.replace('_', ' ')} {v}")
    return "; ".join(parts)


class ScheduleModel(QAbstractTableModel):
    status = Signal(str, int)  # why an edit was refused, for the status bar

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection

    def turns(self) -> list[Any]:
        return build_turns(self.document.system.calendar)

    @property
    def rows(self) -> list[ScheduleEntry]:
        scen = self.selection.scenario()
        return scen.schedule if scen is not None else []

    def reload(self) -> None:
        self.beginResetModel()
        self._turns = self.turns()
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section].replace("_", " ")
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return None
        e = self.rows[index.row()]
        col = COLUMNS[index.column()]
        if col == "label":
            n = resolve_turn(e.turn, getattr(self, "_turns", []))
            t = next((t for t in getattr(self, "_turns", []) if t.n == n), None)
            return f"{t.label}{f' ({t.date})' if t is not None and t.date and str(t.date) not in t.label else ''}" if t else "?"
        if col == "units":
            units = list(e.units) + [u for s in (e.drop.sticks if e.drop else []) for u in s]
            return ", ".join(units)
        if col == "entry":
            text = describe_entry(e.entry, self.document.hmap.label)
            return text or (f"drop zone {e.drop.zone}" if e.drop else "")
        v = getattr(e, col)
        return "" if v is None else str(v)

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = super().flags(index)
        return f | Qt.ItemFlag.ItemIsEditable if COLUMNS[index.column()] in EDITABLE else f

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        col = COLUMNS[index.column()]
        if col == "entry":
            return self.set_entry(index.row(), *value) if isinstance(value, tuple) else False
        text = str(value).strip()
        v: Any = [u.strip() for u in text.split(",") if u.strip()] if col == "units" else (text or None)
        if col == "turn":
            v = int(text) if text.lstrip("-").isdigit() else text
        return self._change(index.row(), **{col: v})

    def _change(self, row: int, **changes: Any) -> bool:
        try:
            se.changed_schedule_entry(self.rows[row], **changes)  # invalid → no undo step pushed
            self.document.push(ChangeScheduleEntry(self.document, self.selection.scenario_id or "", row, **changes))
        except ValueError as exc:
            self.status.emit(f"schedule: {exc}", 6000)
            return False
        return True

    def entry_kind(self, row: int) -> str:
        e = self.rows[row].entry
        kinds = [k for k in (e.kinds() if e is not None else []) if k in se.ENTRY_KINDS and k != "box"]
        return kinds[0] if kinds else ("box" if e is not None and e.box else "hex")

    def set_entry(self, row: int, kind: str, value: Any) -> bool:
        """Set one entry-point kind of row ``row`` (a hex as its printed label or a Hex)."""
        if kind == "hex" and isinstance(value, str) and value.strip():
            try:
                value = self.document.hmap.parse(value.strip())
            except ValueError as exc:
                self.status.emit(f"schedule: {exc}", 6000)
                return False
        try:
            entry = se.with_entry_place(self.rows[row].entry, kind, value)
        except ValueError as exc:
            self.status.emit(f"schedule: {exc}", 6000)
            return False
        return self._change(row, entry=entry)


class KindDelegate(QStyledItemDelegate):
    """The kind column: a combo of the schedule kinds."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        box = QComboBox(parent)
        box.addItems(list(KINDS))
        return box

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole)))

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText())


class EntryEditor(QWidget):
    """Entry-point kind + value (ids from the bundle; a hex label or an edge typed in)."""

    def __init__(self, parent: QWidget, model: ScheduleModel, row: int) -> None:
        super().__init__(parent)
        self.model, self.row = model, row
        self.kind = QComboBox()
        self.kind.addItems(list(se.ENTRY_KINDS))
        self.value = QComboBox()
        self.value.setEditable(True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.kind)
        lay.addWidget(self.value, 1)
        self.setAutoFillBackground(True)
        self.kind.currentTextChanged.connect(self._fill)

    def _fill(self, kind: str) -> None:
        doc, sel = self.model.document, self.model.selection
        self.value.clear()
        self.value.addItem("")  # empty = clear this kind
        self.value.addItems(se.entry_choices(doc.bundle, sel.resolved(), kind))
        e = self.model.rows[self.row].entry if self.row < len(self.model.rows) else None
        cur = getattr(e, kind, None) if e is not None else None
        if cur is not None:
            self.value.setCurrentText(doc.hmap.label(cur) if kind == "hex" else str(cur))

    def load(self) -> None:
        kind = self.model.entry_kind(self.row)
        self.kind.setCurrentText(kind)
        self._fill(kind)

    def result(self) -> tuple[str, str]:
        return self.kind.currentText(), self.value.currentText().strip()


class EntryDelegate(QStyledItemDelegate):
    def __init__(self, model: ScheduleModel) -> None:
        super().__init__()
        self.model = model

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        return EntryEditor(parent, self.model, index.row())

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, EntryEditor)
        editor.load()

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        assert isinstance(editor, EntryEditor)
        model.setData(index, editor.result())


SIDE_FALLBACK = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a"]


class ArrivalsChart(QWidget):
    """Units arriving per turn, one bar per side (stacked), from model.scenario_edits."""

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.data: dict[int, dict[str, int]] = {}
        self.setMinimumHeight(110)

    def sizeHint(self) -> QSize:
        return QSize(400, 130)

    def refresh(self) -> None:
        scen = self.selection.resolved()
        self.data = se.arrivals_per_turn(scen, build_turns(self.document.system.calendar)) if scen else {}
        self.update()

    def paintEvent(self, _e: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#fafafa"))
        turns = sorted(t for t, row in self.data.items() if row) or []
        if not turns:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No arrivals scheduled")
            p.end()
            return
        lo, hi = turns[0], turns[-1]
        span = list(range(lo, hi + 1))
        top = max(sum(self.data.get(t, {}).values()) for t in span) or 1
        colours = {s.id: s.color for s in self.document.system.sides}
        w, h = self.width() - 30, self.height() - 28
        bw = w / len(span)
        font = QFont()
        font.setPixelSize(9)
        p.setFont(font)
        p.setPen(QPen(QColor("#616161")))
        p.drawText(QRectF(0, 0, 28, 12), Qt.AlignmentFlag.AlignLeft, str(top))
        for i, t in enumerate(span):
            y = 8 + h
            for k, (side, n) in enumerate(sorted(self.data.get(t, {}).items())):
                bh = h * n / top
                y -= bh
                p.fillRect(QRectF(26 + i * bw + 1, y, max(1.0, bw - 2), bh),
                           QColor(colours.get(side, SIDE_FALLBACK[k % len(SIDE_FALLBACK)])))
            if len(span) <= 30 or i % max(1, len(span) // 15) == 0:
                p.setPen(QColor("#424242"))
                p.drawText(QRectF(26 + i * bw - 10, 10 + h, bw + 20, 14), Qt.AlignmentFlag.AlignCenter, str(t))
        p.end()


class SchedulePanel(QWidget):
    status = Signal(str, int)  # prompts and refused edits, for the status bar

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.model = ScheduleModel(document, selection)
        self.model.status.connect(self.status)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        self.kind_delegate = KindDelegate()
        self.entry_delegate = EntryDelegate(self.model)
        self.table.setItemDelegateForColumn(COLUMNS.index("kind"), self.kind_delegate)
        self.table.setItemDelegateForColumn(COLUMNS.index("entry"), self.entry_delegate)
        self.chart = ArrivalsChart(document, selection)
        add = QPushButton("Add row")
        rem = QPushButton("Remove row")
        pick = QPushButton("Pick entry hex…")
        add.clicked.connect(self.add_row)
        rem.clicked.connect(self.remove_row)
        pick.clicked.connect(self.pick_entry)
        row = QHBoxLayout()
        for b in (add, rem, pick):
            row.addWidget(b)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addWidget(self.table, 3)
        lay.addWidget(self.chart, 1)

    def refresh(self) -> None:
        self.model.reload()
        self.chart.refresh()

    def current_row(self) -> int | None:
        i = self.table.currentIndex()
        return i.row() if i.isValid() else None

    def add_row(self) -> None:
        scen = self.selection.resolved()
        first = scen.turns.first if scen is not None and scen.turns is not None else 1
        sides = self.document.system.sides
        entry = ScheduleEntry(turn=first, side=sides[0].id if sides else None)
        self.document.push(AddScheduleEntry(self.document, self.selection.scenario_id or "", entry))

    def remove_row(self) -> None:
        r = self.current_row()
        if r is not None:
            self.document.push(RemoveScheduleEntry(self.document, self.selection.scenario_id or "", r))

    def pick_entry(self) -> None:
        r = self.current_row()
        if r is None:
            return
        self.status.emit("Click the entry hex on the map", 5000)
        self.selection.ask_for_hex(lambda h: self.set_entry_hex(r, h))

    def set_entry_hex(self, row: int, h: Hex) -> None:
        self.model.set_entry(row, "hex", h)

    def select_turn(self, turn: int) -> None:
        turns = build_turns(self.document.system.calendar)
        for r, e in enumerate(self.model.rows):
            if resolve_turn(e.turn, turns) == turn:
                self.table.selectRow(r)
                return
