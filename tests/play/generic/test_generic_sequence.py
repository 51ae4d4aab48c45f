"""The sequence of play as typed data (sequence_of_play, play/sequence.py): player turns of
phases, declared phase kinds, and the older params spelling still read."""

from __future__ import annotations

from generic_helpers import example_game, variant

from conftest import FIXTURES
from model.bundle import load_bundle
from play.game import Game


def test_three_phases_per_player_turn() -> None:
    g = example_game()
    assert [(p.id, p.side, p.kind, p.rule) for p in g.phases] == [
        ("reinforcement", "blue", "reinforcement", "EX 3.0"), ("movement", "blue", "movement", "EX 3.0"),
        ("combat", "blue", "combat", "EX 3.0"), ("reinforcement", "red", "reinforcement", "EX 3.0"),
        ("movement", "red", "movement", "EX 3.0"), ("combat", "red", "combat", "EX 3.0")]
    assert g.sequence_policy is None


def test_a_declared_kind_wins_over_the_name() -> None:
    seq = {"rule": "EX 3.0", "phases": [{"id": "advance", "name": "Advance", "side": "each", "kind": "movement"},
                                        {"id": "assault", "name": "Assault", "side": "first", "kind": "combat"},
                                        {"id": "wrap", "name": "Wrap-up", "kind": "end"}]}
    g = example_game(system=variant(sequence_of_play=seq))
    assert [(p.id, p.side, p.kind) for p in g.phases] == [
        ("advance", "blue", "movement"), ("advance", "red", "movement"), ("assault", "blue", "combat"),
        ("wrap", None, "end")]
    assert g.apply({"do": "move", "unit": "b-inf-1", "to": "0302"}).ok  # a movement phase by its kind


def test_the_params_spelling_still_plays() -> None:
    b = load_bundle(FIXTURES / "playtests" / "duel").bundle
    assert b is not None and b.system.sequence_of_play is None and "sequence_of_play" in b.system.params
    g = Game(b, "meeting", 1)
    assert [p.id for p in g.phases][:3] == ["reinforcement", "movement", "combat"] and g.sequence_policy is None
