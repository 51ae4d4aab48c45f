"""Airborne Leader Losses [Excl 18.7], an optional rule (scenario ``optional_rules: {Excl 18.7:
true}``).

"During all 5, 6, and 7 June Game Turns, when the Division Activation chit is pulled for the 82nd
and 101st Airborne Divisions ... After rolling for Command and Dispatch points normally, roll for
the impact of Leader Losses. On 5 and 6 June, a roll of greater than 5 results in the loss of 2
Command Points. On 7 June, a roll of greater than 7 results in the loss of 2 Command Points."

The roll follows a successful ``roll_points`` [GTS 10.0.3] or, where the ratings are ``unknown``
(the Utah sample), ``set_points`` (play/gts/activation.py) for an airborne Division whose DivAct
chit was drawn this turn (policy ``leader-loss-after-declared-points``),
once per turn and Division; Command Points never drop below 0 [GTS 10.0.4]. Event
``leader_losses`` carries the die, the threshold and the points left. Data:
``play/gts/optional_rules.yaml`` (``airborne_leader_losses``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from play.gts.optional_data import optional_data
from play.gts.state import DivisionPoints, gts_state
from play.procedure import Procedure

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult



def _turn_day(game: "PlayContext") -> dt.date | None:
    return next((t.date for t in game.system.calendar.all_turns if t.n == game.state.turn), None)


class AirborneLeaderLosses(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        self.c = optional_data().airborne_leader_losses
        self.rule = self.c.rule
        self.actions = {}

    def threshold(self, game: "PlayContext") -> int | None:
        """The roll must be greater than this today (None: not a 5-7 June turn)."""
        day = _turn_day(game)
        v = self.c.loss_above.value.get(day.isoformat()) if day is not None else None
        return v

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") not in ("set_points", "roll_points") or not result.ok:
            return
        div = str(action.get("division"))
        if div not in self.c.divisions.value:
            return
        above = self.threshold(game)
        chit = self.c.divact_chits.value.get(div)
        drawn = gts_state(game).chits.drawn
        if above is None or chit is None or chit not in drawn:
            return  # not a 5-7 June turn, or the DivAct chit was not pulled this turn
        st = gts_state(game).leader_losses
        key = f"{game.state.turn}:{div}"
        if key in st:
            return  # one roll per pull of the DivAct chit
        die = game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0
        pts = gts_state(game).activation.points.setdefault(div, DivisionPoints())
        lost = 0
        if die > above:
            floor = self.c.cp_min.value or 0
            before = int(pts.command)
            pts.command = max(floor, before - (self.c.cp_loss.value or 2))
            lost = before - pts.command
        st[key] = die
        game.emit("leader_losses", division=div, die=die, loss_above=above, lost=lost, command=pts.command,
                  rule=self.rule, policy=self.c.points_policy.strip() or None)


def optional_procedures(game: "PlayContext") -> list[Procedure]:
    """Point conversion [GTS 10.0.3] (its Excl 18.1 limit switched inside) and the GTS
    optional-rule procedures the scenario selects."""
    from play.gts.optional_cp_conversion import CpConversion  # GTS 10.0.3, limited by Excl 18.1

    data = optional_data()
    out: list[Procedure] = [CpConversion(game)]
    if game.scenario.optional_rules.get(data.airborne_leader_losses.optional_rule):
        out.append(AirborneLeaderLosses(game))
    if game.scenario.optional_rules.get(data.indirect_fire_scatter.optional_rule):
        from play.gts.optional_scatter import IndirectFireScatter

        out.append(IndirectFireScatter(game))
    if game.scenario.optional_rules.get(data.roaming_units.optional_rule):
        from play.gts.optional_roaming import RoamingUnits  # Excl 18.6 on the command ranges [GTS 21.4]

        out.append(RoamingUnits(game))
    return out
