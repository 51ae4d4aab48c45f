"""Reinforcement schedule dock: a per-turn table (turn, calendar label and date, kind, side,
units, event text, entry point, attachment, condition, note), add/remove rows, pick an entry
hex on the map, and a bar chart of arrivals per turn per side (plain QPainter: QtCharts is not
a dependency).

The turn column edits with a combo of the calendar's turn labels; the kind column with a combo
(reinforcement, withdrawal, event, drop…); the units column with a searchable
:class:`~editor.scenario.unit_picker.UnitPicker` over the counters (no free-text ids); the
entry column with a kind combo (hex, box, drop zone, beach, location, area, edge) plus a value
combo filled from the bundle (boxes, the scenario's zones, beaches and locations; a hex is
typed as its printed label), both sized to their contents. Every edit is one
ChangeScheduleEntry undo step. Complaints about an edit go out on ``status`` (the model's,
relayed by the panel)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDialogButtonBox, QFrame, QHBoxLayout, QPushButton,
                               QStyledItemDelegate, QStyleOptionViewItem, QTableView, QVBoxLayout, QWidget)

from editor.commands.scenario import AddScheduleEntry, ChangeScheduleEntry, RemoveScheduleEntry
from editor.scenario.unit_picker import UNKNOWN_COLOUR, UnitChoice, UnitPicker, UnitPickerDialog, unit_choices
from model import scenario_edits as se
from model.calendar import build_turns, resolve_turn
from model.hexes import Hex
from model.scenario import DropOrder, Entry, ScheduleEntry

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection

COLUMNS = ("turn", "label", "kind", "side", "units", "text", "entry", "attached_to", "condition", "note")
EDITABLE = {"turn", "kind", "side", "units", "text", "entry", "attached_to", "condition", "note"}
KINDS: tuple[str, ...] = ScheduleEntry.model_fields["kind"].annotation.__args__  # type: ignore[union-attr]
Index = QModelIndex | QPersistentModelIndex


def describe_entry(e: Entry | None, label: Any, drop: DropOrder | None = None) -> str:
    """The entry cell's text: the entry's places, then the drop order's zone and number."""
    parts = []
    for k in e.kinds() if e is not None else []:
        v = getattr(e, k)
        if k == "hex":
            v = label(v)
        elif k == "hexes":
            v = ", ".join(label(h) for h in v[:4]) + ("…" if len(v) > 4 else "")
        parts.append(f"{k.replace('_', ' ')} {v}")
    if drop is not None:
        parts.append(f"drop zone {drop.zone}" + (f" (drop {drop.drop_number})" if drop.drop_number else ""))
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

    def unknown_units(self, row: int) -> list[str]:
        """Ids of row ``row`` (units and drop sticks) that name no counter."""
        e = self.rows[row]
        known = self.document.bundle.counter_index()
        return [u for u in [*e.units, *(u for s in (e.drop.sticks if e.drop else []) for u in s)] if u not in known]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        col = COLUMNS[index.column()]
        if col == "units" and role in (Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.ToolTipRole):
            # An id that names no counter is flagged where it is shown (policy picker-keeps-unknown-ids).
            unknown = self.unknown_units(index.row())
            if not unknown:
                return None
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(QColor(UNKNOWN_COLOUR))
            return f"Not in the counters: {', '.join(unknown)}"
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return None
        e = self.rows[index.row()]
        if col == "label":
            n = resolve_turn(e.turn, getattr(self, "_turns", []))
            t = next((t for t in getattr(self, "_turns", []) if t.n == n), None)
            # The date is added unless the label already gives it ("GT 30 (01 Oct 1943)").
            dated = t is not None and t.date is not None and str(t.date.year) not in t.label
            return f"{t.label}{f' ({t.date})' if dated else ''}" if t else "?"
        if col == "units":
            units = list(e.units) + [u for s in (e.drop.sticks if e.drop else []) for u in s]
            return ", ".join(units)
        if col == "entry":
            return describe_entry(e.entry, self.document.hmap.label, e.drop)
        v = getattr(e, col)
        return "" if v is None else str(v)

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = super().flags(index)
        return f | Qt.ItemFlag.ItemIsEditable if COLUMNS[index.column()] in EDITABLE else f

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        col = COLUMNS[index.column()]
        if col == "entry":
            return self.set_entry(index.row(), *value) if isinstance(value, tuple) else False
        if col == "units":
            units = value if isinstance(value, list) else [u.strip() for u in str(value).split(",") if u.strip()]
            return self.set_units(index.row(), units)
        text = str(value).strip()
        v: Any = text or None
        if col == "turn":
            v = int(text) if text.lstrip("-").isdigit() else text
        return self._change(index.row(), **{col: v})

    def set_units(self, row: int, units: list[str]) -> bool:
        """Set row ``row``'s units. An id that names no counter is refused unless the row
        already holds it (policy picker-keeps-unknown-ids: a typo in the file is kept and
        flagged by the validators, never added by the editor)."""
        known = set(self.document.bundle.counter_index()) | set(self.rows[row].units)
        new = [u for u in units if u not in known]
        if new:
            self.status.emit(f"schedule: {', '.join(new)} is not a counter id; choose units from the list", 6000)
            return False
        if list(units) == list(self.rows[row].units):
            return True  # nothing changed: no undo step
        return self._change(row, units=list(dict.fromkeys(units)))

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
        if kinds:
            return kinds[0]
        if self.rows[row].drop is not None:
            return "drop_zone"
        return "box" if e is not None and e.box else "hex"

    def entry_value(self, row: int, kind: str) -> Any:
        """Row ``row``'s current value of entry kind ``kind`` (a drop zone is the drop order's)."""
        r = self.rows[row]
        if kind == "drop_zone" and r.drop is not None:
            return r.drop.zone
        return getattr(r.entry, kind, None) if r.entry is not None else None

    def set_entry(self, row: int, kind: str, value: Any, drop_number: str | None = None) -> bool:
        """Set one entry-point kind of row ``row`` (a hex as its printed label or a Hex); a drop
        zone goes into the row's drop order with ``drop_number`` (policy drop-zone-is-drop-order,
        model.scenario_edits.schedule_place_changes)."""
        if kind == "hex" and isinstance(value, str) and value.strip():
            try:
                value = self.document.hmap.parse(value.strip())
            except ValueError as exc:
                self.status.emit(f"schedule: {exc}", 6000)
                return False
        try:
            changes = se.schedule_place_changes(self.rows[row], kind, value, drop_number)
        except ValueError as exc:
            self.status.emit(f"schedule: {exc}", 6000)
            return False
        if all(getattr(self.rows[row], k) == v for k, v in changes.items()):
            return True  # nothing changed: no undo step
        return self._change(row, **changes)


class KindDelegate(QStyledItemDelegate):
    """The kind column: a combo of the schedule kinds."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        box = QComboBox(parent)
        box.addItems(list(KINDS))
        _fit(box)
        return box

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:
        _at_least_hint(editor, option)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole)))

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText())


class TurnDelegate(QStyledItemDelegate):
    """The turn column: a combo of the calendar's turns, shown by label ("0700 6 June").

    Writes the turn the way the row already has it (policy turn-keeps-form): a row whose turn
    is a number gets the number, one written as a label gets the label. A calendar with no
    turns falls back to the plain text editor."""

    def __init__(self, model: ScheduleModel) -> None:
        super().__init__()
        self.model = model

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        turns = self.model.turns()
        if not turns:
            return super().createEditor(parent, option, index)
        box = QComboBox(parent)
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for t in turns:
            box.addItem(t.label, t.n)
        return box

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if not isinstance(editor, QComboBox):
            return super().setEditorData(editor, index)
        n = resolve_turn(self.model.rows[index.row()].turn, self.model.turns())
        i = editor.findData(n)
        if i >= 0:
            editor.setCurrentIndex(i)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        if not isinstance(editor, QComboBox):
            return super().setModelData(editor, model, index)
        as_number = isinstance(self.model.rows[index.row()].turn, int)
        model.setData(index, str(editor.currentData()) if as_number else editor.currentText())

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:
        _at_least_hint(editor, option)


class UnitsEditor(QFrame):
    """The units cell's editor: a :class:`UnitPicker` (multi-select) with OK / Cancel, drawn
    over the rows below the cell like a drop-down (a table row is too short for a list)."""

    done = Signal(bool)  # True: commit the choice

    def __init__(self, parent: QWidget, choices: list[UnitChoice]) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.picker = UnitPicker(choices, multi=True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(lambda: self.done.emit(True))
        buttons.rejected.connect(lambda: self.done.emit(False))
        self.buttons = buttons
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.picker, 1)
        lay.addWidget(buttons)
        self.setFocusProxy(self.picker)


class UnitsDelegate(QStyledItemDelegate):
    """The units column: pick units from the counters (row's drop sticks are shown, edited in YAML)."""

    HEIGHT = 260

    def __init__(self, model: ScheduleModel) -> None:
        super().__init__()
        self.model = model

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        editor = UnitsEditor(parent, unit_choices(self.model.document.bundle, self.model.document.system))
        editor.done.connect(lambda ok: self._done(editor, ok))
        return editor

    def _done(self, editor: UnitsEditor, ok: bool) -> None:
        if ok:
            self.commitData.emit(editor)
        self.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, UnitsEditor)
        editor.picker.set_units(self.model.rows[index.row()].units)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        assert isinstance(editor, UnitsEditor)
        model.setData(index, editor.picker.units())

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:
        parent = editor.parentWidget()
        rect, room = option.rect, parent.rect() if parent is not None else option.rect
        width = max(rect.width(), 380)
        height = min(self.HEIGHT, max(room.height(), rect.height()))
        x = max(0, min(rect.x(), room.width() - width))
        y = max(0, min(rect.y(), room.height() - height))
        editor.setGeometry(x, y, width, height)


def _at_least_hint(editor: QWidget, option: QStyleOptionViewItem) -> None:
    """Put a cell editor on its cell, never narrower than it needs, whatever the column width."""
    rect = option.rect
    editor.setGeometry(rect.x(), rect.y(), max(rect.width(), editor.sizeHint().width()), rect.height())


def _fit(box: QComboBox) -> None:
    """Size a combo to its longest item: the finding was a 30 px entry combo showing "…"."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    longest = max((len(box.itemText(i)) for i in range(box.count())), default=0)
    box.setMinimumContentsLength(min(max(longest, 4), 48))


class EntryEditor(QWidget):
    """Entry-point kind + value (ids from the bundle; a hex label or an edge typed in), each
    combo as wide as its longest choice; for a drop zone also the drop number (the system's
    ``drop_numbers``, or typed), which goes into the row's drop order with the zone."""

    def __init__(self, parent: QWidget | None, model: ScheduleModel, row: int) -> None:
        super().__init__(parent)
        self.model, self.row = model, row
        self.kind = QComboBox()
        self.kind.setObjectName("entry-kind")
        self.kind.addItems(list(se.ENTRY_KINDS))
        _fit(self.kind)
        self.value = QComboBox()
        self.value.setObjectName("entry-value")
        self.value.setEditable(True)
        self.value.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.number = QComboBox()
        self.number.setObjectName("entry-drop-number")
        self.number.setEditable(True)
        self.number.setToolTip("drop number")
        self.number.addItem("")  # empty = no drop number
        self.number.addItems(se.drop_number_choices(model.document.bundle))
        _fit(self.number)
        self.number.setVisible(False)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.kind)
        lay.addWidget(self.value, 1)
        lay.addWidget(self.number)
        self.setAutoFillBackground(True)
        self.kind.currentTextChanged.connect(self._fill)

    def _fill(self, kind: str) -> None:
        doc, sel = self.model.document, self.model.selection
        self.value.clear()
        self.value.addItem("")  # empty = clear this kind
        self.value.addItems(se.entry_choices(doc.bundle, sel.resolved(), kind))
        _fit(self.value)
        here = self.row < len(self.model.rows)
        cur = self.model.entry_value(self.row, kind) if here else None
        if cur is not None:
            self.value.setCurrentText(doc.hmap.label(cur) if kind == "hex" else str(cur))
        self.number.setVisible(kind == "drop_zone")
        drop = self.model.rows[self.row].drop if here else None
        self.number.setCurrentText((drop.drop_number or "") if drop is not None else "")
        # The view sizes an open editor only when the table's geometry changes; a kind whose
        # values are longer than the cell must widen the editor now, not show "…" until then.
        # The drop number's combo shows or hides too, so lay the combos out now as well.
        if self.isVisible():
            if self.width() < self.sizeHint().width():
                self.resize(self.sizeHint().width(), self.height())
            self.layout().activate()

    def load(self) -> None:
        kind = self.model.entry_kind(self.row)
        self.kind.setCurrentText(kind)
        self._fill(kind)

    def result(self) -> tuple[str, ...]:
        """(kind, value), and the drop number after them for a drop zone."""
        kind = self.kind.currentText()
        if kind == "drop_zone":
            return kind, self.value.currentText().strip(), self.number.currentText().strip()
        return kind, self.value.currentText().strip()


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

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: Index) -> None:
        _at_least_hint(editor, option)


def entry_editor_width(model: ScheduleModel) -> int:
    """Width the entry editor needs with the widest choice of any kind (for the column)."""
    probe = EntryEditor(None, model, 0)
    widest = 0
    for kind in se.ENTRY_KINDS:
        probe.kind.setCurrentText(kind)
        probe._fill(kind)
        widest = max(widest, probe.sizeHint().width())
    probe.deleteLater()
    return widest


SIDE_FALLBACK = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a"]


@dataclass(frozen=True)
class LegendEntry:
    side: str    # side id as the schedule writes it ("?" for a row with no side)
    name: str    # the system's side name (the id itself when the system has no such side)
    colour: str


class ArrivalsChart(QWidget):
    """Units arriving per turn, stacked per side, with axes and a legend (plain QPainter).

    The chart counts **units** (each id in a row's ``units`` and its drop sticks), not steps:
    the schedule names units and a counter's steps are often ``unknown`` in the samples.
    Withdrawals and events bring no units (model.scenario_edits.arrivals_per_turn).
    What it draws is readable without pixels: :meth:`x_labels` (the calendar's turn labels,
    model/calendar.py), :attr:`y_title` and :meth:`legend` (side names from the system).
    """

    y_title = "units arriving"
    MARGIN_LEFT = 44
    MARGIN_TOP = 20
    MAX_BAR = 56

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.setObjectName("arrivals-chart")
        self.document, self.selection = document, selection
        self.data: dict[int, dict[str, int]] = {}
        self._labels: dict[int, str] = {}
        self.setMinimumHeight(190)

    def sizeHint(self) -> QSize:
        return QSize(520, 220)

    def refresh(self) -> None:
        scen = self.selection.resolved()
        turns = build_turns(self.document.system.calendar)
        self._labels = {t.n: t.label for t in turns}
        self.data = se.arrivals_per_turn(scen, turns) if scen else {}
        self.update()

    # --- what is drawn (tests read these) --------------------------------------------------

    def span(self) -> list[int]:
        """Turn numbers on the x axis: the first to the last turn with arrivals."""
        turns = sorted(t for t, row in self.data.items() if any(row.values()))
        return list(range(turns[0], turns[-1] + 1)) if turns else []

    def x_labels(self) -> list[str]:
        """One label per turn of :meth:`span`: the calendar's, else the turn number."""
        return [self._labels.get(t, str(t)) for t in self.span()]

    def x_title(self) -> str:
        return "turn"

    def legend(self) -> list[LegendEntry]:
        """The system's sides in its order, then any side a row names that the system lacks."""
        sides = self.document.system.sides
        out = [LegendEntry(s.id, s.name, s.color) for s in sides]
        extra = sorted({side for row in self.data.values() for side, n in row.items() if n} - {s.id for s in sides})
        out += [LegendEntry(x, x if x != "?" else "no side", SIDE_FALLBACK[(len(out) + k) % len(SIDE_FALLBACK)])
                for k, x in enumerate(extra)]
        return out

    @staticmethod
    def label_step(label_px: float, bar_px: float) -> int:
        """Label every n-th turn so slanted labels (``label_px`` apart at least) never overlap:
        the least n with n · ``bar_px`` ≥ ``label_px``."""
        step = max(1, math.ceil(label_px / max(bar_px, 1e-6)))
        while step > 1 and (step - 1) * bar_px >= label_px:  # float rounding in the division
            step -= 1
        return step

    # --- painting ------------------------------------------------------------------------------

    def paintEvent(self, _e: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#fafafa"))
        span = self.span()
        if not span:
            p.setPen(QColor("#616161"))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No arrivals scheduled")
            p.end()
            return
        font = QFont(self.font())
        font.setPixelSize(10)
        p.setFont(font)
        fm = QFontMetrics(font)
        labels = self.x_labels()
        legend = self.legend()
        top = max(sum(self.data.get(t, {}).values()) for t in span) or 1
        slant = 0.7071  # labels at 45°: their height is their width · sin 45°
        bottom = int(max(fm.horizontalAdvance(t) for t in labels) * slant + fm.height() * 2 + 6)
        top_m = self.MARGIN_TOP
        # The first slanted label reaches left of its tick: leave it room (its width · cos 45°,
        # less the half bar between the axis and the tick).
        first = fm.horizontalAdvance(labels[0]) * slant + fm.height()
        left = self.MARGIN_LEFT
        for _ in range(2):  # the half bar depends on the margin; two rounds settle it
            bw = max(1.0, (self.width() - left - 10) / len(span))
            left = max(self.MARGIN_LEFT, int(first - bw / 2))
        plot = QRectF(left, top_m, max(10, self.width() - left - 10), max(10, self.height() - top_m - bottom))
        bw = plot.width() / len(span)
        # y axis: ticks at 0, half and top, and its title, rotated.
        p.setPen(QPen(QColor("#616161")))
        p.drawLine(plot.bottomLeft(), plot.topLeft())
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        for value in sorted({0, top // 2, top}):
            y = plot.bottom() - plot.height() * value / top
            p.drawLine(int(plot.left()) - 3, int(y), int(plot.left()), int(y))
            p.drawText(QRectF(left - 30, y - 7, 25, 14), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       str(value))
        p.save()
        p.translate(10, plot.center().y())
        p.rotate(-90)
        p.drawText(QRectF(-plot.height() / 2 - 40, -8, plot.height() + 80, 14), Qt.AlignmentFlag.AlignCenter,
                   self.y_title)
        p.restore()
        # bars, stacked in legend order
        colours = {x.side: x.colour for x in legend}
        order = [x.side for x in legend]
        for i, t in enumerate(span):
            y = plot.bottom()
            row = self.data.get(t, {})
            for side in sorted(row, key=lambda x: order.index(x) if x in order else len(order)):
                bh = plot.height() * row[side] / top
                y -= bh
                bar = min(max(1.0, bw - 2), self.MAX_BAR)  # a lone turn is a bar, not a wall
                p.fillRect(QRectF(plot.left() + (i + 0.5) * bw - bar / 2, y, bar, bh),
                           QColor(colours.get(side, "#9e9e9e")))
        # x labels, slanted, thinned so they never overlap
        step = self.label_step(fm.height() * 1.2 / slant, bw)
        p.setPen(QColor("#424242"))
        for i, (t, text) in enumerate(zip(span, labels)):
            if i % step:
                continue
            x = plot.left() + (i + 0.5) * bw
            p.drawLine(int(x), int(plot.bottom()), int(x), int(plot.bottom()) + 3)
            p.save()
            p.translate(x, plot.bottom() + 6)
            p.rotate(-45)
            width = fm.horizontalAdvance(text)
            p.drawText(QRectF(-width - 2, -fm.height() / 2, width + 2, fm.height()),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
            p.restore()
        p.drawText(QRectF(plot.left(), self.height() - fm.height() - 2, plot.width(), fm.height()),
                   Qt.AlignmentFlag.AlignCenter, self.x_title())
        # legend, top right
        x = self.width() - 10
        for entry in reversed(legend):
            width = fm.horizontalAdvance(entry.name)
            x -= width + 18
            p.fillRect(QRectF(x, 5, 10, 10), QColor(entry.colour))
            p.setPen(QColor("#212121"))
            p.drawText(QRectF(x + 13, 3, width + 4, 14), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       entry.name)
            x -= 8
        p.end()


class SchedulePanel(QWidget):
    status = Signal(str, int)  # prompts and refused edits, for the status bar

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self.model = ScheduleModel(document, selection)
        self.model.status.connect(self.status)
        self._reload_pending = False  # a model reset waiting for a cell editor's commit to end
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        self.kind_delegate = KindDelegate()
        self.turn_delegate = TurnDelegate(self.model)
        self.units_delegate = UnitsDelegate(self.model)
        self.entry_delegate = EntryDelegate(self.model)
        self.table.setItemDelegateForColumn(COLUMNS.index("turn"), self.turn_delegate)
        self.table.setItemDelegateForColumn(COLUMNS.index("kind"), self.kind_delegate)
        self.table.setItemDelegateForColumn(COLUMNS.index("units"), self.units_delegate)
        self.table.setItemDelegateForColumn(COLUMNS.index("entry"), self.entry_delegate)
        self.chart = ArrivalsChart(document, selection)
        self._fitted_for: str | None = None  # the scenario whose columns were fitted
        self._entry_key: tuple[tuple[str, ...], ...] | None = None
        self._entry_width = 0
        add = QPushButton("Add row")
        rem = QPushButton("Remove row")
        units = QPushButton("Choose units…")
        units.setToolTip("Pick the row's units from the counters (search by id, designation or side)")
        pick = QPushButton("Pick entry hex…")
        add.clicked.connect(self.add_row)
        rem.clicked.connect(self.remove_row)
        units.clicked.connect(self.choose_units)
        pick.clicked.connect(self.pick_entry)
        row = QHBoxLayout()
        for b in (add, rem, units, pick):
            row.addWidget(b)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addWidget(self.table, 3)
        lay.addWidget(self.chart, 1)

    def refresh(self) -> None:
        if self.table.state() == QAbstractItemView.State.EditingState:
            # A cell editor is committing (its edit is what changed the document): resetting
            # the model now releases that editor under the view's commit, and Qt warns
            # "commitData called with an editor that does not belong to this view". The rows
            # are read live from the scenario; the reset follows once the commit is over.
            if not self._reload_pending:
                self._reload_pending = True
                QTimer.singleShot(0, self, self._deferred_refresh)  # not after the panel is gone
            self.chart.refresh()
            return
        self.model.reload()
        self.chart.refresh()
        # Columns fit their text when a scenario is first shown; after that the user's widths
        # stay (an edit does not re-fit them), but the entry column never gets narrower than
        # its editor's combos need (policy columns-fit-on-open).
        if self._fitted_for != self.selection.scenario_id:
            self._fitted_for = self.selection.scenario_id
            self.fit_columns()
        else:
            self._fit_entry_column()

    def _deferred_refresh(self) -> None:
        self._reload_pending = False
        self.refresh()

    def fit_columns(self) -> None:
        """Columns as wide as their text; the entry column also fits its editor's combos."""
        for c, name in enumerate(COLUMNS):
            if name not in ("text", "note", "condition"):  # long prose: the user drags those
                self.table.resizeColumnToContents(c)
        self._fit_entry_column()

    def _fit_entry_column(self) -> None:
        scen = self.selection.resolved()
        key = tuple(tuple(se.entry_choices(self.document.bundle, scen, k)) for k in se.ENTRY_KINDS)
        if key != self._entry_key:  # building the probe editor costs ~5 ms: only when choices change
            self._entry_key, self._entry_width = key, entry_editor_width(self.model)
        col = COLUMNS.index("entry")
        # A cell is one grid line narrower than its column (QTableView::visualRect), and the
        # editor sits on the cell: without the line the widest kind's editor was 1 px short.
        width = self._entry_width + (1 if self.table.showGrid() else 0)
        if self.table.columnWidth(col) < width:
            self.table.setColumnWidth(col, width)

    def choose_units(self, row: int | None = None) -> UnitPickerDialog | None:
        """Open the unit picker for row ``row`` (default: the current row); OK sets its units
        (one undo step). Returns the dialog (shown, not modal-blocking)."""
        r = self.current_row() if row is None else row
        if r is None or r >= len(self.model.rows):
            self.status.emit("Select a schedule row first", 4000)
            return None
        dlg = UnitPickerDialog(unit_choices(self.document.bundle, self.document.system), self.model.rows[r].units,
                               title=f"Units arriving, row {r + 1}", parent=self)
        dlg.accepted.connect(lambda: self.model.set_units(r, dlg.picker.units()))
        dlg.finished.connect(dlg.deleteLater)
        dlg.open()
        return dlg

    def current_row(self) -> int | None:
        i = self.table.currentIndex()
        return i.row() if i.isValid() else None

    def add_row(self) -> None:
        scen = self.selection.resolved()
        first = scen.turns.first if scen is not None and scen.turns is not None else 1
        sides = self.document.system.sides
        entry = ScheduleEntry(turn=first, side=sides[0].id if sides else None)
        self.document.push(AddScheduleEntry(self.document, self.selection.scenario_id or "", entry))
        self.table.selectRow(len(self.model.rows) - 1)

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
