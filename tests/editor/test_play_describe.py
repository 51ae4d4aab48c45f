"""Dice and Log wording (editor/play/describe.py, the templates in play/generic/events.yaml and
each plug-in's play/<plug-in>/events.yaml): every event type the engine emits has its own
one-line description with its rule case — checked against the events the scripted playtests
actually produce (derived by running them) and against every ``game.emit("…")`` under play/,
each in the templates of the plug-in that emits it or the shared ones — and the Dice and Log
dock shows those lines (model → widget)."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest

from conftest import FIXTURES, REPO
from editor.play.describe import Wording, describe, describe_dice, generic, policy_names, render, wording_for
from helpers import no_modal_prompts, open_play  # noqa: F401 (autouse fixture)
from play.plugin import SystemPlugin
from play.plugins import DATA_ONLY, PLUGINS
from play.script import run_script

SCRIPTS = sorted(p for p in (FIXTURES / "playtests").glob("*.yaml") if p.name != "failing.yaml")
_PLACEHOLDER = re.compile(r"(^|\s)\?($|[\s,:;)])")


def _playtest_events() -> list[tuple[dict[str, Any], Wording]]:
    """Every event of every scripted playtest, with the wording of its game's plug-in."""
    events: list[tuple[dict[str, Any], Wording]] = []
    for script in SCRIPTS:
        result = run_script(script)
        assert result.game is not None
        wording = wording_for(result.game.plugin)
        events.extend((e, wording) for e in result.game.log)
    return events


@pytest.fixture(scope="module")
def playtest_events() -> list[tuple[dict[str, Any], Wording]]:
    return _playtest_events()


def _emitted_types(paths: list[Any]) -> set[str]:
    """Every literal event type of a ``….emit("type", …)`` call in ``paths``."""
    out: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                out.add(node.args[0].value)
    return out


def _plugin_modules(plugin: SystemPlugin) -> list[Any]:
    return sorted(plugin.folder.rglob("*.py"))


def _shared_modules() -> list[Any]:
    """play/'s modules outside every plug-in's folder: the shared engine."""
    own = {p for plugin in PLUGINS for p in _plugin_modules(plugin)}
    return sorted(p for p in (REPO / "play").rglob("*.py") if p not in own)


def test_every_playtest_event_type_has_its_own_description(
        playtest_events: list[tuple[dict[str, Any], Wording]]) -> None:
    types = {str(e["type"]) for e, _ in playtest_events}
    assert len(types) > 50  # the scripts really ran (GTS, SFN, TKG, the duel)
    assert {str(e["type"]) for e, w in playtest_events if not w.has_description(str(e["type"]))} == set()
    for e, wording in playtest_events:
        line = describe(e, wording, with_head=False)
        assert line != generic(e), e
        assert not _PLACEHOLDER.search(line), (line, e)  # a required field the event lacks
        if e.get("rule"):
            assert str(e["rule"]) in line, (line, e)  # every line cites its rule case
        for name in policy_names(e.get("policy")):
            assert name in line, (line, e)
        if wording.is_dice(e):
            assert not _PLACEHOLDER.search(describe_dice(e, wording)), e


def test_every_event_type_emitted_under_play_has_a_template() -> None:
    shared = _emitted_types(_shared_modules())
    own = {plugin.id: _emitted_types(_plugin_modules(plugin)) for plugin in PLUGINS}
    assert {"barrage", "lc_loaded", "mug_add", "mug_remove", "ship_fire", "battery_fire", "nsop_step",
            "random_event", "storm_arrives", "lgas_check", "plot_saf", "ntf", "blue_point", "aerial_supply",
            "airborne_withdraw", "replace", "transfer", "transit_move"} <= set().union(*own.values())
    # The shared engine's events are worded in play/generic/events.yaml, for every game.
    assert sorted(t for t in shared if not wording_for(DATA_ONLY).has_description(t)) == []
    for plugin in PLUGINS:
        wording = wording_for(plugin)
        assert sorted(t for t in own[plugin.id] if not wording.has_description(t)) == [], plugin.id
        # A type is the engine's or one plug-in's: no plug-in re-words a shared event.
        assert sorted(set(plugin.templates) & set(DATA_ONLY.templates)) == [], plugin.id
        # No stale template: each one names an event the plug-in emits (and no other plug-in's).
        assert sorted(set(plugin.templates) - own[plugin.id]) == [], plugin.id
    assert sorted(set(DATA_ONLY.templates) - shared) == []


def _wording_of(event_type: str) -> Wording:
    """The wording of the plug-in whose templates word ``event_type`` (or the shared one)."""
    return next((wording_for(p) for p in PLUGINS if event_type in p.templates), wording_for(DATA_ONLY))


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
    line = describe(dict(event, turn=2, phase="reinforcement", side="allied"), _wording_of(str(event["type"])))
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
    assert describe({"type": "made_up", "x": 1}, wording_for(DATA_ONLY), with_head=False) == "made_up x=1"  # the fallback


def test_dice_and_log_dock_show_the_naval_lines(qtbot: Any) -> None:
    """Model → widget: the dock's lines are exactly describe()/describe_dice() of the engine log."""
    _, m = open_play(qtbot, REPO / "scenarios" / "utah-beach", "beach-landing", seed=4)
    assert m.ctl is not None
    ctl = m.ctl
    assert ctl.apply({"do": "next_phase", "to": "activation"}).ok  # chits are drawn in 4.0 H [GTS 10.0.1]
    assert ctl.apply({"do": "draw_chit"}).ok
    assert ctl.apply({"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"}).ok
    log = ctl.game.log
    wording = wording_for(ctl.game.plugin)
    assert m.log_panel.event_lines() == [describe(e, wording) for e in log]
    assert m.log_panel.dice_lines() == [describe_dice(e, wording) for e in log if wording.is_dice(e)]
    events = m.log_panel.event_lines()
    assert any("barrage: light Barrage marker in 23.024" in x and "[GTS 16.6.2.1]" in x for x in events)
    assert any("nsop_step: NSoP step 2" in x for x in events)
    dice = m.log_panel.dice_lines()
    assert any("ship_fire: ship fire: dd-uts-1" in x and "d10" in x and "[Excl 4.4.4]" in x for x in dice)
    assert not any(x == generic(e) for x, e in zip(events, log))
    qtbot.waitUntil(lambda: ctl.warm_seconds is not None, timeout=20000)
