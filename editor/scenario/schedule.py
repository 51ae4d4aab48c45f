"""Reinforcement schedule dock: a per-turn table (turn, calendar label and date, kind, side,
units, entry point, attachment, condition, note), add/remove rows, pick an entry hex on the
map, and a bar chart of arrivals per turn per side (plain QPainter)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTableView, QVBoxLayout, QWidget

from editor.commands.scenario import AddScheduleEntry, ChangeScheduleEntry, RemoveScheduleEntry
from model import scenario_edits as se
from model.calendar import build_turns, resolve_turn
from model.hexes import Hex
from model.scenario import Entry, ScheduleEntry

if TYPE_CHECKING:
    from editor.scenario.mode import ScenarioMode

COLUMNS = ("turn", "label", "kind", "side", "units", "entry", "attached_to", "condition", "note")
EDITABLE = {"turn", "kind", "side", "units", "attached_to", "condition", "note"}
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
    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode

    def turns(self) -> list[Any]:
        return build_turns(self.mode.system.calendar)

    @property
    def rows(self) -> list[ScheduleEntry]:
        sid = self.mode.scenario_id
        return self.mode.doc.bundle.scenarios[sid].schedule if sid and self.mode.window.doc else []

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
            return ", ".join(units) or (e.text or "")
        if col == "entry":
            text = describe_entry(e.entry, self.mode.hmap.label)
            return text or (f"drop zone {e.drop.zone}" if e.drop else "")
        v = getattr(e, col)
        return "" if v is None else str(v)

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = super().flags(index)
        return f | Qt.ItemFlag.ItemIsEditable if COLUMNS[index.column()] in EDITABLE else f

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        col = COLUMNS[index.column()]
        text = str(value).strip()
        v: Any = [u.strip() for u in text.split(",") if u.strip()] if col == "units" else (text or None)
        if col == "turn":
            v = int(text) if text.lstrip("-").isdigit() else text
        try:
            self.mode.doc.push(ChangeScheduleEntry(self.mode.doc, self.mode.scenario_id or "", index.row(), **{col: v}))
        except ValueError as exc:
            self.mode.window.statusBar().showMessage(f"schedule: {exc}", 6000)
            return False
        return True


SIDE_FALLBACK = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a"]


class ArrivalsChart(QWidget):
    """Units arriving per turn, one bar per side (stacked), from model.scenario_edits."""

    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode
        self.data: dict[int, dict[str, int]] = {}
        self.setMinimumHeight(110)

    def sizeHint(self) -> QSize:
        return QSize(400, 130)

    def refresh(self) -> None:
        scen = self.mode.resolved()
        self.data = se.arrivals_per_turn(scen, build_turns(self.mode.system.calendar)) if scen else {}
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
        colours = {s.id: s.color for s in self.mode.system.sides}
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
    def __init__(self, mode: "ScenarioMode") -> None:
        super().__init__()
        self.mode = mode
        self.model = ScheduleModel(mode)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        self.chart = ArrivalsChart(mode)
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
        scen = self.mode.resolved()
        first = scen.turns.first if scen is not None and scen.turns is not None else 1
        sides = self.mode.system.sides
        entry = ScheduleEntry(turn=first, side=sides[0].id if sides else None)
        self.mode.doc.push(AddScheduleEntry(self.mode.doc, self.mode.scenario_id or "", entry))

    def remove_row(self) -> None:
        r = self.current_row()
        if r is not None:
            self.mode.doc.push(RemoveScheduleEntry(self.mode.doc, self.mode.scenario_id or "", r))

    def pick_entry(self) -> None:
        r = self.current_row()
        if r is None:
            return
        self.mode.window.statusBar().showMessage("Click the entry hex on the map", 5000)
        self.mode.tools["setup"].pick = lambda h: self.set_entry_hex(r, h)

    def set_entry_hex(self, row: int, h: Hex) -> None:
        self.mode.doc.push(ChangeScheduleEntry(self.mode.doc, self.mode.scenario_id or "", row, entry=Entry(hex=h)))

    def select_turn(self, turn: int) -> None:
        turns = build_turns(self.mode.system.calendar)
        for r, e in enumerate(self.model.rows):
            if resolve_turn(e.turn, turns) == turn:
                self.table.selectRow(r)
                return
