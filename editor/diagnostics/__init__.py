"""Diagnostics dock: live re-validation off the UI thread, findings grouped by severity and code."""

from editor.diagnostics.dock import DiagnosticsPanel
from editor.diagnostics.live import LiveDiagnostics
from editor.diagnostics.runner import ValidationRunner

__all__ = ["DiagnosticsPanel", "LiveDiagnostics", "ValidationRunner"]
