"""3.5 Allied Dieppe Casualties (play/sfn/landing_casualties.py): "If the Allied player chooses
to come ashore in the Dieppe area, there's a good chance the 1st Canadian Division, which lands in
that town hex (now called "Juno Beach," in 1510) will suffer casualties. Roll one die; an even
result means the unit lands at full strength; an odd result means it's reduced to one step. All
other Allied units always come ashore at full strength." [SFN 3.5] On the decimal die "read the
"0" as "10."" [SFN 2.2], so 10 is even."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game

SFN = REPO / "scenarios" / "second-front-now"
CDN = "cw-1-cdn-inf"


@pytest.fixture(scope="module")
def bundle():  # type: ignore[no-untyped-def]
    b = load_bundle(SFN).bundle
    assert b is not None
    return b


def _rolls(game: Game) -> list[dict]:
    return [e for e in game.log if e["type"] == "landing_casualties"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_odd_reduces_even_lands_full(seed: int) -> None:
    """The law of 3.5 on every seed: one d10 roll (1..10) at Juno 1510; odd → one step, even → full."""
    b = load_bundle(SFN).bundle
    g = Game(b, "dieppe-landing", seed)
    (e,) = _rolls(g)
    u = g.unit(CDN)
    assert 1 <= e["roll"] <= 10 and e["die"] == "d10" and e["hex"] == "1510" and e["rule"] == "SFN 3.5"
    odd = e["roll"] % 2 == 1
    assert e["parity"] == ("odd" if odd else "even") and e["reduced"] is odd
    assert e["result"] == ("reduced" if odd else "full strength")
    assert (u.steps, u.reduced) == ((1, True) if odd else (2, False))
    # "All other Allied units always come ashore at full strength"
    assert all(x.steps == x.max_steps and not x.reduced for x in g.state.units.values()
               if x.side == "allied" and x.id != CDN)


def test_ten_reads_even(bundle) -> None:  # type: ignore[no-untyped-def]
    """Seed 5 rolls the die's 0, read as 10 [2.2]: even, so the 1st Canadian lands at full strength."""
    g = Game(bundle, "dieppe-landing", 5)
    (e,) = _rolls(g)
    assert (e["roll"], e["parity"], e["result"]) == (10, "even", "full strength")
    assert g.unit(CDN).steps == 2


def test_rolled_at_set_up_before_the_first_phase(bundle) -> None:  # type: ignore[no-untyped-def]
    """The roll is part of the set-up [3.0-3.5]: after every unit is placed, before GT 1 begins,
    so the German player's first turn already faces the strength it landed at; it is the game's
    first die roll and is made once."""
    g = Game(bundle, "dieppe-landing", 1)
    types = [e["type"] for e in g.log]
    i = types.index("landing_casualties")
    assert "setup" not in types[i + 1:] and types.index("turn_start") > i
    assert g.dice.rolls >= 1
    g.apply({"do": "next_phase", "to": "allied_command"})
    assert len(_rolls(g)) == 1


@pytest.mark.parametrize("scenario", ["calais-landing", "calais-optional-rules", "calais-riga-odessa"])
def test_no_roll_outside_dieppe(bundle, scenario: str) -> None:  # type: ignore[no-untyped-def]
    """"If the Allied player chooses to come ashore in the Dieppe area": at Calais (params
    invasion_area: calais [3.2, 3.3]) nothing is rolled and the 1st Canadian is at full strength."""
    g = Game(bundle, scenario, 1)
    assert not [e for e in g.log if str(e["type"]).startswith("landing_casualties")]
    assert g.unit(CDN).steps == 2


def _own_bundle():  # type: ignore[no-untyped-def]
    """A bundle of the test's own: Game.scenario is the bundle's scenario, so an edit would leak."""
    b = load_bundle(SFN).bundle
    assert b is not None
    return b


def test_area_from_the_scenario_params() -> None:
    """The area is data: the Calais sample with its params.invasion_area set to dieppe rolls."""
    g = Game(_own_bundle(), "calais-landing", 1, start=False)
    g.scenario.params["invasion_area"] = "dieppe"
    g.start()
    assert len(_rolls(g)) == 1


def test_unit_not_landed_is_said_not_rolled() -> None:
    """A Dieppe scenario that leaves the 1st Canadian in England rolls nothing, and says why."""
    g = Game(_own_bundle(), "dieppe-landing", 1, start=False)
    g.scenario.setup[:] = [e if e.unit != CDN else e.model_copy(update={"hex": None, "box": "england"})
                           for e in g.scenario.setup]
    g.start()
    assert not _rolls(g)
    (e,) = [e for e in g.log if e["type"] == "landing_casualties_skipped"]
    assert e["rule"] == "SFN 3.5" and "not set up on the map" in e["reason"]


def test_dice_log_shows_it_with_its_rule(bundle) -> None:  # type: ignore[no-untyped-def]
    """The roll reads in the Dice and Log docks (play/sfn/events.yaml, ``dice: true``)."""
    from editor.play.describe import describe, describe_dice, wording_for

    g = Game(bundle, "dieppe-landing", 1)
    (e,) = _rolls(g)
    w = wording_for(g.plugin)
    assert w.is_dice(e)
    assert describe(e, w, with_head=False) == "landing_casualties: cw-1-cdn-inf comes ashore at 1510: d10 3 (odd) → reduced [SFN 3.5]"
    assert "d10 3 (odd) → reduced [SFN 3.5]" in describe_dice(e, w)
