"""Scenarios: playable area, turns, setup, schedules, drop zones, beach overlays, special
rules, victory conditions — and variants that extend another scenario with overrides.

Every reference (unit, box, zone, location, rule case) is kept as written, so a scenario
that breaks a game rule still loads; the validators report it.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from typing import Annotated

from pydantic import BeforeValidator, Field, field_validator, model_validator

from model.base import HexField, HexsideField, Node
from model.hexes import Hex



def _turn(value: Any) -> Any:
    """Turn numbers arrive as text from YAML; keep labels ("0700 6 June") as text."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value


TurnRef = Annotated[int | str, BeforeValidator(_turn)]

# A scenario's first and last turn numbers are at most this. Test play steps through every
# turn, so ``turns: {last: 1000000000}`` must be refused where it is written rather than load
# clean and then take hours and gigabytes in ``hexproof smoke`` (the play engine checks the
# turn count against the same cap; see docs/reliability.md, "Play engine at its boundary").
MAX_TURN_NUMBER = 10_000


def _cap_setup(value: Any) -> Any:
    """Refuse an absurd setup list before validating 100,000 entries (model/limits.py)."""
    from model.limits import MAX_SETUP_ENTRIES

    if isinstance(value, list) and len(value) > MAX_SETUP_ENTRIES:
        raise ValueError(f"{len(value):,} setup entries; the limit is {MAX_SETUP_ENTRIES:,} per scenario")
    return value


SetupList = Annotated[list["SetupEntry"], BeforeValidator(_cap_setup)]


class Playable(Node):
    """Which part of the map is in play. Empty means the whole grid.

    Every filter given narrows the area: ``bounds`` (two corner hexes of an inclusive
    rectangle in the map's offset columns and rows, "the scenario map ends at row 066"),
    ``sheets``, ``area`` (a named map area), ``hexes`` (an explicit list), minus ``exclude``.
    This is the one statement of a scenario's playable area; system packs derive their own
    notions from it (the GTS scenario map is ``bounds``).
    """

    sheets: list[str] = Field(default_factory=list)
    area: str | None = None
    hexes: list[HexField] = Field(default_factory=list, description="explicit hex list")
    bounds: list[HexField] = Field(default_factory=list, description="two corner hexes of an offset rectangle")
    exclude: list[HexField] = Field(default_factory=list)
    half_hexes: bool = True
    rule: str | None = None
    note: str | None = None

    @field_validator("bounds")
    @classmethod
    def _two_corners(cls, value: list[Hex]) -> list[Hex]:
        if value and len(value) != 2:
            raise ValueError(f"bounds gives {len(value)} hexes; give two opposite corners, e.g. ['14.000', '107.066']")
        return value


class Turns(Node):
    first: TurnRef
    last: TurnRef
    note: str | None = None

    @field_validator("first", "last")
    @classmethod
    def _bounded(cls, v: int | str) -> int | str:
        if isinstance(v, int) and not 0 <= v <= MAX_TURN_NUMBER:
            raise ValueError(f"turn {v:,} is out of range; a turn number is 0 to {MAX_TURN_NUMBER:,}")
        return v


class Entry(Node):
    """Where a unit enters or sets up when it is not a plain hex."""

    hex: HexField | None = None
    hexes: list[HexField] = Field(default_factory=list)
    box: str | None = None
    drop_zone: str | None = None
    beach: str | None = None
    location: str | None = None
    area: str | None = None
    edge: str | None = None

    def kinds(self) -> list[str]:
        out = []
        for name in ("hex", "box", "drop_zone", "beach", "location", "area", "edge"):
            if getattr(self, name) is not None:
                out.append(name)
        if self.hexes:
            out.append("hexes")
        return out


class SetupEntry(Node):
    """One unit's starting position. Exactly one of hex / adjacent_to / area / box /
    location; ``alternatives`` lists other allowed hexes ("1414 or 1313, 1314…")."""

    unit: str
    hex: HexField | None = None
    adjacent_to: HexField | None = Field(None, description="in or adjacent to this hex")
    alternatives: list[HexField] = Field(default_factory=list)
    area: str | None = None
    box: str | None = None
    location: str | None = None
    state: list[str] = Field(default_factory=list, description="reduced, untried, column, mounted, immobile, …")
    attached_to: str | None = None
    off_map_star: bool = Field(False, description="'*': historical position off the scenario map")
    rule: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _one_place(self) -> "SetupEntry":
        places = [n for n in ("hex", "adjacent_to", "area", "box", "location") if getattr(self, n) is not None]
        if len(places) != 1:
            raise ValueError("give exactly one of hex, adjacent_to, area, box or location"
                             + (f" (got {', '.join(places)})" if places else ""))
        return self

    def hexes(self) -> list[Hex]:
        out = [h for h in (self.hex, self.adjacent_to) if h is not None]
        return out + list(self.alternatives)


class DropOrder(Node):
    zone: str
    drop_number: str | None = Field(None, description="One, Second, Third A, Third B, Fourth")
    sticks: list[list[str]] = Field(default_factory=list, description="units per stick")


class ScheduleEntry(Node):
    turn: TurnRef
    kind: Literal["reinforcement", "withdrawal", "event", "drop", "landing", "release", "replacement"] = "reinforcement"
    side: str | None = None
    units: list[str] = Field(default_factory=list)
    entry: Entry | None = None
    drop: DropOrder | None = None
    attached_to: str | None = None
    condition: str | None = None
    text: str | None = None
    earliest: bool = Field(False, description="'on the listed turn or later'")
    rule: str | None = None
    note: str | None = None


class DropZone(Node):
    id: str
    name: str
    kind: Literal["dz", "lz", "zone"] = "dz"
    side: str | None = None
    hexes: list[HexField] = Field(default_factory=list)
    extends: str | None = Field(None, description="zone whose hexes this one adds to (LZ O = DZ O + 6)")
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None


class LandingHexes(Node):
    planned: list[HexField] = Field(default_factory=list)
    actual: list[HexField] = Field(default_factory=list)


class SubBeach(Node):
    id: str
    name: str
    hexes: list[HexField] = Field(default_factory=list)
    landing: LandingHexes = LandingHexes()
    drift: dict[str, str] = Field(default_factory=dict, description="overlay version → shift, e.g. actual: '1 Left'")
    rule: str | None = None


class BeachOverlay(Node):
    id: str
    name: str
    version: str | None = Field(None, description="e.g. actual or planned")
    visible: bool = True
    hexes: list[HexField] = Field(default_factory=list)
    sub_beaches: list[SubBeach] = Field(default_factory=list)
    gap_hexsides: list[HexsideField] = Field(default_factory=list)
    tracks: dict[str, int | str | None] = Field(default_factory=dict, description="defence-track start levels")
    reinforcement_hexes: list[HexField] = Field(default_factory=list)
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None


class SpecialRule(Node):
    id: str
    text: str
    refs: list[str] = Field(default_factory=list, description="rule cases, optionally 'case: title'")
    optional: str | None = Field(None, description="optional-rule id that switches this on")


class VictoryCondition(Node):
    """One victory condition: its text as the scenario prints it, and the facts a program
    can check typed — which side it is for, the hex or hexes it concerns and the turn it is
    judged on (CORE-VIC-001..003 check them against the map, the calendar and the sides)."""

    side: str | None = Field(None, description="system side this condition is for (none: both)")
    text: str
    vp: int | None = None
    hex: HexField | None = Field(None, description="the hex the condition concerns")
    hexes: list[HexField] = Field(default_factory=list, description="hexes the condition concerns")
    turn: TurnRef | None = Field(None, description="turn the condition is judged on (number or calendar label)")
    refs: list[str] = Field(default_factory=list)

    def all_hexes(self) -> list[Hex]:
        return ([self.hex] if self.hex is not None else []) + list(self.hexes)


def merge_params(base: dict[str, Any], variant: dict[str, Any]) -> dict[str, Any]:
    """A variant's ``params`` deep-merged over its base's (policy *variant-params-merge*).

    * a key only in the base is kept; a key only in the variant is added;
    * where both values are mappings, they merge the same way, key by key, at any depth;
    * otherwise the variant's value wins (lists, numbers and text replace the base's whole);
    * a variant value of ``null`` (``~``) deletes the key from the result, at any depth
      (deleting a key the base does not have is a no-op).

    Neither argument is changed; the result shares no mutable value with them.
    """
    out: dict[str, Any] = copy.deepcopy(base)
    for key, value in variant.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_params(out[key], value)
        else:
            out[key] = _without_nulls(value)
    return out


def _without_nulls(value: Any) -> Any:
    """A copy of a variant value with its ``null`` mapping entries dropped: a null deletes
    a base key, and where there is no base value it has nothing to delete."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    return copy.deepcopy(value)


class Overrides(Node):
    """What a variant changes in the scenario it extends."""

    setup_add: SetupList = Field(default_factory=list)
    setup_remove: list[str] = Field(default_factory=list, description="unit ids")
    schedule_add: list[ScheduleEntry] = Field(default_factory=list)
    schedule_remove: list[str] = Field(default_factory=list, description="unit ids whose entries are dropped")


class Scenario(Node):
    schema_version: int = 1
    id: str
    name: str
    extends: str | None = None
    map: str | None = None
    description: str | None = None
    playable: Playable | None = None
    turns: Turns | None = None
    weather: str | None = None
    first_player: str | None = None
    optional_rules: dict[str, bool] = Field(default_factory=dict)
    setup: SetupList = Field(default_factory=list)
    schedule: list[ScheduleEntry] = Field(default_factory=list)
    drop_zones: list[DropZone] = Field(default_factory=list)
    beach_overlays: list[BeachOverlay] = Field(default_factory=list)
    locations: list["NamedLocationRef"] = Field(default_factory=list)
    special_rules: list[SpecialRule] = Field(default_factory=list)
    victory: list[VictoryCondition] = Field(default_factory=list)
    # The scenario's own front lines and control areas (TKG [25.1.5]: "Each scenario will
    # specify the front lines separating the opposing forces as well as control of various
    # map areas"). None: the map's (areas of kind start_line / control); a list, even an
    # empty one, replaces them for this scenario. Read through model/scenario_areas.py.
    start_lines: list["AreaRef"] | None = Field(None, description="start lines of this scenario (replace the map's)")
    control_areas: list["AreaRef"] | None = Field(None, description="control areas of this scenario (replace the map's)")
    vp: dict[str, int] = Field(default_factory=dict, description="starting VP per side")
    params: dict[str, Any] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list, description="elements the rules do not give")
    suppress: list[str] = Field(default_factory=list, description="diagnostic codes suppressed here")
    overrides: Overrides | None = None
    provenance: str | None = None
    illustrative: bool = False

    def zone_hexes(self, zone_id: str) -> list[Hex] | None:
        """A drop zone's hexes with those of the zones it ``extends`` (LZ O = DZ O + 6 [Utah
        Excl 3.2]): the base's hexes first, then the zone's own, each once; None when the
        scenario has no such zone. A missing or circular base ends the chain (the validators
        report both)."""
        zones = {z.id: z for z in self.drop_zones}
        zone = zones.get(zone_id)
        if zone is None:
            return None
        chain = [zone]
        while chain[-1].extends in zones and zones[str(chain[-1].extends)] not in chain:
            chain.append(zones[str(chain[-1].extends)])
        return list(dict.fromkeys(h for z in reversed(chain) for h in z.hexes))


from model.mapdata import Area as AreaRef  # noqa: E402
from model.mapdata import NamedLocation as NamedLocationRef  # noqa: E402

Scenario.model_rebuild()
