"""Play mode buttons for the SFN optional rules [15.3, 15.4, 15.5, 15.7, 15.8]: enabled only when
the scenario selects the rule; results and refusals (with the rule case) reach the status bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from conftest import REPO
from editor.play import PlayMode
from helpers import action_button, no_modal_prompts, open_play, play_status  # noqa: F401 (autouse fixture)

SFN = REPO / "scenarios" / "second-front-now"
OPTIONAL = ("declare_air", "plot_saf", "aerial_supply", "airborne_withdraw", "blue_point")


def click(qtbot: Any, m: PlayMode, name: str) -> str:
    b = action_button(m, name)
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton)
    return play_status(m)


def test_optional_buttons_only_when_the_rules_are_on(qtbot: Any) -> None:
    _, off = open_play(qtbot, SFN, "calais-landing-playtest")
    assert not any(off.actions_panel.buttons[n].isEnabled() for n in OPTIONAL)
    _, on = open_play(qtbot, SFN, "calais-optional-rules")
    assert all(on.actions_panel.buttons[n].isEnabled() for n in OPTIONAL)


def test_blue_point_and_contest_air_buttons(qtbot: Any) -> None:
    _, m = open_play(qtbot, SFN, "calais-optional-rules")
    assert click(qtbot, m, "declare_air").startswith("refused") and "[SFN 15.3]" in play_status(m)
    assert click(qtbot, m, "blue_point").startswith("ok: Blue Point launched"), play_status(m)
    assert click(qtbot, m, "blue_point").startswith("refused") and "[SFN 15.7]" in play_status(m)
    assert any("blue_point" in line for line in m.log_panel.event_lines())


def test_plot_saf_aerial_supply_and_withdrawal_buttons(qtbot: Any) -> None:
    _, m = open_play(qtbot, SFN, "calais-optional-rules")
    ctl = m.ctl
    assert ctl is not None
    assert click(qtbot, m, "aerial_supply") == "refused: select a unit first"
    assert ctl.next_phase("allied_admin").ok  # the supply check step II.A.6 [SFN 5.2]
    m.actions_panel.target.setText("2211")
    m.actions_panel.fields["turn"].setValue(ctl.game.state.turn + 3)
    assert click(qtbot, m, "plot_saf").startswith("ok: SAF strike plotted on 2211"), play_status(m)
    ctl.select(["us-36-inf"])
    assert click(qtbot, m, "aerial_supply").startswith("refused") and "[SFN 15.8]" in play_status(m)
    ctl.select(["uk-6-ab"])
    assert click(qtbot, m, "airborne_withdraw").startswith("refused") and "[SFN 15.5]" in play_status(m)


def test_ntf_box_adds_ntf_to_the_next_map_attack(qtbot: Any) -> None:
    _, off = open_play(qtbot, SFN, "calais-landing-playtest")
    assert not off.actions_panel.options["ntf"].isVisible()
    _, m = open_play(qtbot, SFN, "calais-optional-rules")
    ctl = m.ctl
    assert ctl is not None
    box = m.actions_panel.options["ntf"]
    assert box.isVisible() and box.objectName() == "play-action-ntf"
    for uid, h in (("cw-51-inf", "2105"), ("de-276-inf", "2104"), ("de-9-ss-pz", "2211"), ("cw-gds-armd", "2110")):
        assert ctl.apply({"do": "place", "unit": uid, "to": h}).ok
    ctl.apply({"do": "step_loss", "unit": "de-276-inf"})
    ctl.apply({"do": "step_loss", "unit": "de-9-ss-pz"})
    ctl.apply({"do": "set_cp_bonus", "side": "allied", "bonus": 3})
    assert ctl.next_phase("allied_command").ok  # attacks: the Command & Action Phase [SFN 5.2 II.B]
    box.click()  # as a user's click on the box
    assert box.isChecked() and ctl.attack_options == {"ntf": True}
    ctl.select(["cw-gds-armd"])
    res = ctl.attack(ctl.game.hmap.parse("2211"))  # inland: refused, the box stays ticked
    assert not res.ok and res.rule == "SFN 15.1" and box.isChecked()
    ctl.select(["cw-51-inf"])
    res = ctl.attack(ctl.game.hmap.parse("2104"))
    assert res.ok, res
    assert any(e["type"] == "ntf" for e in ctl.game.log)
    assert not box.isChecked() and ctl.attack_options == {}  # once per game turn: unticked


def test_optional_rule_rolls_reach_the_dice_log(qtbot: Any) -> None:
    _, m = open_play(qtbot, SFN, "calais-optional-rules")
    assert m.ctl is not None
    assert click(qtbot, m, "blue_point").startswith("ok:")
    m.refresh()
    assert any("blue_point" in line and "SFN 15.7" in line for line in m.log_panel.dice_lines())
