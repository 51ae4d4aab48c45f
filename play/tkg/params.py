"""The TKG plug-in's parameters, typed: one model per section of ``play/tkg/params.yaml``,
validated once per game (:func:`tkg_params`).

Each section comes from the system file's ``params.<section>`` when it has the key, else from
``play/tkg/params.yaml`` (:func:`play.procedure.system_param`'s rule). A value that does not fit
stops the game from starting, with the key and the file (:class:`play.typed_data.ParamsError`).
Each field's default is what the engine used when the key was missing.

The system file's ``rail_stations`` (system data, not a plug-in section) is read where it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import model_validator

from play.typed_data import Citation, Cited, Int, Num, Params, PerGame, Text, TextList, validate_sections

if TYPE_CHECKING:
    from play.context import PlayContext

# --- zones of control [8.0-8.3] --------------------------------------------------------------


class RzocExtra(Params):
    """``rzoc_extra:`` holds the MP per movement class beside its rule case
    (``{nonmech: 1, mech: 3, rule: …}``)."""

    costs: dict[str, Num] = {}    # movement class -> extra MP for entering or leaving an RZOC
    rule: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _split(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "costs" in data:
            return data
        free = {"rule"} | cls._free_keys()
        return {"rule": data.get("rule"), "costs": {k: v for k, v in data.items() if k not in free}}

    def cost(self, mclass: str) -> int | float:
        """A class without its own cost pays the non-mech one (1 when that is missing too)."""
        return self.costs.get(mclass, self.costs.get("nonmech", 1))


class ZocToZoc(Params):
    rule: Text | None = None
    regiment_category_tags: TextList = ["regiment"]   # non-cadre regiments may go BZOC -> BZOC
    german_start_terrain: TextList = []               # a German unit starting here may go ZOC -> ZOC
    german_side: Text = "german"
    between_two_rule: Text | None = None


class ZocParams(Params):
    rule: Text | None = None
    field: Text = "zoc"        # the counter value: RZOC / BZOC / none [8.1.2]
    types_rule: Text | None = None
    no_zoc_categories: TextList = []
    no_zoc_markers: TextList = []
    no_zoc_into_terrain_tags: TextList = []
    no_zoc_across_hexsides: TextList = []
    rzoc_extra: RzocExtra = RzocExtra()
    zoc_to_zoc: ZocToZoc = ZocToZoc()


# --- stacking [6.1.2] -------------------------------------------------------------------------


class StackingParams(Params):
    max_regiments: Cited[int] | None = None   # None: no regiment limit
    regiment_category_tags: TextList = ["regiment"]


# --- Off-Map Movement boxes [7.5] ----------------------------------------------------------------


class AlliedControl(Params):
    min_units: Int = 3
    regiment_category_tags: TextList = ["regiment"]
    not_categories: TextList = []
    rule: Text | None = None


class BritishFlag(Params):
    flag: Text | None = None       # the box flag that admits only these nationalities
    nationalities: TextList = []
    rule: Text | None = None


class OmmParams(Params):
    kinds: TextList = ["omm"]
    edge_to_box: Cited[float] = Cited[float](value=1.0)
    box_to_box: Cited[str] = Cited[str](value="whole_ma")
    no_combat: Citation = Citation()
    allied_side: Text = "allied"
    german_side: Text = "german"
    allied_control: AlliedControl = AlliedControl()
    german_barred_rule: Text | None = None
    reinforcement_rule: Text | None = None
    british_flag: BritishFlag = BritishFlag()


# --- Build-Up landings [18.1] ----------------------------------------------------------------------


class LandingParams(Params):
    box_kinds: TextList = ["landing_box"]
    per_beach_per_turn: Cited[int] = Cited[int](value=2)
    box_capacity_rule: Text | None = None
    beach_hex_rule: Text | None = None
    no_table_policy: Text | None = None


# --- the single-map Transit Display [18.4.2] ---------------------------------------------------------


class Rail(Params):
    box_kinds: TextList = ["rail"]
    below: Int = 13     # the system's rail_stations.single_map_transit_box_below wins
    rule: Text = "TKG [17.4.3]"


class TransitParams(Params):
    rule: Text | None = None
    kinds: TextList = ["transit"]
    omm_kinds: TextList = ["omm"]
    reinforcement_flag: Text = "reinforcements"
    german_side: Text = "german"
    box_to_box_rule: Text | None = None   # None: the section's rule
    rail: Rail = Rail()


# --- the whole ----------------------------------------------------------------------------------


class TkgParams(Params):
    zoc: ZocParams | None = None             # None: no ZOC costs or stops
    stacking: StackingParams = StackingParams()
    omm: OmmParams | None = None             # None: no Allied-control check on German reinforcements
    landing: LandingParams = LandingParams()
    transit: TransitParams | None = None     # None: no Transit Display


PLUGIN_FILE = "play/tkg/params.yaml"


def load_params(game: "PlayContext", context: dict[str, Any] | None = None) -> TkgParams:
    """Validate this game's TKG parameters (``context``: pydantic validation context)."""
    system = game.system.params
    sections = {k: (system[k], f"the system file's params.{k}") if system.get(k) is not None
                else (game.plugin.defaults.get(k), PLUGIN_FILE) for k in TkgParams.model_fields}
    return validate_sections(TkgParams, "TKG", sections, context)


# Validated when the plug-in builds a game's procedures (play/tkg/procedure.py), then shared.
tkg_params: PerGame[TkgParams] = PerGame(load_params)
