"""The SFN plug-in's part of the game state (``GameState.system``): one dataclass per concern.

Everything here is saved with the game and restored by undo (``Game`` deep-copies the whole
state before each action). Turn-keyed maps use ``int`` keys in memory; :meth:`SfnState.to_dict`
writes them as JSON object keys (text) and :meth:`SfnState.from_dict` reads them back, so a
saved game is plain JSON data and a resumed game holds exactly what the running one did.

Saves written before this state was typed kept it in ``GameState.extra`` (``extra["sfn"]``
and ``extra["cp"]``); :meth:`SfnState.from_extra` reads that layout, so such a game resumes
with its command points, plans, VP hex control and so on (``play.state.GameState.from_dict``
calls it when a save has no ``system`` part).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from play.context import PlayContext


# --- command points [6.0] -------------------------------------------------------------------


@dataclass
class CommandPointsState:
    points: dict[str, int] = field(default_factory=dict)   # side -> CP left this player turn [6.1]
    bonus: dict[str, int] = field(default_factory=dict)    # side -> declared bonus CP (set_cp_bonus) [6.1]
    acted: dict[str, str] = field(default_factory=dict)    # unit -> command it took this player turn [6.4]
    attacked: list[str] = field(default_factory=list)      # hexes attacked this player turn [6.4]


# --- airdrops [15.6] ----------------------------------------------------------------------------


@dataclass
class DropPlan:
    unit: str
    hex: str
    turn: int        # the day of the drop
    plotted: int     # the game turn the plan was written
    status: str = "plotted"   # plotted | cancelled | dropped


@dataclass
class AirdropState:
    plots: list[DropPlan] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)  # unit -> game turn it dropped
    scenario_plots_loaded: bool = False                    # the scenario's own plans were read


# --- victory points and hex control [4.0, 11.6] ------------------------------------------------


@dataclass
class VictoryState:
    # False until the first VP update has read the map (it then logs ``vp_start``).
    started: bool = False
    control: dict[str, str] = field(default_factory=dict)     # VP hex label -> controlling side
    beachheads: dict[str, str] = field(default_factory=dict)  # beachhead label -> controlling side [4.3]
    beachheads_scored: list[str] = field(default_factory=list)  # beachheads whose capture scored [4.3]


# --- replacements [8.1-8.6] ---------------------------------------------------------------------


@dataclass
class ReplacementsState:
    turn: int | None = None        # the game turn ``points`` belong to (unused RP are lost [8.1])
    points: dict[str, int] = field(default_factory=dict)   # pool -> RP left this turn
    source: str | None = None      # where this turn's RP came from (Turn Record Sheet, scenario, unknown)
    replaced: list[str] = field(default_factory=list)      # units replaced this player turn [8.3]
    oos_dead: dict[str, str] = field(default_factory=dict)  # unit -> why it may never be recreated [8.4]


# --- German transfers [7.1, 7.4-7.6] --------------------------------------------------------------


@dataclass
class TransfersState:
    arrived: dict[str, int] = field(default_factory=dict)     # unit -> game turn it came from Italy/Russia
    italy_done: dict[int, int] = field(default_factory=dict)  # game turn -> units moved from Italy [7.4]
    scheduled: dict[int, str] = field(default_factory=dict)   # game turn -> unit set aside for it [7.5]
    riga_odessa: int | None = None                            # game turn of the declaration [7.6]
    draws: list[int] = field(default_factory=list)            # game turns units were drawn from Russia


# --- optional rules [15.0] -----------------------------------------------------------------------


@dataclass
class GreatStormsState:
    checked_turn: int | None = None   # the last game turn the storm check ran
    approaching: bool = False
    arrival_checks: int = 0           # arrival rolls made for the approaching storm
    raging: bool = False
    days: int = 0                     # days the raging storm has lasted (set to 1 when it arrives)
    since: int | None = None          # the game turn it arrived


@dataclass
class TacticalAirState:
    declared_turn: int | None = None    # the last declaration turn settled
    contested_from: int | None = None
    contested_until: int | None = None  # None: no contested period


@dataclass
class SafPlan:
    hex: str
    turn: int
    plotted: int
    status: str = "plotted"   # plotted | cancelled | forfeit | fiasco | no_show | modifier | unknown
    roll: int | None = None


@dataclass
class StrategicAirState:
    plans: list[SafPlan] = field(default_factory=list)


@dataclass
class AirborneWithdrawalState:
    withdrawn: dict[str, int] = field(default_factory=dict)  # unit -> game turn it was withdrawn


@dataclass
class BluePointState:
    launched: bool | None = None   # None: not yet announced (a once-and-done decision)
    roll: int | None = None
    result: int | None = None      # the halved roll
    chaos_turn: int | None = None
    cp_turns: list[int] = field(default_factory=list)  # game turns of Allied CP -1


@dataclass
class AerialSupplyState:
    placed: int = 0   # markers placed since the last Allied supply check


@dataclass
class NavalTaskForceState:
    used: dict[int, int] = field(default_factory=dict)  # game turn -> NTF uses


@dataclass
class OptionalState:
    great_storms: GreatStormsState = field(default_factory=GreatStormsState)
    tactical_air: TacticalAirState = field(default_factory=TacticalAirState)
    strategic_air: StrategicAirState = field(default_factory=StrategicAirState)
    airborne_withdrawal: AirborneWithdrawalState = field(default_factory=AirborneWithdrawalState)
    blue_point: BluePointState = field(default_factory=BluePointState)
    aerial_supply: AerialSupplyState = field(default_factory=AerialSupplyState)
    naval_task_force: NavalTaskForceState = field(default_factory=NavalTaskForceState)


@dataclass
class OptionalBattle:
    """What the optional rules decided for the battle being fought (``attack``): set when
    the attack is found legal, cleared after it; read by the fire modifiers."""

    ntf_mode: str | None = None      # attacking | defending: the NTF supports this battle [15.1]
    ntf_modifier: int = 0
    saf_plotted: bool = False        # plotted SAF participation [15.4] (no LGAS check then)
    saf_modifier: int | None = None
    lgas: bool = False               # Local German Air Superiority [15.3]
    armored_79th: bool = False       # the 79th attacks [15.9]


# --- the whole ----------------------------------------------------------------------------------


@dataclass
class SfnState:
    command_points: CommandPointsState = field(default_factory=CommandPointsState)
    airdrops: AirdropState = field(default_factory=AirdropState)
    victory: VictoryState = field(default_factory=VictoryState)
    replacements: ReplacementsState = field(default_factory=ReplacementsState)
    transfers: TransfersState = field(default_factory=TransfersState)
    box_moves: dict[int, int] = field(default_factory=dict)  # game turn -> North/South box moves [12.5]
    optional: OptionalState = field(default_factory=OptionalState)
    battle: OptionalBattle | None = None   # only while an attack is resolved

    def to_dict(self) -> dict[str, Any]:
        return _adapter().dump_python(self, mode="json")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SfnState":
        from play.typed_data import load_saved_state

        state: SfnState = load_saved_state(_adapter(), d, "SFN")
        return state

    @classmethod
    def from_extra(cls, extra: dict[str, Any]) -> "SfnState":
        """The state of a save written before SFN state was typed (``extra["sfn"]``, ``extra["cp"]``)."""
        old = copy.deepcopy(extra.get("sfn") or {})
        reps = dict(old.get("replacements") or {})
        reps["source"] = (reps.pop("known", None) or {}).get("source")
        return cls.from_dict({
            "command_points": extra.get("cp") or {},
            "airdrops": {k: old[k] for k in ("plots", "dropped", "scenario_plots_loaded") if k in old},
            "victory": {"started": "control" in old,
                        **{k: old[k] for k in ("control", "beachheads", "beachheads_scored") if k in old}},
            "replacements": reps,
            "transfers": old.get("transfers") or {},
            "box_moves": old.get("box_moves") or {},
            "optional": old.get("optional") or {},
            # ``optional_battle`` lived only while an attack was resolved: nothing to carry over.
        })


@cache
def _adapter() -> "TypeAdapter[SfnState]":
    # Built on first save or load, not on import: the plug-in table is imported at editor start.
    from pydantic import TypeAdapter

    return TypeAdapter(SfnState)


def sfn_state(game: "PlayContext") -> SfnState:
    """This game's SFN state (``GameState.system``, made by ``Game`` from ``PLUGIN.state``)."""
    st = game.state.system
    if not isinstance(st, SfnState):
        raise TypeError(f"SFN procedures need the game state of the sfn plug-in, not {type(st).__name__}")
    return st
