"""Builds Scenario mode's secondary docks and map tools (one place, so mode.py stays short)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from editor.scenario.counters_dock import CounterPanel
from editor.scenario.locations import LocationPanel
from editor.scenario.los_panel import LosPanel
from editor.scenario.overlays import OverlayPanel
from editor.scenario.schedule import SchedulePanel
from editor.scenario.tools import OverlayTool, SetupTool, ZoneTool
from editor.scenario.zones import ZonePanel

if TYPE_CHECKING:
    from editor.scenario.mode import ScenarioMode


def build_panels(mode: "ScenarioMode") -> None:
    mode.tools = {"setup": SetupTool(mode), "zone": ZoneTool(mode), "overlay": OverlayTool(mode)}
    mode.counter_panel = CounterPanel(mode)
    mode.schedule_panel = SchedulePanel(mode)
    mode.zone_panel = ZonePanel(mode)
    mode.overlay_panel = OverlayPanel(mode)
    mode.location_panel = LocationPanel(mode)
    mode.los_panel = LosPanel(mode)
    mode.tools["los"] = mode.los_panel.tool
    mode.panels = [mode.counter_panel, mode.schedule_panel, mode.zone_panel, mode.overlay_panel,
                   mode.location_panel, mode.los_panel]
    right = Qt.DockWidgetArea.RightDockWidgetArea
    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    docks = [mode._dock("Counters", "scenario-counters-dock", mode.counter_panel, bottom),
             mode._dock("Schedule", "scenario-schedule-dock", mode.schedule_panel, bottom),
             mode._dock("Drop Zones", "scenario-zones-dock", mode.zone_panel, right),
             mode._dock("Beach Overlays", "scenario-overlays-dock", mode.overlay_panel, right),
             mode._dock("Locations", "scenario-locations-dock", mode.location_panel, right),
             mode._dock("Line of Sight", "scenario-los-dock", mode.los_panel, right)]
    # Tabified when Scenario mode first shows them: tabifying hidden docks at start-up makes
    # QMainWindow grow the window to fit them all.
    mode.tab_groups = [[mode.diag_dock, docks[0], docks[1]], docks[2:]]
    mode.docks += docks
