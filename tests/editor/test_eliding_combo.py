"""Scenario combos elide long titles and show the whole title in a tooltip (issue #21: the Play
combo was cut off, and TKG's playtest variant read as "Operation Overlord")."""

from __future__ import annotations

from typing import Any

from conftest import REPO
from editor.eliding_combo import ElidingComboBox
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

TKG = REPO / "scenarios" / "killing-ground"
LONG = "Operation Overlord — playtest (illustrative setup and movement) (operation-overlord-playtest)"


def test_long_title_is_elided_with_the_whole_title_in_the_tooltip(qtbot: Any) -> None:
    combo = ElidingComboBox(20, "what it is for")
    qtbot.addWidget(combo)
    combo.addItem("Short", "a")
    combo.addItem(LONG, "b")
    combo.show()
    assert combo.displayed_text() == "Short" and combo.toolTip() == "Short\nwhat it is for"
    combo.setCurrentIndex(1)
    shown = combo.displayed_text()
    assert shown.endswith("…") and LONG.startswith(shown[:-1]) and len(shown) < len(LONG)
    assert combo.toolTip().splitlines()[0] == LONG


def test_width_does_not_follow_the_longest_title(qtbot: Any) -> None:
    short, long_ = ElidingComboBox(20), ElidingComboBox(20)
    for c in (short, long_):
        qtbot.addWidget(c)
        c.addItem("Short")
    long_.addItem(LONG)
    assert short.sizeHint().width() == long_.sizeHint().width()


def test_play_combo_shows_the_variant_being_played(qtbot: Any) -> None:
    w = show_window(qtbot, TKG)
    m = w.play_mode
    assert m.play("operation-overlord-playtest") and m.ctl is not None
    combo = m.bar.scenario
    assert isinstance(combo, ElidingComboBox) and combo.currentData() == "operation-overlord-playtest"
    full = combo.currentText()
    assert "playtest" in full
    qtbot.waitUntil(lambda: combo.toolTip().startswith(full))  # refreshed when the combo paints
    assert "playtest" in combo.displayed_text()  # what a person sees tells the variant apart
    chooser = w.scenario_mode.chooser
    assert isinstance(chooser, ElidingComboBox)
