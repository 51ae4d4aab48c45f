"""Play mode Actions dock: Ship Fire and Battery Fire run NSoP steps 2 and 3 [Excl 4.7.1, 4.7.2]
exactly as the engine does (same seed, same log), and the Naval section shows the Naval
Display (ships per range box, Assault Force markers, Landing Wave loads, Barrages, NSoP step)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from editor.play import PlayMode
from play.gts.naval_ui import naval_action, naval_choices, naval_view
from helpers import action_button, no_modal_prompts, open_play, play_status, to_activation  # noqa: F401 (autouse fixture)
from model.bundle import load_bundle
from play.game import Game

UTAH = REPO / "scenarios" / "utah-beach"


def click(qtbot: Any, m: PlayMode, name: str) -> None:
    b = action_button(m, name)
    assert b.isEnabled() and b.isVisible()
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)


def choose(m: PlayMode, uid: str) -> None:
    combo = m.actions_panel.panels["naval"].combo
    assert combo is not None
    i = combo.findData(uid)
    assert i >= 0, [combo.itemData(k) for k in range(combo.count())]
    combo.setCurrentIndex(i)


def engine(seed: int, actions: list[dict[str, Any]]) -> tuple[Game, list[str]]:
    b = load_bundle(UTAH).bundle
    assert b is not None
    g = Game(b, "beach-landing", seed)
    return g, [str(g.apply(a)) for a in actions]


def test_ship_fire_and_battery_fire_buttons_match_the_engine(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "beach-landing")
    ctl = m.ctl
    assert ctl is not None
    seed = ctl.game.dice.seed
    panel = m.actions_panel
    assert panel.panels["naval"].isVisible()
    assert panel.panels["naval"].view.text().startswith("NSoP: not running")
    click(qtbot, m, "ship_fire")                                    # nothing selected, nothing chosen
    assert play_status(m).startswith("refused: select a ship")
    to_activation(m)                                                # chits are drawn in 4.0 H [GTS 10.0.1]
    ctl.apply({"do": "draw_chit"})                                  # the Naval chit: NSoP step 2 [4.1.8]
    assert panel.panels["naval"].view.text().startswith("NSoP step 2: Ships Fire at Shore")
    ctl.select(["dd-uts-1"])                                        # the ship picked in the Unit dock
    panel.target.setText("23.024")                                  # Wn 5
    click(qtbot, m, "ship_fire")
    shot = play_status(m)
    choose(m, "ca-star-1")                                          # the cruiser fires from the Naval box
    ctl.clear_selection()
    panel.target.setText("23.024")
    click(qtbot, m, "ship_fire")
    shot2 = play_status(m)
    click(qtbot, m, "naval_step")                                   # step 3
    assert panel.panels["naval"].view.text().startswith("NSoP step 3: Shore Fires at Ships")
    choose(m, "dd-uts-1")
    panel.target.setText("30.027")                                  # the battery in that hex
    click(qtbot, m, "battery_fire")
    fired = play_status(m)
    expected = [{"do": "next_phase", "to": "activation"},
                {"do": "draw_chit"},
                {"do": "ship_fire", "ship": "dd-uts-1", "target": "wn-5"},
                {"do": "ship_fire", "ship": "ca-star-1", "target": "wn-5"},
                {"do": "naval_next"},
                {"do": "battery_fire", "unit": "st-martin-bty", "target": "dd-uts-1"}]
    assert ctl.game.actions == expected, (shot, shot2, fired)
    g, results = engine(seed, expected)
    assert [shot, shot2, fired] == [results[2], results[3], results[5]]
    assert ctl.game.log_json() == g.log_json()                      # the same events, dice and all
    assert "fires at wn-5" in shot and "fires at wn-5" in shot2 and "fires at dd-uts-1" in fired
    # The Naval section is the engine's state: the model text, Barrages included.
    assert panel.panels["naval"].view.text() == naval_view(g).text()          # type: ignore[union-attr]
    for e in (e for e in g.log if e["type"] == "barrage"):
        assert f"{e['hex']} " in panel.panels["naval"].view.text().split("Barrages: ")[1]


def test_naval_section_hidden_without_a_naval_display(qtbot: Any) -> None:
    _, m = open_play(qtbot, UTAH, "night-drop")
    assert not m.actions_panel.panels["naval"].isVisible()
    assert not m.actions_panel.buttons["ship_fire"].isVisible()
    assert not m.actions_panel.buttons["battery_fire"].isVisible()


def test_naval_view_model() -> None:
    b = load_bundle(UTAH).bundle
    assert b is not None
    g = Game(b, "beach-landing", 1)
    assert g.apply({"do": "next_phase", "to": "activation"}).ok  # the Landing Waves arrive in Step C [GTS 4.0 C]
    v = naval_view(g)
    assert v is not None and not v.active
    assert v.markers == {"UtN": "30.016", "UtS": "18.027"}
    assert ("UtS", "range-uts-short", 10, ["dd-uts-1"]) in v.boxes
    assert "UtN marker 30.016: no ships" in v.lines()
    assert "  range-uts-medium +20: ca-star-1" in v.lines()
    g.apply({"do": "draw_chit"})
    from play.gts import barrage, naval

    naval.craft_loads(g)["lcvp-1"] = ["a-1-8"]
    barrage.state(g)["30.027"] = "heavy"
    v = naval_view(g)
    assert v is not None and v.active and v.step == 2
    assert v.lines()[0] == "NSoP step 2: Ships Fire at Shore"
    assert any(line.startswith("lw-tare-green:") and "[lcvp-1: a-1-8]" in line for line in v.lines())
    assert v.lines()[-1] == "Barrages: 30.027 heavy"
    assert [uid for _t, uid in naval_choices(g)] == ["lcr-uts-1", "lcs-uts-1", "dd-uts-1", "ca-star-1", "lcvp-1", "a-70-dd"]
    g2 = Game(b, "night-drop", 1)
    assert naval_view(g2) is None and naval_choices(g2) == []


def test_naval_actions_refuse_without_their_choices() -> None:
    b = load_bundle(UTAH).bundle
    assert b is not None
    g = Game(b, "beach-landing", 1)
    assert naval_action(g, "ship_fire", [], "23.024") == \
        "select a ship on the Naval Display (Unit dock) or choose one in the Naval box"
    assert naval_action(g, "ship_fire", ["dd-uts-1"], "") .startswith("type a target hex")   # type: ignore[union-attr]
    assert naval_action(g, "ship_fire", ["lcs-uts-1"], "track:obstacles") == \
        {"do": "ship_fire", "ship": "lcs-uts-1", "track": "obstacles", "by": 1}
    assert naval_action(g, "ship_fire", ["dd-uts-1"], "50.050") == "no enemy unit in 50.050"
    # In 30.027 the Coastal Battery (self-spotted [4.4.4(b)]) comes before c7-ii-919.
    assert naval_action(g, "ship_fire", ["dd-uts-1"], "30.027") == \
        {"do": "ship_fire", "ship": "dd-uts-1", "target": "st-martin-bty"}
    assert naval_action(g, "battery_fire", [], "23.024", "dd-uts-1") == "select a Coastal Battery (or type its hex)"
    assert naval_action(g, "battery_fire", ["st-martin-bty"], "") == \
        "choose the target ship or Landing Craft in the Naval box"
