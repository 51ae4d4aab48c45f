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
    w.close()  # saves the layouts (layouts-vN/<mode> in the test session's settings)
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


# --- the map keeps the room at 1280 × 800 (issue #21) ---------------------------------------------

LAPTOP = (1280, 800)
MIN_WIDTH_SHARE, MIN_HEIGHT_SHARE = 0.60, 0.55  # of the window, for the map view, in every mode


def _map_share(qtbot: Any, w: MainWindow) -> tuple[float, float]:
    w.resize(*LAPTOP)
    qtbot.wait(20)  # the deferred first sizing (MainWindow._size_default_docks) and the layout
    assert w.view is not None and (w.width(), w.height()) == LAPTOP
    return w.view.width() / w.width(), w.view.height() / w.height()


def test_map_view_keeps_most_of_a_1280x800_window_in_every_mode(qtbot: Any) -> None:
    """Before: Scenario mode left the map 37 % × 49 % (a 420 px right column, a 371 px left one),
    Play mode 58 % wide (the Actions dock's 531 px minimum)."""
    w = show_window(qtbot, UTAH, LAPTOP)
    qtbot.wait(20)
    for mode in ("map", "scenario", "play", "map", "scenario", "play"):  # first entry, then restored
        assert w.set_mode(mode)
        across, down = _map_share(qtbot, w)
        assert across >= MIN_WIDTH_SHARE and down >= MIN_HEIGHT_SHARE, (mode, round(across, 2), round(down, 2))


def test_a_layout_saved_by_an_older_version_does_not_come_back(qtbot: Any) -> None:
    """A starved Scenario layout saved under the old key (``layouts/``, version 2) or under the
    new key with the old version is ignored: the mode gets its default layout."""
    from PySide6.QtCore import QSettings, Qt

    from editor.main_window import LAYOUT_VERSION, LAYOUTS_GROUP

    w = show_window(qtbot, UTAH, LAPTOP)
    assert w.set_mode("scenario")
    qtbot.wait(20)
    oob = _dock(w, "scenario-oob-dock")
    w.resizeDocks([oob], [600], Qt.Orientation.Horizontal)  # the user's (or an old default's) starved map
    qtbot.wait(20)
    assert w.view is not None and w.view.width() / w.width() < MIN_WIDTH_SHARE  # the test can fail
    settings = QSettings("Hexproof", "Hexproof")
    settings.setValue("layouts/scenario", w.saveState(2))
    settings.setValue(f"{LAYOUTS_GROUP}/scenario", w.saveState(LAYOUT_VERSION - 1))
    settings.sync()
    w.hide()
    again = show_window(qtbot, UTAH, LAPTOP)
    qtbot.wait(20)
    assert "scenario" not in again.layouts or again.set_mode("scenario")
    assert again.set_mode("scenario")
    across, down = _map_share(qtbot, again)
    assert across >= MIN_WIDTH_SHARE and down >= MIN_HEIGHT_SHARE, (round(across, 2), round(down, 2))


def test_no_dock_panel_is_wider_than_its_dock_at_1280x800(qtbot: Any) -> None:
    """The panels fit the default columns instead of setting them: the tool palette reflows to
    icons only (each tooltip names its tool), the Actions dock's buttons go two to a row and its
    sections wrap. Before: the Tools palette needed 371 px, the Actions panel 531 px."""
    from PySide6.QtWidgets import QScrollArea

    w = show_window(qtbot, UTAH, LAPTOP)
    qtbot.wait(20)
    assert not w.map_mode.palette.flow[0]  # icons only in a 200 px column…
    assert all(b.toolTip() for b in w.map_mode.palette.buttons.values())  # …each still named
    for mode, names in (("map", ("tools-dock",)), ("play", ("play-actions-dock",))):
        assert w.set_mode(mode)
        _map_share(qtbot, w)
        for name in names:
            area = _dock(w, name).widget()
            assert isinstance(area, QScrollArea) and area.widget() is not None
            assert area.widget().width() <= area.viewport().width(), (mode, name, area.widget().width())


def test_reset_panel_layouts_gives_the_active_mode_its_defaults_now_and_forgets_the_saved(qtbot: Any) -> None:
    """Reset Panel Layouts (Preferences): the starved Scenario layout is gone at once, not only at
    the next entry; nothing of it stays in the settings (this version's group nor the old
    ``layouts/`` one); a docked-elsewhere dock is back in its place; the window keeps its size.
    Before: it removed the old ``layouts`` group only, and the active mode kept its layout."""
    from PySide6.QtCore import QSettings, Qt

    from editor.main_window import LAYOUTS_GROUP

    w = show_window(qtbot, UTAH, LAPTOP)
    qtbot.wait(20)
    assert w.set_mode("play") and w.set_mode("scenario")
    qtbot.wait(20)
    oob = _dock(w, "scenario-oob-dock")
    built_area = w.dockWidgetArea(oob)
    w.resizeDocks([oob], [600], Qt.Orientation.Horizontal)
    other = Qt.DockWidgetArea.RightDockWidgetArea if built_area != Qt.DockWidgetArea.RightDockWidgetArea \
        else Qt.DockWidgetArea.LeftDockWidgetArea
    w.addDockWidget(other, oob)  # the user dragged it to the other side
    qtbot.wait(20)
    assert w.view is not None and w.view.width() / w.width() < MIN_WIDTH_SHARE  # the test can fail
    w._save_layouts()
    settings = QSettings("Hexproof", "Hexproof")
    settings.setValue("layouts/scenario", w.saveState(2))
    settings.sync()
    assert settings.value(f"{LAYOUTS_GROUP}/scenario") is not None

    w.reset_layouts()
    assert w.modes.active.name == "scenario" and w.size().toTuple() == LAPTOP
    assert w.dockWidgetArea(oob) == built_area and oob.isVisible()
    across, down = _map_share(qtbot, w)
    assert across >= MIN_WIDTH_SHARE and down >= MIN_HEIGHT_SHARE, (round(across, 2), round(down, 2))
    settings.sync()
    assert settings.value(f"{LAYOUTS_GROUP}/scenario") is None and settings.value("layouts/scenario") is None
    # the Diagnostics dock is a tab again (not beside its group, which grew the window before)
    assert _dock(w, "scenario-counters-dock") in w.tabifiedDockWidgets(w.diagnostics.dock)
    for mode in ("play", "map", "scenario"):
        assert w.set_mode(mode)
        across, down = _map_share(qtbot, w)
        assert across >= MIN_WIDTH_SHARE and down >= MIN_HEIGHT_SHARE, (mode, round(across, 2), round(down, 2))
