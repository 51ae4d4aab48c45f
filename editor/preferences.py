"""PreferencesDialog (Edit ▸ Preferences…): the window's settings, kept in QSettings.

General — autosave/seconds: how often a dirty bundle is copied to the recovery folder;
autosave/after_edit_ms: how long after the last edit it is copied too; files/watch_debounce_ms: how
long the file watch waits before it checks a change on disk.

Folders — files/default_folder: where Open, New Bundle and the export dialogs start when nothing
nearer (the open bundle's folder, the last New Bundle folder) is known.

Units and print — units/length (``mm`` or ``in``): the unit the print sizes are shown and typed in;
proof/hex_mm, proof/counter_mm, proof/page: the scale File ▸ Export ▸ Proof PDF prints at (the
``hexproof proof`` options ``--scale``, ``--counter-mm``, ``--page``). They are stored in millimetres
whatever the unit shown, so changing the unit never changes a size.

Map — view/label_font_percent: the size of the map's hex numbers and feature names, in percent of
the size drawn for the zoom.

Rulebooks — rulebook/<system id>: the rulebook text Help ▸ Rule Reference (F1) opens for a game
system when the bundle's own ``rulebook`` name is not found beside it (editor/rule_reference.py).
Every system remembered so far and the open bundle's system are listed; Clear forgets the choice.

"Reset Panel Layouts" forgets every mode's saved dock layout: the active mode shows its default docks
at once, each other mode on its next entry (MainWindow.reset_layouts).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLineEdit,
                               QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from editor.rule_reference import SETTINGS_GROUP as RULEBOOK_GROUP
from editor.rule_reference import settings_key as rulebook_key

# key, label, minimum, maximum, suffix
FIELDS = (("autosave/seconds", "Autosave every", 5, 3600, " s"),
          ("autosave/after_edit_ms", "Autosave after the last edit", 0, 600000, " ms"),
          ("files/watch_debounce_ms", "Check files changed on disk after", 0, 60000, " ms"))

DEFAULT_FOLDER = "files/default_folder"
UNITS = "units/length"
HEX_MM = "proof/hex_mm"
COUNTER_MM = "proof/counter_mm"
PAGE = "proof/page"
LABEL_PERCENT = "view/label_font_percent"

MM_PER_UNIT = {"mm": 1.0, "in": 25.4}
UNIT_NAMES = (("mm", "Millimetres (mm)"), ("in", "Inches (in)"))
PAGES = ("A4", "Letter")
# The proof's defaults (editor/export/pdf.ProofOptions and `hexproof proof`): 16 mm hexes, 5/8-inch counters.
DEFAULTS: dict[str, Any] = {DEFAULT_FOLDER: "", UNITS: "mm", HEX_MM: 16.0, COUNTER_MM: 15.875, PAGE: "A4",
                            LABEL_PERCENT: 100}
# Sizes a printer can hold, in millimetres: a 4 mm hex is unreadable, a 60 mm one a poster.
SIZE_RANGE_MM = {HEX_MM: (4.0, 60.0), COUNTER_MM: (6.0, 40.0)}
LABEL_RANGE = (50, 200)


def read(settings: QSettings, key: str) -> Any:
    """One preference of the non-autosave kind, checked: a hand-edited or stale settings file
    gives the default, never an exception or an out-of-range size."""
    default = DEFAULTS[key]
    raw = settings.value(key, default)
    try:
        if key in SIZE_RANGE_MM:
            low, high = SIZE_RANGE_MM[key]
            return min(high, max(low, float(raw)))  # type: ignore[arg-type]
        if key == LABEL_PERCENT:
            return min(LABEL_RANGE[1], max(LABEL_RANGE[0], int(raw)))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default
    text = str(raw) if raw is not None else default
    if key == UNITS and text not in MM_PER_UNIT:
        return default
    if key == PAGE and text not in PAGES:
        return default
    return text


def remembered_rulebooks(settings: QSettings) -> dict[str, str]:
    """{system id: rulebook text path} of every system whose rulebook the user chose."""
    settings.beginGroup(RULEBOOK_GROUP)
    try:
        return {key: str(settings.value(key)) for key in settings.childKeys() if settings.value(key)}
    finally:
        settings.endGroup()


class PreferencesDialog(QDialog):
    applied = Signal(dict)      # {key: value} of every preference, on OK
    resetLayouts = Signal()     # Reset Panel Layouts

    def __init__(self, settings: QSettings, current: dict[str, int], parent: QWidget | None = None,
                 systems: tuple[str, ...] = ()) -> None:
        """``current``: the autosave fields' values in force; ``systems``: game system ids to list
        under Rulebooks besides the remembered ones (the open bundle's)."""
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.settings = settings
        outer = QVBoxLayout(self)

        general = QGroupBox("General")
        form = QFormLayout(general)
        self.fields: dict[str, QSpinBox] = {}
        for key, label, low, high, suffix in FIELDS:
            box = QSpinBox()
            box.setObjectName(key)
            box.setRange(low, high)
            box.setSuffix(suffix)
            box.setValue(int(current.get(key, low)))
            form.addRow(label, box)
            self.fields[key] = box
        self.default_folder = QLineEdit(read(settings, DEFAULT_FOLDER))
        self.default_folder.setObjectName(DEFAULT_FOLDER)
        self.default_folder.setPlaceholderText("none: the dialogs start where the system puts them")
        self.default_folder.setToolTip("Where Open, New Bundle and Export start when no bundle folder is nearer")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse_folder)
        row = QHBoxLayout()
        row.addWidget(self.default_folder, 1)
        row.addWidget(browse)
        form.addRow("Default folder", row)
        outer.addWidget(general)

        units = QGroupBox("Units and print")
        form = QFormLayout(units)
        self.units = QComboBox()
        self.units.setObjectName(UNITS)
        for key, name in UNIT_NAMES:
            self.units.addItem(name, key)
        self._unit = read(settings, UNITS)
        self.units.setCurrentIndex([k for k, _ in UNIT_NAMES].index(self._unit))
        form.addRow("Length units", self.units)
        self.sizes: dict[str, QDoubleSpinBox] = {}
        for key, label, tip in ((HEX_MM, "Proof hex size", "A hex's width across flats on the proof PDF"),
                                (COUNTER_MM, "Proof counter size", "A counter's side on the proof PDF")):
            spin = QDoubleSpinBox()
            spin.setObjectName(key)
            spin.setToolTip(tip)
            self.sizes[key] = spin
            form.addRow(label, spin)
        self._mm = {key: read(settings, key) for key in self.sizes}
        self._show_sizes()
        self.units.currentIndexChanged.connect(self._unit_changed)
        self.page = QComboBox()
        self.page.setObjectName(PAGE)
        self.page.addItems(PAGES)
        self.page.setCurrentText(read(settings, PAGE))
        form.addRow("Proof paper", self.page)
        outer.addWidget(units)

        view = QGroupBox("Map")
        form = QFormLayout(view)
        self.label_percent = QSpinBox()
        self.label_percent.setObjectName(LABEL_PERCENT)
        self.label_percent.setRange(*LABEL_RANGE)
        self.label_percent.setSuffix(" %")
        self.label_percent.setSingleStep(10)
        self.label_percent.setValue(read(settings, LABEL_PERCENT))
        self.label_percent.setToolTip("Hex numbers and feature names, in percent of their usual size")
        form.addRow("Label font size", self.label_percent)
        outer.addWidget(view)

        books = QGroupBox("Rulebooks (Help ▸ Rule Reference)")
        box = QVBoxLayout(books)
        chosen = remembered_rulebooks(settings)
        ids = sorted(set(chosen) | set(systems))
        self.rulebooks = QTableWidget(len(ids), 2)
        self.rulebooks.setObjectName("rulebooks")
        self.rulebooks.setHorizontalHeaderLabels(["Game system", "Rulebook text"])
        self.rulebooks.verticalHeader().setVisible(False)
        self.rulebooks.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.rulebooks.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.rulebooks.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.rulebooks.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for r, system_id in enumerate(ids):
            self.rulebooks.setItem(r, 0, QTableWidgetItem(system_id))
            self.rulebooks.setItem(r, 1, QTableWidgetItem(chosen.get(system_id, "")))
        if ids:
            self.rulebooks.selectRow(0)
        box.addWidget(self.rulebooks)
        buttons = QHBoxLayout()
        self.choose_rulebook = QPushButton("Choose…")
        self.choose_rulebook.clicked.connect(self._choose_rulebook)
        self.clear_rulebook = QPushButton("Clear")
        self.clear_rulebook.clicked.connect(lambda: self.set_rulebook(self._selected_system(), ""))
        buttons.addStretch(1)
        buttons.addWidget(self.choose_rulebook)
        buttons.addWidget(self.clear_rulebook)
        box.addLayout(buttons)
        outer.addWidget(books)

        self.reset_button = QPushButton("Reset Panel Layouts")
        self.reset_button.setToolTip("Every mode shows its default docks again next time it is entered")
        self.reset_button.clicked.connect(self.resetLayouts.emit)
        outer.addWidget(self.reset_button)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)

    # --- units ------------------------------------------------------------------------------

    def _show_sizes(self) -> None:
        per = MM_PER_UNIT[self._unit]
        for key, spin in self.sizes.items():
            low, high = SIZE_RANGE_MM[key]
            spin.blockSignals(True)
            spin.setDecimals(3)  # 5/8 inch is 15.875 mm: one decimal would round every size it shows
            spin.setSingleStep(0.5 if self._unit == "mm" else 0.0625)
            spin.setRange(low / per, high / per)
            spin.setSuffix(f" {self._unit}")
            spin.setValue(self._mm[key] / per)
            spin.blockSignals(False)

    def _unit_changed(self) -> None:
        # Take the sizes typed so far into millimetres, then show them in the new unit: a change
        # of unit never changes a size (except the rounding to the spin box's decimals).
        self._mm = self.sizes_mm()
        self._unit = str(self.units.currentData())
        self._show_sizes()

    def sizes_mm(self) -> dict[str, float]:
        per = MM_PER_UNIT[self._unit]
        return {key: round(spin.value() * per, 3) for key, spin in self.sizes.items()}

    # --- folders and rulebooks --------------------------------------------------------------

    def ask_folder(self) -> str:
        """A folder to start dialogs in (tests patch this)."""
        return QFileDialog.getExistingDirectory(self, "Default folder", self.default_folder.text())

    def _browse_folder(self) -> None:
        picked = self.ask_folder()
        if picked:
            self.default_folder.setText(picked)

    def ask_rulebook(self, system_id: str) -> str:
        """A rulebook text file for ``system_id`` (tests patch this)."""
        path, _ = QFileDialog.getOpenFileName(self, f"Choose the rulebook text of {system_id}", "",
                                              "Rulebook text (*.txt *.md);;All files (*)")
        return path

    def _selected_system(self) -> str | None:
        row = self.rulebooks.currentRow()
        item = self.rulebooks.item(row, 0) if row >= 0 else None
        return item.text() if item is not None else None

    def _choose_rulebook(self) -> None:
        system_id = self._selected_system()
        if system_id is not None:
            picked = self.ask_rulebook(system_id)
            if picked:
                self.set_rulebook(system_id, picked)

    def set_rulebook(self, system_id: str | None, path: str) -> None:
        for r in range(self.rulebooks.rowCount()):
            if self.rulebooks.item(r, 0).text() == system_id:
                self.rulebooks.item(r, 1).setText(path)

    def rulebook_paths(self) -> dict[str, str]:
        return {self.rulebooks.item(r, 0).text(): self.rulebooks.item(r, 1).text()
                for r in range(self.rulebooks.rowCount())}

    # --- result -----------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        values: dict[str, Any] = {key: box.value() for key, box in self.fields.items()}
        folder = self.default_folder.text().strip()
        values[DEFAULT_FOLDER] = str(Path(folder).expanduser()) if folder else ""
        values[UNITS] = self._unit
        values.update(self.sizes_mm())
        values[PAGE] = self.page.currentText()
        values[LABEL_PERCENT] = self.label_percent.value()
        return values

    def accept(self) -> None:
        values = self.values()
        for key, value in values.items():
            self.settings.setValue(key, value)
        for system_id, path in self.rulebook_paths().items():
            if path:
                self.settings.setValue(rulebook_key(system_id), path)
            else:
                self.settings.remove(rulebook_key(system_id))
        self.applied.emit(values)
        super().accept()
