"""The engine: determinism, save/load continuation, undo, arrivals, refusals with rule cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FIXTURES
from model.bundle import Bundle, load_bundle
from play.game import Game, GameError, load_game
from play.moves import enter_cost

DUEL = FIXTURES / "playtests" / "duel"
MINI = FIXTURES / "bundles" / "mini"


@pytest.fixture(scope="module")
def duel() -> Bundle:
    result = load_bundle(DUEL)
    assert result.bundle is not None and result.ok, [d.render() for d in result.diagnostics]
    return result.bundle


def to_phase(game: Game, kind: str, side: str | None) -> None:
    for _ in range(50):
        if game.phase.kind == kind and game.phase.side == side:
            return
        game.apply({"do": "next_phase"})
    raise AssertionError(f"no {kind} phase for {side}")


SCRIPT = [
    {"do": "next_phase"},
    {"do": "move", "unit": "b1", "to": "0204"},
    {"do": "roll", "dice": "2d6"},
    {"do": "next_phase"},
    {"do": "attack", "attackers": ["b1"], "target": "0702"},
    {"do": "end_turn"},
    {"do": "roll", "dice": "3d6"},
    {"do": "step_loss", "unit": "b1"},
    {"do": "marker", "unit": "b1", "add": "disrupted"},
    {"do": "vp", "side": "blue", "delta": 2},
]


def run(bundle: Bundle, seed: int, actions: list[dict]) -> Game:
    game = Game(bundle, "meeting", seed)
    for a in actions:
        game.apply(a)
    return game


def test_same_seed_same_actions_gives_byte_identical_log(duel: Bundle) -> None:
    a = run(duel, 11, SCRIPT).log_json()
    b = run(duel, 11, SCRIPT).log_json()
    assert a == b
    assert a != run(duel, 12, SCRIPT).log_json()  # the rolls do depend on the seed


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_save_mid_game_then_load_continues_identically(duel: Bundle, tmp_path: Path, suffix: str) -> None:
    whole = run(duel, 5, SCRIPT)
    half = run(duel, 5, SCRIPT[:4])
    path = tmp_path / f"game{suffix}"
    half.save(path)
    resumed = load_game(path, duel)
    for a in SCRIPT[4:]:
        resumed.apply(a)
    assert resumed.log_json() == whole.log_json()
    assert resumed.state.to_dict(resumed.hmap) == whole.state.to_dict(whole.hmap)


def test_load_resolves_bundle_from_save(duel: Bundle, tmp_path: Path) -> None:
    game = run(duel, 5, SCRIPT[:2])
    game.save(tmp_path / "g.json")
    again = load_game(tmp_path / "g.json")
    assert again.unit("b1").hex == game.unit("b1").hex


def test_undo_restores_state_dice_and_log(duel: Bundle) -> None:
    game = run(duel, 9, SCRIPT[:1])
    before_log = game.log_json()
    before_roll = game.apply({"do": "roll", "dice": "1d6"}).data["dice"]
    game.apply({"do": "move", "unit": "b1", "to": "0204"})
    assert game.undo() and game.undo()
    assert game.log_json() == before_log
    assert game.unit("b1").hex == game.hex_of("0202")
    assert game.apply({"do": "roll", "dice": "1d6"}).data["dice"] == before_roll


def test_undo_with_nothing_to_undo(duel: Bundle) -> None:
    assert Game(duel, "meeting", 1).undo() is False


def test_reinforcements_arrive_per_schedule(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    assert game.unit("b2").where == "offmap"
    game.apply({"do": "end_turn"})
    assert game.state.turn == 2
    assert game.label(game.unit("b2").hex) == "0206"  # first hex of location blue_entry
    to_phase(game, "reinforcement", "red")
    assert game.label(game.unit("r2").hex) == "0801"
    game.apply({"do": "end_turn"})
    assert game.label(game.unit("bp").hex) == "0404"  # drop zone
    assert game.unit("bh").where == "box" and game.unit("bh").box == "reserve"
    game.apply({"do": "end_turn"})
    assert game.unit("bt").where == "withdrawn"


def test_move_costs_road_and_woods(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    to_phase(game, "movement", "blue")
    r = game.apply({"do": "move", "unit": "b1", "to": "0205"})
    assert r.ok and r.data["cost"] == 1.5  # three road hexes at 0.5
    assert r.data["path"] == ["0202", "0203", "0204", "0205"]


def test_refused_move_cites_rule_case(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    to_phase(game, "movement", "blue")
    r = game.apply({"do": "move", "unit": "b1", "to": "0102"})
    assert not r.ok and "prohibited terrain (Sea)" in r.message and r.rule == "DUEL 2.4"
    assert game.log[-1]["type"] == "refused" and game.log[-1]["rule"] == "DUEL 2.4"
    r = game.apply({"do": "move", "unit": "bt", "to": "0703"})
    assert not r.ok  # wheels may not enter marsh; too far anyway
    r = game.apply({"do": "move", "unit": "b1", "to": "0802"})
    assert not r.ok and "MP" in r.message


def test_river_hexside_refused_with_rule(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    game.apply({"do": "place", "unit": "b2", "to": "0503"})
    to_phase(game, "movement", "blue")
    cost, reason, rule, _ = enter_cost(game.hmap, game.system, game.hex_of("0503"), game.hex_of("0504"), "foot")
    assert cost is None and rule == "DUEL 2.5" and "River" in reason
    r = game.apply({"do": "move", "unit": "b2", "to": "0504"})
    assert r.ok and r.data["path"] == ["0503", "0603", "0504"]  # round the river, not across
    game.apply({"do": "place", "unit": "b2", "to": "0503"})
    game.unit("b2").mp_spent = 3.0
    r = game.apply({"do": "move", "unit": "b2", "to": "0504"})
    assert not r.ok and r.rule == "DUEL 2.5" and "River" in r.message


def test_move_outside_own_phase_refused(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    r = game.apply({"do": "move", "unit": "b1", "to": "0203"})
    assert not r.ok and r.rule == "DUEL 3.0" and r.policy


def test_zoc_stops_movement(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    game.apply({"do": "place", "unit": "b2", "to": "0502"})
    to_phase(game, "movement", "blue")
    reach, _ = game.legal_moves([game.unit("b2")])
    assert reach is not None
    zoc = {game.label(h) for h in game.hex_of("0702").neighbors()}
    # Hexes in the enemy ZOC can be entered but nothing beyond them through them.
    assert "0602" in zoc and game.hex_of("0602") in reach.cost
    assert game.hex_of("0702") not in reach.cost  # enemy-occupied


def test_stacking_refused_at_end_of_move(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    game.apply({"do": "place", "unit": "b2", "to": "0203"})
    game.apply({"do": "place", "unit": "b3", "to": "0203"})
    to_phase(game, "movement", "blue")
    r = game.apply({"do": "move", "unit": "b1", "to": "0203"})
    assert not r.ok and "overstacked" in r.message and r.rule == "DUEL 5.0"
    game.apply({"do": "place", "unit": "bh", "to": "0204"})
    game.apply({"do": "place", "unit": "b4", "to": "0204"})
    assert game.apply({"do": "move", "unit": "b1", "to": "0204"}).ok  # the HQ does not count


def test_step_loss_flips_then_eliminates(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    u = game.unit("b1")
    assert u.steps == 2
    game.apply({"do": "step_loss", "unit": "b1"})
    assert u.reduced and u.steps == 1
    game.apply({"do": "step_loss", "unit": "b1"})
    assert game.unit("b1").where == "eliminated"


def test_combat_uses_illustrative_crt_and_says_so(duel: Bundle) -> None:
    game = Game(duel, "meeting", 4)
    game.apply({"do": "place", "unit": "b1", "to": "0602"})
    r = game.apply({"do": "attack", "attackers": ["b1"], "target": "0702"})
    assert r.ok and r.data["column"] == "2:1" and "illustrative" in r.message


def test_combat_not_available_without_crt() -> None:
    bundle = load_bundle(MINI).bundle
    assert bundle is not None
    game = Game(bundle, "variant", 1)
    r = game.apply({"do": "attack", "attackers": ["a1"], "target": "0402"})
    assert not r.ok and r.message == "combat not available: the rules provided have no CRT (MINI)"


def test_generic_sequence_when_system_has_none() -> None:
    bundle = load_bundle(MINI).bundle
    assert bundle is not None
    game = Game(bundle, "base", 1)
    assert [p.name for p in game.phases] == ["Reinforcement", "Movement", "Combat"] * 2 + ["End"]
    assert game.sequence_policy and "generic" in game.sequence_policy
    game.apply({"do": "end_turn"})
    assert game.unit("a1").box == "england"


def test_last_turn_ends_the_game(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    for _ in range(4):
        game.apply({"do": "end_turn"})
    assert game.state.over
    assert not game.apply({"do": "next_phase"}).ok


def test_malformed_actions_raise(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    with pytest.raises(GameError):
        game.apply({"do": "teleport"})
    with pytest.raises(GameError):
        game.apply({"do": "step_loss", "unit": "nobody"})


def test_log_is_plain_json(duel: Bundle) -> None:
    game = run(duel, 2, SCRIPT)
    assert json.loads(game.log_json()) == game.log


def test_enter_map_from_box_through_entry_hexes(duel: Bundle) -> None:
    game = Game(duel, "meeting", 1)
    game.apply({"do": "end_turn"})
    game.apply({"do": "end_turn"})
    assert game.unit("bh").box == "reserve"
    to_phase(game, "movement", "blue")
    r = game.apply({"do": "move", "unit": "bh", "to": "0205"})
    assert r.ok and r.data["cost"] == 2.0 and r.data["path"][0] in ("0206", "0306")
    assert game.unit("bh").where == "hex" and game.label(game.unit("bh").hex) == "0205"


def test_box_without_entry_hexes_refuses() -> None:
    bundle = load_bundle(MINI).bundle
    assert bundle is not None
    game = Game(bundle, "base", 1)
    game.apply({"do": "end_turn"})
    game.apply({"do": "next_phase"})
    r = game.apply({"do": "move", "unit": "a1", "to": "0202"})
    assert not r.ok and "no entry hexes" in r.message


# --- Area set-up never onto the enemy (issue 17 audit) --------------------------------------


def _area_setup(duel: Bundle, setup: list[dict[str, object]]) -> Game:
    import copy

    from model.scenario import SetupEntry

    b = copy.deepcopy(duel)
    hmap = Game(b, "meeting", 1).hmap
    b.scenarios["meeting"].setup = [SetupEntry(**{k: hmap.parse(str(v)) if k == "hex" else v for k, v in e.items()})
                                    for e in setup]  # type: ignore[arg-type]
    return Game(b, "meeting", 1)


def test_area_setup_skips_a_hex_the_enemy_holds(duel: Bundle) -> None:
    from play.game import SETUP_CHOICE_POLICY

    # r1 (Red) sets up in 0206 by a single-hex entry *after* b1's location set-up: still held
    g = _area_setup(duel, [{"unit": "b1", "location": "blue_entry"}, {"unit": "r1", "hex": "0206"}])
    assert g.label(g.unit("b1").hex) == "0306"
    ev = next(e for e in g.log if e["type"] == "setup" and e["unit"] == "b1")
    assert ev["policy"] == SETUP_CHOICE_POLICY and SETUP_CHOICE_POLICY.startswith("setup-first-hex-free-of-enemy")
    # no enemy: the first hex in the listed order, the policy still named (the engine chose)
    g = _area_setup(duel, [{"unit": "b1", "location": "blue_entry"}])
    assert g.label(g.unit("b1").hex) == "0206"


def test_area_setup_with_every_hex_held_is_a_logged_refusal(duel: Bundle) -> None:
    g = _area_setup(duel, [{"unit": "r1", "hex": "0206"}, {"unit": "r2", "hex": "0306"},
                           {"unit": "b1", "location": "blue_entry"}])
    assert not g.unit("b1").on_map
    (ev,) = [e for e in g.log if e["type"] == "setup_refused"]
    assert ev["unit"] == "b1" and "held by the enemy" in ev["message"] and ev["policy"]
