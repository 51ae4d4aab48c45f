"""ScenarioPanels: Scenario mode's docks' widgets and map tools for one document.

Built from the document and a selection alone (no mode, no window), so each panel can be made and
tested on its own; Scenario mode builds a new set for each document and puts them in its docks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QWidget

from editor.scenario.counters_dock import CounterPanel
from editor.scenario.locations import LocationPanel
from editor.scenario.los_panel import LosPanel
from editor.scenario.oob import BoxList, OobTree, UnitPanel
from editor.scenario.overlays import OverlayPanel
from editor.scenario.properties import ScenarioPropertiesPanel
from editor.scenario.schedule import SchedulePanel
from editor.scenario.tools import SetupTool, ZoneTool
from editor.scenario.zones import ZonePanel
from editor.tools.base import BaseTool

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection


class Refreshable(Protocol):
    def refresh(self) -> None: ...


@dataclass
class ScenarioPanels:
    oob: OobTree
    boxes: BoxList
    unit: UnitPanel
    counters: CounterPanel
    schedule: SchedulePanel
    zones: ZonePanel
    overlays: OverlayPanel
    locations: LocationPanel
    los: LosPanel
    properties: ScenarioPropertiesPanel
    tools: dict[str, BaseTool] = field(default_factory=dict)  # by the names panels ask the selection for

    def widgets(self) -> list[QWidget]:
        """In dock order (ScenarioMode.DOCKS)."""
        return [self.oob, self.boxes, self.unit, self.counters, self.schedule, self.zones, self.overlays,
                self.locations, self.los, self.properties]

    def refreshable(self) -> list[Refreshable]:
        """The panels that rebuild from the document on ``refresh()`` (the unit panel follows the selection)."""
        return [self.oob, self.boxes, self.counters, self.schedule, self.zones, self.overlays, self.locations,
                self.los, self.properties]


def build_panels(document: "MapDocument", selection: "ScenarioSelection") -> ScenarioPanels:
    panels = ScenarioPanels(
        oob=OobTree(document, selection), boxes=BoxList(document, selection), unit=UnitPanel(document, selection),
        counters=CounterPanel(document), schedule=SchedulePanel(document, selection),
        zones=ZonePanel(document, selection), overlays=OverlayPanel(document, selection),
        locations=LocationPanel(document, selection), los=LosPanel(document, selection),
        properties=ScenarioPropertiesPanel(document, selection))
    panels.tools = {"setup": SetupTool(document, selection), "zone": ZoneTool(document, selection),
                    "overlay": panels.overlays.tool, "los": panels.los.tool}
    return panels
