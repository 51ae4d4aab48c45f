"""GTS overstacking [14.7] beyond a plain move (issue 17 audit): the Assault run-away ban, the
Cohesion Hit for leaving by another method, and arrivals ending overstacked. Utah sample; the
counters print no steps, so the tests give them 2 each (ILLUSTRATIVE) or leave them unknown.

GTS 14.7 (quoted): "Overstacking is permitted for Units not in Column, but if you exceed 8 steps
in a hex: [...] Any attempt to leave an overstacked hex by any method, successful or not, makes
the leaving Unit suffer a Cohesion Hit. [...] Overstacked Units may not retreat out of, or choose
to run away from, an Assault."
"""

from __future__ import annotations

import copy
from typing import Any

from gts_helpers import game, to_phase, utah
from loaded_dice import LoadedDice
from model.scenario import Entry, ScheduleEntry
from play.game import Game
from play.gts import overstack
from play.gts.assault import OVERSTACK_RUN_POLICY
from play.gts.params import gts_params
from play.result import ActionResult

A, D, LDR = "a-1-8", "c5-ii-919", "ldr-919"  # D and its Leader start in 24.026 (beach-landing)
SRC, TGT, RUN_TO = "24.025", "24.026", "25.026"
GERMANS = ["c6-ii-919", "c7-ii-919", "simon-1-i-921", "simon-2-i-921"]
VALUES: dict[str, dict[str, Any]] = {
    A: {"ma": 4, "ar": 3, "tq": 6, "dr": 0, "fr": 4, "line": "yellow"},
    D: {"ma": 3, "ar": 2, "tq": 5, "dr": -1, "fr": 3, "line": "yellow"},
}


def _events(g: Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == kind]


def _steps(g: Game, uid: str, n: int) -> None:
    g.counters[uid].steps = n  # ILLUSTRATIVE: the sample prints no steps
    g.unit(uid).steps = g.unit(uid).max_steps = n


def _assault_game(where: str, steps: dict[str, int]) -> Game:
    g = game()
    assert g.apply({"do": "place", "unit": A, "to": SRC}).ok
    for uid in GERMANS:
        assert g.apply({"do": "place", "unit": uid, "to": where}).ok
    for uid, n in steps.items():
        _steps(g, uid, n)
    LoadedDice.on(g, [1], zero_is_max=True)  # the Bravery Check passes
    return g


def _run_away(g: Game) -> ActionResult:
    return g.apply({"do": "assault", "units": [A], "target": TGT, "values": VALUES, "defenders": "run",
                    "run_to": RUN_TO})


# --- "Overstacked Units may not [...] choose to run away from, an Assault" -------------------


def test_defenders_in_an_overstacked_hex_cannot_run_away_and_surrender() -> None:
    """14.7 bans the run-away; 18.7 5A: "Units that may not run away: [...] Units in an
    overstacked hex" and "If the decision is to run away and one or more defending Units cannot
    do so [...] those Units are eliminated (they surrender, but the effect is the same)"."""
    g = _assault_game(TGT, {uid: 2 for uid in [D, *GERMANS]})  # 10 steps in 24.026
    assert overstack.overstacked(g, g.hex_of(TGT))
    r = _run_away(g)
    assert r.ok, r.message
    assert all(g.unit(uid).where == "eliminated" for uid in [D, *GERMANS])
    surrendered = _events(g, "assault_surrender")
    assert {e["unit"] for e in surrendered} == {D, *GERMANS}
    assert all("overstacked" in e["why"] and e["rule"] == "GTS 14.7, 18.7" for e in surrendered)
    assert all(e["policy"] == OVERSTACK_RUN_POLICY for e in surrendered)
    assert OVERSTACK_RUN_POLICY.startswith("overstacked-run-away-surrenders:")
    assert not _events(g, "assault_run_away")
    assert g.label(g.unit(A).hex) == TGT  # no defenders remain: the attackers advance [18.7 5A]


def test_at_the_limit_the_defenders_run_away() -> None:
    """8 steps is within "up to 8 steps in a hex" [14.7]: running away is allowed."""
    g = _assault_game(TGT, {D: 2, GERMANS[0]: 2, GERMANS[1]: 2, GERMANS[2]: 1, GERMANS[3]: 1})
    r = _run_away(g)
    assert r.ok and "ran away" in r.message
    assert g.label(g.unit(D).hex) == RUN_TO
    # the others surrender for their unknown movement allowance (no 'ma' declared), not for stacking
    assert all("overstacked" not in e["why"] for e in _events(g, "assault_surrender"))


def test_an_unknown_step_count_does_not_ban_the_run_away() -> None:
    """Known 8 steps and one Unit of unknown steps: the count is unknown, never 1 per unit — the
    ban is not applied and the warning says so."""
    g = _assault_game(TGT, {uid: 2 for uid in GERMANS})  # D keeps steps: unknown
    r = _run_away(g)
    assert r.ok and "ran away" in r.message
    (w,) = [e for e in _events(g, "overstack_unknown") if e["hex"] == TGT]
    assert "unknown" in w["message"] and "not applied" in w["penalty"] and w["policy"].startswith("stack-steps-unknown")


def test_running_away_into_a_hex_that_ends_overstacked_is_logged() -> None:
    """The runners' hex ends at 10 steps: accepted, logged with the 14.7 penalties."""
    g = _assault_game(RUN_TO, {uid: 2 for uid in [D, *GERMANS]})
    r = _run_away(g)
    assert r.ok and g.label(g.unit(D).hex) == RUN_TO
    (e,) = _events(g, "overstack_penalty")
    assert e["hex"] == RUN_TO and D in e["units"] and e["message"] == "10 steps (limit 8)"
    assert e["rule"] == "GTS 14.7" and "running away" in e["penalty"]


# --- "Any attempt to leave an overstacked hex by any method" --------------------------------

STACK = ["a-1-8", "b-1-8", "c-1-8", "d-1-8", "e-2-8"]


def _stacked() -> Game:
    g = game("night-drop", 2, ma=6)
    to_phase(g, "movement", "allied")
    for uid in STACK:
        assert g.apply({"do": "place", "unit": uid, "to": "40.026"}).ok
        _steps(g, uid, 2)
    return g


def test_leaving_by_an_assault_takes_the_cohesion_hit() -> None:
    """The watch over non-move actions: a Unit an accepted Assault takes out of a hex that was
    overstacked takes the hit (policy overstack-exit-hit-any-method). The engine refuses an
    Assault out of such a hex [18.1], so the move is made by hand between the watch's calls."""
    g = _stacked()
    cfg = gts_params(g).results
    watch = overstack.ExitWatch()
    action = {"do": "assault"}
    watch.before(g, action)
    g.unit("a-1-8").hex = g.hex_of("40.027")
    watch.after(g, action, ActionResult(True, "done"), cfg)
    assert g.unit("a-1-8").markers.count(cfg.cohesion_marker) == 1
    (e,) = _events(g, "overstack_exit")
    assert e["unit"] == "a-1-8" and e["by"] == "assault" and e["policy"] == overstack.ANY_METHOD_POLICY
    assert overstack.ANY_METHOD_POLICY.startswith("overstack-exit-hit-any-method:")


def test_a_refused_action_or_a_stopped_move_is_no_leaving() -> None:
    """A refused action is no attempt; Opportunity Fire putting a unit back in the hex it left
    [17.7] is not the unit leaving the hex it was put out of."""
    g = _stacked()
    cfg = gts_params(g).results
    watch = overstack.ExitWatch()
    for action, result in (({"do": "assault"}, ActionResult(False, "refused")),
                           ({"do": "opportunity_fire"}, ActionResult(True, "stopped"))):
        watch.before(g, action)
        g.unit("a-1-8").hex = g.hex_of("40.027")
        watch.after(g, action, result, cfg)
        g.unit("a-1-8").hex = g.hex_of("40.026")
    assert cfg.cohesion_marker not in g.unit("a-1-8").markers and not _events(g, "overstack_exit")


# --- Arrivals ending overstacked: penalised, not refused ------------------------------------


def _arrival_game(stack: list[str], steps: int | None) -> Game:
    """The night drop with ``e-2-8`` scheduled into 40.026 on turn 2, where ``stack`` waits."""
    b = copy.deepcopy(utah())
    hmap = Game(b, "night-drop", 2).hmap
    b.scenarios["night-drop"].schedule.append(ScheduleEntry(
        turn=2, kind="reinforcement", side="allied", units=["e-2-8"], entry=Entry(hex=hmap.parse("40.026"))))
    g = Game(b, "night-drop", 2)
    for uid in stack:
        assert g.apply({"do": "place", "unit": uid, "to": "40.026"}).ok
    if steps is not None:
        for uid in [*stack, "e-2-8"]:
            _steps(g, uid, steps)
    while g.state.turn < 2:
        g.apply({"do": "next_phase"})
    to_phase(g, "movement", "allied")  # past turn 2's allied Reinforcement phase
    return g


def test_a_reinforcement_ending_overstacked_is_placed_and_penalised() -> None:
    """14.7: "Overstacking is permitted" — the arrival is not refused; the penalty is logged."""
    g = _arrival_game(STACK[:4], 2)
    assert g.label(g.unit("e-2-8").hex) == "40.026"
    assert not [e for e in g.log if e["type"] == "arrival_refused" and e["unit"] == "e-2-8"]
    (e,) = _events(g, "overstack_penalty")
    assert e["units"] == ["e-2-8"] and e["arrival"] is True and e["message"] == "10 steps (limit 8)"
    assert e["rule"] == "GTS 14.7" and "Cohesion Hit" in e["penalty"]


def test_a_reinforcement_within_the_limit_logs_nothing() -> None:
    g = _arrival_game(STACK[:3], 2)  # 8 steps: "up to 8 steps in a hex"
    assert g.label(g.unit("e-2-8").hex) == "40.026"
    assert not _events(g, "overstack_penalty") and not _events(g, "overstack_unknown")


def test_a_reinforcement_of_unknown_steps_warns_and_never_counts_one() -> None:
    """Nine units of unknown steps: at one step each they would be 9 > 8, but the count is
    unknown — warned (overstack_unknown, arrival), never penalised."""
    g = _arrival_game([*STACK[:4], "f-2-8", "g-2-8", "h-2-8", "a-1-502"], None)
    assert g.label(g.unit("e-2-8").hex) == "40.026"
    assert not _events(g, "overstack_penalty")
    (w,) = [e for e in _events(g, "overstack_unknown") if e.get("arrival")]
    assert "step count unknown" in w["message"] and w["penalty"] == overstack.UNKNOWN_PENALTY


def test_a_landing_from_a_landing_wave_box_ending_overstacked_is_penalised() -> None:
    """A landing (Utah Excl 4.5, from the Landing Wave box) into a beach hex already at 10 steps:
    accepted, and the landed Units are named in the 14.7 penalty (seed 3: every passenger lands)."""
    g = game(seed=3, at="activation")  # landings are made in the Activation Phase [GTS 4.0 H]
    for uid in ["e-2-8", "f-2-8", "g-2-8", "h-2-8", "a-1-502"]:
        assert g.apply({"do": "place", "unit": uid, "to": "18.026"}).ok
        _steps(g, uid, 2)
    r = g.apply({"do": "land_craft", "unit": "lcvp-1", "to": "18.026"})
    assert r.ok and "landed at 18.026" in r.message
    (e,) = _events(g, "overstack_penalty")
    assert e["hex"] == "18.026" and {"a-1-8", "b-1-8", "c-1-8", "d-1-8"} <= set(e["units"])
    assert e["message"] == "10 steps and 4 unit(s) whose steps are unknown (limit 8)" and e["rule"] == "GTS 14.7"
