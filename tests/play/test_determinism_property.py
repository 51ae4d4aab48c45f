"""Play determinism as properties over random action sequences (issue 10 §6).

test_game.py checks one fixed script; here hypothesis draws the sequences — moves to any hex,
placements, rolls, attacks, step losses, flips, markers, VP, phase/turn ends and the system
procedures' own actions (SFN command points, GTS chit draws and drop rolls, supply checks) —
on the duel fixture and on the three sample bundles. Refusals are fine (they are logged);
a malformed action raises ``GameError``, which the transcript records like any other outcome.

1. Same bundle + seed + actions → the same outcomes, byte-identical log, same state and dice.
2. Save at any point (JSON or YAML), load, continue with the rest → exactly the game that
   was never interrupted (``Game.to_dict()``: state, dice, log, actions).
3. Undo after any action restores ``to_dict()`` exactly, and replaying that action gives
   the same outcome again (the dice are rewound too).
"""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from model.bundle import Bundle, load_bundle
from play.game import Game, GameError, load_game

# (bundle folder, scenario id): the duel fixture has every generic action; the samples add
# their systems' procedures (chit pull and Drop Table for GTS, command points for SFN).
GAMES = [
    (FIXTURES / "playtests" / "duel", "meeting"),
    (REPO / "scenarios" / "utah-beach", "night-drop"),
    (REPO / "scenarios" / "second-front-now", "calais-landing"),
    (REPO / "scenarios" / "killing-ground", "the-killing-ground"),
    # the data-only system: generic ZOC, stacking by type and the odds CRT with its results
    (REPO / "scenarios" / "format-example", "meeting"),
]
KINDS = ["next_phase", "end_turn", "move", "move", "move", "place", "roll", "attack", "step_loss", "flip",
         "marker_add", "marker_remove", "vp", "procedure", "procedure"]

# An action is drawn as (kind, a, b, c) and given meaning against the game it is applied to,
# so the same draw is the same action on every replay.
ACTION = st.tuples(st.sampled_from(KINDS), st.integers(0, 10_000), st.integers(0, 10_000), st.integers(1, 3))
SEQUENCE = st.lists(ACTION, min_size=1, max_size=30)


@lru_cache(maxsize=None)
def bundle(folder: Path) -> Bundle | None:
    if not (folder / "game.yaml").exists():
        return None
    return load_bundle(folder).bundle


def new_game(folder: Path, scenario: str, seed: int) -> Game:
    b = bundle(folder)
    if b is None or scenario not in b.scenarios:
        pytest.skip(f"{folder.name}/{scenario} does not load")
    return Game(b, scenario, seed)


_HEXES: dict[int, tuple[Any, list[Any]]] = {}


def map_hexes(game: Game) -> list[Any]:
    """The map's hexes, listed once per map (8 000-hex maps take ~15 ms to list)."""
    hit = _HEXES.get(id(game.hmap))
    if hit is None or hit[0] is not game.hmap:
        hit = _HEXES[id(game.hmap)] = (game.hmap, game.hmap.hexes())
    return hit[1]


def concrete(game: Game, draw: tuple[str, int, int, int]) -> dict[str, Any]:
    """The action a draw stands for in this game (deterministic in the game's state)."""
    kind, a, b, c = draw
    units = sorted(game.state.units)
    hexes = map_hexes(game)
    uid = units[a % len(units)] if units else "none"
    where = game.hmap.label(hexes[b % len(hexes)])
    sides = sorted({u.side for u in game.state.units.values()}) or ["none"]
    if kind in ("move", "attack"):
        # Mostly a unit on the map of the side whose phase it is (so the action can succeed).
        own = sorted(x.id for x in game.state.units.values() if x.on_map and x.side == game.phase.side)
        if own and b % 4:
            uid = own[a % len(own)]
    unit = game.state.units.get(uid)
    if kind == "move":
        # Mostly a hex within 1-3 of the unit (so moves do happen), else anywhere on the map.
        if unit is not None and unit.on_map and b % 4:
            near = sorted((h for h in unit.hex.range(c) if game.hmap.contains(h) and h != unit.hex),  # type: ignore[union-attr]
                          key=lambda h: (h.q, h.r))
            if near:
                where = game.hmap.label(near[b % len(near)])
        return {"do": "move", "unit": uid, "to": where}
    if kind == "place":
        return {"do": "place", "unit": uid, "to": where}
    if kind == "roll":
        return {"do": "roll", "dice": f"{c}d{(6, 10, 6)[b % 3]}"}
    if kind == "attack":
        # Mostly a hex holding an enemy of the attacker (so combat is resolved), else anywhere.
        if unit is not None and b % 4:
            enemy = sorted({game.hmap.label(u.hex) for u in game.state.units.values()
                            if u.on_map and u.side != unit.side and u.hex is not None})
            if enemy:
                where = enemy[b % len(enemy)]
        return {"do": "attack", "attackers": [uid], "target": where}
    if kind == "step_loss":
        return {"do": "step_loss", "unit": uid}
    if kind in ("flip",):
        return {"do": "flip", "unit": uid}
    if kind == "marker_add":
        return {"do": "marker", "unit": uid, "add": ("disrupted", "out_of_supply")[b % 2]}
    if kind == "marker_remove":
        return {"do": "marker", "unit": uid, "remove": ("disrupted", "out_of_supply")[b % 2]}
    if kind == "vp":
        return {"do": "vp", "side": sides[b % len(sides)], "delta": c - 2}
    if kind == "procedure":
        names = sorted(name for proc in game.procedures for name in proc.actions)
        if not names:
            return {"do": "roll", "dice": "1d6"}
        return {"do": names[a % len(names)], "unit": uid, "units": [uid], "side": sides[b % len(sides)],
                "bonus": c - 1}
    return {"do": kind}


def step(game: Game, draw: tuple[str, int, int, int]) -> tuple[Any, ...]:
    action = concrete(game, draw)
    try:
        r = game.apply(action)
    except GameError as exc:
        return (action["do"], "GameError", str(exc))
    return (action["do"], r.ok, r.message, r.rule)


def play(folder: Path, scenario: str, seed: int, draws: list[tuple[str, int, int, int]]) -> tuple[Game, list[Any]]:
    game = new_game(folder, scenario, seed)
    return game, [step(game, d) for d in draws]


@pytest.mark.parametrize("folder,scenario", GAMES, ids=[f"{f.name}-{s}" for f, s in GAMES])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 31), draws=SEQUENCE)
def test_same_seed_and_actions_same_game(folder: Path, scenario: str, seed: int,
                                         draws: list[tuple[str, int, int, int]]) -> None:
    a, ta = play(folder, scenario, seed, draws)
    b, tb = play(folder, scenario, seed, draws)
    assert ta == tb
    assert a.log_json() == b.log_json()
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("folder,scenario", GAMES, ids=[f"{f.name}-{s}" for f, s in GAMES])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 31), draws=SEQUENCE, cut=st.integers(0, 30), suffix=st.sampled_from([".json", ".yaml"]))
def test_save_anywhere_load_continue_identically(folder: Path, scenario: str, seed: int,
                                                 draws: list[tuple[str, int, int, int]], cut: int,
                                                 suffix: str) -> None:
    cut = min(cut, len(draws))
    whole, t_whole = play(folder, scenario, seed, draws)
    half, t_half = play(folder, scenario, seed, draws[:cut])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"game{suffix}"
        half.save(path)
        resumed = load_game(path, half.bundle)
    assert resumed.to_dict() == half.to_dict()
    t_rest = [step(resumed, d) for d in draws[cut:]]
    assert t_half + t_rest == t_whole
    assert resumed.log_json() == whole.log_json()
    assert resumed.to_dict() == whole.to_dict()


@pytest.mark.parametrize("folder,scenario", GAMES, ids=[f"{f.name}-{s}" for f, s in GAMES])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 31), draws=SEQUENCE)
def test_undo_rewinds_everything(folder: Path, scenario: str, seed: int,
                                 draws: list[tuple[str, int, int, int]]) -> None:
    game = new_game(folder, scenario, seed)
    for d in draws:
        before = game.to_dict()
        outcome = step(game, d)
        if outcome[1] == "GameError":
            continue  # a malformed action leaves no undo step
        after = game.to_dict()
        assert game.undo()
        assert game.to_dict() == before
        assert step(game, d) == outcome  # same dice again: the generator was rewound
        assert game.to_dict() == after
