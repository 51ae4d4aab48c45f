"""Scenario mode of the editor: setup, schedule, drop zones, beach overlays, locations,
counters, LOS — and the always-on diagnostics dock."""

from editor.scenario.mode import ScenarioMode, install_scenario_mode

__all__ = ["ScenarioMode", "install_scenario_mode"]
