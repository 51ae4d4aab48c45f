"""Properties dock: map name and provenance, and the selected hex's terrain, features and
impassable portion, each edit one undoable command."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from editor.main_window import MainWindow
from model.mapdata import Feature
from helpers import MINI, click, scene_point


@pytest.fixture
def window(qtbot: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(MainWindow, "ask_recover", lambda self, path: False)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", str(tmp_path / "recovery"))
    w = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    assert w.open_path(MINI)
    return w


def _select(w: MainWindow, label: str) -> Any:
    assert w.doc is not None and w.view is not None
    h = w.doc.hmap.parse(label)
    w.view.center_on_hex(h)
    click(w.view, scene_point(w.view, h))  # the Pan tool: a click only selects
    return h


def test_click_selects_hex_and_shows_it(window: MainWindow) -> None:
    h = _select(window, "0502")
    props = window.props
    assert props.hex == h and props.selected.text() == "0502"
    assert props.terrain.currentData() == window.doc.hmap.terrain_at(h)  # type: ignore[union-attr]
    assert props.feature.count() == 1 and props.feature_name.text() == "Ville"


def test_terrain_combo_paints_and_undoes(window: MainWindow) -> None:
    doc = window.doc
    assert doc is not None
    h = _select(window, "0302")
    old = doc.hmap.terrain_at(h)
    props = window.props
    i = props.terrain.findData("woods")
    props.terrain.setCurrentIndex(i)
    props.terrain.activated.emit(i)
    assert doc.hmap.terrain_at(h) == "woods"
    doc.undo_stack.undo()
    assert doc.hmap.terrain_at(h) == old
    assert props.terrain.currentData() == old  # the dock follows the undo


def test_feature_name_and_type_are_undoable_property_changes(window: MainWindow) -> None:
    doc = window.doc
    assert doc is not None
    h = _select(window, "0502")
    props = window.props
    props.feature_name.setText("Bourg")
    props.feature_name.editingFinished.emit()
    f = doc.hmap.features_by_hex[h][0]
    assert f.name == "Bourg"
    assert doc.undo_stack.command(doc.undo_stack.index() - 1).text() == "Change Feature Name"
    doc.undo_stack.undo()
    assert doc.hmap.features_by_hex[h][0].name == "Ville" and props.feature_name.text() == "Ville"
    # Type: add a second feature type to choose from (the mini system has one).
    props.feature_type.addItem("Other", "other")
    j = props.feature_type.findData("other")
    props.feature_type.setCurrentIndex(j)
    props.feature_type.activated.emit(j)
    assert doc.hmap.features_by_hex[h][0].type == "other"
    doc.undo_stack.undo()
    assert doc.hmap.features_by_hex[h][0].type == "town"


def test_portion_side_and_depth(window: MainWindow) -> None:
    doc = window.doc
    assert doc is not None
    h = _select(window, "0302")
    props = window.props
    assert props.portion_side.currentData() == ""
    i = props.portion_side.findData("S")
    props.portion_side.setCurrentIndex(i)
    props.portion_side.activated.emit(i)
    p = doc.hmap.portion_by_hex[h]
    assert p.preset == "S"
    steps = doc.undo_stack.count()
    props.portion_depth.setValue(0.6)
    props.portion_depth.setValue(0.7)
    assert doc.hmap.portion_by_hex[h].depth == pytest.approx(0.7)
    assert doc.undo_stack.count() == steps + 1  # spin steps merge into one
    j = props.portion_side.findData("N")
    props.portion_side.setCurrentIndex(j)
    props.portion_side.activated.emit(j)
    assert doc.hmap.portion_by_hex[h].preset == "N"
    doc.undo_stack.undo()
    assert doc.hmap.portion_by_hex[h].preset == "S"
    doc.undo_stack.undo()
    assert doc.hmap.portion_by_hex[h].depth == pytest.approx(0.5)
    k = props.portion_side.findData("")
    props.portion_side.setCurrentIndex(k)
    props.portion_side.activated.emit(k)
    assert h not in doc.hmap.portion_by_hex
    doc.undo_stack.undo()
    assert h in doc.hmap.portion_by_hex


def test_map_name_and_provenance(window: MainWindow) -> None:
    doc = window.doc
    assert doc is not None
    props = window.props
    props.provenance.setText("Traced from the 1st edition map, sheet A")
    props.provenance.editingFinished.emit()
    assert doc.hmap.provenance == "Traced from the 1st edition map, sheet A"
    props.name.setText("Renamed")
    props.name.editingFinished.emit()
    assert doc.hmap.name == "Renamed"
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.hmap.name == "Mini map" and doc.hmap.provenance is None
    assert props.provenance.text() == ""
    assert not doc.is_modified


def test_nothing_selected_disables_hex_fields(window: MainWindow) -> None:
    props = window.props
    assert props.hex is None and not props.terrain.isEnabled() and not props.portion_side.isEnabled()
    _ = Feature  # the model type the dock edits


def test_a_hex_clicked_while_the_dock_is_hidden_shows_when_it_is_shown_again(window: MainWindow) -> None:
    """Hidden (as Play mode hides it), the panel only remembers the hex; shown again, its fields
    show that hex, as if they had been filled on the click."""
    first = _select(window, "0502")
    props = window.props
    window.props_dock.hide()
    h = _select(window, "0301")
    assert props.hex == h and props.selected.text() == window.doc.hmap.label(first)  # type: ignore[union-attr]
    window.props_dock.show()
    assert props.selected.text() == window.doc.hmap.label(h)  # type: ignore[union-attr]
    assert props.terrain.currentData() == window.doc.hmap.terrain_at(h)  # type: ignore[union-attr]
