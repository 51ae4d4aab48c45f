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

Random Events: "Random Events occur when the Event! Chit is drawn from the Mug. Roll one die to
see what happens" [Excl 6.0]. When the Event! chit is in the mug at the start of play, the turn's
chits are drawn one after another (one ``draw_chit`` step per chit in the mug: the last one is
left, as the chit pull leaves it [GTS 10.0.6]) with nothing played between the draws, policy
**analysis-draw-the-mug** (the order of the draw and the Event! die do not depend on play; what
an event asks of a player waits, unresolved). The report tallies the ``random_event`` results:
the rows 0-5 as printed, 6-7 by the errata, 8-9 "not in the rules file" (``unknown`` in the
data, never invented). A seed that rolled none left the Event! chit last in the mug: No Event.

Later turns: "Roll for Units in subsequent drops as they drop" [Excl 3.3.1]. A drop order or a
landing wave the schedule brings on a later turn [GTS 8.0, Excl 4.5] gives the same steps with
that ``turn`` and the phase in which units first may move (the Activation Phase [GTS 4.0 H],
after the 4.0 C Reinforcements Phase has placed them); the shared analysis advances the game
to it with ``next_phase`` (play/analysis/trial.py). A later stick's companies are taken from the
schedule (they are not on the map yet when the steps are listed); a craft's passengers are the
schedule entry's other units, Leaders aside. A craft the player has not landed when the
Activation Phase ends is landed by the engine (``mandatory-landing-auto``, [Err 4.5.1]): the
analysis plays that phase's ``land_craft`` itself first, so the figure is the same roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.analysis.plan import NotAnalysed, RandomStep

if TYPE_CHECKING:
    from play.context import PlayContext

DROP_RULE = "Excl 3.3.1"
LANDING_RULE = "Excl 4.5.2"
EVENTS_RULE = "Excl 6.0"
DRAW_POLICY = ("analysis-draw-the-mug: the turn's chits are drawn one after another with nothing played "
               "between the draws; an event's choices wait unresolved; the Event! chit left last is No Event "
               "[Excl 6.0]")
FIRST_HEX_POLICY = ("analysis-first-landing-hex: each craft aims at its Sub-Beach's first landing hex, the hex "
                    "mandatory-landing-auto chooses [Err 4.5.1]")


def random_steps(game: "PlayContext") -> list[RandomStep]:
    from model.calendar import resolve_turn
    from play.gts import command

    turns = game.system.calendar.all_turns
    zones = {z.id: z for z in game.scenario.drop_zones}
    phase = _arrival_phase(game)
    steps: list[RandomStep] = []
    for sched in game.scenario.schedule:
        order = sched.drop
        when = resolve_turn(sched.turn, turns)
        if order is None or when is None or when < game.state.turn:
            continue
        later = when > game.state.turn
        zone = zones.get(order.zone)
        glider = zone is not None and zone.kind == "lz"
        for stick in order.sticks or [[u] for u in sched.units]:
            if later:  # not placed yet: the stick as the schedule gives it (a refusal shows in the results)
                units = [u for u in stick if u in game.state.units]
            else:
                units = [u for u in stick if u in game.state.units and game.state.units[u].on_map]
            if not units or (not later and len({game.state.units[u].hex for u in units}) != 1):
                continue  # not landed together (a prohibited hex): the drop roll would refuse it
            action: dict[str, object] = {"do": "drop_roll", "units": list(units),
                                         "drop_number": order.drop_number or "One"}
            if glider:
                action["glider"] = True
            counted = tuple(u for u in units if not command.is_leader(game, u))
            steps.append(RandomStep(kind="drop", action=action, units=counted, zone=order.zone, rule=DROP_RULE,
                                    title="Airborne drops", turn=when if later else None,
                                    phase=phase if later else None))
    first = [s for s in steps if s.turn is None] + _landings(game) + _events(game)
    later_steps = [s for s in steps if s.turn is not None] + _later_landings(game, phase)
    # by turn; within a turn the drops before the landings, as listed (sorted() is stable)
    return first + sorted(later_steps, key=lambda s: s.turn or 0)


def _arrival_phase(game: "PlayContext") -> str | None:
    """The first phase in which units may move (GTS: the 4.0 H Activation Phase): a turn's
    arrivals are placed before it (4.0 C), so its drop rolls and landings are played there."""
    return next((p.id for p in game.phases if p.permits("move")), None)


def _events(game: "PlayContext") -> list[RandomStep]:
    from play.gts.params import gts_params
    from play.gts.state import gts_state

    cfg = gts_params(game).events
    if cfg is None:
        return []
    mug = gts_state(game).chits.mug
    if cfg.event_chit not in mug:
        return []
    return [RandomStep(kind="events", action={"do": "draw_chit"}, rule=cfg.rule or EVENTS_RULE,
                       title="Random Events", policy=DRAW_POLICY, tally=("random_event",)) for _ in mug]


def _landings(game: "PlayContext") -> list[RandomStep]:
    from play.gts import beach
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
        steps.extend(_wave_steps(game, kinds, cfg.lc_category, inside, sb, beach.landing_hexes(ov, sb)))
    return steps


def _wave_steps(game: "PlayContext", kinds: tuple[str, ...], lc_category: str, units: list[str], sb: Any,
                target: list[Any], turn: int | None = None, phase: str | None = None) -> list[RandomStep]:
    """One ``land_craft`` per Landing Craft or DD tank among a wave's ``units`` [Excl 4.5]: the
    LC carries the wave's other units (Leaders aside in the count). None for a wave with several
    LCs (which units each carries is the player's to say) or a Sub-Beach with no landing hex."""
    from play.gts import command

    craft = [u for u in units if getattr(game.counters.get(u), "category", None) in kinds]
    lcs = [u for u in craft if game.counters[u].category == lc_category]
    if len(lcs) > 1 or not target:
        return []
    steps: list[RandomStep] = []
    for uid in craft:
        is_lc = uid in lcs
        passengers = [u for u in units if u not in craft] if is_lc else []
        counted = tuple(u for u in passengers if not command.is_leader(game, u)) if is_lc else (uid,)
        action: dict[str, object] = {"do": "land_craft", "unit": uid, "to": game.label(target[0])}
        if passengers:
            action["passengers"] = passengers
        steps.append(RandomStep(kind="landing", action=action, units=counted, zone=sb.id, rule=LANDING_RULE,
                                title="Beach landings", zone_hexes=tuple(sb.hexes), policy=FIRST_HEX_POLICY,
                                turn=turn, phase=phase))
    return steps


def _later_landings(game: "PlayContext", phase: str | None) -> list[RandomStep]:
    """One ``land_craft`` per Landing Craft or DD tank of a landing wave the schedule brings on a
    later turn [Excl 4.5], played in that turn's ``phase``. The LC carries the entry's other
    units (Leaders aside in the count); an entry with several LCs is skipped, as at the start."""
    from model.calendar import resolve_turn
    from play.gts import beach
    from play.gts.params import gts_params

    cfg = gts_params(game).beach
    if cfg is None or not game.scenario.beach_overlays:
        return []
    boxes = {b.id: b for b in game.bundle.game.boxes}
    kinds = (cfg.lc_category, cfg.dd_category)
    steps: list[RandomStep] = []
    for sched in game.scenario.schedule:
        when = resolve_turn(sched.turn, game.system.calendar.all_turns)
        box = boxes.get(sched.entry.box or "") if sched.entry is not None else None
        if when is None or when <= game.state.turn or box is None or box.kind != "landing_wave":
            continue
        found = beach.sub_beach_of_box(game, box)
        if found is None:
            continue
        ov, sb = found
        units = [u for u in sched.units if u in game.state.units]
        steps.extend(_wave_steps(game, kinds, cfg.lc_category, units, sb, beach.landing_hexes(ov, sb), when, phase))
    return steps


def levels(game: "PlayContext") -> dict[str, float | None]:
    """The beach defence tracks (Beach Obstacles, Resistance Nests, Gaps, Sea State [Excl 4.2])
    of every Beach Overlay, read at the end of each turn the analysis plays. The engine lowers
    them only by ``beach_fire``, whose table is not in the rules file (the playtester declares
    the result [Excl 4.2.6], policy ``beach-fire-table-not-in-file``): the analysis fires at
    nothing, so a level changes only if a procedure of the turn changes it. A level the
    scenario does not give is None (unknown), never a guess."""
    from play.gts.beach import TRACKS, _level
    from play.gts.state import gts_state

    out: dict[str, float | None] = {}
    states = gts_state(game).beach
    for ov in game.scenario.beach_overlays:
        st = states.get(ov.id)  # read, never create: observing must not change the game
        for t in TRACKS:
            v = st.tracks.get(t) if st is not None else _level(ov.tracks.get(t))
            out[f"{ov.id} {t.replace('_', ' ')}"] = None if v is None else float(v)
    return out


def gaps(game: "PlayContext") -> list[NotAnalysed]:
    """The scenario's random procedures whose table is not in the rules file
    (``analysis_gaps.yaml``): the weather roll of every day [GTS 5.0, 26.0], and, with a Beach
    Overlay, fire at the beach defences [Excl 4.2.6]."""
    from pathlib import Path

    from model.formats.yamlio import read_package_data

    data = read_package_data(Path(__file__).with_name("analysis_gaps.yaml"))
    wanted = ["weather"] + (["beach_fire"] if game.scenario.beach_overlays else [])
    return [NotAnalysed(str(data[k]["what"]), str(data[k]["rule"]), str(data[k]["why"])) for k in wanted]
