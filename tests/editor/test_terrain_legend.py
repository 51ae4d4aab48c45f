"""The Terrain Legend dock (issue #21, item 4): the system's terrain types with the renderer's
colour swatches and the map's hex counts, following the document (model → view: edits, undo,
another bundle, close) and choosing the paint terrain (view → tool)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from conftest import REPO
from editor.commands import PaintTerrain
from editor.main_window import MainWindow
from editor.terrain_legend import ID_ROLE
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

UTAH = REPO / "scenarios" / "utah-beach"
TKG = REPO / "scenarios" / "killing-ground"


def _expected(w: MainWindow) -> list[tuple[str, str, int]]:
    """What the legend must list, computed hex by hex from the map (not the legend's own way)."""
    assert w.doc is not None
    hmap = w.doc.hmap
    counts = Counter(hmap.terrain_at(h) for h in hmap.hexes())
    return [(t.id, t.name, counts.get(t.id, 0)) for t in w.doc.system.terrain]


def test_legend_lists_the_system_terrain_with_the_renderers_colours_and_the_maps_counts(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    assert w.doc is not None
    rows = w.legend.rows()
    assert rows == _expected(w)
    assert sum(n for _, _, n in rows) == len(w.doc.hmap.hexes())
    for i, t in enumerate(w.doc.system.terrain):
        item = w.legend.tree.topLevelItem(i)
        img = item.icon(0).pixmap(14, 14).toImage()
        assert img.pixelColor(7, 7) == QColor(t.color), t.id  # the swatch is the system's colour
    assert w.legend_dock.isVisible()


def test_legend_follows_edits_undo_another_bundle_and_close(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    doc = w.doc
    assert doc is not None
    before = dict((tid, n) for tid, _, n in w.legend.rows())
    clear = [h for h in doc.hmap.hexes() if doc.hmap.terrain_at(h) == "clear"][:3]
    doc.push(PaintTerrain(doc, {h: "woods" for h in clear}))
    after = dict((tid, n) for tid, _, n in w.legend.rows())
    assert after["woods"] == before["woods"] + 3 and after["clear"] == before["clear"] - 3
    assert w.legend.rows() == _expected(w)
    doc.undo_stack.undo()
    assert dict((tid, n) for tid, _, n in w.legend.rows()) == before
    doc.undo_stack.redo()
    assert dict((tid, n) for tid, _, n in w.legend.rows())["woods"] == before["woods"] + 3
    # Another bundle: its own system's terrain, nothing of Utah's.
    assert w.open_path(TKG)
    assert w.legend.rows() == _expected(w)
    assert {tid for tid, _, _ in w.legend.rows()} == {t.id for t in w.doc.system.terrain}  # type: ignore[union-attr]
    assert w.close_document()
    assert w.legend.rows() == [] and w.legend.empty.isVisible()


def _click_row(qtbot: Any, w: MainWindow, terrain: str) -> None:
    item = w.legend.item_for(terrain)
    assert item is not None
    tree = w.legend.tree
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())


def test_clicking_a_swatch_makes_it_the_paint_terrain_with_the_brush_in_hand(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    mode = w.map_mode
    assert w.view is not None and mode.palette is not None
    assert w.view.tool is None  # the hand
    _click_row(qtbot, w, "woods")
    brush = mode.tools["terrain"]
    assert brush.terrain == "woods"  # type: ignore[attr-defined]
    assert w.view.tool is brush and w.actions_by_id["tool.terrain"].isChecked()
    assert mode.palette.terrain.currentData() == "woods"
    # …and back: the palette's choice (or the picker's) is the legend's current row.
    i = mode.palette.terrain.findData("marsh")
    mode.palette.terrain.setCurrentIndex(i)
    current = w.legend.tree.currentItem()
    assert current is not None and current.data(0, ID_ROLE) == "marsh"
    assert brush.terrain == "marsh"  # type: ignore[attr-defined]
    mode._picked("beach")  # the Picker tool's callback
    current = w.legend.tree.currentItem()
    assert current is not None and current.data(0, ID_ROLE) == "beach"


def test_legend_is_a_map_mode_panel(qtbot: Any) -> None:
    w = show_window(qtbot, UTAH)
    assert w.legend_dock in w.map_mode.docks
    w.panels_menu.aboutToShow.emit()
    entry = next(a for a in w.panels_menu.actions() if a.text() == "Terrain Legend")
    assert entry.isEnabled()
    assert w.set_mode("scenario")
    assert not w.legend_dock.isVisible()
    w.panels_menu.aboutToShow.emit()
    entry = next(a for a in w.panels_menu.actions() if a.text() == "Terrain Legend")
    assert not entry.isEnabled()
    w.legend.terrainChosen.emit("woods")  # not in Map mode: no tool change under Scenario mode
    assert w.view is not None and w.view.tool is not w.map_mode.tools["terrain"]
    assert w.set_mode("map") and w.legend_dock.isVisible()
