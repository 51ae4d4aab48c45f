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


# --- allows, steps, played / not played, next_phase to (issue 17 part 1) -------------------

COMMAND_SEQ = {"rule": "EX 3.0", "phases": [
    {"id": "admin", "name": "Administrative", "side": "each", "kind": "reinforcement", "rule": "EX 3.1",
     "steps": [{"id": "arrive", "name": "Reinforcements", "rule": "EX 3.1.1", "kind": "reinforcement"},
               {"id": "storm", "name": "Storm check", "rule": "EX 3.1.2"}]},
    {"id": "command", "name": "Command & Action", "side": "each", "allows": ["move", "attack"], "rule": "EX 3.2"},
    {"id": "tea", "name": "Tea", "rule": "EX 3.3"},
    {"id": "end", "name": "End", "kind": "end", "rule": "EX 3.4"}]}


def test_allows_lets_one_phase_take_moves_and_attacks() -> None:
    """``allows: [move, attack]``: a Command & Action phase in which the side moves and attacks
    (the shape of SFN 5.2 B: "may issue Move and/or Attack Commands … in any order")."""
    g = example_game(system=variant(sequence_of_play=COMMAND_SEQ))
    assert [(p.id, p.side, p.allowed) for p in g.phases] == [
        ("admin", "blue", ()), ("admin", "red", ()), ("command", "blue", ("move", "attack")),
        ("command", "red", ("move", "attack")), ("tea", None, ()), ("end", None, ())]
    assert not g.apply({"do": "move", "unit": "b-inf-1", "to": "0302"}).ok  # admin allows no move
    assert g.apply({"do": "next_phase", "to": "command"}).ok
    assert g.phase.id == "command" and g.phase.side == "blue"
    assert g.apply({"do": "move", "unit": "b-inf-1", "to": "0302"}).ok


def test_a_step_nothing_plays_is_logged_by_case_never_skipped() -> None:
    """A step no procedure plays is a ``step_not_played`` event with its name and case; the
    engine's own steps (arrivals in a reinforcement phase) are not."""
    g = example_game(system=variant(sequence_of_play=COMMAND_SEQ))
    unplayed = [(e["phase"], e["side"], e["step"], e["message"]) for e in g.log if e["type"] == "step_not_played"]
    assert unplayed == [("admin", "blue", "storm", "EX 3.1.2 Storm check: not played")]
    g.apply({"do": "next_phase", "to": "tea"})
    unplayed = [e["message"] for e in g.log if e["type"] == "step_not_played"]
    assert unplayed == ["EX 3.1.2 Storm check: not played"] * 2 + ["EX 3.3 Tea: not played"]


def test_a_procedure_declares_what_it_plays_and_what_only_in_part() -> None:
    from play.procedure import Procedure
    from play.sequence import coverage_table

    class Storms(Procedure):
        plays = frozenset({"storm"})

    class HalfTea(Procedure):
        partly = {"tea": "tea-without-biscuits: the tea is poured, the biscuits are not built"}

    g = example_game(system=variant(sequence_of_play=COMMAND_SEQ))
    g.procedures += [Storms(), HalfTea()]
    g.apply({"do": "next_phase", "to": "tea"})
    new = [e for e in g.log if e["type"].startswith("step_") and e["seq"] > 10]
    assert [(e["type"], e["step"], e.get("policy")) for e in new][-1] == (
        "step_partly_played", "tea", "tea-without-biscuits: the tea is poured, the biscuits are not built")
    assert all(e["step"] != "storm" or e["seq"] < 10 for e in g.log if e["type"] == "step_not_played")
    table = coverage_table(g.phases, g.procedures)
    assert "| Administrative | blue | Storm check | EX 3.1.2 | played | Storms |" in table
    assert "| Administrative | red | Reinforcements | EX 3.1.1 | played | engine |" in table
    assert "| Tea | both | — | EX 3.3 | partly played (tea-without-biscuits) | HalfTea |" in table


def test_next_phase_to_refuses_a_phase_not_ahead_in_this_turn() -> None:
    g = example_game(system=variant(sequence_of_play=COMMAND_SEQ))
    assert g.apply({"do": "next_phase", "to": "command red"}).ok
    assert (g.phase.id, g.phase.side) == ("command", "red")
    before = (g.state.turn, g.state.phase, len(g.log))
    r = g.apply({"do": "next_phase", "to": "admin"})  # behind: refused, nothing moves
    assert not r.ok and "not ahead in turn 1" in r.message and "tea, end" in r.message
    assert (g.state.turn, g.state.phase) == before[:2]
    assert not g.apply({"do": "next_phase", "to": "no-such-phase"}).ok


def test_the_default_allows_follow_the_kind() -> None:
    g = example_game()
    assert [p.allowed for p in g.phases[:3]] == [(), ("move",), ("attack",)]


def test_a_bad_sequence_is_refused_at_its_key() -> None:
    import pytest
    from pydantic import ValidationError

    bad = {"phases": [{"id": "a", "allows": ["Move!"], "steps": [{"id": "x", "name": "X"}, {"id": "x", "name": "Y"}]},
                      {"id": "a"}]}
    with pytest.raises(ValidationError) as info:
        variant(sequence_of_play=bad)
    text = str(info.value)
    assert "phases.0.allows.0" in text and "not an action kind" in text
    assert "phases.0.steps.1.id" in text and "step id 'x' twice" in text
    with pytest.raises(ValidationError) as info:
        variant(sequence_of_play={"phases": [{"id": "a"}, {"id": "b"}, {"id": "a"}]})
    assert "phases.2.id" in str(info.value) and "give each phase its own id" in str(info.value)
