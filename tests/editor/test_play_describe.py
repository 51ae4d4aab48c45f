"""Dice and Log wording (editor/play/describe.py): every event type the engine emits has its own
one-line description with its rule case — checked against the events the scripted playtests
actually produce (derived by running them) and against every ``game.emit("…")`` under play/ —
and the Dice and Log dock shows those lines (model → widget)."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest

from conftest import FIXTURES, REPO
from editor.play.describe import (TEMPLATES, describe, describe_dice, generic, has_description, is_dice,
                                  policy_names, render)
from helpers import no_modal_prompts, open_play  # noqa: F401 (autouse fixture)
from play.script import run_script

SCRIPTS = sorted(p for p in (FIXTURES / "playtests").glob("*.yaml") if p.name != "failing.yaml")
_PLACEHOLDER = re.compile(r"(^|\s)\?($|[\s,:;)])")


def _playtest_events() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for script in SCRIPTS:
        result = run_script(script)
        assert result.game is not None
        events.extend(result.game.log)
    return events


@pytest.fixture(scope="module")
def playtest_events() -> list[dict[str, Any]]:
    return _playtest_events()


def _emitted_types() -> set[str]:
    """Every literal event type of a ``….emit("type", …)`` call under play/."""
    out: set[str] = set()
    for path in (REPO / "play").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                out.add(node.args[0].value)
    return out


def test_every_playtest_event_type_has_its_own_description(playtest_events: list[dict[str, Any]]) -> None:
    types = {str(e["type"]) for e in playtest_events}
    assert len(types) > 50  # the scripts really ran (GTS, SFN, TKG, the duel)
    assert {t for t in types if not has_description(t)} == set()
    for e in playtest_events:
        line = describe(e, with_head=False)
        assert line != generic(e), e
        assert not _PLACEHOLDER.search(line), (line, e)  # a required field the event lacks
        if e.get("rule"):
            assert str(e["rule"]) in line, (line, e)  # every line cites its rule case
        for name in policy_names(e.get("policy")):
            assert name in line, (line, e)
        if is_dice(e):
            assert not _PLACEHOLDER.search(describe_dice(e)), e


def test_every_event_type_emitted_under_play_has_a_template() -> None:
    emitted = _emitted_types()
    assert {"barrage", "lc_loaded", "mug_add", "mug_remove", "ship_fire", "battery_fire", "nsop_step",
            "random_event", "storm_arrives", "lgas_check", "plot_saf", "ntf", "blue_point", "aerial_supply",
            "airborne_withdraw", "replace", "transfer", "transit_move"} <= emitted
    assert sorted(t for t in emitted if not has_description(t)) == []
    # No stale template: each one names an event the engine emits.
    assert sorted(set(TEMPLATES) - emitted) == []


@pytest.mark.parametrize(("event", "parts"), [
    ({"type": "barrage", "hex": "23.024", "marker": "heavy", "was": "light", "unit": "dd-uts-1", "fr": 6,
      "rule": "GTS 16.6.2.1", "policy": "barrage-size-from-printed-fr: the marker's size uses …"},
     ["barrage: heavy Barrage marker in 23.024", "(was light)", "dd-uts-1", "FR 6", "[GTS 16.6.2.1]",
      "(policy barrage-size-from-printed-fr)"]),
    ({"type": "lc_loaded", "craft": "lcvp-1", "units": ["a-1-8", "b-1-8"], "load": 2, "box": "wave-1",
      "rule": "Excl 4.5.2"}, ["Landing Craft lcvp-1 loads a-1-8, b-1-8 in wave-1", "[Excl 4.5.2]"]),
    ({"type": "mug_remove", "chits": ["chit-naval"], "rule": "Excl 4.1.8", "message": "last play"},
     ["out of the mug: chit-naval", "last play", "[Excl 4.1.8]"]),
    ({"type": "random_event", "die": 3, "result": "Allied CP +4", "kind": "allied_cp",
      "needs": "division (an Allied Division; Allied player's choice)", "rule": "Excl 6.0"},
     ["Random Event: d10 3 → Allied CP +4", "needs division", "[Excl 6.0]"]),
    ({"type": "random_event", "die": 0, "result": "No Event", "rule": None}, ["Random Event: d10 0 → No Event"]),
    ({"type": "ship_contact", "ship": "dd-uts-1", "spotter": "spa-1", "die": 4, "need": 6, "contact": True,
      "rule": "Excl 4.4.4"}, ["dd-uts-1 spotting by spa-1: d10 4 (needs 6) → contact", "[Excl 4.4.4]"]),
    ({"type": "nsop_step", "step": 3, "name": "Coastal Battery Fire", "skipped": True, "rule": "Excl 4.6"},
     ["NSoP step 3: Coastal Battery Fire (skipped)", "[Excl 4.6]"]),
    ({"type": "storm_departs", "days": 3, "automatic": True, "rule": "SFN 15.2"},
     ["departs after 3 day(s) (automatically)", "[SFN 15.2]"]),
    ({"type": "transit_move", "units": ["de_r1"], "box": "E9", "source": "T9", "kind": "exit", "cost": "whole MA",
      "rule": "TKG [18.4.2]"}, ["transit move of de_r1: T9 → E9 (exit, cost whole MA) TKG [18.4.2]"]),
    ({"type": "vp", "vp_side": "german", "delta": -1, "total": 49, "reason": "contest air superiority",
      "rule": "SFN 15.3"}, ["german VP -1 → 49 (contest air superiority) [SFN 15.3]"]),
])
def test_named_events_read_as_sentences(event: dict[str, Any], parts: list[str]) -> None:
    line = describe(dict(event, turn=2, phase="reinforcement", side="allied"))
    assert line.startswith(f"T2 reinforcement allied · {event['type']}: ")
    for part in parts:
        assert part in line, (part, line)
    assert "=" not in line.split("·", 1)[1] or event["type"] == "roll"  # not the key=value fallback


def test_template_language() -> None:
    e = {"a": 1, "b": None, "c": [1, 2], "f": False, "d": 2.0}
    assert render("x {a}< y {b}> z {c}", e) == "x 1 z 1, 2"
    assert render("{f?on|off} {a?on|off}{missing? gone|}", e) == "off on"
    assert render("{d:+}", e) == "+2"
    assert render("{missing}", e) == "?"  # required but absent: visible, never a crash
    assert policy_names("a-b: why; c-d-e.f: more") == ["a-b", "c-d-e.f"]
    assert policy_names("free text") == ["free text"]
    assert describe({"type": "made_up", "x": 1}, with_head=False) == "made_up x=1"  # the fallback


def test_dice_and_log_dock_show_the_naval_lines(qtbot: Any) -> None:
    """Model → widget: the dock's lines are exactly describe()/describe_dice() of the engine log."""
    _, m = open_play(qtbot, REPO / "scenarios" / "utah-beach", "beach-landing", seed=4)
    assert m.ctl is not None
    ctl = m.ctl
    assert ctl.apply({"do": "draw_chit"}).ok
    assert ctl.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"}).ok
    log = ctl.game.log
    assert m.log_panel.event_lines() == [describe(e) for e in log]
    assert m.log_panel.dice_lines() == [describe_dice(e) for e in log if is_dice(e)]
    events = m.log_panel.event_lines()
    assert any("barrage: light Barrage marker in 23.024" in x and "[GTS 16.6.2.1]" in x for x in events)
    assert any("nsop_step: NSoP step 2" in x for x in events)
    dice = m.log_panel.dice_lines()
    assert any("ship_fire: ship fire: dd-uts-1" in x and "d10" in x and "[Excl 4.4.4]" in x for x in dice)
    assert not any(x == generic(e) for x, e in zip(events, log))
    qtbot.waitUntil(lambda: ctl.warm_seconds is not None, timeout=20000)
