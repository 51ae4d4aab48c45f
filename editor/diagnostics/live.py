"""LiveDiagnostics: the window's validation — one runner per document, the findings dock, the
counts in the status bar and the View ▸ Diagnostics toggle.

It belongs to the window, not to a mode: validation runs after every edit in any mode, and the
dock can be shown in any mode. The window places the dock and the label; a click on a finding is
the window's to dispatch (``MainWindow.show_diagnostic`` asks the modes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QLabel, QWidget

from editor.diagnostics.dock import DiagnosticsPanel
from editor.diagnostics.runner import ValidationRunner
from model.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from editor.document import MapDocument


class LiveDiagnostics(QObject):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.runner: ValidationRunner | None = None
        self._validated_diags: list[Diagnostic] = []
        # Findings of edits the editor refused (nothing changed, so no validator sees them),
        # by the panel that reported them: shown with the validation's until it withdraws them.
        self._editor_findings: dict[str, list[Diagnostic]] = {}
        self.panel = DiagnosticsPanel()
        self.dock = QDockWidget("Diagnostics", window)
        self.dock.setObjectName("diagnostics-dock")
        self.dock.setWidget(self.panel)
        # Hidden at start-up (and with a modest size hint) so it never makes the window grow;
        # Scenario mode opens it, View ▸ Diagnostics toggles it in any mode.
        self.dock.hide()
        self.label = QLabel()
        self.toggle_action: QAction = self.dock.toggleViewAction()
        self.toggle_action.setObjectName("view.diagnostics")
        self.toggle_action.setText("&Diagnostics")
        self.toggle_action.setShortcut(QKeySequence("Ctrl+Shift+D"))
        self.toggle_action.setStatusTip("Show or hide the validation findings (any mode)")

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The findings shown now (those of the latest finished run)."""
        return self.panel.diagnostics

    def document_set(self, document: "MapDocument") -> None:
        """A new document: a new runner (the old one validated the old bundle), first run now."""
        if self.runner is not None:
            self.runner.deleteLater()
        self._editor_findings.clear()
        self._validated_diags = []
        self.panel.clear()  # the old bundle's findings and rule text go now, not at the first run
        self.label.setText("")
        self.runner = ValidationRunner(document, parent=self)
        self.runner.finished.connect(self._validated)
        self.runner.started.connect(lambda: self.label.setText(self.label.text().split(" ·")[0] + " · validating…"))
        self.runner.flush()

    def document_closed(self) -> None:
        """No document: no runner, no findings, no counts."""
        if self.runner is not None:
            self.runner.deleteLater()
        self.runner = None
        self._editor_findings.clear()
        self._validated_diags = []
        self.panel.clear()
        self.label.setText("")

    def wait_validated(self) -> None:
        """Block in the event loop until the findings for the latest edit are shown (screenshots)."""
        from PySide6.QtCore import QEventLoop
        from PySide6.QtWidgets import QApplication

        r = self.runner
        while r is not None and (r.busy or r.completed != r.generation):
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)

    def set_editor_findings(self, source: str, diags: list[Diagnostic]) -> None:
        """Show ``diags`` (refused edits of panel ``source``) beside the validation's findings,
        replacing what ``source`` reported before (``[]`` withdraws them)."""
        self._editor_findings[source] = list(diags)
        self._show()

    def _validated(self, diags: list[Diagnostic]) -> None:
        self._validated_diags = list(diags)
        self._show()

    def _show(self) -> None:
        self.panel.set_diagnostics(self._validated_diags + [d for ds in self._editor_findings.values() for d in ds])
        c = self.panel.counts()
        secs = self.runner.last_seconds if self.runner else 0.0
        self.label.setText(f"{c[Severity.ERROR]} errors, {c[Severity.WARNING]} warnings, "
                           f"{c[Severity.INFO]} notes · {secs * 1000:.0f} ms")
