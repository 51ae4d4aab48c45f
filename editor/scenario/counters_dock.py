"""Counter manifest editor (the Counters dock): every counter of the bundle in a table with
the spreadsheet's stable column layout (model/formats/counter_table.py), filters by side,
division, formation and category, and the manifest edits of model/counter_edits.py as undo
commands (editor/commands/counters.py):

* Add Counter, Duplicate, Delete, Add Back, Remove Back, Rename Id… (toolbar and the
  table's context menu; each is one undo step however many rows are selected);
* typed cells (model/counter_fields.py): a delegate per column kind — a list of the system's
  ids for sides, categories, nationalities and movement classes, true/false for flags, a
  line accepting a number or ``unknown`` for printed values;
* bulk edit: editing a cell of a row that is part of a multi-row selection sets that column
  of every selected row, in one undo step;
* a live preview of both sides of the current counter (editor/scenario/counter_preview.py);
* export to CSV or XLSX, and import through the column-mapping and dry-run dialog
  (editor/scenario/counter_import.py).

Policy ``refused-cell-not-applied``: a typed value the model refuses (``EditResult`` with a
finding) changes nothing — in a bulk edit, no row changes (``bulk-edit-all-or-nothing``) —
and its located finding (code CORE-UNIT-003) is shown at once: the cell turns red with the
message as its tooltip, and :attr:`CounterPanel.findings` carries it to the diagnostics dock
(``LiveDiagnostics.set_editor_findings``). The finding stays until that cell takes a value,
or its counter is deleted.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (QAbstractTableModel, QItemSelectionModel, QModelIndex, QPersistentModelIndex, QPoint,
                            QSortFilterProxyModel, Qt, Signal)
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QCompleter, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QMenu,
                               QMessageBox, QStyledItemDelegate, QStyleOptionViewItem, QTableView, QToolBar,
                               QVBoxLayout, QWidget)

from editor.commands.counters import (AddBack, AddCounters, DeleteCounters, DuplicateCounters, RemoveBack,
                                      RenameCounter, SetCounterFields)
from editor.icons import decorate
from editor.scenario.counter_preview import CounterPreview
from model import counter_edits as ce
from model.counter_fields import ColumnType, column_type
from model.counters import Counter
from model.diagnostics import Diagnostic
from model.formats.counter_table import counter_cells, export_csv
from model.scenario_edits import MultiUndo

if TYPE_CHECKING:
    from editor.document import MapDocument

FILTERS = ("side", "division", "formation", "category")
Index = QModelIndex | QPersistentModelIndex
REFUSED_POLICY = "refused-cell-not-applied"
BULK_POLICY = "bulk-edit-all-or-nothing"
REFUSED_BRUSH = QBrush(QColor("#f8c9c9"))
NO_BACK_BRUSH = QBrush(QColor("#e4e4e4"))


class CounterTableModel(QAbstractTableModel):
    """The manifest as rows (the bundle's counter list, in file order) and layout columns."""

    status = Signal(str, int)  # a refused edit in one line, for the status bar
    findingsChanged = Signal(object)  # list[Diagnostic]: the refused cells now

    def __init__(self, document: "MapDocument") -> None:
        super().__init__()
        self.document = document
        self.columns: list[str] = []
        self.refused: dict[tuple[str, str], Diagnostic] = {}  # (counter id, column) → why
        self.last_pushed = False  # whether the latest set_cells pushed an undo command
        self.reload()

    # --- structure ---------------------------------------------------------------------------

    def reload(self) -> None:
        self.beginResetModel()
        self.columns = ["id", *ce.editable_columns(self.document.bundle)]
        ids = {c.id for c in self.rows}
        stale = [k for k in self.refused if k[0] not in ids]
        for key in stale:
            del self.refused[key]
        self.endResetModel()
        if stale:
            self.findingsChanged.emit(self.findings())

    @property
    def rows(self) -> list[Counter]:
        return self.document.bundle.counters

    def column_type(self, column: str) -> ColumnType:
        return column_type(column, self.document.system)

    def findings(self) -> list[Diagnostic]:
        return list(self.refused.values())

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            col = self.columns[section]
            return "the counter id (Rename Id… changes it and every reference)" if col == "id" else \
                f"{col}: {self.column_type(col).describe()}"
        return None

    # --- cells -------------------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c = self.rows[index.row()]
        col = self.columns[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return counter_cells(c, [col])[0]
        if role == Qt.ItemDataRole.UserRole:
            return c
        refused = self.refused.get((c.id, col))
        if role == Qt.ItemDataRole.BackgroundRole:
            if refused is not None:
                return REFUSED_BRUSH
            if col.startswith("back.") and c.back is None:
                return NO_BACK_BRUSH
        if role == Qt.ItemDataRole.ToolTipRole:
            if refused is not None:
                return f"Refused (not applied): {refused.message}\n{refused.location.render()}"
            if col.startswith("back.") and c.back is None:
                return f"{c.id} has no back: Add Back first"
            return None if col == "id" else f"{col}: {self.column_type(col).describe()}"
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = super().flags(index)
        col = self.columns[index.column()]
        c = self.rows[index.row()]
        if col != "id" and not (col.startswith("back.") and c.back is None):
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """One cell (the bulk path is :meth:`set_cells`)."""
        column = self.columns[index.column()] if index.isValid() else "id"
        if role != Qt.ItemDataRole.EditRole or column == "id":
            return False  # an id changes through rename (CounterPanel.rename), with its references
        refused = self.set_cells([self.rows[index.row()]], column, str(value))
        return not refused and self.last_pushed

    def set_cells(self, counters: list[Counter], column: str, text: str) -> list[Diagnostic]:
        """Set ``column`` of every counter to ``text`` as one undo step, or — if the model
        refuses any of them — change none and return the findings (also shown on the cells
        and sent to the diagnostics dock)."""
        doc = self.document
        undos, refused = [], []
        for c in counters:
            result = ce.set_counter_field(doc.bundle, c, column, text)
            if result.finding is not None:
                policy = REFUSED_POLICY if len(counters) == 1 else f"{REFUSED_POLICY}; {BULK_POLICY}"
                refused.append((c, replace(result.finding, policy=policy)))
            elif result.undo is not None:
                undos.append(result.undo)
        self.last_pushed = False
        if refused:
            MultiUndo(undos).undo()  # all or nothing: back out the rows that took the value
            for c, finding in refused:
                self.refused[(c.id, column)] = finding
            self.status.emit(f"Refused, not applied: {refused[0][1].message}", 8000)
            self._cells_changed(counters, column)
            self.findingsChanged.emit(self.findings())
            return [f for _, f in refused]
        cleared = [self.refused.pop((c.id, column)) for c in counters if (c.id, column) in self.refused]
        if undos:
            self.last_pushed = True
            doc.push(SetCounterFields(doc, counters, column, text, applied=MultiUndo(undos)))
        elif cleared:
            self._cells_changed(counters, column)
        if cleared:
            self.findingsChanged.emit(self.findings())
        return []

    def _cells_changed(self, counters: list[Counter], column: str) -> None:
        col = self.columns.index(column) if column in self.columns else -1
        for c in counters:
            if col >= 0 and c in self.rows:
                ix = self.index(self.rows.index(c), col)
                self.dataChanged.emit(ix, ix)


def _free_id(bundle: Any, taken: set[str]) -> str:
    """``unit``, ``unit-2`` … : the first id free in the bundle and not in ``taken`` (ids
    given to counters of the same batch, not yet in the bundle)."""
    n = 1
    while True:
        candidate = "unit" if n == 1 else f"unit-{n}"
        if candidate not in taken and ce.free_counter_id(bundle, candidate) == candidate:
            return candidate
        n += 1


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


class CellDelegate(QStyledItemDelegate):
    """An editor per column kind; committing goes through :meth:`CounterPanel.edit_cell`
    (one cell, or the column of every selected row)."""

    def __init__(self, panel: "CounterPanel") -> None:
        super().__init__(panel.table)
        self.panel = panel

    def _column(self, index: Index) -> tuple[str, ColumnType]:
        model = self.panel.model
        assert model is not None
        col = model.columns[self.panel.proxy.mapToSource(index).column()]
        return col, model.column_type(col)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        col, ctype = self._column(index)
        if ctype.kind == "flag" or (ctype.kind == "choice" and ctype.choices):
            box = QComboBox(parent)
            if ctype.kind == "flag":
                box.addItems(["false", "true"])
            else:
                if col not in ce.REQUIRED:
                    box.addItem("")  # optional: not set
                box.addItems(list(ctype.choices))
            box.setToolTip(f"{col}: {ctype.describe()}")
            return box
        edit = QLineEdit(parent)
        edit.setToolTip(f"{col}: {ctype.describe()}")
        if ctype.kind == "number":
            edit.setPlaceholderText("number or unknown")
            completer = QCompleter(["unknown"], edit)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            edit.setCompleter(completer)
        elif ctype.kind == "whole":
            edit.setPlaceholderText(ctype.describe())
        return edit

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        text = str(index.data(Qt.ItemDataRole.EditRole) or "")
        if isinstance(editor, QComboBox):
            flag = self._column(index)[1].kind == "flag"
            editor.setCurrentIndex(max(editor.findText(text or "false" if flag else text), 0))
        elif isinstance(editor, QLineEdit):
            editor.setText(text)

    def setModelData(self, editor: QWidget, model: Any, index: Index) -> None:
        text = editor.currentText() if isinstance(editor, QComboBox) else editor.text()  # type: ignore[attr-defined]
        self.panel.edit_cell(index, text)


class CounterPanel(QWidget):
    """The Counters dock's widget for one document (see the module docstring)."""

    status = Signal(str, int)  # refused cell edits, the outcome of an action
    report = Signal(object, str, str, object)  # QMessageBox.Icon, title, text, details (str | None)
    findings = Signal(object)  # list[Diagnostic]: refused cells, for the diagnostics dock

    def __init__(self, document: "MapDocument") -> None:
        super().__init__()
        self.document = document
        self.model: CounterTableModel | None = None
        self._selected_ids: list[str] = []  # refresh() restores these (see there)
        self._current_id: str | None = None
        self.proxy = CounterFilter()
        self.table = QTableView()
        self.table.setModel(self.proxy)
        # Sortable by a header click, but shown in manifest (file) order until then.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setItemDelegate(CellDelegate(self))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.doubleClicked.connect(self._double_clicked)
        self.filters: dict[str, QComboBox] = {}
        self.bar = QToolBar("Counters")
        self.bar.setObjectName("counters-toolbar")
        self.actions_by_id: dict[str, QAction] = {}
        self._build_actions()
        row = QHBoxLayout()
        for f in FILTERS:
            box = QComboBox()
            box.setMinimumContentsLength(12)  # "any division" readable
            box.currentIndexChanged.connect(lambda _i, f=f, b=box: self.proxy.set_filter(f, b.currentData()))
            row.addWidget(box)
            self.filters[f] = box
        row.addStretch(1)
        self.preview = CounterPreview(lambda: self.document.system)
        self.preview.setMinimumSize(264, 130)  # both sides legible beside the table
        self.preview_label = QLabel()
        self.preview_label.setWordWrap(True)
        self.preview_label.setMaximumWidth(264)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.bar)
        lay.addLayout(row)
        body = QHBoxLayout()
        body.addWidget(self.table, 1)
        side = QVBoxLayout()
        side.addWidget(self.preview)
        side.addWidget(self.preview_label)
        side.addStretch(1)
        body.addLayout(side, 0)
        lay.addLayout(body, 1)

    # --- actions -----------------------------------------------------------------------------

    ACTIONS = (  # id, text, shortcut (while the dock has focus), tip, slot
        ("counters.add", "Add Counter", "Ctrl+Shift+A", "Add a blank counter (the system's first side and category)",
         "add_counter"),
        ("counters.duplicate", "Duplicate", "Ctrl+D", "Copy the selected counters (new ids <id>-copy)",
         "duplicate_selected"),
        ("counters.delete", "Delete", "Delete", "Delete the selected counters (references stay and are reported)",
         "delete_selected"),
        ("counters.add_back", "Add Back", None, "Give the selected counters a back side", "add_back_selected"),
        ("counters.remove_back", "Remove Back", None, "Take the back side off the selected counters",
         "remove_back_selected"),
        ("counters.rename", "Rename Id…", "Ctrl+Shift+R", "New id for the current counter, changing every reference",
         "rename_current"),
        ("counters.import", "Import…", None, "Import a CSV or XLSX sheet: map columns, dry run, apply", "import_dialog"),
        ("counters.export", "Export…", None, "Export the manifest as CSV or XLSX", "export_to"),
    )

    ICONS = {"counters.add": "add", "counters.duplicate": "duplicate", "counters.delete": "std:SP_TrashIcon",
             "counters.add_back": "add-back", "counters.remove_back": "remove-back", "counters.rename": "rename",
             "counters.import": "import", "counters.export": "export"}

    def _build_actions(self) -> None:
        # Icons only (the words are in the tooltips and the context menu): with words beside
        # them, half the bar fell behind the overflow arrow in a dock of the default width.
        self.bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        for aid, text, key, tip, slot in self.ACTIONS:
            act = QAction(text, self)
            act.setObjectName(aid)
            act.setStatusTip(tip)
            if key:
                act.setShortcut(QKeySequence(key))
                # Only while the dock has focus: Ctrl+D, Delete … mean other things elsewhere.
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            decorate(act, self.ICONS[aid], tip)  # the icon, and "tip (Ctrl+D)" as the tooltip
            act.triggered.connect(lambda _checked=False, s=slot: getattr(self, s)())
            self.addAction(act)
            self.bar.addAction(act)
            if aid in ("counters.remove_back", "counters.rename"):
                self.bar.addSeparator()
            self.actions_by_id[aid] = act

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        for aid in ("counters.add", "counters.duplicate", "counters.delete", "counters.add_back",
                    "counters.remove_back", "counters.rename"):
            menu.addAction(self.actions_by_id[aid])
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def _double_clicked(self, index: QModelIndex) -> None:
        """A double click on an id opens Rename Id… (an id is not typed over: it is referenced)."""
        if self.model is not None and self.model.columns[self.proxy.mapToSource(index).column()] == "id":
            self.rename_current()

    def _update_actions(self) -> None:
        chosen = self.selected_counters()
        has = bool(chosen)
        self.actions_by_id["counters.duplicate"].setEnabled(has)
        self.actions_by_id["counters.delete"].setEnabled(has)
        self.actions_by_id["counters.add_back"].setEnabled(any(c.back is None for c in chosen))
        self.actions_by_id["counters.remove_back"].setEnabled(any(c.back is not None for c in chosen))
        self.actions_by_id["counters.rename"].setEnabled(self.current_counter() is not None)

    # --- document → view -----------------------------------------------------------------------

    def refresh(self) -> None:
        # The ids come from the last selection change, not from the view: after an edit the
        # manifest (the model's rows) has already changed under Qt's selection, and reading
        # stale indexes through the proxy could crash before the model is reset.
        keep = list(self._selected_ids)
        current_id = self._current_id
        if self.model is None:
            self.model = CounterTableModel(self.document)
            self.model.status.connect(self.status)
            self.model.findingsChanged.connect(self.findings)
            self.proxy.setSourceModel(self.model)
            sel = self.table.selectionModel()
            sel.currentRowChanged.connect(lambda _i, _p: (self._remember_selection(), self._show_current()))
            sel.selectionChanged.connect(lambda _s, _d: (self._remember_selection(), self._update_actions()))
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
        ids = {c.id for c in counters}
        self.select_ids([k for k in keep if k in ids], current_id if current_id in ids else None)
        self._remember_selection()
        self._show_current()
        self._update_actions()

    def _remember_selection(self) -> None:
        """Cache the selected and current counters' ids while the view and the model agree."""
        self._selected_ids = [c.id for c in self.selected_counters()]
        current = self.current_counter()
        self._current_id = current.id if current is not None else None

    def _show_current(self) -> None:
        counter = self.current_counter()
        self.preview.set_counter(counter)
        if counter is None:
            self.preview_label.setText("Select a counter to preview its front and back.")
        else:
            back = "back" if counter.back is not None else "no back (Add Back gives it one)"
            self.preview_label.setText(f"<b>{counter.id}</b> — {counter.name}<br>front | {back}")
        self._update_actions()

    # --- selection ---------------------------------------------------------------------------

    def _source_row(self, proxy_row: int) -> int:
        return self.proxy.mapToSource(self.proxy.index(proxy_row, 0)).row()

    def selected_counters(self) -> list[Counter]:
        """The counters of every row with a selected cell, in manifest order."""
        if self.model is None or self.table.selectionModel() is None:
            return []
        rows = {self.proxy.mapToSource(ix).row() for ix in self.table.selectionModel().selectedIndexes()}
        return [c for i, c in enumerate(self.model.rows) if i in rows]

    def current_counter(self) -> Counter | None:
        if self.model is None:
            return None
        ix = self.table.currentIndex()
        if not ix.isValid():
            return None
        row = self.proxy.mapToSource(ix).row()
        return self.model.rows[row] if 0 <= row < len(self.model.rows) else None

    def select_ids(self, ids: list[str], current: str | None = None) -> None:
        """Select the rows of these counters (the first, or ``current``, becomes current)."""
        if self.model is None:
            return
        sel = self.table.selectionModel()
        sel.clearSelection()
        rows = [i for i, c in enumerate(self.model.rows) if c.id in set(ids)]
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for r in rows:
            sel.select(self.proxy.mapFromSource(self.model.index(r, 0)), flags)
        cur = current if current is not None else (ids[0] if ids else None)
        row = next((i for i, c in enumerate(self.model.rows) if c.id == cur), None)
        if row is not None:
            ix = self.proxy.mapFromSource(self.model.index(row, 0))
            sel.setCurrentIndex(ix, QItemSelectionModel.SelectionFlag.NoUpdate)
            if ix.isValid():
                self.table.scrollTo(ix)

    # --- edits ---------------------------------------------------------------------------------

    def edit_cell(self, proxy_index: Index, text: str) -> list[Diagnostic]:
        """A cell committed in the table: that cell, or — when its row is one of several
        selected rows — that column of every selected row (one undo step). Returns the
        findings of a refused value (nothing was applied)."""
        assert self.model is not None
        source = self.proxy.mapToSource(proxy_index)
        counter = self.model.rows[source.row()]
        column = self.model.columns[source.column()]
        chosen = self.selected_counters()
        targets = chosen if counter in chosen and len(chosen) > 1 else [counter]
        if column.startswith("back."):
            targets = [c for c in targets if c.back is not None] or [counter]
        return self.set_column(targets, column, text)

    def set_column(self, counters: list[Counter], column: str, text: str) -> list[Diagnostic]:
        """Bulk edit: ``column`` of these counters set to ``text`` in one undo step (or
        nothing, with the findings, if any is refused)."""
        assert self.model is not None
        return self.model.set_cells(counters, column, text)

    def add_counter(self, **fields: str) -> str:
        """Add one counter (fields given as layout column → text, as typed in a cell) and
        select it; returns its id. A field the model refuses leaves the counter out."""
        return self.add_counters([fields])[0]

    def add_counters(self, rows: list[dict[str, str]]) -> list[str]:
        """Add several counters in one undo step; each row maps layout columns to cell texts
        (``{"id": "b-1", "side": "allied", "front.attack": "4"}``; an absent id gets a free
        one). Raises ValueError with the located findings if any text is refused: nothing is
        added then. Returns the new ids."""
        bundle = self.document.bundle
        made: list[Counter] = []
        taken = {c.id for c in bundle.counters}
        problems: list[str] = []
        for fields in rows:
            cid = fields.get("id") or _free_id(bundle, taken)
            if cid in taken:
                problems.append(f"a counter with the id {cid!r} exists")
                continue
            taken.add(cid)
            counter = ce.new_counter(bundle, cid)
            for col, text in fields.items():
                if col == "id":
                    continue
                if col.startswith("back.") and counter.back is None:
                    ce.add_back(counter)
                result = ce.set_counter_field(bundle, counter, col, text)
                if result.finding is not None:
                    problems.append(f"{cid}: {result.finding.message}")
            made.append(counter)
        if problems:
            raise ValueError("; ".join(problems))
        if not made:
            return []
        self.document.push(AddCounters(self.document, made))
        ids = [c.id for c in made]
        self.select_ids(ids)
        return ids

    def duplicate_selected(self) -> list[str]:
        ids = [c.id for c in self.selected_counters()]
        if not ids:
            return []
        cmd = DuplicateCounters(self.document, ids)
        self.document.push(cmd)
        self.select_ids(cmd.new_ids)
        return list(cmd.new_ids)

    def delete_selected(self) -> list[str]:
        chosen = self.selected_counters()
        if not chosen:
            return []
        ids = [c.id for c in chosen]
        refs = sum(len(ce.counter_references(self.document.bundle, cid)) for cid in ids)
        self.document.push(DeleteCounters(self.document, ids))
        if refs:
            self.status.emit(f"Deleted {len(ids)} counter(s); {refs} reference(s) to them remain (see Diagnostics)",
                             8000)
        return ids

    def add_back_selected(self) -> None:
        chosen = [c for c in self.selected_counters() if c.back is None]
        if chosen:
            self.document.push(AddBack(self.document, chosen))

    def remove_back_selected(self) -> None:
        chosen = [c for c in self.selected_counters() if c.back is not None]
        if chosen:
            self.document.push(RemoveBack(self.document, chosen))

    def rename_current(self) -> bool:
        """Ask for a new id (the dialog shows how many references change), then rename."""
        from editor.scenario.counter_rename import RenameCounterDialog

        counter = self.current_counter()
        if counter is None:
            return False
        dlg = RenameCounterDialog(self.document.bundle, counter.id, self)
        if dlg.exec() != RenameCounterDialog.DialogCode.Accepted:
            return False
        return self.rename(counter.id, dlg.new_id())

    def rename(self, old: str, new: str) -> bool:
        """Rename without asking (the dialog's OK, and scripts): one undo step, or False
        with the reason on ``status`` when the rename is not possible."""
        preview = ce.preview_rename(self.document.bundle, old, new)
        if not preview.ok:
            self.status.emit(f"Cannot rename {old}: {'; '.join(preview.problems)}", 8000)
            return False
        self.document.push(RenameCounter(self.document, old, new))
        self.select_ids([new])
        self.status.emit(f"Renamed {old} to {new}; {preview.count} reference(s) changed", 6000)
        return True

    # --- files ---------------------------------------------------------------------------------

    def export_to(self, path: str | None = None) -> str:
        """Write the manifest to ``path`` (.xlsx: a workbook, else CSV); returns the CSV text."""
        counters, system = self.document.bundle.counters, self.document.system
        text = export_csv(counters, system)
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Export counters", "counters.csv",
                                                  "CSV (*.csv);;Excel workbook (*.xlsx)")
        if not path:
            return text
        from model.formats.counter_xlsx import XlsxExportError, export_xlsx
        from model.formats.yamlio import atomic_write_bytes

        try:
            data = export_xlsx(counters, system) if path.lower().endswith(".xlsx") else text.encode("utf-8")
            atomic_write_bytes(Path(path), data, keep_backup=False)
        except (XlsxExportError, OSError) as exc:
            self.report.emit(QMessageBox.Icon.Warning, "Counter export", f"Cannot export to {path}:", str(exc))
        return text

    def import_dialog(self, path: str | None = None) -> bool:
        """File chooser, column mapping, dry run, apply (editor/scenario/counter_import.py)."""
        from editor.scenario.counter_import import CounterImportDialog

        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Import counters", "",
                                                  "Counter sheets (*.csv *.xlsx);;CSV (*.csv);;Excel workbook (*.xlsx)")
            if not path:
                return False
        dlg = CounterImportDialog(self.document, path, self)
        if dlg.load_error:
            self.report.emit(QMessageBox.Icon.Warning, "Counter import", f"Cannot read {path}:", dlg.load_error)
            return False
        return dlg.exec() == CounterImportDialog.DialogCode.Accepted
