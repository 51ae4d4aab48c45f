"""Scenario mode of the editor: setup, schedule, drop zones, beach overlays, locations,
counters, LOS (the diagnostics dock is the window's: editor/diagnostics/live.py)."""

from editor.scenario.mode import ScenarioMode
from editor.scenario.selection import ScenarioSelection

__all__ = ["ScenarioMode", "ScenarioSelection"]
