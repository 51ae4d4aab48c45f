"""ScenarioSelection: what the user has picked in Scenario mode, and what the map shows of it.

The view model the Scenario panels, map tools and scenario layer share (napari style): the
scenario being edited, the chosen unit or stack, the highlighted hexes, the chosen drop zone,
the LOS line and viewshed, which overlays are shown, which map tool a panel asked for, and a
panel waiting for a hex to be clicked. Nothing here is saved or undone; edits go to the document
as undo commands. Views observe the signals; panels write through the setters.

Like a ``QItemSelectionModel`` it is made for one document, and it keeps the one derived value
everything reads, the selected scenario resolved (variants ~2 ms each, and the layer paints often),
cached until the document changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from model import scenario_edits as se
from model.hexes import Hex
from model.scenario import Scenario, SetupEntry

if TYPE_CHECKING:
    from editor.analysis.heat import HeatOverlay
    from editor.document import MapDocument

LosLine = tuple[Hex, Hex, bool]  # from, to, visible


class ScenarioSelection(QObject):
    scenarioChanged = Signal(object)  # the scenario id now selected (str | None)
    unitChosen = Signal(object)       # a unit id picked in the order of battle
    stackChosen = Signal(object)      # the Hex of a stack clicked on the map
    toolChanged = Signal(str)         # the map tool a panel asks for: "setup", "zone", "overlay", "los"
    changed = Signal()                # something drawn on the map changed: the layer repaints

    def __init__(self, document: "MapDocument", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        ids = document.bundle.scenario_ids()
        self.scenario_id: str | None = ids[0] if ids else None
        self.unit: str | None = None
        self.stack: Hex | None = None
        self.highlight: list[Hex] = []
        self.zone: str | None = None
        self.zone_preview: list[Hex] = []  # a zone drag or lasso in progress
        self.los: LosLine | None = None
        self.viewshed: set[Hex] = set()
        self.viewshed_origin: Hex | None = None
        self.rings: list[int] = []
        self.heat: "HeatOverlay | None" = None  # an analysis or LOS-coverage heatmap (editor/analysis/)
        self.overlay_shown: dict[str, bool] = {}  # overlay id → shown on the map (view only, not saved)
        self.tool = "setup"
        self.pick: Callable[[Hex], None] | None = None  # a panel waiting for a map click
        self._resolved: dict[str, Scenario | None] = {}
        # Connected first, so the cache is stale-free before any view reacts to the same change.
        document.changed.connect(self._forget)

    def _forget(self, _change: object = None) -> None:
        self._resolved.clear()

    # --- the scenario --------------------------------------------------------------------------

    def set_scenario(self, scenario_id: str | None) -> bool:
        """Select a scenario of the document; False (nothing changes) for an unknown id."""
        if scenario_id is None or scenario_id not in self.document.bundle.scenarios:
            return False
        if scenario_id != self.scenario_id:
            self.scenario_id = scenario_id
            self.scenarioChanged.emit(scenario_id)
            self.changed.emit()
        return True

    def scenario(self) -> Scenario | None:
        """The selected scenario as its file has it (what edits change)."""
        return self.document.bundle.scenarios.get(self.scenario_id) if self.scenario_id else None

    def resolved(self) -> Scenario | None:
        """The selected scenario with its ``extends`` applied (what is shown); None if it cannot be."""
        sid = self.scenario_id
        if sid is None:
            return None
        if sid not in self._resolved:
            try:
                self._resolved[sid] = self.document.bundle.resolved(sid)
            except (KeyError, ValueError):
                self._resolved[sid] = None
        return self._resolved[sid]

    def own_setup_entry(self, unit: str) -> SetupEntry | None:
        """``unit``'s setup entry in the selected scenario's own file (not one it inherits)."""
        scen = self.scenario()
        return se.setup_entry(scen, unit) if scen is not None else None

    # --- picks ---------------------------------------------------------------------------------

    def choose_unit(self, unit: str) -> None:
        """A unit picked in the order of battle: highlight where it is set up."""
        self.unit = unit
        scen = self.resolved()
        entry = next((x for x in (scen.setup if scen else []) if x.unit == unit), None)
        h = (entry.hex or entry.adjacent_to) if entry is not None else None
        self.highlight = [h] if h is not None else []
        self.unitChosen.emit(unit)
        self.changed.emit()

    def choose_stack(self, h: Hex) -> None:
        """A stack (or an empty hex) clicked on the map."""
        self.stack = h
        self.highlight = [h]
        self.stackChosen.emit(h)
        self.changed.emit()

    def set_highlight(self, hexes: list[Hex]) -> None:
        self.highlight = list(hexes)
        self.changed.emit()

    def set_zone(self, zone_id: str | None) -> None:
        if zone_id != self.zone:
            self.zone = zone_id
            self.changed.emit()

    def set_zone_preview(self, hexes: list[Hex]) -> None:
        self.zone_preview = list(hexes)
        self.changed.emit()

    def set_overlay_shown(self, overlay_id: str, on: bool) -> None:
        self.overlay_shown[overlay_id] = on
        self.changed.emit()

    # --- line of sight ----------------------------------------------------------------------------

    def set_los(self, line: LosLine | None) -> None:
        self.los = line
        self.changed.emit()

    def set_viewshed(self, origin: Hex, seen: set[Hex], rings: list[int]) -> None:
        self.viewshed, self.viewshed_origin, self.rings = seen, origin, list(rings)
        self.changed.emit()

    def set_heat(self, overlay: "HeatOverlay | None") -> None:
        """Show a heatmap over the map (None: hide it); view state, never saved."""
        self.heat = overlay
        self.changed.emit()

    def clear_los(self) -> None:
        self.los, self.viewshed, self.viewshed_origin, self.rings = None, set(), None, []
        self.changed.emit()

    # --- tools ---------------------------------------------------------------------------------------

    def set_tool(self, name: str) -> None:
        """Ask for map tool ``name``; Scenario mode puts it on the view."""
        self.tool = name
        self.toolChanged.emit(name)

    def ask_for_hex(self, then: Callable[[Hex], None]) -> None:
        """The next plain click on the map (with the setup tool) goes to ``then``, not to the stacks."""
        self.pick = then

    def take_pick(self) -> Callable[[Hex], None] | None:
        then, self.pick = self.pick, None
        return then
