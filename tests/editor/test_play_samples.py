"""Each sample's playtest variant (ILLUSTRATIVE costs and MAs, see the variant files) is playable
in the editor's Play mode: clicking a counter selects its stack, the reach overlay is non-empty,
a click on a reachable hex moves it, and End Turn advances the turn."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from conftest import REPO
from helpers import activate, click, no_modal_prompts, open_play, scene_point  # noqa: F401 (autouse fixture)

# sample folder, playtest variant, a unit that starts on the map
SAMPLES = [
    ("utah-beach", "night-drop-playtest", "b-1-502"),
    ("second-front-now", "calais-landing-playtest", "de-348-inf"),
    ("killing-ground", "operation-overlord-playtest", "us_8_inf"),
    ("format-example", "meeting", "b-inf-1"),  # the data-only system (not a real game)
]


@pytest.mark.parametrize(("sample", "variant", "unit"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_playtest_variant_moves_in_play_mode(qtbot: Any, sample: str, variant: str, unit: str) -> None:
    w, m = open_play(qtbot, REPO / "scenarios" / sample, variant)
    assert w.view is not None and w.doc is not None
    ctl = m.ctl
    assert ctl is not None and ctl.scenario_id == variant
    game = ctl.game
    side = game.unit(unit).side
    while not (game.phase.permits("move") and game.phase.side in (None, side)):  # GTS 4.0 H: both sides
        assert ctl.next_phase().ok
    if "draw_chit" in game.action_names():
        activate(m, unit)  # a chit-pull game: only the units of the chit in play move [GTS 10.0.1, 13.1]
    start = game.unit(unit).hex
    assert start is not None
    w.view.set_zoom(2.0)
    w.view.center_on_hex(start)
    click(w.view, scene_point(w.view, start))
    assert unit in ctl.selection
    costs = ctl.reachable_costs()
    assert costs, ctl.reach_problem
    # The nearest reachable hex keeps the click inside the zoomed view.
    dest = min(costs, key=lambda h: (costs[h], h.q, h.r))
    click(w.view, scene_point(w.view, dest))
    assert ctl.last is not None and ctl.last.ok, ctl.last
    assert game.unit(unit).hex == dest
    turn = game.state.turn
    qtbot.mouseClick(m.bar.end_turn, Qt.MouseButton.LeftButton)
    assert game.state.turn == turn + 1
    assert game.unit(unit).hex == dest
