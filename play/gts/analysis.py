"""The random procedures ``hexproof analyze`` plays for a GTS scenario (play/analysis/).

Airborne drops: "Roll for Units in Drop One at the start of play. [...] Make one die roll on
the Drop table for each stick" [Utah Excl 3.3.1]. Every schedule entry with a drop order that
arrives on the scenario's first turn gives one ``drop_roll`` step per stick, with the order's
drop number; a stick dropping into an LZ rolls on the Glider column. The companies of the
stick are counted; a Leader rides along with his stick (his fate follows its Rearguard
[Excl 3.3.1]) and is not counted.

Drops of later turns ("Roll for Units in subsequent drops as they drop") are not played yet:
the analysis does not advance turns (docs/analysis.md, "What is left").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from play.analysis.plan import RandomStep

if TYPE_CHECKING:
    from play.context import PlayContext

DROP_RULE = "Excl 3.3.1"


def random_steps(game: "PlayContext") -> list[RandomStep]:
    from model.calendar import resolve_turn
    from play.gts import command

    turns = game.system.calendar.all_turns
    zones = {z.id: z for z in game.scenario.drop_zones}
    steps: list[RandomStep] = []
    for sched in game.scenario.schedule:
        order = sched.drop
        if order is None or resolve_turn(sched.turn, turns) != game.state.turn:
            continue
        zone = zones.get(order.zone)
        glider = zone is not None and zone.kind == "lz"
        for stick in order.sticks or [[u] for u in sched.units]:
            units = [u for u in stick if u in game.state.units and game.state.units[u].on_map]
            if not units or len({game.state.units[u].hex for u in units}) != 1:
                continue  # not landed together (a prohibited hex): the drop roll would refuse it
            action: dict[str, object] = {"do": "drop_roll", "units": list(units),
                                         "drop_number": order.drop_number or "One"}
            if glider:
                action["glider"] = True
            counted = tuple(u for u in units if not command.is_leader(game, u))
            steps.append(RandomStep(kind="drop", action=action, units=counted, zone=order.zone, rule=DROP_RULE,
                                    title="Airborne drops"))
    return steps
