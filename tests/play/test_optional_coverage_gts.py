"""GTS optional rules the engine plays: Airborne Leader Losses [Excl 18.7]."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game
from play.gts.optional_leader_losses import AirborneLeaderLosses
from play.smoke import smoke

DIV = "101st Airborne Division"


@pytest.fixture(scope="module")
def bundle() -> Any:
    b = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert b is not None
    return b


def _drawn(g: Game, chit: str = "chit-divact-101") -> None:
    """The DivAct chit pulled this turn (the draw itself is random; ChitPull is tested elsewhere)."""
    g.state.extra.setdefault("chits", {"mug": [], "carry": None, "drawn": []})["drawn"].append(chit)


def _losses(g: Game) -> list[dict[str, Any]]:
    return [e for e in g.log if e["type"] == "leader_losses"]


def _set(g: Game, command: int = 4, div: str = DIV) -> None:
    assert g.apply({"do": "set_points", "division": div, "command": command, "dispatch": 1}).ok


def test_only_when_selected(bundle: Any) -> None:
    assert not any(isinstance(p, AirborneLeaderLosses) for p in Game(bundle, "night-drop").procedures)
    g = Game(bundle, "night-drop")
    _drawn(g)
    _set(g)
    assert _losses(g) == []


def test_roll_after_points_when_divact_drawn_both_outcomes(bundle: Any) -> None:
    seen: set[bool] = set()
    for seed in range(1, 60):
        g = Game(bundle, "night-drop-leader-losses", seed)
        _drawn(g)
        _set(g, command=4)
        (e,) = _losses(g)
        assert e["rule"] == "Excl 18.7" and e["loss_above"] == 5  # Night 5 June: greater than 5
        assert "leader-loss-after-declared-points" in e["policy"]
        pts = g.state.extra["gts"]["activation"]["points"][DIV]["command"]
        if e["die"] > 5:
            assert e["lost"] == 2 and pts == 2 == e["command"]
        else:
            assert e["lost"] == 0 and pts == 4
        seen.add(e["die"] > 5)
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_no_roll_without_the_chit_for_other_divisions_or_twice(bundle: Any) -> None:
    g = Game(bundle, "night-drop-leader-losses", 3)
    _set(g)
    assert _losses(g) == []  # DivAct chit not pulled this turn
    _drawn(g, "chit-divact-709")
    _set(g, div="709.ID")
    assert _losses(g) == []  # not an airborne division
    _drawn(g)
    _set(g)
    _set(g)
    assert len(_losses(g)) == 1  # one roll per pull


def test_never_below_zero_and_seventh_june_threshold(bundle: Any) -> None:
    g = Game(bundle, "night-drop-leader-losses", 1)
    proc = next(p for p in g.procedures if isinstance(p, AirborneLeaderLosses))
    turns = {t.date.isoformat(): t.n for t in g.system.calendar.all_turns if t.date is not None}
    g.state.turn = turns["1944-06-07"]
    assert proc.threshold(g) == 7
    g.state.turn = turns["1944-06-08"]
    assert proc.threshold(g) is None  # the rule covers 5, 6 and 7 June only
    for seed in range(1, 80):
        g = Game(bundle, "night-drop-leader-losses", seed)
        _drawn(g)
        _set(g, command=1)
        (e,) = _losses(g)
        if e["die"] > 5:
            assert e["lost"] == 1 and e["command"] == 0  # GTS 10.0.4: never fewer than zero
            return
    pytest.fail("no losing roll in 79 seeds")


def test_sample_variant_no_longer_warns(bundle: Any) -> None:
    rep = smoke(bundle, "night-drop-leader-losses")
    assert not [d for d in rep.diagnostics if d.code == "PLAY-SMOKE-012"]
    g = Game(bundle, "night-drop-leader-losses")
    assert not [e for e in g.log if e["type"] == "optional_rules_not_applied"]
