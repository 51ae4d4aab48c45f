"""The SFN plug-in's parameters, typed: one model per section of ``play/sfn/params.yaml`` and of
``play/sfn/optional/optional_rules.yaml``, validated once per game (:func:`sfn_params`).

Where the values come from, section by section (as :func:`play.procedure.system_param` and the
optional rules' data always read them): the system file's ``params.<section>`` when it has the
key, else the plug-in's file. The system file's ``params.<airdrop.params_key>`` (``airdrops``:
the eligible divisions, the plotting limits) is SFN data that only the system file carries.
A value that does not fit stops the game from starting, with the key and the file
(:class:`play.typed_data.ParamsError`), instead of failing inside a procedure later.

Each field's default is what the engine used when the key was missing; a default that depends
on the caller (mostly a rule case falling back to its section's) stays at the call site.
``combat`` is passed through untyped: ``play/sfn/combat.py`` reads it itself while SFN's CRT
moves into a shared, data-driven form.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import model_validator

from play.typed_data import (Citation, Cited, Int, Params, PerGame, PosInt, Text, TextList, TextListOr,
                             validate_block, validate_sections)

if TYPE_CHECKING:
    from play.context import PlayContext

# --- command points [6.0] -------------------------------------------------------------------


class CpSide(Params):
    base: Int = 0
    max: Int | None = None      # None: the base
    rule: Text | None = None


class CommandPointsParams(Params):
    rule: Text | None = None
    sides: dict[str, CpSide] = {}
    move_cost: Cited[int] = Cited[int](value=1)
    attack_cost: Cited[int] = Cited[int](value=2)
    one_action_per_turn: Citation = Citation()
    no_accumulation: Citation = Citation()


# --- supply [9.0] --------------------------------------------------------------------------------


class SupplySources(Params):
    area_param: Text | None = None         # a system param naming a map area
    invasion_beachheads: bool = False      # the active invasion area's beachheads


class SupplyAlwaysIn(Params):
    terrain_tags: TextList = []
    coastal: bool = False


class SupplyNoTraceInto(Params):
    terrain_tags: TextList = []
    coastal_except_sources: bool = False


class SupplySide(Params):
    rule: Text | None = None
    sources: SupplySources = SupplySources()
    always_in: SupplyAlwaysIn = SupplyAlwaysIn()
    no_trace_into: SupplyNoTraceInto = SupplyNoTraceInto()


class SupplyParams(Params):
    rule: Text | None = None
    check_rule: Text | None = None
    marker: Text = "OOS"
    oos_movement: Cited[float] | None = None
    # None: the tracer blocks no ZOC by hexside; SFN's own ZOC helpers read it as [all_sea].
    zoc_blocking_hexside_tags: TextList | None = None
    sides: dict[str, SupplySide] = {}

    @cached_property
    def trace_config(self) -> dict[str, Any]:
        """The mapping :func:`play.supply.trace` reads (the tracer is shared, so it takes plain data)."""
        return self.model_dump(exclude_none=True)


# --- strategic movement [12.5] and box entry [7.3] ------------------------------------------------


class BoxToBox(Params):
    boxes: TextList = []
    per_game_turn: Int = 1
    cost: Int = 1
    side: Text | None = None   # None: any side
    rule: Text | None = None


class NoStrategicFromBoxes(Params):
    boxes: TextList = []
    rule: Text | None = None


class StrategicMovementParams(Params):
    rule: Text = "SFN 12.5"
    factor: Cited[float] = Cited[float](value=2.0)
    box_to_box: BoxToBox = BoxToBox()
    no_strategic_from_boxes: NoStrategicFromBoxes = NoStrategicFromBoxes()


class EntryBox(Params):
    rule: Text | None = None
    area: Text | None = None                       # a map area: the box's entry hexes
    by_nationality: dict[str, TextList] = {}       # nationality -> beaches
    location_pattern: Text = "{beach}-{area}"
    active_area_only: Citation = Citation()


class BoxEntryParams(Params):
    rule: Text | None = None
    one_unit_per_command: Cited[int] = Cited[int](value=1)
    boxes: dict[str, EntryBox] = {}


# --- landing casualties [3.5] -------------------------------------------------------------------


class LandingCasualtiesParams(Params):
    """The set-up roll of 3.5: in ``area``, ``unit`` is reduced on an ``reduced_on`` roll of ``die``."""

    rule: Text = "SFN 3.5"
    area: Cited[str] = Cited[str](value="")          # the scenario's params.invasion_area; "": never
    unit: Cited[str] = Cited[str](value="")          # the counter id; "": no roll
    die: Cited[PosInt] = Cited[PosInt](value=10)
    reduced_on: Cited[Literal["odd", "even"]] = Cited[Literal["odd", "even"]](value="odd")


# --- airdrops [15.6] ---------------------------------------------------------------------------


class AirdropParams(Params):
    rule: Text | None = None
    optional_rule: Text = "airdrops"
    params_key: Text = "airdrops"
    forbidden_terrain_tags: TextList = []
    cost: Cited[int] = Cited[int](value=1)
    ezoc_hit_max: Cited[int] = Cited[int](value=5)
    no_move_or_attack_on_drop_turn: Citation = Citation()
    supplied_on_drop_turn: Citation = Citation()


class AirdropSystemParams(Params):
    """The system file's ``params.airdrops``: who may drop, from where, how far ahead [15.6]."""

    rule: Text | None = None
    eligible: TextList = []
    from_box: Text = "england"
    forbidden_terrain: TextList = []
    max_divisions_per_day: Int = 3
    min_plot_lead: Int = 2


# --- victory points [4.0] -------------------------------------------------------------------------


class BeachheadCapture(Params):
    value: Int = 3
    once_per_hex: bool = True
    rule: Text | None = None


class VpParams(Params):
    rule: Text = "SFN 4.2"
    side: Text = "german"
    feature: Text = "vp_hex"
    control_rule: Text | None = None
    beachhead_capture: BeachheadCapture | None = None    # None: no capture VP
    allied_win_at_or_below: Cited[int] | None = None     # None: no sudden Allied win
    german_win_at_or_above: Cited[int] | None = None


# --- replacements [8.1-8.6] ------------------------------------------------------------------------


class RpPoints(Params):
    rule: Text = "SFN 8.1"
    known: dict[int, dict[str, Int]] = {}     # game turn -> pool -> RP, as transcribed
    later: Text | None = None
    scenario_param: Text = "replacement_points"


class RpPool(Params):
    sides: TextList = []
    nationalities: TextList = []


class RpPools(Params):
    """``pools:`` holds the pools beside its rule case (``{rule: …, german: {…}, …}``)."""

    rule: Text = "SFN 8.3"
    pools: dict[str, RpPool] = {}

    @model_validator(mode="before")
    @classmethod
    def _split(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "pools" in data:
            return data
        free = {"rule"} | cls._free_keys()
        return {"rule": data.get("rule"), "pools": {k: v for k, v in data.items() if k not in free}}


class RpArtillery(Params):
    tag: Text = "artillery"
    cost: Int = 2
    rule: Text | None = None


class RpRebuild(Params):
    german_side: Text = "german"
    german_box: Text = "north"
    rule: Text = "SFN 8.2"


class RpNoMoveAfter(Params):
    marker: Text = "replaced"
    rule: Text = "SFN 8.3"


class RpOosDead(Params):
    boxes: dict[str, Text] = {}     # side -> the OOS dead pile box
    rule: Text = "SFN 8.4"


class RpBlooding(Params):
    nationalities: TextListOr = ["us"]
    untried_flag: Text = "untried"
    suffix: Text = "-untried"
    success_at: Int = 6
    advance: Int = 1
    all_defenders_eliminated: Int = 1
    retreat: Int = -2
    box: Text = "us-blooded"
    rule: Text = "SFN 8.5"


class RpFrench(Params):
    nationality: Text | None = None
    categories: TextList = []
    rule: Text = "SFN 8.6"


class RpVp(Params):
    pool: Text | None = None
    side: Text = "german"
    per_point: Int = 1
    rule: Text | None = None


class ReplacementsParams(Params):
    rule: Text = "SFN 8.1"
    points: RpPoints = RpPoints()
    pools: RpPools = RpPools()
    cost_per_step: Cited[int] = Cited[int](value=1)
    artillery: RpArtillery = RpArtillery()
    rebuild: RpRebuild = RpRebuild()
    supply: Citation = Citation()
    no_move_after: RpNoMoveAfter = RpNoMoveAfter()
    oos_dead: RpOosDead = RpOosDead()
    eliminating_actions: TextListOr = ["attack", "step_loss", "airdrop"]
    blooding: RpBlooding = RpBlooding()
    french: RpFrench | None = None     # None: no Free French limit
    vp: RpVp | None = None             # None: replacements give no VP


# --- German transfers [7.1, 7.4-7.6] and army HQ CP [6.6] ---------------------------------------------


class Italy(Params):
    from_box: Text = "italy"
    to_box: Text = "south"
    first_turn: Int = 5
    every: PosInt = 5
    per_turn: Int = 1
    rule: Text = "SFN 7.4"


class ItalyScheduling(Params):
    optional_rule: Text = "italy_scheduling"
    lead: Int = 4
    rule: Text = "SFN 7.5"


class RigaOdessa(Params):
    optional_rule: Text = "riga_odessa"
    scenario_param: Text = "riga_odessa_declared"
    from_box: Text = "russia"
    to_box: Text = "north"
    first_turn: Int = 5
    every: PosInt = 5
    delay: Int = 15
    draw: Int = 5
    rule: Text = "SFN 7.6"


class ArmyHq(Params):
    tag: Text = "hq"
    box: Text = "german-cp"
    from_boxes: TextListOr = ["north", "south"]
    cost: Int = 1
    max_cp: Int = 6
    rule: Text = "SFN 6.6"


class TransfersParams(Params):
    rule: Text | None = None
    side: Text = "german"
    admin_phase_kind: Text = "reinforcement"
    same_turn: Citation = Citation()
    italy: Italy = Italy()
    italy_scheduling: ItalyScheduling = ItalyScheduling()
    riga_odessa: RigaOdessa = RigaOdessa()
    hq: ArmyHq = ArmyHq()


# --- optional rules [15.0] (play/sfn/optional/optional_rules.yaml) ----------------------------------


class AdminPhase(Params):
    kind: Text = "reinforcement"
    rule: Text | None = None


class OptionalRuleParams(Params):
    rule: Text = "SFN 15.0"
    optional_rule: Text | None = None   # the scenario's optional_rules key; None: the block's key
    side: Text = ""


class NavalTaskForceParams(OptionalRuleParams):
    defending_modifier: Cited[int] = Cited[int](value=2)
    attacking_modifier: Cited[int] = Cited[int](value=1)
    per_game_turn: Cited[int] = Cited[int](value=1)
    coastal: Citation = Citation()


class GreatStormsParams(OptionalRuleParams):
    first_check_turn: Cited[int] = Cited[int](value=10)
    every: Cited[PosInt] = Cited[PosInt](value=5)
    approach_on: Cited[list[int]] = Cited[list[int]](value=[10])
    # 1-n per check, in order; a storm outlasting the list keeps the last [15.2]
    arrival_max: Cited[list[int]] = Cited[list[int]](value=[2, 4, 6, 8])
    departure_max: Cited[list[int]] = Cited[list[int]](value=[2, 4, 6, 8])
    max_days: Cited[int] = Cited[int](value=5)
    from_box: Cited[str] = Cited[str](value="england")
    blocked_side: Text = "allied"
    blocked_actions: Cited[list[str]] = Cited[list[str]](value=[])

    @model_validator(mode="after")
    def _tables(self) -> "GreatStormsParams":
        for name in ("arrival_max", "departure_max"):
            if not getattr(self, name).value:
                raise ValueError(f"{name} needs at least one roll (1-n)")
        return self


class TacticalAirParams(OptionalRuleParams):
    first_declaration_turn: Cited[int] = Cited[int](value=5)
    every: Cited[PosInt] = Cited[PosInt](value=5)
    period: Cited[int] = Cited[int](value=5)
    contest_vp: Cited[int] = Cited[int](value=-1)
    lgas_max: Cited[int] = Cited[int](value=3)
    german_modifier: Cited[int] = Cited[int](value=1)
    allied_modifier: Cited[int] = Cited[int](value=-1)


class SafRow(Params):
    result: Text = "unknown"    # fiasco | no_show | modifier
    vp: Int = 1
    modifier: Int = 0


class SafTable(Params):
    """``table:`` holds the d10 rows beside its rule case (``{rule: …, '1': {…}, …}``)."""

    rule: Text | None = None
    rows: dict[int, SafRow] = {}

    @model_validator(mode="before")
    @classmethod
    def _split(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "rows" in data:
            return data
        free = {"rule"} | cls._free_keys()
        return {"rule": data.get("rule"), "rows": {k: v for k, v in data.items() if k not in free}}


class StrategicAirParams(OptionalRuleParams):
    min_lead: Cited[int] = Cited[int](value=2)
    max_lead: Cited[int] = Cited[int](value=7)
    table: SafTable = SafTable()


class AirborneWithdrawalParams(OptionalRuleParams):
    eligible: Cited[list[Text]] = Cited[list[Text]](value=[])
    first_turn: Cited[int] = Cited[int](value=25)
    to_box: Cited[str] = Cited[str](value="england")
    rest_days: Cited[int] = Cited[int](value=30)
    days_on_continent_after_drop: Cited[int] = Cited[int](value=25)


class BluePointParams(OptionalRuleParams):
    turn: Cited[int] = Cited[int](value=1)
    units: Cited[list[Text]] = Cited[list[Text]](value=[])
    from_box: Cited[str] = Cited[str](value="south")
    to_box: Cited[str] = Cited[str](value="oos-dead-german")
    die: Cited[PosInt] = Cited[PosInt](value=10)
    cp_reduction: Cited[int] = Cited[int](value=1)


class AerialSupplyParams(OptionalRuleParams):
    max_units: Cited[int] = Cited[int](value=3)
    marker: Text = "aerial_supply"


class Armored79thParams(OptionalRuleParams):
    unit: Cited[str] = Cited[str](value="cw-79-armd")


class SfnOptionalParams(Params):
    admin_phase: AdminPhase = AdminPhase()
    naval_task_force: NavalTaskForceParams = NavalTaskForceParams()
    great_storms: GreatStormsParams = GreatStormsParams()
    tactical_air: TacticalAirParams = TacticalAirParams()
    strategic_air: StrategicAirParams = StrategicAirParams()
    airborne_withdrawal: AirborneWithdrawalParams = AirborneWithdrawalParams()
    blue_point: BluePointParams = BluePointParams()
    aerial_supply: AerialSupplyParams = AerialSupplyParams()
    armored_79th: Armored79thParams = Armored79thParams()


# --- the whole ----------------------------------------------------------------------------------


class SfnParams(Params):
    command_points: CommandPointsParams = CommandPointsParams()
    supply: SupplyParams | None = None            # None: no supply rules (nothing is traced)
    combat: dict[str, Any] = {}                   # untyped: play/sfn/combat.py reads it (see above)
    strategic_movement: StrategicMovementParams = StrategicMovementParams()
    box_entry: BoxEntryParams = BoxEntryParams()
    airdrop: AirdropParams = AirdropParams()
    landing_casualties: LandingCasualtiesParams = LandingCasualtiesParams()
    vp: VpParams = VpParams()
    replacements: ReplacementsParams | None = None   # None: no replacements procedure at phase starts
    transfers: TransfersParams | None = None         # None: no transfers or HQ CP at phase starts
    # Not in params.yaml: the system file's params.<airdrop.params_key>, and the optional rules' blocks.
    airdrops: AirdropSystemParams = AirdropSystemParams()
    optional: SfnOptionalParams = SfnOptionalParams()

    @property
    def oos_marker(self) -> str:
        return self.supply.marker if self.supply is not None else "OOS"

    @cached_property
    def zoc_blocking_tags(self) -> frozenset[str]:
        """Hexside tags no SFN ZOC crosses [11.2] (all-sea unless the supply section says)."""
        tags = self.supply.zoc_blocking_hexside_tags if self.supply is not None else None
        return frozenset(tags or ["all_sea"])


PLUGIN_FILE = "play/sfn/params.yaml"
OPTIONAL_FILE = "play/sfn/optional/optional_rules.yaml"
MAIN_SECTIONS = tuple(k for k in SfnParams.model_fields if k not in ("airdrops", "optional"))


@lru_cache(maxsize=1)
def optional_defaults() -> dict[str, Any]:
    """``optional_rules.yaml``: optional rule key -> its block (key ``sfn_optional``)."""
    from pathlib import Path

    from model.formats.yamlio import read_package_data

    data = read_package_data(Path(__file__).parent / "optional" / "optional_rules.yaml") or {}
    return dict(data.get("sfn_optional") or {})


def load_params(game: "PlayContext", context: dict[str, Any] | None = None) -> SfnParams:
    """Validate this game's SFN parameters (``context``: pydantic validation context)."""
    system = game.system.params
    sections = {k: (system[k], f"the system file's params.{k}") if system.get(k) is not None
                else (game.plugin.defaults.get(k), PLUGIN_FILE) for k in MAIN_SECTIONS}
    main = validate_sections(SfnParams, "SFN", sections, context)
    key = main.airdrop.params_key
    airdrops = validate_block(AirdropSystemParams, "SFN", key, system.get(key), f"the system file's params.{key}",
                              context)
    # An optional rule's block: the system's params.<key> when it is a mapping (the block's own
    # key is also a plain system param name, so another kind of value there is not this block).
    blocks = {k: (system[k], f"the system file's params.{k}") if isinstance(system.get(k), dict)
              else (v, OPTIONAL_FILE) for k, v in optional_defaults().items()}
    optional = validate_sections(SfnOptionalParams, "SFN optional rule", blocks, context)
    return main.model_copy(update={"airdrops": airdrops, "optional": optional})


# Validated when the plug-in builds a game's procedures (play/sfn/plugin.py), then shared.
sfn_params: PerGame[SfnParams] = PerGame(load_params)
