"""Desktop conventions (issue #21, item 4): every toolbar action has an icon and a tooltip that
names its shortcut, the map and scenario tools have single-key shortcuts (shown in their
tooltips, "Paint terrain (B)"), no two enabled actions share a shortcut in any mode, and the
icons ship with the package."""

from __future__ import annotations

import fnmatch
import tomllib
from collections import defaultdict
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QToolBar, QWidget, QWidgetAction

from conftest import REPO
from editor.actions import MAP_TOOLS, SCENARIO_TOOLS
from editor.icons import ICON_DIR, shortcut_text
from editor.main_window import MainWindow
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
MODES = ("map", "scenario", "play")


def toolbar_actions(w: MainWindow) -> list[tuple[QToolBar, QAction]]:
    """Every button-like action on every toolbar of the window (docks' toolbars too)."""
    out = []
    for bar in w.findChildren(QToolBar):
        for act in bar.actions():
            if act.isSeparator() or isinstance(act, QWidgetAction):
                continue  # a separator, or a widget (combo, label) placed on the bar
            out.append((bar, act))
    return out


@pytest.mark.parametrize("mode", MODES)
def test_every_toolbar_action_has_an_icon_and_a_tooltip_naming_its_shortcut(qtbot: Any, mode: str) -> None:
    w = show_window(qtbot, UTAH)
    assert w.set_mode(mode)
    found = toolbar_actions(w)
    bars = {bar.objectName() for bar, _ in found}
    assert {"main-toolbar", "scenario-toolbar", "counters-toolbar", "play-toolbar", "disk-notice"} <= bars
    for bar, act in found:
        where = f"{bar.objectName()}: {act.objectName() or act.text()}"
        assert not act.icon().isNull(), f"{where} has no icon"
        assert not act.icon().pixmap(16, 16).isNull(), f"{where}'s icon draws nothing"
        keys = shortcut_text(act.shortcut())
        assert act.toolTip().strip(), f"{where} has no tooltip"
        if keys:
            assert act.toolTip().endswith(f"({keys})"), f"{where}: tooltip {act.toolTip()!r} does not name {keys}"


def test_the_map_tools_are_checkable_actions_with_single_key_shortcuts_named_in_their_tooltips(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    palette = w.map_mode.palette
    assert palette is not None
    for spec in MAP_TOOLS:
        act = w.actions_by_id[f"tool.{spec.id}"]
        assert act.isCheckable() and act.isEnabled()
        assert act.toolTip() == f"{spec.text} ({spec.shortcut})"
        assert not act.icon().isNull()
        assert palette.buttons[spec.id].defaultAction() is act  # the palette shows the same action
    assert w.actions_by_id["tool.terrain"].toolTip() == "Paint terrain (B)"
    assert w.actions_by_id["tool.pan"].isChecked()  # the hand, on entering Map mode


def _press(qtbot: Any, w: MainWindow, widget: QWidget, key: Qt.Key,
           modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    widget.setFocus()
    qtbot.keyClick(widget, key, modifier)


def test_a_tool_key_takes_the_tool_but_not_while_typing_in_a_field(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    assert w.view is not None and w.map_mode.palette is not None
    _press(qtbot, w, w.view, Qt.Key.Key_B)
    brush = w.map_mode.tools["terrain"]
    assert w.view.tool is brush and w.actions_by_id["tool.terrain"].isChecked()
    _press(qtbot, w, w.view, Qt.Key.Key_E)
    assert w.view.tool is w.map_mode.tools["eraser"]
    _press(qtbot, w, w.view, Qt.Key.Key_U, Qt.KeyboardModifier.ShiftModifier)
    assert w.view.tool is w.map_mode.tools["portion-polygon"]
    _press(qtbot, w, w.view, Qt.Key.Key_H)
    assert w.view.tool is None and w.view.dragMode() == w.view.DragMode.ScrollHandDrag  # the hand
    field = w.map_mode.palette.feature_label
    _press(qtbot, w, field, Qt.Key.Key_B)
    assert field.text() == "b" and w.view.tool is None  # typed, not a tool change


def test_scenario_tool_keys_work_in_scenario_mode_only(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    assert w.view is not None
    los = w.actions_by_id["scenario.tool.los"]
    assert not los.isEnabled()  # Map mode: L is not a key here
    assert w.set_mode("scenario")
    mode = w.scenario_mode
    assert mode.panels is not None
    assert all(not w.actions_by_id[f"tool.{s.id}"].isEnabled() for s in MAP_TOOLS)
    _press(qtbot, w, w.view, Qt.Key.Key_L)
    assert w.view.tool is mode.panels.tools["los"] and los.isChecked()
    assert mode.panels.los.active.isChecked()  # the LOS dock's own button agrees
    assert mode.docks[8].isVisible()
    _press(qtbot, w, w.view, Qt.Key.Key_V)
    assert w.view.tool is mode.panels.tools["setup"] and not mode.panels.los.active.isChecked()
    # The dock's button switches the toolbar's action too.
    mode.panels.los.active.setChecked(True)
    assert los.isChecked() and w.view.tool is mode.panels.tools["los"]
    assert w.set_mode("map")
    assert not los.isEnabled() and w.actions_by_id["tool.terrain"].isEnabled()


def _live_shortcuts(w: MainWindow) -> dict[tuple[str, int], list[str]]:
    """Enabled, visible actions with a shortcut, by (key, scope): window-wide actions share one
    scope; an action that works only while its widget has the focus is scoped to that widget."""
    seen: dict[tuple[str, int], list[str]] = defaultdict(list)
    for act in w.findChildren(QAction):
        if act.shortcut().isEmpty() or not act.isEnabled() or not act.isVisible():
            continue
        scoped = act.shortcutContext() in (Qt.ShortcutContext.WidgetShortcut,
                                           Qt.ShortcutContext.WidgetWithChildrenShortcut)
        scope = id(act.parent()) if scoped else 0
        for seq in act.shortcuts():
            seen[(seq.toString(QKeySequence.SequenceFormat.PortableText), scope)].append(
                act.objectName() or act.text())
    return seen


@pytest.mark.parametrize("mode", MODES)
def test_no_two_enabled_actions_share_a_shortcut_in_a_mode(qtbot: Any, mode: str) -> None:
    w = show_window(qtbot, UTAH)
    assert w.set_mode(mode)
    clashes = {key: names for key, names in _live_shortcuts(w).items() if len(names) > 1}
    assert not clashes, clashes
    if mode == "map":
        keys = {k for k, _ in _live_shortcuts(w)}
        assert {"B", "E", "H", "Shift+U"} <= keys  # the check sees the tool keys at all


def test_tool_specs_have_distinct_keys_and_existing_icons() -> None:
    for tools in (MAP_TOOLS, SCENARIO_TOOLS):
        keys = [t.shortcut for t in tools]
        assert len(keys) == len(set(keys)), keys
        for t in tools:
            assert (ICON_DIR / f"{t.icon}.svg").is_file(), t


def test_the_icons_ship_in_the_wheel() -> None:
    """A fresh ``pip install`` (not only an editable one) carries every SVG: pyproject's
    package-data globs match each file of editor/icons."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["editor"]
    svgs = sorted(ICON_DIR.glob("*.svg"))
    assert len(svgs) >= len(MAP_TOOLS) + len(SCENARIO_TOOLS)
    for svg in svgs:
        rel = svg.relative_to(REPO / "editor").as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), f"{rel} is not package data"
        assert svg.read_text(encoding="utf-8").lstrip().startswith("<svg"), rel
