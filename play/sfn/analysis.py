"""The random procedures ``hexproof analyze`` plays for an SFN scenario (play/analysis/).

Airdrops [SFN 15.6]: "When the drop day arrives, the Allied player may spend one CP per
division to activate the unit(s) and place it (them) on the drop hex(es)"; "If an airborne unit
drops in a German ZOC, the German player rolls one die; on a 1-5 the airborne unit is hit
(reduce the unit if it's at full strength; destroy it if it's already reduced)". Every drop plan
the scenario writes before play (``params.airdrops``) gives one ``airdrop`` step on its planned
turn, in the first phase of the unit's side in which units may move (the Allied Command &
Action phase, policy ``sfn-command-phase`` of play/sfn/airdrop.py); the shared analysis advances
the game to it with ``next_phase``. Policy **analysis-drop-as-plotted**: the player drops every
plan on its day (he may also cancel it or not drop). The unit is counted; "in the zone" is
landing on the planned hex. Its result is the EZOC roll's: ``hit``, ``no hit``, or ``no EZOC``
(no roll). A German unit in the hex, a storm [15.2] or a lack of CP refuses the drop: the unit
stays in England (status "box").

Great Storms [SFN 15.2] are rolled by the engine itself in the German administrative phase
(play/sfn/optional/great_storms.py); with the rule on, the analysis reads at the end of every
turn played whether a storm is raging or approaching (``levels``): ``--turns 15`` reaches the
first check day, Game Turn 10 ("and every fifth game turn thereafter").

Invasion roll: 3.5 Allied Dieppe Casualties, "Roll one die; an even result means the unit lands at
full strength; an odd result means it's reduced to one step", is the one die roll of the landing.
The engine makes it by itself while setting a Dieppe game up (play/sfn/landing_casualties.py), so
it is an ``at_start`` step: the trial applies no action, reads the roll's ``landing_casualties``
event (its ``result``: ``reduced`` or ``full strength``) and counts the unit's step lost against
its set-up strength. Listed only when the set-up rolled it (the scenario's invasion area is the
rule's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from play.analysis.plan import RandomStep

if TYPE_CHECKING:
    from play.context import PlayContext

DROP_RULE = "SFN 15.6"
LANDING_TITLE = "Landing casualties (rolled at set-up)"
DROP_POLICY = ("analysis-drop-as-plotted: every drop plan is dropped on its planned day (the player may also "
               "cancel it or not drop) [SFN 15.6]")


def random_steps(game: "PlayContext") -> list[RandomStep]:
    from play.sfn.state import sfn_state

    from play.sfn.landing_casualties import EVENT

    steps: list[RandomStep] = []
    rolled = next((e for e in game.log if e.get("type") == EVENT), None)  # the set-up's 3.5 roll
    if rolled is not None:
        uid = str(rolled["unit"])
        zone = rolled.get("hex")
        steps.append(RandomStep(kind="landing_casualties", action={}, units=(uid,), zone=zone,
                                rule=str(rolled.get("rule") or "SFN 3.5"), title=LANDING_TITLE,
                                zone_hexes=(game.hex_of(zone),) if zone else (), tally=(EVENT,), at_start=True))
    for plan in sfn_state(game).airdrops.plots:
        if plan.status != "plotted" or plan.unit not in game.state.units or plan.turn < game.state.turn:
            continue
        side = game.state.units[plan.unit].side
        phase = next((p.id for p in game.phases if p.side == side and p.permits("move")), None)
        h = game.hex_of(plan.hex)
        steps.append(RandomStep(kind="airdrop", action={"do": "airdrop", "unit": plan.unit}, units=(plan.unit,),
                                zone=plan.hex, rule=DROP_RULE, title="Airborne drops", zone_hexes=(h,),
                                policy=DROP_POLICY, turn=plan.turn, phase=phase))
    return sorted(steps, key=lambda s: (not s.at_start, s.turn or 0))  # the set-up's roll first


def levels(game: "PlayContext") -> dict[str, float | None]:
    """Great Storms [15.2], when the scenario plays the rule: 1 while one rages (or approaches), else 0."""
    from play.sfn.state import sfn_state

    if not game.scenario.optional_rules.get("great_storms"):
        return {}
    st = sfn_state(game).optional.great_storms
    return {"great storm raging": float(bool(st.raging)), "great storm approaching": float(bool(st.approaching))}
