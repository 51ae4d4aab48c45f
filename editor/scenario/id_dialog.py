"""ScenarioIdDialog: ask for a scenario id (and title), checking the id as it is typed.

Used by the Scenario menu (New Scenario, New Variant, Duplicate, Rename). The id is checked on
every keystroke with the same rule the edit applies (:func:`model.scenario_crud.scenario_id_problem`);
while it is refused the message says why under the field and OK stays disabled, so a refused id
never reaches the undo stack.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget


class ScenarioIdDialog(QDialog):
    def __init__(self, parent: QWidget | None, title: str, check: Callable[[str], str | None],
                 sid: str = "", name: str | None = "", intro: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.check = check
        form = QFormLayout(self)
        if intro:
            lead = QLabel(intro)
            lead.setWordWrap(True)
            form.addRow(lead)
        self.id_edit = QLineEdit(sid)
        self.id_edit.setObjectName("scenario-id")
        self.id_edit.setPlaceholderText("letters, digits, - _ .")
        form.addRow("&Id:", self.id_edit)
        self.problem = QLabel()
        self.problem.setObjectName("scenario-id-problem")
        self.problem.setStyleSheet("color: #b00020;")
        self.problem.setWordWrap(True)
        form.addRow("", self.problem)
        self.title_edit: QLineEdit | None = None
        if name is not None:
            self.title_edit = QLineEdit(name)
            self.title_edit.setObjectName("scenario-title")
            form.addRow("&Title:", self.title_edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.id_edit.textChanged.connect(self._validate)
        self._validate()
        self.id_edit.selectAll()

    def _validate(self, _text: str = "") -> None:
        why = self.check(self.id_edit.text().strip())
        self.problem.setText(why or "")
        self.problem.setVisible(bool(why))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(why is None)

    @property
    def accepted_ok(self) -> bool:
        """Whether OK is enabled now (the id is accepted)."""
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    def values(self) -> tuple[str, str | None]:
        """(id, title or None when the dialog has no title field)."""
        return self.id_edit.text().strip(), self.title_edit.text().strip() if self.title_edit is not None else None
