"""The play engine at its boundary (issue #15 part 7, and the playtest-script limits of part 3):
each input of the hostile-input audit, the limits, and the engine-bug path, checked exactly.

For every bad action: the exact ``GameError`` message (action, argument, value, what was
expected), and ``Game.to_dict()`` unchanged. For scripts: the ``file:line:col`` of the step or
argument, and the exit code of ``hexproof playtest`` (2 unreadable, 1 failed, never 3).
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from hexproof.cli import main
from model.bundle import Bundle, load_bundle
from play import arguments
from play.dice import Dice
from play.errors import ArgumentError, GameError, InternalError
from play.game import Game
from play.script import MAX_REPEAT, MAX_SCRIPT_ACTIONS, ScriptError, run_script

SFN = REPO / "scenarios" / "second-front-now"
GTS = REPO / "scenarios" / "utah-beach"


@lru_cache(maxsize=None)
def bundle(folder: Path) -> Bundle:
    b = load_bundle(folder).bundle
    assert b is not None
    return b


def sfn_game() -> Game:
    return Game(bundle(SFN), "calais-landing", 1)


def gts_game() -> Game:
    return Game(bundle(GTS), "night-drop", 1)


# (game, action, the exact message). The first six are the audit's examples.
BAD_ACTIONS: list[tuple[str, dict[str, Any], str]] = [
    ("sfn", {"do": "plot_drop", "hex": "3211", "unit": "cw-i-corps-arty"},
     "plot_drop: argument 'turn' is missing; expected a turn number from 0 to 10,000"),
    ("sfn", {"do": "vp", "side": "allied", "delta": "eliminated"},
     "vp: argument 'delta' is 'eliminated'; expected a whole number from -1,000,000 to 1,000,000"),
    ("sfn", {"do": "roll", "dice": -1},
     "roll: argument 'dice' is -1; expected dice written NdS such as 2d6 (N 1-1000, S 2-1000), or N for Nd6"),
    ("sfn", {"do": "roll", "dice": "-1"},
     "roll: argument 'dice' is '-1'; expected dice written NdS such as 2d6 (N 1-1000, S 2-1000), or N for Nd6"),
    ("sfn", {"do": "step_loss", "unit": "cw-7-armd", "steps": []},
     "step_loss: argument 'steps' is [] (a list); expected a number of steps from 1 to 100"),
    ("gts", {"do": "check_leaders", "to": "73.056"},
     "check_leaders: argument 'to' is '73.056' (a str, not a map); expected a map of leader id → unit or hex to move to"),
    ("sfn", {"do": "roll", "dice": 1000000000000000000},
     "roll: argument 'dice' is 1000000000000000000 (1000000000000000000 dice; 1 to 1000); expected dice written "
     "NdS such as 2d6 (N 1-1000, S 2-1000), or N for Nd6"),
    ("sfn", {"do": "roll", "dice": "3d1000000"},
     "roll: argument 'dice' is '3d1000000' (1000000 sides; 2 to 1000); expected dice written NdS such as 2d6 "
     "(N 1-1000, S 2-1000), or N for Nd6"),
    # More of the same classes: a string iterated as a unit list, a typo, a null where a number goes.
    ("sfn", {"do": "attack", "attackers": "cw-7-armd", "target": "3211"},
     "attack: argument 'attackers' is 'cw-7-armd' (a str, not a list); expected a list of unit ids of this game"),
    ("sfn", {"do": "move", "unti": "cw-7-armd", "to": "3211"},
     "move: argument 'unti' is 'cw-7-armd' (no action takes an argument of this name); expected an argument "
     "name from docs/play.md (Actions); did you mean 'unit'?"),
    ("sfn", {"do": "set_cp_bonus", "side": "allied", "bonus": None},
     "set_cp_bonus: argument 'bonus' is missing; expected a whole number from -1,000 to 1,000"),
    ("sfn", {"do": "move", "unit": "nobody", "to": "3211"},
     "move: argument 'unit' is 'nobody' (no such unit in the game or counter manifest); expected a unit id of "
     "this game"),
    ("sfn", {"do": "place", "unit": "cw-7-armd", "to": "99x"},
     "place: argument 'to' is '99x' (not a hex label of this map: "),
    ("gts", {"do": "fire", "unit": "c5-ii-919", "target": "c5-ii-919", "modifiers": {"terrain": "lots"}},
     "fire: argument 'modifiers' is {'terrain': 'lots'} (terrain: 'lots': a whole number from -1,000 to 1,000); "
     "expected a map of modifier name → whole number (±1000)"),
]


@pytest.mark.parametrize("which,action,message", BAD_ACTIONS, ids=[f"{a['do']}-{i}" for i, (_, a, _m) in enumerate(BAD_ACTIONS)])
def test_a_bad_argument_is_a_game_error_and_changes_nothing(which: str, action: dict[str, Any], message: str) -> None:
    g = sfn_game() if which == "sfn" else gts_game()
    g.apply({"do": "next_phase"})  # some history, so "unchanged" covers the log and undo stack too
    before, undo = g.to_dict(), len(g._undo)
    t0 = time.perf_counter()
    with pytest.raises(ArgumentError) as err:
        g.apply(action)
    assert time.perf_counter() - t0 < 1.0
    assert str(err.value).startswith(message), str(err.value)
    assert g.to_dict() == before and len(g._undo) == undo


def test_unknown_action_lists_the_games_actions() -> None:
    g = gts_game()
    with pytest.raises(GameError, match=r"unknown action 'teleport'; this game's actions are: .*draw_chit"):
        g.apply({"do": "teleport"})
    with pytest.raises(GameError, match="unknown action '_setup'"):
        g.apply({"do": "_setup"})
    with pytest.raises(ArgumentError, match="expected a map such as"):
        g.apply(["move"])  # type: ignore[arg-type]


def test_dice_limits_hold_in_dice_itself() -> None:
    d = Dice(1)
    assert len(d.roll(arguments.MAX_DICE, arguments.MAX_SIDES)) == 1000
    for count, sides in ((arguments.MAX_DICE + 1, 6), (1, arguments.MAX_SIDES + 1), (0, 6), (1, 1)):
        with pytest.raises(ValueError, match="1-1000 dice of 2-1000 sides"):
            d.roll(count, sides)


def test_an_engine_bug_is_internal_error_and_rolls_the_game_back(monkeypatch: pytest.MonkeyPatch) -> None:
    g = gts_game()
    g.apply({"do": "next_phase"})
    before, undo = g.to_dict(), len(g._undo)

    def broken(self: Game, action: dict[str, Any]) -> Any:
        self.state.turn = 99  # half-way changes that must not survive
        self.emit("half_done")
        self.dice.roll(3, 6)
        raise KeyError("boom")

    monkeypatch.setattr(Game, "_do_flip", broken)
    with pytest.raises(InternalError) as err:
        g.apply({"do": "flip", "unit": "c5-ii-919"})
    assert str(err.value).startswith("PLAY-INTERNAL-001 internal error in action 'flip': KeyError: 'boom'; "
                                     "the game was rolled back to before the action")
    assert err.value.code == "PLAY-INTERNAL-001" and isinstance(err.value, GameError)
    assert g.to_dict() == before and len(g._undo) == undo


def test_a_game_error_half_way_rolls_the_game_back_too(monkeypatch: pytest.MonkeyPatch) -> None:
    g = gts_game()
    before = g.to_dict()

    def half(self: Game, action: dict[str, Any]) -> Any:
        self.emit("half_done")
        raise GameError("unknown unit 'x' met half-way")

    monkeypatch.setattr(Game, "_do_flip", half)
    with pytest.raises(GameError, match="met half-way"):
        g.apply({"do": "flip", "unit": "c5-ii-919"})
    assert g.to_dict() == before


def test_too_many_turns_is_refused_by_the_loader_with_a_location(tmp_path: Path) -> None:
    import shutil

    dst = tmp_path / "utah"
    shutil.copytree(GTS, dst)
    f = dst / "scenarios" / "night-drop.yaml"
    text = f.read_text(encoding="utf-8")
    assert "last: 0900 6 June" in text
    f.write_text(text.replace("last: 0900 6 June", "last: 1000000000"), encoding="utf-8")
    t0 = time.perf_counter()
    res = load_bundle(dst)
    assert time.perf_counter() - t0 < 5
    diags = [d for d in res.diagnostics if "1,000,000,000" in d.message]
    assert len(diags) == 1
    d = diags[0]
    assert d.code == "LOAD-SCHEMA-001" and d.location.file.endswith("night-drop.yaml") and d.location.line == 14
    assert "turn 1,000,000,000 is out of range; a turn number is 0 to 10,000" in d.message
    assert res.bundle is not None and "night-drop" not in res.bundle.scenarios
    # smoke on it: a clear "no scenario" (exit 2), in well under a second, never gigabytes
    t0 = time.perf_counter()
    assert main(["smoke", str(dst), "--scenario", "night-drop"]) == 2
    assert time.perf_counter() - t0 < 5


def test_game_refuses_more_than_max_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    b = bundle(GTS)
    scen = b.resolved("night-drop")
    scen_turns = scen.turns.model_copy(update={"first": 1, "last": 10_001})
    monkeypatch.setattr(type(b), "resolved", lambda self, sid, deep=True: scen.model_copy(update={"turns": scen_turns}))
    with pytest.raises(GameError, match="has 10,001 turns \\(1 to 10001\\); test play handles at most 10,000"):
        Game(b, "night-drop", 1)


# --- scripts ----------------------------------------------------------------------------------


def script(tmp_path: Path, steps: list[str], folder: Path = SFN, scenario: str = "calais-landing",
           final: str = "") -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(f"seed: 1\nbundle: {folder}\nscenario: {scenario}\nactions:\n" + "".join(f"{s}\n" for s in steps)
                 + final, encoding="utf-8")
    return p


# (step line, "line:col" expected in the message, the message's tail). Line 5 is the first step.
BAD_STEPS = [
    ("- {do: plot_drop, hex: '3211', unit: cw-i-corps-arty}", "5:3",
     "step 1: plot_drop: argument 'turn' is missing; expected a turn number from 0 to 10,000"),
    ("- {do: vp, side: allied, delta: eliminated}", "5:26",
     "step 1: vp: argument 'delta' is 'eliminated'; expected a whole number from -1,000,000 to 1,000,000"),
    ("- {do: roll, dice: -1}", "5:14", "step 1: roll: argument 'dice' is '-1'; expected dice written NdS"),
    ("- {do: roll, dice: 1000000000000000000}", "5:14",
     "step 1: roll: argument 'dice' is '1000000000000000000' (1000000000000000000 dice; 1 to 1000)"),
    ("- {do: step_loss, unit: cw-7-armd, steps: []}", "5:36",
     "step 1: step_loss: argument 'steps' is [] (a list); expected a number of steps from 1 to 100"),
    ("- {do: next_phase, repeat: twice}", "5:20",
     "step 1: next_phase: repeat is 'twice'; expected a whole number from 1 to 10,000"),
    ("- {do: next_phase, repeat: 1000000000}", "5:20",
     "step 1: next_phase: repeat is '1000000000'; expected a whole number from 1 to 10,000"),
    ("- {do: next_phase, repeat: 0}", "5:20", "step 1: next_phase: repeat is '0'; expected a whole number"),
    ("- assert: [{unit_at: nowhere}]", "5:12", "step 1: unit_at: expected a map with unit, got 'nowhere'"),
    ("- assert: [{unit_at: {unit: cw-7-armd}}]", "5:12", "step 1: unit_at: missing hex (or where)"),
    ("- assert: [{vp: allied}]", "5:12", "step 1: vp: expected a map with side, equals, got 'allied'"),
    ("- assert: [{turnn: 2}]", "5:12", "step 1: unknown assertion 'turnn'; expected one of unit_at"),
    ("- {do: next_phase, expect: maybe}", "5:20", "step 1: expect is 'maybe'; expected ok or refused"),
    ("- just text", "5:3", "step 1: not a mapping"),
]


@pytest.mark.parametrize("step,where,message", BAD_STEPS)
def test_a_bad_step_is_located_and_exits_2(tmp_path: Path, step: str, where: str, message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # A good step first: a bad step later must still be refused before anything runs.
    p = script(tmp_path, ["- {do: next_phase}", step.replace("5:", "6:")])
    line, col = where.split(":")
    want = f"{p}:{int(line) + 1}:{col}: {message.replace('step 1', 'step 2')}"
    t0 = time.perf_counter()
    with pytest.raises(ScriptError) as err:
        run_script(p)
    assert time.perf_counter() - t0 < 1.0 + 1.0  # the bundle load is most of it
    assert str(err.value).startswith(want), str(err.value)
    capsys.readouterr()
    assert main(["playtest", str(p)]) == 2
    assert capsys.readouterr().err.startswith(want)


def test_the_script_action_cap_counts_repeats_and_is_checked_first(tmp_path: Path) -> None:
    per = MAX_REPEAT
    steps = [f"- {{do: roll, repeat: {per}}}"] * (MAX_SCRIPT_ACTIONS // per) + ["- {do: roll}"]
    p = script(tmp_path, steps)
    t0 = time.perf_counter()
    with pytest.raises(ScriptError) as err:
        run_script(p)
    assert time.perf_counter() - t0 < 1.0  # refused before the bundle is even loaded
    n = MAX_SCRIPT_ACTIONS // per + 1
    assert str(err.value) == (f"{p}:{4 + n}:3: step {n}: the script runs more than 50,000 actions (repeats counted); "
                              f"split it into smaller scripts")


def test_a_bad_final_assertion_is_located(tmp_path: Path) -> None:
    p = script(tmp_path, ["- {do: next_phase}"], final="assert:\n- {unit_at: nowhere}\n")
    with pytest.raises(ScriptError, match=r"s\.yaml:7:3: final assertion: unit_at: expected a map with unit"):
        run_script(p)
    p = script(tmp_path, ["- {do: next_phase}"], final="assert:\n- {unit_at: {unit: nobody, hex: '3211'}}\n")
    with pytest.raises(ScriptError, match=r"s\.yaml:7:3: final assertion: assertion .*unknown unit 'nobody'"):
        run_script(p)


def test_an_engine_bug_in_a_script_is_a_located_failure_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    def broken(self: Game, action: dict[str, Any]) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(Game, "_do_flip", broken)
    p = script(tmp_path, ["- {do: next_phase}", "- {do: flip, unit: cw-7-armd}", "- {do: next_phase}"])
    res = run_script(p)
    assert res.steps == 2 and len(res.failures) == 1  # stops at the bug: step 3 never ran
    assert res.report() == [f"{p}:6:3: step 2: PLAY-INTERNAL-001 internal error in action 'flip': ZeroDivisionError: "
                            "division by zero; the game was rolled back to before the action (this is a bug in the "
                            "play engine, please report it)"]
    assert res.game is not None and not any(e["type"] == "flip" for e in res.game.log)
    assert main(["playtest", str(p)]) == 1
    out = capsys.readouterr()
    assert f"{p}:6:3: step 2: PLAY-INTERNAL-001" in out.out and "Traceback" not in out.out + out.err


def test_failures_print_their_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = script(tmp_path, ["- {do: next_phase}", "- {do: draw_chit}"])  # SFN has no chit pull → unknown action
    assert main(["playtest", str(p)]) == 2
    assert capsys.readouterr().err.startswith(f"{p}:6:3: step 2: unknown action 'draw_chit'")
    p = script(tmp_path, ["- {do: step_loss, unit: cw-7-armd, expect: refused}"])
    assert main(["playtest", str(p)]) == 1
    assert capsys.readouterr().out.startswith(f"{p}:5:3: step 1: step_loss should have been refused")
