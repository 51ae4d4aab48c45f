"""3.5 Allied Dieppe Casualties: the one die roll of the SFN set-up.

"If the Allied player chooses to come ashore in the Dieppe area, there's a good chance the 1st
Canadian Division, which lands in that town hex (now called "Juno Beach," in 1510) will suffer
casualties. Roll one die; an even result means the unit lands at full strength; an odd result
means it's reduced to one step. All other Allied units always come ashore at full strength."
[SFN 3.5]

Which area and which unit are data (``landing_casualties`` in play/sfn/params.yaml, or the
system file's params): the roll is made when the scenario's ``params.invasion_area`` [3.2, 3.3]
is that area, once, when the set-up is placed (``Procedure.on_setup``), before the first phase:
the German player's first turn already faces the strength it landed at. The die is SFN's
decimal die, whose 0 reads 10 [2.2], so 2, 4, 6, 8 and 10 are even and P(odd) = 5/10. A unit
set up at one step already stays at one step ("reduced to one step", not a step loss).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure

if TYPE_CHECKING:
    from play.context import PlayContext

EVENT = "landing_casualties"  # the roll's event type (the analysis reads it)


class LandingCasualties(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        from play.sfn.params import sfn_params

        self.c = sfn_params(game).landing_casualties

    def applies(self, game: "PlayContext") -> bool:
        """The scenario lands in the area whose landing the roll is for [3.5]."""
        area = self.c.area.value
        return bool(area) and bool(self.c.unit.value) and str(game.scenario.params.get("invasion_area") or "") == area

    def on_setup(self, game: "PlayContext") -> None:
        if not self.applies(game):
            return
        uid, rule = self.c.unit.value, self.c.rule
        u = game.state.units.get(uid)
        if u is None or u.where != "hex":
            # the scenario did not land it: nothing to roll for, said rather than silently skipped
            where = "not in the scenario" if u is None else f"in {u.where}" + (f" {u.box}" if u.box else "")
            game.emit("landing_casualties_skipped", unit=uid, reason=f"{uid} is not set up on the map ({where})",
                      rule=rule)
            return
        roll = game.dice.roll(1, self.c.die.value)[0]  # faces 1..10: the decimal die's 0 reads 10 [2.2]
        parity = "odd" if roll % 2 else "even"
        reduced = parity == self.c.reduced_on.value
        data: dict[str, Any] = {}
        if reduced and u.steps > 1:
            u.steps = 1  # "reduced to one step": a two-step counter shows its reduced side
            c = game.counters.get(uid)
            u.reduced = u.reduced or (c is not None and c.back is not None)
        elif reduced:
            data["already"] = True  # set up at one step: it stays so
        game.emit("landing_casualties", unit=uid, hex=game.label(u.hex), roll=roll, die=f"d{self.c.die.value}",
                  parity=parity, reduced=reduced, result="reduced" if reduced else "full strength", steps=u.steps,
                  rule=rule, **data)
