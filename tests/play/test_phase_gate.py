"""The shared phase gate (play/sequence.py ``Phase.refusal``, play/game.py ``Game.apply``): every
action dispatched is checked against the current phase's ``allows:``; which phase permission
each action needs is plug-in data (play/<plug-in>/action_kinds.yaml over
play/generic/action_kinds.yaml), administrative actions (``admin``) pass in every phase.

Cases: "H. Activation Phase. Perform the Activation Phase" [GTS 4.0]; "The German player may
issue Move and/or Attack Commands" in his Command & Action Phase [SFN 5.2 I.B]; the TKG
Movement and Combat Phases [TKG 4.0 3.3, 3.4]."""

from __future__ import annotations

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game
from play.plugins import DATA_ONLY, PLUGINS
from play.sequence import ADMIN, Phase

SAMPLES = [("utah-beach", "beach-landing"), ("utah-beach", "night-drop"), ("second-front-now", "calais-landing"),
           ("second-front-now", "calais-optional-rules"), ("killing-ground", "operation-overlord"),
           ("format-example", "meeting")]


def _game(sample: str, scenario: str) -> Game:
    b = load_bundle(REPO / "scenarios" / sample).bundle
    assert b is not None
    return Game(b, scenario, 1)


@pytest.mark.parametrize(("sample", "scenario"), SAMPLES)
def test_every_action_is_administrative_or_permitted_by_some_phase(sample: str, scenario: str) -> None:
    """No action is let through by omission, and none is dead: each is ``admin`` or named by
    the ``allows:`` (or the kind) of at least one phase of its system's sequence."""
    g = _game(sample, scenario)
    dead = [do for do in g.action_names()
            if g.action_kind(do) != ADMIN and not any(p.permits(g.action_kind(do)) for p in g.phases)]
    assert not dead, f"{sample}: actions no phase permits: {dead}"


def test_plugin_action_kind_files_name_real_actions() -> None:
    """Each row of an action_kinds.yaml names an action the plug-in (or the engine) offers in a sample."""
    offered: dict[str, set[str]] = {}
    for sample, scenario in SAMPLES:
        g = _game(sample, scenario)
        offered.setdefault(g.plugin.id, set()).update(g.action_names())
    for plugin in (*PLUGINS, DATA_ONLY):
        extra = set(plugin.action_kinds) - offered.get(plugin.id, set()) - set(DATA_ONLY.action_kinds)
        assert not extra, f"{plugin.id}: action_kinds.yaml lists actions no sample game offers: {sorted(extra)}"


def test_refusal_is_located_and_names_where_the_action_belongs() -> None:
    e = Phase("artillery_contact", "Artillery and Contact", None, "GTS 4.0 E", allows=("artillery_contact",))
    h = Phase("activation", "Activation Phase", None, "GTS 4.0 H", allows=("fire", "chit"))
    assert e.refusal("fire", "fire", [e, h]) == (
        "fire is not an action of GTS 4.0 E Artillery and Contact; it is one of: GTS 4.0 H Activation Phase",
        "GTS 4.0 E", None)
    assert e.refusal("draw_chit", "chit", [e])[0].endswith("(chit) is not an action of GTS 4.0 E Artillery and "
                                                           "Contact; no phase of this sequence permits it")
    assert e.refusal("los", ADMIN, [e, h]) is None and h.refusal("fire", "fire", [e, h]) is None
    # A move or attack in a phase without allows: is left to its handler (its own policy).
    assert Phase("weather", "Weather", None).refusal("move", "move") is None


def test_sfn_admin_phase_refuses_a_move_command() -> None:
    """SFN 5.2 I.B: Move and Attack Commands are issued in the Command & Action Phase."""
    g = _game("second-front-now", "calais-landing")
    assert g.phase.id == "german_admin"
    r = g.apply({"do": "strategic_move", "unit": "de-348-inf", "to": "1905"})
    assert not r.ok and r.message.startswith("strategic_move (move) is not an action of SFN 5.2 I.A German "
                                             "Administrative Phase, german; it is one of: SFN 5.2 I.B German "
                                             "Command & Action Phase, german; SFN 5.2 II.B Allied Command & Action "
                                             "Phase, allied")
    assert r.rule == "SFN 5.2 I.A"
