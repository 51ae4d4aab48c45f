"""Dialogs: New Map wizard, diagnostics list (non-modal), background calibration."""

from __future__ import annotations

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLineEdit, QMessageBox, QPushButton, QSpinBox, QWidget)

from model.diagnostics import Diagnostic, sort_diagnostics
from model.system import available_systems


class NewMapDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New Map")
        form = QFormLayout(self)
        self.cols = QSpinBox()
        self.cols.setRange(1, 5000)
        self.cols.setValue(30)
        self.rows = QSpinBox()
        self.rows.setRange(1, 5000)
        self.rows.setValue(20)
        self.orientation = QComboBox()
        self.orientation.addItems(["flat", "pointy"])
        self.stagger = QComboBox()
        self.stagger.addItems(["odd", "even"])
        self.scheme = QComboBox()
        # Label schemes of the three games (research/hex-numbering.md): 2412, 28.048, 0101.
        self.scheme.addItem("CCRR (2412)", (2, 2, ""))
        self.scheme.addItem("CC.RRR (28.048)", (2, 3, "."))
        self.scheme.addItem("CCCRRR (001001)", (3, 3, ""))
        self.system = QComboBox()
        self.system.addItems(available_systems())
        self.folder = QLineEdit("untitled")
        self.folder.setToolTip("A new or empty folder; a folder that already holds files asks before anything "
                               "is replaced")
        self.browse = QPushButton("Browse…")
        self.browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(self.browse)
        form.addRow("Columns", self.cols)
        form.addRow("Rows", self.rows)
        form.addRow("Orientation", self.orientation)
        form.addRow("Stagger", self.stagger)
        form.addRow("Labels", self.scheme)
        form.addRow("Game system", self.system)
        form.addRow("Bundle folder", folder_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder for the new bundle", self.folder.text())
        if folder:
            self.folder.setText(folder)


def diagnostics_text(diags: list[Diagnostic]) -> str:
    return "\n".join(d.render() for d in sort_diagnostics(diags))


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                details: str | None = None) -> QMessageBox:
    """A non-modal message box: the editor never blocks (or crashes) on a bad file."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
    if details:
        box.setDetailedText(details)
        box.setInformativeText(details if len(details) < 2000 else details[:2000] + "\n…")
    box.setModal(False)
    box.show()
    return box
