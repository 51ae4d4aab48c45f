"""Counter manifest dock: every counter (both sides) in a QAbstractTableModel, filters by
side, division, formation and type, undoable cell edits (ChangeProperty for identity fields,
SetCounterValue for printed values), CSV export and import with a column-mapping dialog and
a report of rejected rows (model/formats/counter_table.py does the parsing). It needs only the
document (counters are not per scenario); refused cell edits go out on ``status``, the import
report and read errors on ``report`` (a message box for the window)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QMessageBox, QPushButton, QTableView, QVBoxLayout, QWidget)

from editor.commands.property import ChangeProperty
from editor.commands.scenario import ImportCounters, SetCounterValue
from editor.scenario.counter_preview import CounterPreview
from model.changes import PropertyChanged
from model.formats.counter_table import IDENTITY, TRAILER, ImportResult, export_csv, import_csv
from model.counters import Counter

if TYPE_CHECKING:
    from editor.document import MapDocument

EDITABLE = ("name", "side", "category", "nationality", "division", "formation", "battalion", "size",
            "movement_class", "steps", "count", "note")
FILTERS = ("side", "division", "formation", "category")
Index = QModelIndex | QPersistentModelIndex


class CounterTableModel(QAbstractTableModel):
    status = Signal(str, int)  # why a cell edit was refused, for the status bar

    def __init__(self, document: "MapDocument") -> None:
        super().__init__()
        self.document = document
        self.columns: list[str] = []
        self.reload()

    def reload(self) -> None:
        self.beginResetModel()
        fields = [f.id for f in self.document.system.counter_fields]
        seen = {k for c in self.rows for s in (c.front, c.back) if s is not None for k in s.values}
        vals = fields + sorted(seen - set(fields))
        self.columns = ["id", "name", "side", "category", "division", "formation", "steps"] + \
            [f"front.{k}" for k in vals] + [f"back.{k}" for k in vals]
        self.endResetModel()

    @property
    def rows(self) -> list[Counter]:
        return self.document.bundle.counters

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.columns[section]
        return None

    def value(self, c: Counter, col: str) -> Any:
        if col.startswith(("front.", "back.")):
            side, key = col.split(".", 1)
            s = getattr(c, side)
            return None if s is None else s.values.get(key)
        return getattr(c, col)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c = self.rows[index.row()]
        col = self.columns[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            v = self.value(c, col)
            return "" if v is None else str(v)
        if role == Qt.ItemDataRole.UserRole:
            return c
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = super().flags(index)
        col = self.columns[index.column()]
        c = self.rows[index.row()]
        if col in EDITABLE or col.startswith("front.") or (col.startswith("back.") and c.back is not None):
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        c = self.rows[index.row()]
        col = self.columns[index.column()]
        text = str(value).strip()
        doc = self.document
        try:
            if col.startswith(("front.", "back.")):
                side, key = col.split(".", 1)
                v: Any = int(text) if text.lstrip("-").isdigit() else (text or None)
                doc.push(SetCounterValue(doc, c, side, key, v))
            else:
                v = (int(text) if col in ("steps", "count") and text else (text or None))
                if v == getattr(c, col):
                    return False
                doc.push(ChangeProperty(doc, c, col, v, event=PropertyChanged(None, "Counter", col)))
        except (ValueError, TypeError) as exc:
            self.status.emit(f"{c.id}.{col}: {exc}", 6000)
            return False
        return True


class CounterFilter(QSortFilterProxyModel):
    def __init__(self) -> None:
        super().__init__()
        self.wanted: dict[str, str] = {}

    def set_filter(self, field: str, value: str | None) -> None:
        if value:
            self.wanted[field] = value
        else:
            self.wanted.pop(field, None)
        # begin/endFilterChange replace the deprecated invalidateFilter() (Qt 6.9+).
        self.beginFilterChange()
        self.endFilterChange()

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:
        model = self.sourceModel()
        c = model.rows[row]  # type: ignore[attr-defined]
        return all((getattr(c, f) or "") == v for f, v in self.wanted.items())


class ColumnMappingDialog(QDialog):
    """Their header → our column, guessed by name; unmapped columns are ignored on import."""

    def __init__(self, header: list[str], ours: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Map CSV columns")
        form = QFormLayout(self)
        self.boxes: dict[str, QComboBox] = {}
        for h in header:
            box = QComboBox()
            box.addItem("(ignore)", "")
            for o in ours:
                box.addItem(o, o)
            guess = h.strip().lower().replace(" ", "_")
            i = box.findData(guess)
            box.setCurrentIndex(i if i >= 0 else 0)
            form.addRow(h, box)
            self.boxes[h] = box
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def mapping(self) -> dict[str, str]:
        return {h: (b.currentData() or f"__ignored__{h}") for h, b in self.boxes.items()}


class CounterPanel(QWidget):
    status = Signal(str, int)  # refused cell edits
    report = Signal(object, str, str, object)  # QMessageBox.Icon, title, text, details (str | None)

    def __init__(self, document: "MapDocument") -> None:
        super().__init__()
        self.document = document
        self.model: CounterTableModel | None = None
        self.proxy = CounterFilter()
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setVisible(False)
        self.filters: dict[str, QComboBox] = {}
        row = QHBoxLayout()
        for f in FILTERS:
            box = QComboBox()
            box.currentIndexChanged.connect(lambda _i, f=f, b=box: self.proxy.set_filter(f, b.currentData()))
            row.addWidget(box)
            self.filters[f] = box
        self.export_btn = QPushButton("Export CSV…")
        self.import_btn = QPushButton("Import CSV…")
        self.export_btn.clicked.connect(lambda: self.export_to())
        self.import_btn.clicked.connect(lambda: self.import_from())
        row.addWidget(self.export_btn)
        row.addWidget(self.import_btn)
        self.preview: CounterPreview | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        self.last_import: ImportResult | None = None

    def refresh(self) -> None:
        if self.model is None:
            self.model = CounterTableModel(self.document)
            self.model.status.connect(self.status)
            self.proxy.setSourceModel(self.model)
            if self.preview is None:
                self.preview = CounterPreview(lambda: self.document.system)
                self.layout().addWidget(self.preview)  # type: ignore[union-attr]
                self.table.selectionModel().currentRowChanged.connect(self._current)
        else:
            self.model.reload()
        counters = self.document.bundle.counters
        for f, box in self.filters.items():
            cur = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(f"any {f}", None)
            for v in sorted({getattr(c, f) for c in counters if getattr(c, f)}):
                box.addItem(v, v)
            i = box.findData(cur)
            box.setCurrentIndex(max(0, i))
            box.blockSignals(False)

    def _current(self, index: QModelIndex, _prev: QModelIndex) -> None:
        if self.preview is not None and index.isValid():
            self.preview.set_counter(self.proxy.data(index, Qt.ItemDataRole.UserRole))

    def export_to(self, path: str | None = None) -> str:
        text = export_csv(self.document.bundle.counters, self.document.system)
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Export counters", "counters.csv", "CSV (*.csv)")
        if path:
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        return text

    def import_from(self, path: str | None = None, mapping: dict[str, str] | None = None) -> ImportResult | None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Import counters", "", "CSV (*.csv)")
            if not path:
                return None
        from model.safefile import SafeFileError, read_bytes

        try:
            # A regular file read bounded (a FIFO is refused at once, never waited on).
            raw = read_bytes(path, 64 * 1024 * 1024, what="CSV file").decode("utf-8-sig")
        except (SafeFileError, UnicodeDecodeError) as exc:
            self.report.emit(QMessageBox.Icon.Warning, "Counter import", f"Cannot read {path}:",
                             getattr(exc, "message", None) or str(exc))
            return None
        text = raw.replace("\r\n", "\n").replace("\r", "\n")  # as text mode read it
        if mapping is None:
            header = text.splitlines()[0].split(",") if text else []
            ours = IDENTITY + [f"{s}.{k}" for s in ("front", "back") for k in ["designation", "state"] +
                               [f.id for f in self.document.system.counter_fields]] + TRAILER
            dlg = ColumnMappingDialog(header, ours, self)
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return None
            mapping = dlg.mapping()
        result = import_csv(text, mapping)
        self.last_import = result
        if result.counters:
            self.document.push(ImportCounters(self.document, result.counters))
        report = [f"Imported {len(result.counters)} counter(s); rejected {len(result.rejected)} row(s)."]
        report += [f"row {r.row}: {r.reason}" for r in result.rejected]
        self.report.emit(QMessageBox.Icon.Information if not result.rejected else QMessageBox.Icon.Warning,
                         "Counter import", report[0], "\n".join(report[1:]) or None)
        return result
