"""The Analysis Report window: the text summary ``hexproof analyze`` prints, shown after a run of
Scenario ▸ Analyse Random Procedures…, and saved as text or JSON (the command's two formats).

One window per main window, reused by every run (it shows the last report); non-modal, so the
heatmap can be read beside it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QMessageBox, QPlainTextEdit, QPushButton,
                               QVBoxLayout, QWidget)

from model.formats.yamlio import atomic_write_text


class ReportView(QDialog):
    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setObjectName("analysis-report")
        self.resize(900, 560)
        self.report: dict[str, Any] | None = None
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("analysis-report-text")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # the tables' columns line up
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.save_button = QPushButton("&Save As…", self)
        self.save_button.setObjectName("analysis-report-save")
        self.save_button.setToolTip("Save the report as text (.txt) or JSON (.json), as `hexproof analyze --format` writes it")
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.save_button.clicked.connect(lambda: self.save())
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)

    def show_report(self, title: str, report: dict[str, Any], text: str) -> None:
        self.report = report
        self.setWindowTitle(f"Analysis Report — {title}")
        self.text.setPlainText(text)
        self.show()
        self.raise_()

    def save(self, path: Path | None = None, start: Path | None = None) -> Path | None:
        """Write the report to ``path`` (asked when None): JSON for ``.json``, else the text. The
        write lands whole or not at all; a failure is said, never a traceback."""
        if self.report is None:
            return None
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self, "Save Analysis Report", str(start or ""),
                                                  "Text (*.txt);;JSON (*.json)")
            if not name:
                return None
            path = Path(name) if Path(name).suffix else Path(name).with_suffix(".txt")
        data = (json.dumps(self.report, indent=2, allow_nan=False) + "\n") if path.suffix.lower() == ".json" else self.text.toPlainText()
        try:
            atomic_write_text(path, data, keep_backup=False)
        except OSError as exc:
            QMessageBox.warning(self, "Save Analysis Report", f"Could not write {path}: {exc}")
            return None
        return path
