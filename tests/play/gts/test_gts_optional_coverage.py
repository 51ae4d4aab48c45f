"""GTS optional rules the engine plays: Airborne Leader Losses [Excl 18.7]."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.errors import ArgumentError
from play.game import Game
from play.gts.optional_leader_losses import AirborneLeaderLosses
from play.smoke import smoke
from play.gts.state import gts_state
from loaded_dice import LoadedDice

DIV = "101st Airborne Division"


@pytest.fixture(scope="module")
def bundle() -> Any:
    b = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert b is not None
    return b


def _drawn(g: Game, chit: str = "chit-divact-101") -> None:
    """The DivAct chit pulled this turn (the draw itself is random; ChitPull is tested elsewhere)."""
    gts_state(g).chits.drawn.append(chit)


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
        pts = gts_state(g).activation.points[DIV].command
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


# --- Converting Command Points [GTS 10.0.3] and its limit [Excl 18.1] ------------------------


def _convert(g: Game, n: int = 1, div: str = DIV) -> Any:
    return g.apply({"do": "convert_points", "division": div, "dispatch": n})


def _in_step_d(g: Game) -> Game:
    """On to Step D: "During Step D of the Sequence of Play, for every 2 Command Points of a Division
    you spend, you buy 1 Dispatch Point" [GTS 10.0.3]."""
    assert g.apply({"do": "next_phase", "to": "dispatch"}).ok
    return g


def test_conversion_is_refused_outside_step_d(bundle: Any) -> None:
    """ "Converting Command Points: During Step D of the Sequence of Play ..." [GTS 10.0.3]."""
    g = Game(bundle, "night-drop")
    _set(g, command=9)
    r = _convert(g, 1)
    assert not r.ok and r.message.startswith("convert_points (dispatch) is not an action of GTS 4.0 A Weather")
    assert "GTS 4.0 D Dispatch Points" in r.message and r.rule == "GTS 4.0 A"
    assert g.apply({"do": "next_phase", "to": "activation"}).ok
    assert not _convert(g, 1).ok


def test_conversion_costs_two_cp_per_dp_without_a_limit(bundle: Any) -> None:
    g = _in_step_d(Game(bundle, "night-drop"))
    assert not _convert(g).ok  # no points recorded yet
    _set(g, command=9)
    r = _convert(g, 3)
    assert r.ok and r.rule == "GTS 10.0.3" and r.policy is None
    pts = gts_state(g).activation.points[DIV]
    assert (pts.command, pts.dispatch) == (3, 4)
    assert not _convert(g, 2).ok  # 4 CP needed, 3 left
    assert _convert(g, 1).ok  # no 18.1: more than 4 CP in a turn is fine
    assert not _convert(g, 0).ok
    # An unreadable number is a malformed action (play/arguments.py), not a rules refusal.
    with pytest.raises(ArgumentError, match="convert_points: argument 'dispatch' is 'x'; expected a whole number"):
        g.apply({"do": "convert_points", "division": DIV, "dispatch": "x"})


def test_dispatch_points_never_above_nineteen(bundle: Any) -> None:
    g = _in_step_d(Game(bundle, "night-drop"))
    assert g.apply({"do": "set_points", "division": DIV, "command": 10, "dispatch": 18}).ok
    r = _convert(g, 2)
    assert not r.ok and r.rule == "GTS 10.0.4"
    assert _convert(g, 1).ok


def _with_181(bundle: Any, tmp_path: Any) -> Any:
    import shutil

    root = tmp_path / "utah"
    shutil.copytree(REPO / "scenarios" / "utah-beach", root)
    (root / "scenarios" / "night-drop-181.yaml").write_text(
        "schema_version: 1\nid: night-drop-181\nname: 18.1\nextends: night-drop\noptional_rules: {Excl 18.1: true}\n",
        encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/night-drop-playtest.yaml]", "scenarios/night-drop-playtest.yaml, scenarios/night-drop-181.yaml]"),
        encoding="utf-8")
    b = load_bundle(root).bundle
    assert b is not None
    return b


def test_excl_18_1_limits_a_player_to_four_cp_per_turn(bundle: Any, tmp_path: Any) -> None:
    b = _with_181(bundle, tmp_path)
    g = _in_step_d(Game(b, "night-drop-181"))
    _set(g, command=12)
    assert _convert(g, 1).ok
    r = _convert(g, 2)
    assert not r.ok and r.rule == "Excl 18.1" and "at most 4" in r.message and "cp-limit-per-player" in (r.policy or "")
    assert _convert(g, 1).ok
    assert not _convert(g, 1).ok
    pts = gts_state(g).activation.points[DIV]
    assert (pts.command, pts.dispatch) == (8, 3)
    # A German Division counts on the German player's own 4.
    assert g.apply({"do": "set_points", "division": "709.ID", "command": 6, "dispatch": 0}).ok
    assert _convert(g, 2, "709.ID").ok
    assert [e["limited_side"] for e in g.log if e["type"] == "convert_points"] == ["allied", "allied", "german"]
    # Next turn the count starts again.
    turn = g.state.turn
    while g.state.turn == turn and not g.state.over:
        g.apply({"do": "next_phase"})
    assert g.state.turn == turn + 1
    assert _convert(g, 2).ok is False  # Step A: not a conversion step [GTS 10.0.3]
    assert _convert(_in_step_d(g), 2).ok
    assert not [d for d in smoke(b, "night-drop-181").diagnostics if d.code == "PLAY-SMOKE-012"]


# --- Indirect Fire Scatter [Excl 18.3] -------------------------------------------------------


def _scatter_game(monkeypatch: pytest.MonkeyPatch, faces: list[int]) -> Game:
    import sys

    sys.path.insert(0, str(REPO / "tests" / "play"))
    from gts_helpers import game

    from play.gts.optional_leader_losses import optional_procedures
    from play.gts.optional_scatter import IndirectFireScatter

    g = game()
    monkeypatch.setitem(g.scenario.optional_rules, "Excl 18.3", True)
    procs = optional_procedures(g)
    assert any(isinstance(p, IndirectFireScatter) for p in procs)  # switched on by the selection
    g.procedures.insert(-1, next(p for p in procs if isinstance(p, IndirectFireScatter)))
    g.apply({"do": "place", "unit": "a-1-8", "to": "24.025"})  # next to c5-ii-919 at 24.026
    left = list(faces)
    LoadedDice.on(g, left)
    return g


def _fire(g: Game, line: str) -> Any:
    return g.apply({"do": "fire", "unit": "a-1-8", "target": "c5-ii-919", "fire_rating": 5, "line": line,
                    "apply": False})


def test_indirect_nine_scatters_a_light_barrage(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.hexes import DIRECTION_NAMES
    from play.gts import barrage

    g = _scatter_game(monkeypatch, [9, 4])  # CRT die 9 (a miss), then d6 4 = south
    r = _fire(g, "orange")
    assert r.ok and r.data["die"] == 9
    (e,) = [x for x in g.log if x["type"] == "scatter"]
    south = DIRECTION_NAMES[g.hmap.grid.orientation].index("S")
    want = g.label(g.hex_of("24.026").neighbor(south))
    assert e["hex"] == want and e["marker"] == "light" and e["rule"] == "Excl 18.3" and e["d6"] == 4
    assert "scatter-d6-as-drift" in e["policy"]
    assert barrage.state(g)[want] == "light"


def test_no_scatter_on_direct_lines_or_other_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _scatter_game(monkeypatch, [9, 3])
    assert _fire(g, "yellow").ok  # a direct-fire line: no scatter, no d6 rolled
    g2 = _scatter_game(monkeypatch, [8])
    assert _fire(g2, "black").ok
    assert not [x for x in g.log + g2.log if x["type"] == "scatter"]


def test_heavy_barrage_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    from model.hexes import DIRECTION_NAMES
    from play.gts import barrage

    g = _scatter_game(monkeypatch, [9, 1])  # d6 1 = north
    north = DIRECTION_NAMES[g.hmap.grid.orientation].index("N")
    label = str(g.label(g.hex_of("24.026").neighbor(north)))
    barrage.state(g)[label] = "heavy"
    assert _fire(g, "green").ok
    (e,) = [x for x in g.log if x["type"] == "scatter"]
    assert e["hex"] == label and e["marker"] == "heavy" and e["was"] == "heavy"
