"""The GTS plug-in's part of the game state (:class:`GtsState`, kept in ``game.state.system``).

One dataclass per concern, each holding exactly what its procedure module needs between
actions: the chit mug [GTS 9.0-10.0], Command and Dispatch Points [10.0.3], the Utah Beach
Overlays [Excl 4.2-4.5], Barrage markers [16.6.2], the Naval Display and the NSoP [Excl 4.4,
4.6], Artillery Parks and contacts [16.2-16.3], Random Events [Excl 6.0], stragglers [Excl
3.4], pending Opportunity Fire [17.2], Leaders removed from play [21.3] and the optional rules'
counters (Excl 18.1, 18.6, 18.7). Everything is plain data (str, int, float, bool, lists and
str-keyed dicts of those, nested dataclasses), so ``copy.deepcopy`` gives the undo snapshot and
:meth:`GtsState.to_dict` gives JSON.

Saved form: ``to_dict()`` is the dataclasses' fields as JSON plus ``"version": 1``.
``from_dict`` reads that, or — a dict without ``version`` — the untyped ``state.extra`` bag the
plug-in kept before (a save written before GTS had typed state has no ``system`` part, and
:meth:`play.state.GameState.from_dict` then hands it that save's ``extra``): ``extra.chits``,
``extra.stragglers``, ``extra.opportunities`` and the ``extra.gts.*`` sub-dicts map one to one
onto the fields below (:func:`_from_extra`). The old keys stay in that game's ``extra`` (unread)
until the save is written again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ConfigDict, TypeAdapter, ValidationError

from play.errors import GameError

if TYPE_CHECKING:
    from play.context import PlayContext

VERSION = 1

BarrageKind = Literal["light", "heavy"]

# Unknown keys in a saved GTS state are an error, not silently dropped state.
_STRICT = ConfigDict(extra="forbid")


@dataclass
class ChitState:
    """The mug [GTS 9.0]: chits still in it, the last one carried to next turn [10.0.6], and the
    chits drawn (or played) this turn, in order."""

    __pydantic_config__ = _STRICT
    mug: list[str] = field(default_factory=list)
    carry: str | None = None
    drawn: list[str] = field(default_factory=list)


@dataclass
class DivisionPoints:
    """A Division's Command and Dispatch Points [GTS 10.0.3] (declared with ``set_points``)."""

    __pydantic_config__ = _STRICT
    command: int = 0
    dispatch: int = 0


@dataclass
class DirectCommand:
    """Units activated by Direct Command this turn: one activation per unit [GTS 10.0.5]."""

    __pydantic_config__ = _STRICT
    turn: int | None = None
    units: list[str] = field(default_factory=list)


ChitKind = Literal["formation", "divact", "direct", "naval", "event", "unknown"]


@dataclass
class UnitActions:
    """What one unit did in the current activation: its first Action's type [13.2] and, once
    paid for, its Second Action's [10.0.2] (types: ``activation.action_types`` in params.yaml)."""

    __pydantic_config__ = _STRICT
    first: str
    second: str | None = None


@dataclass
class SecondAction:
    """A Second Action declared for the stack that has just acted [10.0.2]: paid (one Command
    Point per unit, of each unit's Division) when the next Action of exactly these units succeeds."""

    __pydantic_config__ = _STRICT
    units: list[str]
    cost: dict[str, int] = field(default_factory=dict)               # Division -> Command Points


@dataclass
class Activation:
    """The chit in play [GTS 10.0.1] and what it has let act so far. ``kind`` comes from the chit
    counter's flag; ``division`` / ``formation`` from its fields; ``direct_units``: the units
    activated by Command Points under a Direct Command chit [10.0.5]."""

    __pydantic_config__ = _STRICT
    chit: str
    kind: ChitKind
    side: str | None = None
    division: str | None = None
    formation: str | None = None
    carried: bool = False                                            # the last chit of last turn [10.0.6]
    rolled: bool = False                                             # the DivAct CP/DP roll made [10.0.3]
    acted: dict[str, UnitActions] = field(default_factory=dict)      # unit -> its Actions
    last_stack: list[str] = field(default_factory=list)              # the units of the last Action
    second: SecondAction | None = None
    direct_units: list[str] = field(default_factory=list)


@dataclass
class ActivationState:
    __pydantic_config__ = _STRICT
    points: dict[str, DivisionPoints] = field(default_factory=dict)   # Division -> points
    next_chits: list[str] = field(default_factory=list)              # bought for next turn [7.2]
    direct: DirectCommand = field(default_factory=DirectCommand)
    current: Activation | None = None                                # the chit in play [10.0.1]


@dataclass
class BeachOverlayState:
    """One Beach Overlay [Excl 4.2]: the track levels (None: not a number in the scenario data),
    the open Gap hexsides (``HEX/DIR`` labels), who places the next Gap Open markers [4.2.4],
    craft drifted back (unit -> turn) [4.2.1], cleared [4.3.2]."""

    __pydantic_config__ = _STRICT
    tracks: dict[str, int | None] = field(default_factory=dict)      # obstacles, nests, gaps, sea_state
    open_gaps: list[str] = field(default_factory=list)
    all_gaps_open: bool = False
    cleared: bool = False
    drifted: dict[str, int] = field(default_factory=dict)
    pending_gap: list[str] = field(default_factory=list)              # "german" | "allied", in order


@dataclass
class UnitBefore:
    """A unit's losses-related fields before a Cohesion Hit, to give back on a refused move."""

    __pydantic_config__ = _STRICT
    where: str
    hex: str | None
    box: str | None
    steps: int
    reduced: bool
    markers: list[str]


@dataclass
class BarrageExit:
    """A move out of a barraged hex between ``before`` and ``after`` of one action [16.6.2.2]:
    what to log, or to give back when the move is refused."""

    __pydantic_config__ = _STRICT
    units: list[str]
    mp: float
    hits: list[str]
    hex: str
    kind: BarrageKind
    before: dict[str, UnitBefore] = field(default_factory=dict)  # the hit units before 19.2.3 applied


@dataclass
class NsopState:
    """The Naval Sequence of Play in progress [Excl 4.6]."""

    __pydantic_config__ = _STRICT
    active: bool = False
    step: int = 0
    turn: int | None = None
    fired: list[str] = field(default_factory=list)   # ships, LCS, LCR, batteries done this chit
    first_play: bool = False                         # the 0700 6 June first play [4.1.8]


@dataclass
class NavalState:
    """The Naval Display [Excl 4.4]. ``markers`` (force -> hex label) is None until first read,
    then set from the scenario's ``af_markers``. ``craft`` (Landing Craft -> the units it
    carries) is None until NSoP step 5 (or a view of it) first records loads: a scenario without
    the Naval Display never records one, and a drifted craft there picks its passengers again."""

    __pydantic_config__ = _STRICT
    markers: dict[str, str] | None = None
    nsop: NsopState = field(default_factory=NsopState)
    plays: dict[str, int] = field(default_factory=dict)          # str(turn) -> Naval chit plays
    craft: dict[str, list[str]] | None = None


@dataclass
class Park:
    """An Artillery Park [GTS 16.2]: one per hex, of one Division, Fired side after it fires [16.7]."""

    __pydantic_config__ = _STRICT
    hex: str
    division: str
    units: list[str]
    fired: bool
    side: str


@dataclass
class IndirectState:
    __pydantic_config__ = _STRICT
    parks: dict[str, Park] = field(default_factory=dict)         # park id -> Park
    contacts: dict[str, str] = field(default_factory=dict)       # artillery unit -> Leader in contact [16.3]
    tried: dict[str, int] = field(default_factory=dict)          # unit -> turn of its contact attempt
    blocked: dict[str, int] = field(default_factory=dict)        # unit -> turn it gave up contact
    next_park: int = 1


@dataclass
class PendingEvent:
    """A Random Event waiting for the player's choice (``resolve_event``) [Excl 6.0]."""

    __pydantic_config__ = _STRICT
    die: int
    result: str
    kind: str
    needs: str
    turn: int
    rule: str | None = None
    die2: int | None = None          # the commander_casualty roll of a 0/1
    result2: Any = None              # that table row's result, as the system data gives it


@dataclass
class EventsState:
    __pydantic_config__ = _STRICT
    pending: PendingEvent | None = None
    blocked: dict[str, int] = field(default_factory=dict)        # Formation chit -> last turn it may not be bought
    minefields: list[str] = field(default_factory=list)          # hex labels


@dataclass
class Rearguard:
    """An R result's stand-in [Excl 3.3.1] (policy ``rearguard-stand-in``)."""

    __pydantic_config__ = _STRICT
    unit: str                # the unit listed in the Straggler box (the old layout's ``for``)
    hex: str | None
    eliminated: bool


@dataclass
class StragglerState:
    """Straggler tracks and SRPs per battalion [Excl 3.4]."""

    __pydantic_config__ = _STRICT
    track: dict[str, int] = field(default_factory=dict)
    srp: dict[str, int] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)       # "turn:battalion" -> SRP this turn
    lost: list[str] = field(default_factory=list)                # battalions whose Rally Point is gone
    rearguards: list[Rearguard] = field(default_factory=list)
    recoveries: dict[str, int] = field(default_factory=dict)     # "turn:division" -> recovery rolls
    box: dict[str, str] = field(default_factory=dict)            # R unit -> its Straggler box


@dataclass
class Opportunity:
    """One pending Opportunity Fire chance: ``firer`` may fire at ``targets`` in ``hex`` [17.2]."""

    __pydantic_config__ = _STRICT
    id: int
    trigger: str                     # move | column | landing
    group: int                       # the log length when the trigger happened
    step: int                        # index of the hex left, along the move
    firer: str
    targets: list[str]
    hex: str
    to: str | None
    modifier: int
    modifier_rule: str | None
    rule: str
    once: bool | None = None         # one attack for the whole group [Excl 4.2.3(b)]


@dataclass
class CommandState:
    __pydantic_config__ = _STRICT
    leaders_removed: list[str] = field(default_factory=list)     # Leaders whose Formation is gone [21.3]


@dataclass
class CpConversionState:
    """Command Points converted this turn per player, for the Excl 18.1 limit."""

    __pydantic_config__ = _STRICT
    turn: int | None = None
    used: dict[str, int] = field(default_factory=dict)


@dataclass
class RoamingState:
    """Roaming checks of the current activation [Excl 18.6] (one chit draw)."""

    __pydantic_config__ = _STRICT
    activation: str | None = None
    passed: list[str] = field(default_factory=list)
    failed: dict[str, int] = field(default_factory=dict)         # unit -> hexes from a Leader when it failed


@dataclass
class GtsState:
    """Everything the GTS plug-in keeps between actions (``SystemPlugin.state``)."""

    __pydantic_config__ = _STRICT
    chits: ChitState = field(default_factory=ChitState)
    activation: ActivationState = field(default_factory=ActivationState)
    beach: dict[str, BeachOverlayState] = field(default_factory=dict)   # overlay id -> state
    barrages: dict[str, BarrageKind] = field(default_factory=dict)      # hex label -> marker [16.6.2.1]
    barrage_exit: BarrageExit | None = None
    naval: NavalState = field(default_factory=NavalState)
    indirect: IndirectState = field(default_factory=IndirectState)
    events: EventsState = field(default_factory=EventsState)
    stragglers: StragglerState = field(default_factory=StragglerState)
    opportunities: list[Opportunity] = field(default_factory=list)
    command: CommandState = field(default_factory=CommandState)
    cp_conversion: CpConversionState = field(default_factory=CpConversionState)
    leader_losses: dict[str, int] = field(default_factory=dict)         # "turn:division" -> die [Excl 18.7]
    roaming: RoamingState = field(default_factory=RoamingState)

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, **_ADAPTER.dump_python(self, mode="json")}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GtsState":
        """The saved form (``version`` 1), or the old ``state.extra`` bag (no ``version``)."""
        if not isinstance(d, dict):
            raise GameError(f"saved GTS state: expected a mapping, got {type(d).__name__}")
        if "version" not in d:
            d = _from_extra(d)
        elif d["version"] != VERSION:
            raise GameError(f"saved GTS state: version {d['version']!r}, this Hexproof reads version {VERSION}")
        body = {k: v for k, v in d.items() if k != "version"}
        try:
            return _ADAPTER.validate_python(body)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise GameError(f"saved GTS state: {where}: {err['msg']} ({len(exc.errors())} problem(s))") from None


_ADAPTER: TypeAdapter[GtsState] = TypeAdapter(GtsState)

# Old ``extra["gts"]`` keys -> GtsState fields (the rest of the old bag kept its names).
_OLD_GTS_KEYS = {"activation": "activation", "beach": "beach", "barrages": "barrages", "barrage_exit": "barrage_exit",
                 "naval": "naval", "indirect": "indirect", "events": "events", "cp_conversion": "cp_conversion",
                 "airborne_leader_losses": "leader_losses", "roaming_units": "roaming"}


def _from_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """The old untyped layout (``state.extra``) in the saved form's shape. Other systems' keys in
    the bag (none in a GTS game) are ignored."""
    gts = extra.get("gts") or {}
    out: dict[str, Any] = {new: gts[old] for old, new in _OLD_GTS_KEYS.items() if gts.get(old) is not None}
    if gts.get("leaders_removed") is not None:
        out["command"] = {"leaders_removed": gts["leaders_removed"]}
    for key in ("chits", "opportunities"):
        if extra.get(key) is not None:
            out[key] = extra[key]
    if out.get("roaming") == {}:
        del out["roaming"]  # created empty before the first move checked
    strag = extra.get("stragglers")
    if isinstance(strag, dict):
        out["stragglers"] = {**strag, "rearguards": [
            {"unit": r.get("for"), "hex": r.get("hex"), "eliminated": r.get("eliminated")} if isinstance(r, dict) else r
            for r in strag.get("rearguards") or []]}
    return out


def gts_state(game: "PlayContext") -> GtsState:
    """The game's GTS state. A GTS game makes it when it starts (``PLUGIN.state``); a GTS
    procedure run in a game of another plug-in (tests do) gets an empty one on first use, as the
    old ``extra.setdefault`` did."""
    st = game.state.system
    if st is None:
        st = game.state.system = GtsState()
    if not isinstance(st, GtsState):
        raise TypeError(f"game.state.system is a {type(st).__name__}, not GtsState: this game is not played by the "
                        "GTS plug-in")
    return st
