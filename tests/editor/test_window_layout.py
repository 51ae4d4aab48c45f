"""A window that fits (issue #21): it never grows past the screen's available geometry, each
mode has its own dock layout (saved and restored, in this session and the next), and the map
keeps the room in Map and Play mode."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDockWidget

from conftest import REPO
from editor.main_window import DEFAULT_SIZE, MainWindow
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"


def _fitting(w: MainWindow) -> tuple[int, int]:
    """A size a little inside the screen's available geometry (the offscreen screen is 800×800)."""
    avail = w.screen().availableGeometry()
    return avail.width() - 40, avail.height() - 40


def test_default_size_fits_the_screen(qtbot: Any) -> None:
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    avail = w.screen().availableGeometry()
    assert w.width() <= min(DEFAULT_SIZE.width(), avail.width())
    assert w.height() <= min(DEFAULT_SIZE.height(), avail.height())


def test_modes_never_grow_the_window_past_the_screen(qtbot: Any) -> None:
    probe = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(probe)
    size = _fitting(probe)
    w = show_window(qtbot, UTAH, size)
    avail = w.screen().availableGeometry()
    for mode in ("scenario", "play", "map", "scenario", "map"):
        assert w.set_mode(mode)
        assert (w.width(), w.height()) == size, f"{mode} mode resized the window"
        assert w.frameGeometry().width() <= avail.width() and w.frameGeometry().height() <= avail.height()
        # …and it could be made as small as the screen: its docks scroll rather than push.
        minimum = w.minimumSizeHint()
        assert minimum.width() <= avail.width() and minimum.height() <= avail.height(), (mode, minimum)


def test_diagnostics_dock_does_not_squash_the_map_in_map_and_play_mode(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH, (1200, 760))
    assert w.set_mode("scenario") and w.diagnostics.dock.isVisible()
    for mode in ("map", "play"):
        assert w.set_mode(mode)
        assert not w.diagnostics.dock.isVisible()
        assert w.view is not None and w.view.height() > w.height() // 2, (mode, w.view.height())


def _dock(w: MainWindow, name: str) -> QDockWidget:
    dock = w.findChild(QDockWidget, name)
    assert dock is not None, name
    return dock


def test_each_mode_restores_its_own_dock_layout_now_and_next_session(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    assert w.set_mode("scenario")
    zones = _dock(w, "scenario-zones-dock")
    assert zones.isVisible()
    zones.close()  # the user closes a dock in Scenario mode…
    assert w.set_mode("map")
    history = _dock(w, "history-dock")
    history.close()  # …and another in Map mode
    assert w.set_mode("scenario")
    assert not zones.isVisible() and history.isVisible()  # History is Scenario mode's still
    assert w.set_mode("map")
    assert not history.isVisible() and not zones.isVisible()
    w.close()  # saves the layouts (layouts/<mode> in the test session's settings)
    again = show_window(qtbot, UTAH)
    assert not _dock(again, "history-dock").isVisible()
    assert again.set_mode("scenario")
    assert not _dock(again, "scenario-zones-dock").isVisible()
    assert _dock(again, "scenario-oob-dock").isVisible()


def test_view_panels_menu_lists_every_dock_and_brings_a_closed_one_back(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    menu = w.panels_menu
    menu.aboutToShow.emit()
    docks = w.findChildren(QDockWidget)
    listed = {a.text().replace("&", "") for a in menu.actions()}
    assert listed == {d.windowTitle() for d in docks} and len(menu.actions()) == len(docks)
    assert menu.menuAction() in w.view_menu.actions()
    by_title = {a.text(): a for a in menu.actions()}
    # In Map mode a Scenario mode dock is listed but not offered; the map's own are.
    assert not by_title["Order of Battle"].isEnabled() and by_title["Layers"].isEnabled()
    assert w.set_mode("scenario")
    menu.aboutToShow.emit()
    by_title = {a.text(): a for a in menu.actions()}
    oob = _dock(w, "scenario-oob-dock")
    oob.close()
    assert by_title["Order of Battle"].isEnabled() and not by_title["Order of Battle"].isChecked()
    by_title["Order of Battle"].trigger()
    assert oob.isVisible()
