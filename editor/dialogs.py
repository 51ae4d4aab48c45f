"""Dialogs: diagnostics text and non-modal message boxes (File ▸ New Bundle… is editor/new_bundle_wizard.py)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from model.diagnostics import Diagnostic, sort_diagnostics


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
