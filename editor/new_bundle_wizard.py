"""File ▸ New Bundle…: a QWizard over model/new_bundle.py (which ``hexproof new`` shares).

Pages, in order (:class:`PageId`):

1. **System** — the shipped systems (``resources/systems/*.yaml``, by title) or a system file
   the user chooses (copied into the bundle as ``system.yaml``). A file that does not load is
   refused on the page with the reason.
2. **Name & folder** — the game's name, the folder it is created in and the bundle's folder
   name (it follows the name until edited). A folder that holds a bundle or any file is refused
   on the page (``folder_problem``) and Next stays disabled: a new bundle never overwrites.
3. **Map** — orientation, stagger and the sheets (the system grid's printed sheets are offered
   by id), each with its size, place and label scheme (the system's, adjustable field by
   field); a live preview draws the sheets with their four corner labels
   (``corner_labels``) and every ``plan_problems`` sentence appears under it.
4. **Terrain** — the starting terrain, from the system's terrain types, with colour swatches.
5. **Summary** — what will be written (``render_plan``, the files, the rules a blank map
   cannot pass yet that game.yaml switches off, validators/starter.py).

Finish asks the ``before_write`` callback (the window's dirty-document prompt), writes every
file at once through ``create_bundle`` (atomic; an error stays on the page and nothing is
written) and emits :attr:`NewBundleWizard.created` with the new bundle's folder, which the
window opens. :func:`fill_and_finish` drives the whole wizard from code (for tests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFileDialog, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QListWidgetItem, QPlainTextEdit, QPushButton,
                               QSizePolicy, QSpinBox, QVBoxLayout, QWidget, QWizard, QWizardPage)

from model.labels import LabelScheme
from model.new_bundle import (CORNERS, BundlePlan, NewBundle, NewBundleError, SheetPlan, build_bundle,
                              bundle_files, corner_labels, create_bundle, default_scheme, folder_problem,
                              load_plan_system, plan_problems, render_plan, slug)
from model.safefile import SafeFileError
from model.system import GameSystem, available_systems

#: The first sheet's size when the wizard opens: a starting value to change, not a game's figure
#: (system files give no map size; the old New Map dialog started at 30 × 20 too).
DEFAULT_SIZE = (30, 20)
DEFAULT_NAME = "New Game"
_ERROR_STYLE = "color: #b00020;"


class PageId(IntEnum):
    SYSTEM = 0
    FOLDER = 1
    MAP = 2
    TERRAIN = 3
    SUMMARY = 4


def _problem_label() -> QLabel:
    label = QLabel()
    label.setObjectName("problems")
    label.setWordWrap(True)
    label.setStyleSheet(_ERROR_STYLE)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


# --- one sheet being planned --------------------------------------------------------------------------

@dataclass
class SheetDraft:
    """A sheet as the Map page edits it: the label fields the user changed are kept apart
    from the system's default, so a sheet's default follows its id and rows (a northward
    numbered sheet starts from its southern row) until a field is set by hand."""

    id: str
    cols: int
    rows: int
    x0: int = 0
    y0: int = 0
    label_changes: dict[str, Any] = field(default_factory=dict)

    def scheme(self, system: GameSystem) -> LabelScheme:
        base = default_scheme(system, self.id, self.rows)
        if not self.label_changes:
            return base
        try:
            return LabelScheme.model_validate({**base.model_dump(), **self.label_changes})
        except ValueError:
            return base

    def plan(self, system: GameSystem) -> SheetPlan:
        return SheetPlan(self.id, self.cols, self.rows, self.x0, self.y0, self.scheme(system))


def _printed_sheet_ids(system: GameSystem) -> list[str]:
    """The ids of the sheets the system's grid prints (``grid.sheets``), in its order."""
    grid = system.grid if isinstance(system.grid, dict) else {}
    sheets = grid.get("sheets")
    return [str(k) for k in sheets] if isinstance(sheets, dict) else []


# --- page 1: system -------------------------------------------------------------------------------------

class SystemPage(QWizardPage):
    """The shipped systems by title, or a system file the user picks."""

    def __init__(self, wizard: "NewBundleWizard") -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Game System")
        self.setSubTitle("The rules the new game is played and checked by. A system file of your own is "
                         "copied into the bundle, so the bundle opens anywhere.")
        self.systems = QListWidget()
        self.systems.setObjectName("systems")
        self.loaded: dict[str, GameSystem] = {}
        self.problems: dict[str, str] = {}
        for ref in available_systems():
            self._add(ref, None)
        self.choose = QPushButton("Choose System File…")
        self.choose.setObjectName("choose-system-file")
        self.choose.clicked.connect(self._browse)
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.problem = _problem_label()
        layout = QVBoxLayout(self)
        layout.addWidget(self.systems, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.choose)
        layout.addLayout(row)
        layout.addWidget(self.about)
        layout.addWidget(self.problem)
        self.systems.currentItemChanged.connect(lambda *_: self._changed())
        if self.systems.count():
            self.systems.setCurrentRow(0)

    def _add(self, ref: str, label: str | None) -> QListWidgetItem:
        try:
            system = load_plan_system(ref)
            self.loaded[ref] = system
            text = label or f"{system.name}   ({system.id})"
        except NewBundleError as exc:
            self.problems[ref] = str(exc)
            text = label or ref
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, ref)
        item.setToolTip(ref)
        self.systems.addItem(item)
        return item

    def choose_system_file(self, path: str | Path) -> bool:
        """Add a system file to the list and select it; False (and the reason on the page)
        when it cannot be used."""
        ref = str(Path(path).expanduser().resolve())
        if Path(ref).suffix.lower() not in (".yaml", ".yml"):
            self.problem.setText(f"{ref} is not a system file: choose a .yaml file (see docs/new-system.md)")
            return False
        for i in range(self.systems.count()):
            if self.systems.item(i).data(Qt.ItemDataRole.UserRole) == ref:
                self.systems.setCurrentRow(i)
                return ref in self.loaded
        self.loaded.pop(ref, None)
        self.problems.pop(ref, None)
        item = self._add(ref, None)
        if ref in self.loaded:
            item.setText(f"{self.loaded[ref].name}   ({ref})")
        self.systems.setCurrentItem(item)
        return ref in self.loaded

    def select(self, ref: str) -> bool:
        """Select a shipped system by id, or a system file by path (added if new)."""
        for i in range(self.systems.count()):
            if self.systems.item(i).data(Qt.ItemDataRole.UserRole) == ref:
                self.systems.setCurrentRow(i)
                return ref in self.loaded
        return self.choose_system_file(ref)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a system file", "", "System files (*.yaml *.yml)")
        if path:
            self.choose_system_file(path)

    def current_ref(self) -> str | None:
        item = self.systems.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _changed(self) -> None:
        ref = self.current_ref()
        system = self.loaded.get(ref) if ref else None
        self.problem.setText(self.problems.get(ref, "") if ref else "choose a game system")
        if system is not None:
            grid = system.grid if isinstance(system.grid, dict) else {}
            sheets = _printed_sheet_ids(system)
            self.about.setText(
                f"<b>{system.name}</b> — {len(system.terrain)} terrain types; "
                f"{grid.get('orientation', 'flat')}-top hexes"
                + (f"; printed sheets {', '.join(sheets)}" if sheets else "")
                + (f"<br><i>{system.scale}</i>" if getattr(system, "scale", None) else ""))
        else:
            self.about.setText("")
        self.wiz.set_system(ref, system)
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        ref = self.current_ref()
        return ref is not None and ref in self.loaded


# --- page 2: name and folder ----------------------------------------------------------------------------

class FolderPage(QWizardPage):
    """The game's name and the new folder; never an existing bundle or a folder with files."""

    def __init__(self, wizard: "NewBundleWizard", start_folder: Path) -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Name and Folder")
        self.setSubTitle("The bundle is written into a new (or empty) folder. An existing bundle, or a folder "
                         "that holds any file, is never written over.")
        self.name = QLineEdit(DEFAULT_NAME)
        self.name.setObjectName("name")
        self.parent_folder = QLineEdit(str(start_folder))
        self.parent_folder.setObjectName("parent-folder")
        self.browse = QPushButton("Browse…")
        self.browse.clicked.connect(self._browse)
        self.folder_name = QLineEdit(slug(DEFAULT_NAME))
        self.folder_name.setObjectName("folder-name")
        self._folder_follows_name = True
        self.target = QLabel()
        self.target.setWordWrap(True)
        self.target.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem = _problem_label()
        form = QFormLayout(self)
        form.addRow("&Name", self.name)
        row = QHBoxLayout()
        row.addWidget(self.parent_folder, 1)
        row.addWidget(self.browse)
        form.addRow("Create in", row)
        form.addRow("&Folder name", self.folder_name)
        form.addRow("Bundle folder", self.target)
        form.addRow(self.problem)
        self.name.textChanged.connect(self._name_changed)
        self.folder_name.textEdited.connect(self._folder_edited)
        self.parent_folder.textChanged.connect(lambda _: self._update())
        self.folder_name.textChanged.connect(lambda _: self._update())
        self._update()

    def set_folder(self, folder: str | Path) -> None:
        """Point the page at ``folder`` (its parent and its name)."""
        folder = Path(folder).expanduser()
        self._folder_follows_name = False
        self.parent_folder.setText(str(folder.parent))
        self.folder_name.setText(folder.name)

    def _name_changed(self, text: str) -> None:
        if self._folder_follows_name:
            self.folder_name.setText(slug(text))
        self._update()

    def _folder_edited(self, text: str) -> None:
        self._folder_follows_name = not text.strip()  # cleared: follow the name again

    def _browse(self) -> None:
        picked = QFileDialog.getExistingDirectory(self, "Create the bundle in", self.parent_folder.text())
        if picked:
            self.parent_folder.setText(picked)

    def folder(self) -> Path | None:
        parent, name = self.parent_folder.text().strip(), self.folder_name.text().strip()
        if not parent or not name:
            return None
        return (Path(parent).expanduser() / name).absolute()

    def problem_text(self) -> str:
        out = []
        if not self.name.text().strip():
            out.append("the bundle needs a name")
        folder = self.folder()
        if folder is None:
            out.append("choose the folder it is created in and the bundle's folder name")
        elif Path(self.folder_name.text().strip()).name != self.folder_name.text().strip():
            out.append("the folder name is one folder: no '/' in it")
        elif (problem := folder_problem(folder)) is not None:
            out.append(problem)
        return "\n".join(out)

    def _update(self) -> None:
        folder = self.folder()
        self.target.setText(str(folder) if folder else "—")
        self.problem.setText(self.problem_text())
        self.completeChanged.emit()

    def initializePage(self) -> None:
        self._update()  # the disk may have changed since the page was last shown

    def isComplete(self) -> bool:
        return not self.problem_text()

    def validatePage(self) -> bool:
        self._update()
        return self.isComplete()


# --- page 3: map ----------------------------------------------------------------------------------------

class CornerPreview(QWidget):
    """The sheets as rectangles in their places on the map, each with its id and its four
    corner labels: what the printed map will say at its corners, updated on every change."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("corner-preview")
        self.setMinimumSize(360, 170)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.sheets: list[SheetPlan] = []
        self.corners: dict[str, dict[str, str]] = {}  # sheet id → corner (NW, NE, SW, SE) → label
        self.selected: str | None = None
        self.to_scale = True  # False when the last paint had to stretch an axis to fit the labels

    def show_sheets(self, sheets: list[SheetPlan], selected: str | None) -> None:
        self.sheets = sheets
        self.selected = selected
        self.corners = {s.id: corner_labels(s.cols, s.rows, s.labels or LabelScheme())  # type: ignore[call-arg]
                        for s in sheets}
        self.setToolTip("\n".join(f"sheet {sid}: " + ", ".join(f"{k} {v}" for k, v in c.items())
                                  for sid, c in self.corners.items()))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), self.palette().base())
        sheets = [s for s in self.sheets if s.cols > 0 and s.rows > 0]
        if not sheets:
            painter.end()
            return
        x0 = min(s.x0 for s in sheets)
        y0 = min(s.y0 for s in sheets)
        width = max(s.x0 + s.cols for s in sheets) - x0
        height = max(s.y0 + s.rows for s in sheets) - y0
        margin = 8.0
        font = QFont(self.font())
        font.setFamily("monospace")
        painter.setFont(font)
        metrics = painter.fontMetrics()
        pad = 4.0
        sx = (self.width() - 2 * margin) / max(width, 1)
        sy = (self.height() - 2 * margin) / max(height, 1)
        # To scale when every sheet then has room for its corner labels; else each axis is
        # stretched on its own (the sheets keep their places, not their proportions).
        need_w = max(2 * metrics.horizontalAdvance(max(c.values(), key=len)) + 3 * pad
                     for c in self.corners.values()) if self.corners else 0
        need_h = 2 * metrics.height() + 3 * pad
        scale = min(sx, sy)
        self.to_scale = all(s.cols * scale >= need_w and s.rows * scale >= need_h for s in sheets)
        if self.to_scale:
            sx = sy = scale
        for s in sheets:
            rect = QRectF(margin + (s.x0 - x0) * sx, margin + (s.y0 - y0) * sy, s.cols * sx, s.rows * sy)
            chosen = s.id == self.selected
            painter.setPen(QPen(QColor("#1f5fbf") if chosen else QColor("#707070"), 2 if chosen else 1))
            painter.setBrush(QColor("#eef3fb") if chosen else QColor("#f6f6f6"))
            painter.drawRect(rect)
            corners = self.corners.get(s.id, {})
            painter.setPen(QColor("#202020"))
            inner = rect.adjusted(pad, pad, -pad, -pad)
            flags = {"NW": Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                     "NE": Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                     "SW": Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom,
                     "SE": Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom}
            for corner in CORNERS:
                painter.drawText(inner, int(flags[corner]), corners.get(corner, ""))
            if inner.height() > 3 * metrics.height():
                painter.setPen(QColor("#707070"))
                painter.drawText(inner, int(Qt.AlignmentFlag.AlignCenter), f"sheet {s.id}\n{s.cols} × {s.rows}")
        if not self.to_scale:
            painter.setPen(QColor("#707070"))
            painter.drawText(self.rect().adjusted(4, 4, -4, -4),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom), "not to scale")
        painter.end()


class MapPage(QWizardPage):
    """Orientation, stagger and the sheets, each with its label scheme; live corner labels."""

    def __init__(self, wizard: "NewBundleWizard") -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Map")
        self.setSubTitle("The map's sheets, their size in hexes and how their hexes are numbered. The label "
                         "scheme comes from the game system; change any field and the corners update.")
        self.drafts: list[SheetDraft] = []
        self._loading = False
        self._system_ref: str | None = None

        self.orientation = QComboBox()
        self.orientation.addItems(["flat", "pointy"])
        self.stagger = QComboBox()
        self.stagger.addItems(["odd", "even"])
        self.sheet_list = QListWidget()
        self.sheet_list.setObjectName("sheets")
        self.sheet_list.setMaximumWidth(130)
        self.add_sheet = QPushButton("Add Sheet")
        self.remove_sheet = QPushButton("Remove Sheet")
        self.sheet_id = QLineEdit()
        self.cols = self._spin(1, 5000)
        self.rows = self._spin(1, 5000)
        self.x0 = self._spin(0, 50000)
        self.y0 = self._spin(0, 50000)
        self.prefix = QLineEdit()
        self.axis_order = QComboBox()
        self.axis_order.addItem("column, then row", "col_row")
        self.axis_order.addItem("row, then column", "row_col")
        self.col_digits = self._spin(1, 4)
        self.row_digits = self._spin(1, 4)
        self.separator = QLineEdit()
        self.separator.setMaxLength(3)
        self.first_col = self._spin(0, 9999)
        self.first_row = self._spin(0, 9999)
        self.col_step = QComboBox()
        self.row_step = QComboBox()
        for step, grows, shrinks in ((self.col_step, "grow eastward", "shrink eastward"),
                                     (self.row_step, "grow southward", "shrink southward (numbered northward)")):
            step.addItem(grows, 1)
            step.addItem(shrinks, -1)
        self.reset_labels = QPushButton("Use the System's Labels")
        self.preview = CornerPreview()
        self.problem = _problem_label()

        top = QHBoxLayout()
        top.addWidget(QLabel("Orientation"))
        top.addWidget(self.orientation)
        top.addWidget(QLabel("Stagger"))
        top.addWidget(self.stagger)
        top.addStretch(1)
        sheets_box = QVBoxLayout()
        sheets_box.addWidget(self.sheet_list, 1)
        sheets_box.addWidget(self.add_sheet)
        sheets_box.addWidget(self.remove_sheet)
        size = QGroupBox("Sheet")
        size_form = QFormLayout(size)
        size_form.addRow("Id", self.sheet_id)
        size_form.addRow("Columns", self.cols)
        size_form.addRow("Rows", self.rows)
        size_form.addRow("Place (X, Y)", self._pair(self.x0, self.y0))
        labels = QGroupBox("Hex labels")
        grid = QGridLayout(labels)
        fields: list[tuple[str, QWidget]] = [
            ("Prefix", self.prefix), ("Order", self.axis_order), ("Column digits", self.col_digits),
            ("Row digits", self.row_digits), ("Separator", self.separator), ("First column", self.first_col),
            ("First row", self.first_row), ("Columns", self.col_step), ("Rows", self.row_step)]
        for i, (text, widget) in enumerate(fields):
            grid.addWidget(QLabel(text), i // 2, (i % 2) * 2)
            grid.addWidget(widget, i // 2, (i % 2) * 2 + 1)
        grid.addWidget(self.reset_labels, (len(fields) + 1) // 2, 2, 1, 2)
        middle = QHBoxLayout()
        middle.addLayout(sheets_box)
        middle.addWidget(size)
        middle.addWidget(labels, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(middle)
        layout.addWidget(QLabel("Corner labels (live preview):"))
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.problem)

        self.sheet_list.currentRowChanged.connect(lambda _: self._show_selected())
        self.add_sheet.clicked.connect(self.add_next_sheet)
        self.remove_sheet.clicked.connect(self.remove_selected_sheet)
        self.reset_labels.clicked.connect(self._reset_labels)
        self.orientation.currentIndexChanged.connect(lambda _: self._refresh())
        self.stagger.currentIndexChanged.connect(lambda _: self._refresh())
        self.sheet_id.textChanged.connect(lambda text: self._set_sheet(id=text.strip()))
        for attr in ("cols", "rows", "x0", "y0"):
            getattr(self, attr).valueChanged.connect(lambda value, a=attr: self._set_sheet(**{a: value}))
        self.prefix.textChanged.connect(lambda text: self._set_label("prefix", text))
        self.separator.textChanged.connect(lambda text: self._set_label("separator", text))
        for name in ("col_digits", "row_digits", "first_col", "first_row"):
            getattr(self, name).valueChanged.connect(lambda value, n=name: self._set_label(n, value))
        for name in ("axis_order", "col_step", "row_step"):
            combo: QComboBox = getattr(self, name)
            combo.currentIndexChanged.connect(lambda _, n=name, c=combo: self._set_label(n, c.currentData()))

    @staticmethod
    def _spin(low: int, high: int) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setKeyboardTracking(True)  # the preview follows each digit typed
        return spin

    @staticmethod
    def _pair(a: QWidget, b: QWidget) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(a)
        row.addWidget(b)
        return box

    # --- the plan ---------------------------------------------------------------------------

    def reset_for(self, ref: str, system: GameSystem) -> None:
        """The defaults of a newly chosen system: its grid's layout and first sheet."""
        self._system_ref = ref
        grid = system.grid if isinstance(system.grid, dict) else {}
        self._loading = True
        self.orientation.setCurrentText(str(grid.get("orientation") or "flat"))
        self.stagger.setCurrentText(str(grid.get("stagger") or "odd"))
        self._loading = False
        printed = _printed_sheet_ids(system)
        self.drafts = [SheetDraft(printed[0] if printed else "main", *DEFAULT_SIZE)]
        self._fill_list(0)

    def initializePage(self) -> None:
        ref, system = self.wiz.system_ref, self.wiz.system
        if system is not None and ref is not None and ref != self._system_ref:
            self.reset_for(ref, system)
        self._refresh()

    def sheet_plans(self) -> tuple[SheetPlan, ...]:
        system = self.wiz.system
        return tuple(d.plan(system) for d in self.drafts) if system is not None else ()

    def layout_choice(self) -> tuple[str, str]:
        return self.orientation.currentText(), self.stagger.currentText()

    def selected(self) -> SheetDraft | None:
        row = self.sheet_list.currentRow()
        return self.drafts[row] if 0 <= row < len(self.drafts) else None

    def select_sheet(self, sheet_id: str) -> None:
        for i, d in enumerate(self.drafts):
            if d.id == sheet_id:
                self.sheet_list.setCurrentRow(i)
                return
        raise KeyError(sheet_id)

    def add_next_sheet(self) -> SheetDraft:
        """A sheet of the selected sheet's size east of the others, named by the next printed
        sheet id the system gives (else ``sheet2``, ``sheet3``…)."""
        system = self.wiz.system
        used = {d.id for d in self.drafts}
        free = [s for s in (_printed_sheet_ids(system) if system else []) if s not in used]
        n = len(self.drafts) + 1
        while f"sheet{n}" in used:
            n += 1
        like = self.selected() or (self.drafts[-1] if self.drafts else SheetDraft("main", *DEFAULT_SIZE))
        east = max((d.x0 + d.cols for d in self.drafts), default=0)
        draft = SheetDraft(free[0] if free else f"sheet{n}", like.cols, like.rows, east, 0)
        self.drafts.append(draft)
        self._fill_list(len(self.drafts) - 1)
        return draft

    def remove_selected_sheet(self) -> None:
        row = self.sheet_list.currentRow()
        if len(self.drafts) > 1 and 0 <= row < len(self.drafts):
            del self.drafts[row]
            self._fill_list(min(row, len(self.drafts) - 1))

    def _fill_list(self, row: int) -> None:
        self._loading = True
        self.sheet_list.clear()
        for d in self.drafts:
            self.sheet_list.addItem(d.id)
        self._loading = False
        self.sheet_list.setCurrentRow(row)
        self._show_selected()

    def _show_selected(self) -> None:
        """Fill the fields from the selected sheet (without counting that as an edit)."""
        draft, system = self.selected(), self.wiz.system
        if self._loading or draft is None or system is None:
            return
        scheme = draft.scheme(system)
        self._loading = True
        try:
            self.sheet_id.setText(draft.id)
            for attr in ("cols", "rows", "x0", "y0"):
                getattr(self, attr).setValue(getattr(draft, attr))
            self.prefix.setText(scheme.prefix)
            self.separator.setText(scheme.separator)
            for name in ("col_digits", "row_digits", "first_col", "first_row"):
                getattr(self, name).setValue(getattr(scheme, name))
            for name in ("axis_order", "col_step", "row_step"):
                choice: QComboBox = getattr(self, name)
                choice.setCurrentIndex(choice.findData(getattr(scheme, name)))
            self.remove_sheet.setEnabled(len(self.drafts) > 1)
        finally:
            self._loading = False
        self._refresh()

    def _set_sheet(self, **changes: Any) -> None:
        draft = self.selected()
        if self._loading or draft is None:
            return
        for key, value in changes.items():
            setattr(draft, key, value)
        if "id" in changes:
            self.sheet_list.item(self.sheet_list.currentRow()).setText(draft.id)
        if {"id", "rows"} & changes.keys():
            self._show_selected()  # the system's default for this id and height may differ
        else:
            self._refresh()

    def _set_label(self, name: str, value: Any) -> None:
        draft, system = self.selected(), self.wiz.system
        if self._loading or draft is None or system is None:
            return
        if getattr(default_scheme(system, draft.id, draft.rows), name) == value:
            draft.label_changes.pop(name, None)
        else:
            draft.label_changes[name] = value
        self._refresh()

    def _reset_labels(self) -> None:
        draft = self.selected()
        if draft is not None:
            draft.label_changes.clear()
            self._show_selected()

    def problem_list(self) -> list[str]:
        plan = self.wiz.plan()
        if plan is None or self.wiz.system is None:
            return ["choose a game system first"]
        return plan_problems(plan, self.wiz.system)

    def _refresh(self) -> None:
        if self._loading:
            return
        draft = self.selected()
        self.preview.show_sheets(list(self.sheet_plans()), draft.id if draft else None)
        self.problem.setText("\n".join(self.problem_list()))
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return bool(self.drafts) and not self.problem_list()


# --- page 4: terrain ------------------------------------------------------------------------------------

def swatch(color: str, size: int = 18) -> QIcon:
    pix = QPixmap(size, size)
    pix.fill(QColor(color))
    painter = QPainter(pix)
    painter.setPen(QColor("#404040"))
    painter.drawRect(0, 0, size - 1, size - 1)
    painter.end()
    return QIcon(pix)


class TerrainPage(QWizardPage):
    """Every hex of the new map starts as this terrain type."""

    def __init__(self, wizard: "NewBundleWizard") -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Starting Terrain")
        self.setSubTitle("Every hex of the new map starts as this terrain; paint the rest in the editor.")
        self.terrain = QListWidget()
        self.terrain.setObjectName("terrain")
        self._system_ref: str | None = None
        self.problem = _problem_label()
        layout = QVBoxLayout(self)
        layout.addWidget(self.terrain, 1)
        layout.addWidget(self.problem)
        self.terrain.currentRowChanged.connect(lambda _: self._changed())

    def initializePage(self) -> None:
        system, ref = self.wiz.system, self.wiz.system_ref
        if system is None or ref == self._system_ref:
            return
        self._system_ref = ref
        self.terrain.clear()
        for t in system.terrain:
            item = QListWidgetItem(swatch(t.color), f"{t.name}   ({t.id}, drawn as {t.char!r})")
            item.setData(Qt.ItemDataRole.UserRole, t.id)
            self.terrain.addItem(item)
        if self.terrain.count():
            self.terrain.setCurrentRow(0)  # the system's first terrain type: hexproof new's default

    def current(self) -> str | None:
        item = self.terrain.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def select(self, terrain_id: str) -> None:
        for i in range(self.terrain.count()):
            if self.terrain.item(i).data(Qt.ItemDataRole.UserRole) == terrain_id:
                self.terrain.setCurrentRow(i)
                return
        raise KeyError(terrain_id)

    def _changed(self) -> None:
        self.problem.setText("" if self.current() else "choose the starting terrain")
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return self.current() is not None


# --- page 5: summary ------------------------------------------------------------------------------------

class SummaryPage(QWizardPage):
    """What Finish writes; the write itself, and its error if the disk refuses."""

    def __init__(self, wizard: "NewBundleWizard") -> None:
        super().__init__()
        self.wiz = wizard
        self.setTitle("Summary")
        self.setSubTitle("Finish writes these files at once (all or none) and opens the new bundle.")
        self.park = QCheckBox("Switch off the rules a blank map cannot pass yet (listed below) until their "
                              "content is drawn")
        self.park.setChecked(True)
        self.park.toggled.connect(lambda _: self.initializePage())
        self.text = QPlainTextEdit()
        self.text.setObjectName("summary")
        self.text.setReadOnly(True)
        font = QFont(self.text.font())
        font.setFamily("monospace")
        self.text.setFont(font)
        self.problem = _problem_label()
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.park)
        layout.addWidget(self.problem)
        self.setCommitPage(False)
        self.setFinalPage(True)

    def initializePage(self) -> None:
        self.problem.setText("")
        system = self.wiz.system
        plan = self.wiz.plan()
        if plan is None or system is None:
            self.text.setPlainText("")
            return
        try:
            plan = self.wiz.final_plan()
            files = bundle_files(plan, system)
        except NewBundleError as exc:
            self.text.setPlainText("")
            self.problem.setText(str(exc))
            return
        terrain = system.terrain_by_id[plan.terrain or system.terrain[0].id]
        lines = [render_plan(plan, system), f"  starting terrain: {terrain.name} ({terrain.id})", "",
                 f"Files written into {plan.folder}:"]
        lines += [f"  {rel.as_posix():<28} {len(data):>7,} bytes" for rel, data in sorted(files.items())]
        if plan.ignore_rules:
            lines += ["", "Switched off in game.yaml (validate: ignore:) until the bundle has the content they check:"]
            lines += [f"  {p.code}: {p.message}" + (f" (and {p.count - 1} more)" if p.count > 1 else "")
                      for p in self.wiz.pending_rules]
        self.text.setPlainText("\n".join(lines))

    def validatePage(self) -> bool:
        """Finish: ask about the open document, then write everything or nothing."""
        return self.wiz.write()


# --- the wizard -----------------------------------------------------------------------------------------

class NewBundleWizard(QWizard):
    """File ▸ New Bundle…. :attr:`created` carries the new bundle's folder once it is written."""

    created = Signal(Path)

    def __init__(self, parent: QWidget | None = None, start_folder: Path | None = None,
                 before_write: Callable[[], bool] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("new-bundle-wizard")
        self.setWindowTitle("New Bundle")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.resize(1000, 620)
        self.system_ref: str | None = None
        self.system: GameSystem | None = None
        self.before_write = before_write
        self.result_bundle: NewBundle | None = None
        self.pending_rules: list[Any] = []  # validators.starter.PendingRule of the last final_plan
        self._final: tuple[tuple[BundlePlan, bool], BundlePlan] | None = None
        self.map_page = MapPage(self)
        self.terrain_page = TerrainPage(self)
        self.folder_page = FolderPage(self, start_folder or Path.home())
        self.system_page = SystemPage(self)  # last: selecting its first row calls set_system
        self.summary_page = SummaryPage(self)
        for pid, page in ((PageId.SYSTEM, self.system_page), (PageId.FOLDER, self.folder_page),
                          (PageId.MAP, self.map_page), (PageId.TERRAIN, self.terrain_page),
                          (PageId.SUMMARY, self.summary_page)):
            page.setObjectName(f"page-{pid.name.lower()}")
            self.setPage(int(pid), page)
        self.setStartId(int(PageId.SYSTEM))

    def set_system(self, ref: str | None, system: GameSystem | None) -> None:
        self.system_ref, self.system = ref, system
        if system is not None and ref is not None:
            self.map_page.reset_for(ref, system)

    def plan(self) -> BundlePlan | None:
        """The plan as the pages say now (None before a system and a folder are chosen)."""
        folder = self.folder_page.folder()
        if self.system is None or self.system_ref is None or folder is None:
            return None
        orientation, stagger = self.map_page.layout_choice()
        return BundlePlan(folder=folder, name=self.folder_page.name.text().strip() or DEFAULT_NAME,
                          system=self.system_ref, sheets=self.map_page.sheet_plans(),
                          terrain=self.terrain_page.current(), orientation=orientation, stagger=stagger)

    def final_plan(self) -> BundlePlan:
        """The plan with the rules a blank map cannot pass yet switched off (unless the user
        keeps them on): the bundle then validates clean, as ``hexproof new`` makes it."""
        plan = self.plan()
        if plan is None or self.system is None:
            raise NewBundleError("choose a game system and a folder first")
        park = self.summary_page.park.isChecked()
        if self._final is not None and self._final[0] == (plan, park):
            return self._final[1]  # the Summary page ran the rules on this very plan
        self.pending_rules = []
        final = plan
        if park:
            from validators.starter import rules_needing_content

            self.pending_rules = rules_needing_content(build_bundle(plan, self.system))
            final = replace(plan, ignore_rules=tuple(p.code for p in self.pending_rules))
        self._final = ((plan, park), final)
        return final

    def write(self) -> bool:
        """Write the bundle (after ``before_write`` agrees); False, with the reason on the
        Summary page and nothing written, when it cannot be."""
        page = self.summary_page
        try:
            plan = self.final_plan()
        except NewBundleError as exc:
            page.problem.setText(str(exc))
            return False
        if (problem := folder_problem(plan.folder)) is not None:  # the disk may have changed meanwhile
            page.problem.setText(problem + "; nothing written")
            return False
        if self.before_write is not None and not self.before_write():
            page.problem.setText("The open bundle was kept (its changes are not saved): nothing written.")
            return False
        try:
            self.result_bundle = create_bundle(plan, self.system)
        except NewBundleError as exc:
            page.problem.setText(str(exc))
            return False
        except (OSError, SafeFileError) as exc:
            page.problem.setText(f"Could not write {plan.folder}: {getattr(exc, 'message', None) or exc}. "
                                 "Nothing was written.")
            return False
        self.created.emit(self.result_bundle.root)
        return True


def fill_and_finish(wizard: NewBundleWizard, system: str, name: str, folder: str | Path,
                    size: tuple[int, int] | None = None, terrain: str | None = None,
                    labels: dict[str, Any] | None = None) -> Path:
    """Drive ``wizard`` from its first page to Finish as a user would: choose ``system`` (a
    shipped id or a system file's path), type ``name``, point it at ``folder`` (new or empty),
    set the first sheet's ``size`` (columns, rows) and label ``labels`` fields (LabelScheme
    field → value), pick ``terrain`` (default: the system's first), then Next through every page
    and Finish. Returns the new bundle's folder. Raises AssertionError naming the page and the
    problem it shows when a page refuses to go on."""
    wizard.restart()
    pages: list[tuple[PageId, Callable[[], None]]] = [
        (PageId.SYSTEM, lambda: _check(wizard.system_page.select(system), wizard, "system")),
        (PageId.FOLDER, lambda: _fill_folder(wizard.folder_page, name, folder)),
        (PageId.MAP, lambda: _fill_map(wizard.map_page, size, labels)),
        (PageId.TERRAIN, lambda: wizard.terrain_page.select(terrain) if terrain else None),
        (PageId.SUMMARY, lambda: None),
    ]
    for pid, fill in pages:
        _check(wizard.currentId() == int(pid), wizard, f"expected page {pid.name}")
        fill()
        page = wizard.currentPage()
        _check(page.isComplete(), wizard, pid.name)
        if pid is PageId.SUMMARY:
            wizard.button(QWizard.WizardButton.FinishButton).click()
            _check(wizard.result_bundle is not None, wizard, "Finish")
        else:
            wizard.next()
    assert wizard.result_bundle is not None
    return wizard.result_bundle.root


def _fill_folder(page: FolderPage, name: str, folder: str | Path) -> None:
    page.name.setText(name)
    page.set_folder(folder)


def _fill_map(page: MapPage, size: tuple[int, int] | None, labels: dict[str, Any] | None) -> None:
    if size is not None:
        page.cols.setValue(size[0])
        page.rows.setValue(size[1])
    for key, value in (labels or {}).items():
        widget = getattr(page, key)
        if isinstance(widget, QComboBox):
            widget.setCurrentIndex(widget.findData(value))
        elif isinstance(widget, QLineEdit):
            widget.setText(str(value))
        elif isinstance(widget, QSpinBox):
            widget.setValue(int(value))
        else:
            raise KeyError(f"no label field {key!r}")


def _check(ok: object, wizard: NewBundleWizard, what: str) -> None:
    if not ok:
        page = wizard.currentPage()
        shown = page.findChild(QLabel, "problems") if page is not None else None
        raise AssertionError(f"New Bundle wizard stopped at {what}: {shown.text() if shown else '?'}")
