"""Rename Id… : a new id for one counter, with how many references the rename changes
(model/counter_edits.preview_rename) shown before anything is done. OK is enabled only when
the rename is possible; the rename itself is one undo step (editor/commands/counters.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QListWidget, QWidget

from model import counter_edits as ce


class RenameCounterDialog(QDialog):
    def __init__(self, bundle: Any, old: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bundle, self.old = bundle, old
        self.setWindowTitle(f"Rename counter {old}")
        self.edit = QLineEdit(old)
        self.edit.selectAll()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.refs = QListWidget()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("New id:", self.edit)
        form.addRow(self.summary)
        form.addRow("References:", self.refs)
        form.addRow(self.buttons)
        self.edit.textChanged.connect(lambda _t: self._update())
        self._update()

    def new_id(self) -> str:
        return self.edit.text()

    def _update(self) -> None:
        preview = ce.preview_rename(self.bundle, self.old, self.new_id())
        self.preview = preview
        self.refs.clear()
        self.refs.addItems([r.describe() for r in preview.references] + preview.outside)
        n = preview.count
        text = f"{n} reference{'s' if n != 1 else ''} will change with the id."
        if preview.outside:
            text += f" {len(preview.outside)} outside the bundle will not."
        if preview.problems:
            text = "Cannot rename: " + "; ".join(preview.problems) if self.new_id() != self.old else text
        self.summary.setText(text)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(preview.ok)
