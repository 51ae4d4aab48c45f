"""Scenario undo commands (verb + noun) over the pure edits in :mod:`model.scenario_edits`.

Each command runs its pure edit in ``redo`` (keeping the returned undo record) and restores
it in ``undo``; both emit ``ScenarioChanged`` (or ``PropertyChanged`` for counters) so the
views and the diagnostics dock refresh. Nothing here assigns model fields directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from editor.commands.base import MapCommand
from model import scenario_edits as se
from model.changes import Change, PropertyChanged, ScenarioChanged
from model.base import HexsideKey
from model.counters import Counter
from model.hexes import Hex
from model.mapdata import NamedLocation
from model.scenario import DropZone, Scenario, ScheduleEntry

if TYPE_CHECKING:
    from editor.document import MapDocument


class ScenarioCommand(MapCommand):
    """Base: applies ``edit(scenario)`` and remembers the undo record it returns."""

    def __init__(self, doc: "MapDocument", scenario_id: str, text: str,
                 edit: Callable[[Scenario], se.Undo]) -> None:
        super().__init__(doc, text)
        self.scenario_id = scenario_id
        self._edit = edit
        self._undo: se.Undo | None = None

    @property
    def scenario(self) -> Scenario:
        return self.doc.bundle.scenarios[self.scenario_id]

    def event(self) -> Change:
        return ScenarioChanged(None, self.scenario_id)

    def redo(self) -> None:
        self._undo = self._edit(self.scenario)
        self.emit(self.event())

    def undo(self) -> None:
        assert self._undo is not None
        self._undo.undo()
        self.emit(self.event())


class PlaceUnit(ScenarioCommand):
    """Put a unit on a hex (``kind`` hex / adjacent_to) or in a box, area or location."""

    def __init__(self, doc: "MapDocument", scenario_id: str, unit: str, kind: str, where: Hex | str) -> None:
        shown = doc.hmap.label(where) if isinstance(where, Hex) else where
        how = {"hex": "at", "adjacent_to": "in or adjacent to", "area": "in area", "box": "in box",
               "location": "at location"}.get(kind, "at")
        super().__init__(doc, scenario_id, f"Place {unit} {how} {shown}",
                         lambda s: se.place_unit(s, unit, kind, where))
        self.unit, self.kind, self.where = unit, kind, where


class RemoveUnit(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, unit: str) -> None:
        super().__init__(doc, scenario_id, f"Remove {unit} from setup", lambda s: se.remove_unit(s, unit))


class SetUnitState(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, unit: str, flag: str, on: bool) -> None:
        super().__init__(doc, scenario_id, f"{'Set' if on else 'Clear'} {flag} on {unit}",
                         lambda s: se.set_unit_state(s, unit, flag, on))


class AddScheduleEntry(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, entry: ScheduleEntry, index: int | None = None) -> None:
        super().__init__(doc, scenario_id, "Add schedule entry", lambda s: se.add_schedule_entry(s, entry, index))


class RemoveScheduleEntry(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, index: int) -> None:
        super().__init__(doc, scenario_id, "Remove schedule entry", lambda s: se.remove_schedule_entry(s, index))


class ChangeScheduleEntry(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, index: int, **changes: Any) -> None:
        names = ", ".join(changes)
        super().__init__(doc, scenario_id, f"Change schedule {names}",
                         lambda s: se.change_schedule_entry(s, index, **changes))


class AddDropZone(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, zone: DropZone) -> None:
        super().__init__(doc, scenario_id, f"Add drop zone {zone.name}", lambda s: se.add_drop_zone(s, zone))


class RenameDropZone(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, zone_id: str, name: str) -> None:
        super().__init__(doc, scenario_id, f"Rename drop zone {zone_id}",
                         lambda s: se.rename_drop_zone(s, zone_id, name))


class SetZoneHexes(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, zone_id: str, hexes: list[Hex], mode: str) -> None:
        super().__init__(doc, scenario_id, f"{mode.title()} drop zone hexes",
                         lambda s: se.set_zone_hexes(s, zone_id, hexes, mode))


class ShowOverlay(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, overlay_id: str, visible: bool) -> None:
        super().__init__(doc, scenario_id, f"{'Show' if visible else 'Hide'} overlay {overlay_id}",
                         lambda s: se.set_overlay_visible(s, overlay_id, visible))


class SetTrackLevel(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, overlay_id: str, track: str, level: Any) -> None:
        super().__init__(doc, scenario_id, f"Set track {track}",
                         lambda s: se.set_track_level(s, overlay_id, track, level))


class ToggleLandingHex(ScenarioCommand):
    """Add/remove a planned or actual landing hex of a sub-beach."""

    def __init__(self, doc: "MapDocument", scenario_id: str, overlay_id: str, sub_id: str, which: str, h: Hex) -> None:
        super().__init__(doc, scenario_id, f"Toggle {which} landing hex {doc.hmap.label(h)}",
                         lambda s: se.toggle_landing_hex(s, overlay_id, sub_id, which, h))


class ToggleGapHexside(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, overlay_id: str, key: HexsideKey) -> None:
        super().__init__(doc, scenario_id, f"Toggle gap hexside {doc.hmap.label(key.hex)}",
                         lambda s: se.toggle_gap_hexside(s, overlay_id, key))


class ToggleReinforcementHex(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, overlay_id: str, h: Hex) -> None:
        super().__init__(doc, scenario_id, f"Toggle reinforcement hex {doc.hmap.label(h)}",
                         lambda s: se.toggle_reinforcement_hex(s, overlay_id, h))


class SetDrift(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, overlay_id: str, sub_id: str, version: str,
                 shift: str | None) -> None:
        super().__init__(doc, scenario_id, f"Set drift {sub_id} ({version})",
                         lambda s: se.set_drift(s, overlay_id, sub_id, version, shift))


class AddLocation(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, loc: NamedLocation) -> None:
        super().__init__(doc, scenario_id, f"Add location {loc.name}", lambda s: se.add_location(s, loc))


class RenameLocation(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, loc_id: str, name: str) -> None:
        super().__init__(doc, scenario_id, f"Rename location {loc_id}",
                         lambda s: se.rename_location(s, loc_id, name))


class MoveLocation(ScenarioCommand):
    def __init__(self, doc: "MapDocument", scenario_id: str, loc_id: str, h: Hex) -> None:
        super().__init__(doc, scenario_id, f"Move location {loc_id}", lambda s: se.move_location(s, loc_id, h))


class SetCounterValue(MapCommand):
    """Change one printed value of a counter (front/back)."""

    def __init__(self, doc: "MapDocument", counter: Counter, side: str, key: str, value: Any) -> None:
        super().__init__(doc, f"Change {counter.id} {side}.{key}")
        self.counter, self.side, self.key, self.value = counter, side, key, value
        self._undo: se.Undo | None = None

    def redo(self) -> None:
        self._undo = se.set_counter_value(self.counter, self.side, self.key, self.value)
        self.emit(PropertyChanged(None, "Counter", f"{self.side}.{self.key}"))

    def undo(self) -> None:
        assert self._undo is not None
        self._undo.undo()
        self.emit(PropertyChanged(None, "Counter", f"{self.side}.{self.key}"))
