"""PreferencesDialog (Edit ▸ Preferences…): the window's settings, kept in QSettings.

autosave/seconds: how often a dirty bundle is copied to the recovery folder; autosave/after_edit_ms:
how long after the last edit it is copied too; files/watch_debounce_ms: how long the file watch
waits before it checks a change on disk. "Reset Panel Layouts" forgets every mode's saved
dock layout (the next entry of each mode shows its default docks).
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QPushButton, QSpinBox, QWidget

# key, label, minimum, maximum, suffix
FIELDS = (("autosave/seconds", "Autosave every", 5, 3600, " s"),
          ("autosave/after_edit_ms", "Autosave after the last edit", 0, 600000, " ms"),
          ("files/watch_debounce_ms", "Check files changed on disk after", 0, 60000, " ms"))


class PreferencesDialog(QDialog):
    applied = Signal(dict)      # {key: value} of every field, on OK
    resetLayouts = Signal()     # Reset Panel Layouts

    def __init__(self, settings: QSettings, current: dict[str, int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.settings = settings
        self.fields: dict[str, QSpinBox] = {}
        form = QFormLayout(self)
        for key, label, low, high, suffix in FIELDS:
            box = QSpinBox()
            box.setObjectName(key)
            box.setRange(low, high)
            box.setSuffix(suffix)
            box.setValue(int(current.get(key, low)))
            form.addRow(label, box)
            self.fields[key] = box
        self.reset_button = QPushButton("Reset Panel Layouts")
        self.reset_button.setToolTip("Every mode shows its default docks again next time it is entered")
        self.reset_button.clicked.connect(self.resetLayouts.emit)
        form.addRow("", self.reset_button)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)

    def values(self) -> dict[str, int]:
        return {key: box.value() for key, box in self.fields.items()}

    def accept(self) -> None:
        values = self.values()
        for key, value in values.items():
            self.settings.setValue(key, value)
        self.applied.emit(values)
        super().accept()
