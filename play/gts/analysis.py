"""The random procedures ``hexproof analyze`` plays for a GTS scenario (play/analysis/).

Airborne drops: "Roll for Units in Drop One at the start of play. [...] Make one die roll on
the Drop table for each stick" [Utah Excl 3.3.1]. Every schedule entry with a drop order that
arrives on the scenario's first turn gives one ``drop_roll`` step per stick, with the order's
drop number; a stick dropping into an LZ rolls on the Glider column. The companies of the
stick are counted; a Leader rides along with his stick (his fate follows its Rearguard
[Excl 3.3.1]) and is not counted.

Beach landings: "Landing is mandatory" [Err 4.5.1]; every Landing Craft and DD tank waiting in
a Landing Wave box at the start gives one ``land_craft`` step (Beach Obstacles, drift on a 9,
Resistance Nests [Excl 4.2.1, 4.2.2, 4.5.2]), aimed at its Sub-Beach's first landing hex, policy
**analysis-first-landing-hex** (the player's choice of hex, made as ``mandatory-landing-auto``
makes it). An LC's passengers (the box's other units, Leaders aside) and a DD tank are counted;
"in the zone" is landing on the craft's own Sub-Beach. A box with several LCs is skipped (the
player says which units each carries).

Drops of later turns ("Roll for Units in subsequent drops as they drop") are not played yet:
the analysis does not advance turns (docs/analysis.md, "What is left").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from play.analysis.plan import RandomStep

if TYPE_CHECKING:
    from play.context import PlayContext

DROP_RULE = "Excl 3.3.1"
LANDING_RULE = "Excl 4.5.2"
FIRST_HEX_POLICY = ("analysis-first-landing-hex: each craft aims at its Sub-Beach's first landing hex, the hex "
                    "mandatory-landing-auto chooses [Err 4.5.1]")


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
    return steps + _landings(game)


def _landings(game: "PlayContext") -> list[RandomStep]:
    from play.gts import beach, command
    from play.gts.params import gts_params

    cfg = gts_params(game).beach
    if cfg is None or not game.scenario.beach_overlays:
        return []
    kinds = (cfg.lc_category, cfg.dd_category)
    steps: list[RandomStep] = []
    for box in game.bundle.game.boxes:
        found = beach.sub_beach_of_box(game, box) if box.kind == "landing_wave" else None
        if found is None:
            continue
        ov, sb = found
        inside = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == box.id)
        craft = [u for u in inside if getattr(game.counters.get(u), "category", None) in kinds]
        lcs = [u for u in craft if game.counters[u].category == cfg.lc_category]
        if len(lcs) > 1:
            continue  # which units each LC carries is the player's to say
        target = beach.landing_hexes(ov, sb)
        if not target:
            continue
        for uid in craft:
            is_lc = uid in lcs
            passengers = [u for u in inside if u not in craft] if is_lc else []
            counted = tuple(u for u in passengers if not command.is_leader(game, u)) if is_lc else (uid,)
            action: dict[str, object] = {"do": "land_craft", "unit": uid, "to": game.label(target[0])}
            if passengers:
                action["passengers"] = passengers
            steps.append(RandomStep(kind="landing", action=action, units=counted, zone=sb.id, rule=LANDING_RULE,
                                    title="Beach landings", zone_hexes=tuple(sb.hexes), policy=FIRST_HEX_POLICY))
    return steps
