"""The GTS plug-in's parameters, typed: one pydantic model per section of play/gts/params.yaml
(and of the Utah system file's GTS tables: the Drop Table and its modifiers, the die tables),
validated once per game by :func:`gts_params`.

Merge (as :func:`play.procedure.system_param` does): a section of the system file's ``params``
replaces the plug-in's section of the same name whole; a section missing from both, or empty,
is absent. Absent sections that switch a procedure on are ``None`` (naval, indirect, events,
stragglers, straggler_recovery, drop_table); the others take the models' defaults, which are the
values the procedures fell back to before they were typed.

Every cited value is a :class:`Cited` (``{value: …, rule: …, note: …}``); a bare value is read
as ``{value: it}``. A value that does not fit gives one :class:`play.errors.GameError` when the
game starts, naming the file and the key (``resources/systems/gts-utah.yaml params.fire.
default_range.value: …``), never an error from deep inside a procedure.

Models are not frozen, so a test may change one game's parameters (assignment is validated).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from play.errors import GameError, show

if TYPE_CHECKING:
    from play.context import PlayContext

T = TypeVar("T")


class Params(BaseModel):
    """Base of every parameter model: unknown keys are an error (a typo in a system file is
    reported, not ignored); numbers are accepted for text (the located loader and YAML differ)."""

    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True, validate_assignment=True)


class Cited(Params, Generic[T]):
    """A value with the rule case that gives it."""

    value: T
    rule: str | None = None
    note: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _bare(cls, v: Any) -> Any:
        """``5`` reads as ``{value: 5}``; a mapping with ``value`` is the cited form itself."""
        if isinstance(v, BaseModel) or (isinstance(v, dict) and "value" in v):
            return v
        return {"value": v}


def cite(value: T, rule: str | None = None) -> Cited[T]:
    """A default cited value (the models copy defaults per instance)."""
    return Cited(value=value, rule=rule)


class RuleNote(Params):
    """A rule case with no value of its own (the rule is applied by the code)."""

    rule: str | None = None
    note: str | None = None


# --- the chit pull and the drop (play/gts/chit_pull.py, drop_table.py) -----------------------

DIRECTIONS = ["N", "NE", "SE", "S", "SW", "NW"]


class ChitParams(Params):
    mug_rule: str | None = None
    last_chit_rule: str | None = None


class DriftParams(Params):
    rule: str | None = None
    directions: list[str] = Field(default_factory=lambda: list(DIRECTIONS))  # d6 1..6 [Excl 3.3.1]
    distance_die: int = 10
    straggler_box: str = "stragglers"


class DropTableParams(Params):
    """The Drop Table [Excl 3.3.1] of the system file: results by modified roll."""

    rule: str | None = None
    note: str | None = None
    para: list[str] = Field(default_factory=list)
    glider: list[str] = Field(default_factory=list)


# --- fire, results, Column (play/gts/fire.py, results.py, column.py) ------------------------


class FireParams(Params):
    rule: str | None = None
    fr_field: str = "fr"
    range_field: str = "fire_range"
    default_range: Cited[int] = cite(1)
    adjacent_enemy_range: Cited[int] = cite(1)
    line_field: str = "fr_colour"
    armored_categories: list[str] = Field(default_factory=list)
    one_on_one_rule: str | None = None
    declared_policy: str | None = None


class ResultsParams(Params):
    rule: str | None = None
    suppressed_marker: str = "suppressed"
    cohesion_marker: str = "cohesion_hit"


class ColumnParams(Params):
    rule: str | None = None
    enter_cost: Cited[float] = cite(1.0)
    leave_cost: Cited[float] = cite(1.0)
    marker: str = "column"
    one_per_hex: Cited[int] = cite(1)


class CommandRoll(Params):
    """Command Points: a die plus half the die (rounded down) plus the Command Rating [10.0.3]."""

    die: int = 10
    half_divisor: int = 2
    rule: str | None = None


class DispatchRow(Params):
    """One line of the Dispatch Point table [10.0.3]: ``test`` is ``roll_is`` (the die shows
    ``value``), ``at_most_rating`` (die <= Dispatch Rating) or ``below_points`` (die < the
    Division's current Dispatch Points); ``change`` is added when it holds (rows stack)."""

    test: Literal["roll_is", "at_most_rating", "below_points"]
    value: int | None = None
    change: int
    rule: str | None = None
    text: str | None = None


class DispatchRoll(Params):
    die: int = 10
    rule: str | None = None
    rows: list[DispatchRow] = Field(default_factory=list)


class DivActLimits(Params):
    """What a Division Activation's first Action may not do [7.1, 13.2]."""

    fire_zone_move: Cited[bool] = cite(False, "GTS 7.1")
    fire_colours: Cited[list[str]] = cite(["purple"], "GTS 13.2")
    assault: Cited[bool] = cite(False, "GTS 13.2")


class ActivationPolicies(Params):
    no_chit: str = "activation-before-first-chit-free"
    continued_move: str = "move-continues-action"
    naval_chit: str = "naval-chit-nsop"
    event_chit: str = "event-chit-activates-none"
    independents: str = "independent-in-command"
    points_on_request: str = "points-rolled-on-request"
    fire_zone_destination: str = "divact-fire-zone-destination"


class BeforeFirstChit(Params):
    """Who acts before the turn's first chit: ``strict`` (no unit) unless the scenario's params
    name ``param`` with the value ``free`` (the named opt-out)."""

    value: Literal["strict", "free"] = "strict"
    param: str = "activation_before_first_chit"
    rule: str | None = "GTS 10.0.1, 13.1"


class ActivationParams(Params):
    ratings_rule: str | None = None
    buy_rule: str | None = None
    direct_command_rule: str | None = None
    buy_step: Cited[str] = cite("dispatch", "GTS 4.0 D")
    command_roll: CommandRoll = Field(default_factory=CommandRoll)
    dispatch_roll: DispatchRoll = Field(default_factory=DispatchRoll)
    pre_night_bonus: Cited[int] = cite(2, "GTS 10.0.3")
    points_min: Cited[int] = cite(0, "GTS 10.0.4")
    points_max: Cited[int] = cite(19, "GTS 10.0.4")
    action_types: Cited[dict[str, str]] = cite({}, "GTS 13.2")
    divact_limits: DivActLimits = Field(default_factory=DivActLimits)
    before_first_chit: BeforeFirstChit = Field(default_factory=BeforeFirstChit)
    formation_rule: str = "GTS 10.0.1"
    divact_rule: str = "GTS 13.1"
    second_rule: str = "GTS 10.0.2"
    one_action_rule: str = "GTS 13.2"
    chit_flags: Cited[dict[str, str]] = cite({}, "GTS 7.1")
    policies: ActivationPolicies = Field(default_factory=ActivationPolicies)


# --- the Utah Beach Overlay (play/gts/beach.py) ---------------------------------------------


class BeachLine(Params):
    """A defence track's attack: the CRT line it fires on [Excl 4.2]."""

    line: str | None = None
    armored: bool | None = None
    rule: str | None = None


class BeachParams(Params):
    rule: str | None = None
    left_direction: str = "S"
    left_rule: str | None = None
    obstacles: BeachLine = Field(default_factory=BeachLine)
    nests: BeachLine = Field(default_factory=BeachLine)
    sea_state: BeachLine = Field(default_factory=BeachLine)
    drift_on_roll: Cited[int] = cite(9)
    gaps_closed_above: Cited[int] = cite(2)
    gap_open_rule: str | None = None
    all_gaps_open_rule: str | None = None
    beach_terrain: list[str] = Field(default_factory=lambda: ["beach"])
    clear_rule: str | None = None
    clear_german_radius: Cited[int] = cite(3)
    cleared_no_entry_rule: str | None = None
    uncleared_division: Cited[str | None] = cite(None)
    mandatory_rule: str | None = None
    lc_category: str = "landing_craft"
    dd_category: str = "dd_tank"
    leader_category: str = "leader"
    landing_rule: str | None = None
    dd_rule: str | None = None
    beach_fire_rule: str | None = None
    naval_chit: str | None = None

    def track(self, name: str) -> BeachLine:
        """The attack of track ``name`` (obstacles, nests, sea_state; gaps has none)."""
        return {"obstacles": self.obstacles, "nests": self.nests, "sea_state": self.sea_state}.get(name, BeachLine())


# --- naval forces and the NSoP (play/gts/naval/) --------------------------------------------


class NsopStep(Params):
    """One step of the Naval Sequence of Play [Excl 4.6]."""

    name: str | None = None
    rule: str | None = None
    kind: str | None = None            # auto | choice
    overlay_only: bool = False         # skipped once the overlay is removed [4.6]
    actions: list[str] = Field(default_factory=list)


class NoSpotterDivisions(Cited[list[str]]):
    nationality: str = "us"


class EffectiveResults(Cited[list[str]]):
    failed_check: str = "S?"


class LandingCraftParams(Params):
    rule: str | None = None
    step5_rule: str | None = None
    independent_flag: str = "independent"
    reuse_rule: str | None = None
    no_battalion_policy: str | None = None
    leader_policy: str | None = None
    free_policy: str | None = None
    short_policy: str | None = None


class NavalParams(Params):
    rule: str | None = None
    naval_chit: str = "chit-naval"
    first_chit_turn: Cited[str | int | None] = cite(None)
    step_policy: str | None = None
    steps: dict[int, NsopStep] = Field(default_factory=dict)
    overlay_removed_rule: str | None = None
    overlay_removed_policy: str | None = None
    ship_category: str = "ship"
    lcr_flag: str = "lcr"
    lcs_flag: str = "lcs"
    battery_fr_colour: Cited[str | None] = cite(None)
    strongpoint_category: str = "strongpoint_unit"
    ship_line_field: str = "fr_colour"
    ship_fire_rule: str | None = None
    range_rule: str | None = None
    self_spot_rule: str | None = None
    spotter_rule: str | None = None
    contact_number: Cited[int | None] = cite(None)
    no_spotter_divisions: NoSpotterDivisions = Field(default_factory=lambda: NoSpotterDivisions(value=[]))
    out_of_command_marker: str = "out_of_command"
    in_command_policy: str | None = None
    lcr_rule: str | None = None
    lcs_rule: str | None = None
    lcs_box_kind: str | None = None
    battery_rule: str | None = None
    battery_resolve_rule: str | None = None
    battery_barrage_marker: str = "barrage"
    ship_armored: Cited[bool] = cite(False)
    effective_results: EffectiveResults = Field(default_factory=lambda: EffectiveResults(value=[]))
    sq_policy: str | None = None
    one_fire_policy: str | None = None
    together_rule: str | None = None
    together_policy: str | None = None
    company_bonus_policy: str | None = None
    indirect_target_policy: str | None = None
    af_rule: str | None = None
    af_beach_policy: str | None = None
    move_ship_rule: str | None = None
    utah_only: Cited[bool] = cite(False)
    landing_policy: str | None = None
    loading_policy: str | None = None
    close_policy: str | None = None
    return_rule: str | None = None
    every_daylight_turn: Cited[bool] = cite(False)
    after_overlay_policy: str | None = None
    barrage_kinds: Cited[list[str]] = cite([])
    barrage_fr_policy: str | None = None
    landing_craft: LandingCraftParams = Field(default_factory=LandingCraftParams)

    def step(self, n: int) -> NsopStep:
        """Step ``n`` of the NSoP (an empty spec for a step the data does not give)."""
        return self.steps.get(n) or NsopStep()


# --- Barrage markers and land Indirect Fire (play/gts/barrage.py, indirect.py) ----------------


class BarrageParams(Params):
    rule: str | None = None
    heavy_from: Cited[int] = cite(6)
    no_barrage_roll: Cited[int] = cite(9)
    cleanup_rule: str | None = None
    battery_rule: str | None = None
    los_rule: str | None = None
    fire_modifier: Cited[dict[str, int]] = cite({"light": -1, "heavy": -2})
    fire_range: Cited[int] = cite(1)
    effects_rule: str = "GTS 16.6.2.2"
    leave_mp: Cited[float] = cite(2.0)
    tq_modifier: Cited[dict[str, int]] = cite({"light": -1, "heavy": -2})
    tq_policy: str | None = None


class IndirectParams(Params):
    rule: str = "GTS 16.5"
    class_rule: str | None = None
    classes: Cited[dict[str, str]] = cite({})   # Fire Rating colour -> Weapons Class [16.1]
    min_range: Cited[int] = cite(4)
    park_rule: str = "GTS 16.2"
    park_join_rule: str | None = None
    disband_rule: str = "GTS 16.2.4"
    park_cost: Cited[int] = cite(1)
    contact_attempt_rule: str = "GTS 16.3"
    contact_rule: str = "GTS 16.3.1"
    other_division_modifier: Cited[int] = cite(-3)
    effective_results: Cited[list[str]] = cite(["E", "1", "C", "S"])
    stack_rule: str | None = None
    counter_battery_rule: str = "GTS 16.7"
    counter_battery_modifier: Cited[int] = cite(-2)
    declared_policy: str = "declared-fire-value"
    step_e_policy: str | None = None
    active_formation_policy: str | None = None
    stack_tq_policy: str | None = None
    cleanup_rule: str = "GTS 4.0 I"


# --- Random Events (play/gts/events.py) ------------------------------------------------------


class CpLimits(Params):
    min: int = 0
    max: int = 19
    rule: str | None = None


class EventParams(Params):
    rule: str | None = None
    event_chit: str = "chit-event"
    table: str = "random_events"                     # a key of the system's die_tables
    commander_table: str = "commander_casualty"
    zero_no_event_from: Cited[str | int | None] = cite(None)
    cp_change: Cited[int | None] = cite(None)        # read with "or 4": 0 means the default
    cp_limits: CpLimits = Field(default_factory=CpLimits)
    formation_block_turns: Cited[int | None] = cite(None)
    minefield_marker: str | None = None
    minefield_rule: str | None = None
    naval_support_ships: Cited[int | None] = cite(None)
    airborne_divisions: Cited[list[str]] = cite([])
    missing_row_policy: str | None = None
    lost_policy: str | None = None
    last_chit_rule: str | None = None
    fire_zone_policy: str | None = None


class DieRow(Params):
    roll: str                                        # "2" or "0-1"
    result: str | None = None
    note: str | None = None
    rule: str | None = None


class DieTable(Params):
    """A d10 table of the system data (``params.die_tables.<name>``)."""

    die: str | None = None
    rule: str | None = None
    note: str | None = None
    rows: list[DieRow] = Field(default_factory=list)


# --- Assault (play/gts/assault.py) -----------------------------------------------------------


class Bocage(Params):
    terrain: str | None = None
    modifier: int = -1


class AssaultParams(Params):
    rule: str = "GTS 18.7"
    eligibility_rule: str | None = None
    adjacent_rule: str | None = None
    indirect_lines: Cited[list[str]] = cite([])
    no_ma: Cited[list[str]] = cite([])
    blank_ar: Cited[list[str]] = cite([])
    no_fire: Cited[list[str]] = cite([])
    entrenchment_markers: Cited[list[str]] = cite([])
    ip_markers: Cited[list[str]] = cite([])
    hero_marker: str | None = None
    paradrop_markers: Cited[list[str]] = cite([])
    # marker -> (modifier, applies to the attacker, applies to the defender) [18.7 step 2]
    defense_modifiers: Cited[dict[str, tuple[int, bool, bool]]] = cite({})
    bocage: Cited[Bocage] = Field(default_factory=lambda: Cited[Bocage](value=Bocage()))
    column_marker: str = "column"
    non_combat_categories: Cited[list[str]] = cite([])
    bravery_die: Cited[str | None] = cite(None)
    always_pass: Cited[int] = cite(0)
    always_fail: Cited[int] = cite(9)
    suppressed_ar: Cited[int] = cite(-1)
    suppressed_tq: Cited[int] = cite(-1)
    # Cohesion Hits -> (Assault, Fire, Troop Quality) modifiers [19.2.3]
    cohesion_ratings: Cited[dict[int, tuple[int, int, int]]] = cite({})
    reduced_ratings: Cited[int] = cite(-1)
    leg_categories: Cited[list[str]] = cite([])
    alone_classes: Cited[list[str]] = cite([])
    alone_marker: str = "alone_and_afraid"
    alone_ratings: Cited[dict[str, int]] = cite({})
    declared_policy: str = ""
    fire_modifier_policy: str = ""
    target_policy: str = ""
    ar_line_policy: str = ""
    opfire_policy: str = ""
    together_rule: str = "GTS 18.3"
    together_policy: str = ""
    company_bonus_policy: str = ""
    column_exit_policy: str = ""


# --- Stragglers (play/gts/stragglers.py) ----------------------------------------------------


class PointSpec(Params):
    value: int = 0
    per_unit: bool = True


class StragglerPoints(Params):
    """Straggler points per Drop Table result component [Excl 3.3.1]: ``{rule, <code>: {value,
    per_unit}}`` in the data, the codes gathered under ``codes`` here."""

    rule: str | None = None
    note: str | None = None
    codes: dict[str, PointSpec] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather(cls, v: Any) -> Any:
        if isinstance(v, dict) and "codes" not in v:
            return {**{k: v[k] for k in ("rule", "note") if k in v},
                    "codes": {str(k): x for k, x in v.items() if k not in ("rule", "note")}}
        return v


class DateCaps(Cited[dict[str, int]]):
    none_from: str | None = None      # ISO date from which no recovery is rolled


class Optional344(Params):
    rule: str | None = None
    optional_rule: str | None = None
    formations: list[str] = Field(default_factory=list)
    caps: dict[str, int] = Field(default_factory=dict)


class SpendParams(Params):
    rule: str | None = None
    radius: Cited[int] = cite(3)
    cost_rule: str | None = None
    cheap_categories: list[str] = Field(default_factory=list)
    cheap_cost: int = 1
    other_cost: int = 2
    half_first_rule: str | None = None


class StragglerParams(Params):
    rule: str | None = None
    generation_rule: str | None = None
    points: StragglerPoints = Field(default_factory=StragglerPoints)
    first_drop: Cited[str] = cite("One")
    late_drop_formations: Cited[dict[str, str]] = cite({})
    airborne_divisions: Cited[list[str]] = cite([])
    boxes: Cited[dict[str, str]] = cite({})          # Division -> its Straggler box
    r_to_box_rule: str | None = None
    no_points_categories: list[str] = Field(default_factory=list)
    divact_chits: Cited[dict[str, str]] = cite({})   # Division -> its DivAct chit
    rally_point_kind: str = "rally_point"
    rally_point_lost_rule: str | None = None
    recovery_rule: str | None = None
    roll_cap: Cited[int] = cite(9)
    zero_stays_zero: RuleNote = Field(default_factory=RuleNote)
    modifiers: Cited[dict[str, int]] = cite({})      # ISO date -> recovery roll modifier
    caps: DateCaps = Field(default_factory=lambda: DateCaps(value={}))
    optional_344: Optional344 | None = None
    spend: SpendParams = Field(default_factory=SpendParams)


class RecoveryRow(Params):
    id: str
    roll: int | tuple[int, int]                      # one roll, or an inclusive range
    track: Literal["le", "gt", "any"] = "any"
    srp: int = 0
    track_change: int = 0
    roll_again: bool = False


class RecoveryTable(Params):
    """The Straggler Recovery table [Excl 3.4.2] (the system's, else the plug-in's)."""

    rule: str | None = None
    die: str | None = None
    note: str | None = None
    precedence: list[str] = Field(default_factory=list)
    precedence_rule: str | None = None
    rows: list[RecoveryRow] = Field(default_factory=list)


# --- Leaders and Command, Rally (play/gts/command.py, rally.py) ------------------------------


class CommandParams(Params):
    rule: str = "GTS 21.4"
    leader_category: str = "leader"
    range_field: str = "command_range"
    independent_flag: str = "independent"
    independent_rule: str = "GTS 21.4.1"
    out_of_command_marker: str = "out_of_command"
    out_of_command_rule: str = "GTS 21.7"
    tq_penalty: Cited[int] = cite(-1)
    transfer_rule: str = "GTS 21.2"
    relocate_rule: str = "GTS 21.3"
    unknown_policy: str = "in-command-unless-marked"
    marker_policy: str | None = None
    off_map_policy: str = "leader-off-map-unknown"
    transfer_policy: str | None = None
    nearest_policy: str | None = None


class TqCheck(Params):
    die: int = 10
    always_fail: int = 9
    always_pass: int = 0
    rule: str | None = None
    note: str | None = None


class RallyParams(Params):
    rule: str = "GTS 20.0"
    suppressed_marker: str = "suppressed"
    cohesion_marker: str = "cohesion_hit"
    men_rallying_marker: str = "men_rallying"
    other_actions: Cited[list[str]] = cite([])       # Actions that clear Men Rallying [20.0]
    two_hits: Cited[int] = cite(2)
    suppressed_penalty: Cited[int] = cite(-1)
    two_hits_penalty: Cited[int] = cite(-1)
    men_rallying_bonus: Cited[int] = cite(1)
    fire_zone_rule: str | None = None                # None: the rally rule
    tq_check: TqCheck = Field(default_factory=TqCheck)
    tq_policy: str | None = None
    check_policy: str | None = None
    penalty_policy: str | None = None
    fire_zone_policy: str | None = None


# --- Opportunity Fire (play/gts/opportunity.py) ----------------------------------------------


class OpportunityParams(Params):
    rule: str = "GTS 17.1"
    trigger_rule: str = "GTS 17.2"
    procedure_rule: str = "GTS 17.8"
    effects_rule: str = "GTS 17.7"
    tq_rule: str = "GTS 17.4"
    company_rule: str = "GTS 17.6"
    no_fr_rule: str = "GTS 17.5"
    suppressed_rule: str = "GTS 19.2.2"
    landing_rule: str = "Excl 4.2.3(b)"
    fr_field: str = "fr"
    tq_field: str = "tq"
    no_fire_ratings: list[str] = Field(default_factory=lambda: ["No"])
    mortar_flag: str = "mortar"
    mortar_categories: list[str] = Field(default_factory=list)
    suppressed_marker: str = "suppressed"
    artillery_categories: list[str] = Field(default_factory=list)
    artillery_zone: Cited[int] = cite(3)
    artillery_line: Cited[str] = cite("yellow")
    into_zone: Cited[int] = cite(0)
    out_of_zone: Cited[int] = cite(0)
    tq_always_pass: Cited[int] = cite(0)
    tq_always_fail: Cited[int] = cite(9)
    declared_policy: str | None = None
    after_move_policy: str | None = None
    path_order_policy: str | None = None
    lapse_policy: str | None = None


# --- all of them --------------------------------------------------------------------------------


class GtsParams(Params):
    """Every GTS parameter of one game."""

    chits: ChitParams = Field(default_factory=ChitParams)
    drift: DriftParams = Field(default_factory=DriftParams)
    fire: FireParams = Field(default_factory=FireParams)
    results: ResultsParams = Field(default_factory=ResultsParams)
    column: ColumnParams = Field(default_factory=ColumnParams)
    activation: ActivationParams = Field(default_factory=ActivationParams)
    beach: BeachParams = Field(default_factory=BeachParams)
    naval: NavalParams | None = None
    barrage: BarrageParams = Field(default_factory=BarrageParams)
    indirect: IndirectParams | None = None
    events: EventParams | None = None
    assault: AssaultParams = Field(default_factory=AssaultParams)
    stragglers: StragglerParams | None = None
    straggler_recovery: RecoveryTable | None = None
    command: CommandParams = Field(default_factory=CommandParams)
    rally: RallyParams = Field(default_factory=RallyParams)
    opportunity: OpportunityParams = Field(default_factory=OpportunityParams)
    # The Utah system file's tables (no plug-in default): the Drop Table [Excl 3.3.1] and its
    # modifiers, and the d10 tables of the Random Events [Excl 6.0].
    drop_table: DropTableParams | None = None
    drop_terrain_modifiers: Cited[dict[str, int]] = cite({})
    drop_number_modifiers: Cited[dict[str, int]] = cite({})
    drop_other_modifiers: Cited[dict[str, int]] = cite({})
    die_tables: dict[str, DieTable] = Field(default_factory=dict)


SECTIONS: tuple[str, ...] = tuple(GtsParams.model_fields)


def parse(system_params: dict[str, Any], defaults: dict[str, Any], *, system_file: str = "the system file",
          defaults_file: str = "play/gts/params.yaml") -> GtsParams:
    """The merged parameters: each section from ``system_params`` when it has it, else from
    ``defaults``; missing or empty: absent. A bad value raises GameError naming its file and key."""
    raw: dict[str, Any] = {}
    source: dict[str, str] = {}
    for key in SECTIONS:
        v = system_params.get(key)
        where = system_file
        if v is None:
            v, where = defaults.get(key), defaults_file
        if v is None or v == {} or v == []:
            continue
        raw[key], source[key] = v, where
    try:
        return GtsParams.model_validate(raw)
    except ValidationError as exc:
        errs = exc.errors()
        e = errs[0]
        loc = ".".join(str(p) for p in e["loc"])
        more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
        raise GameError(f"{source.get(str(e['loc'][0]), system_file)} params.{loc}: {e['msg']} "
                        f"(got {show(e.get('input'))}){more}") from None


_CACHE: "weakref.WeakKeyDictionary[Any, GtsParams]" = weakref.WeakKeyDictionary()


def gts_params(game: "PlayContext") -> GtsParams:
    """The game's GTS parameters, validated on first use (when the plug-in builds its
    procedures, so a bad value stops the game from starting) and kept for the game."""
    p = _CACHE.get(game)
    if p is None:
        src = getattr(game.system, "source_file", None) or f"system {game.system.id!r}"
        p = _CACHE[game] = parse(game.system.params, game.plugin.defaults, system_file=str(src),
                                 defaults_file=f"play/{game.plugin.folder.name}/params.yaml")
    return p
