"""The Terrain Legend dock (Map mode): the system's terrain types with the colour swatch the map
is painted in, and how many hexes of the open map have each.

Everything shown is data: the names and colours are the system file's terrain types (the same
``color`` the terrain raster draws, editor/map_view/raster.py), the counts are the map's rows. A
terrain id the map uses but the system lacks is listed too, with the magenta the map draws it in.
The legend observes its document (napari style): it recounts on every terrain change, undo and
redo included, and on a switch of map; it empties when the bundle closes and lists the new
system's terrain when another bundle opens. Clicking a row asks for that terrain as the paint
terrain (``terrainChosen``; Map mode takes the brush with it), and the row of the brush's
current terrain is the current row (:meth:`TerrainLegend.set_current`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from model.changes import Change, DocumentReplaced, TerrainChanged
from model.terrain_index import VOID

if TYPE_CHECKING:
    from editor.document import MapDocument
    from model.mapdata import HexMap

ID_ROLE = Qt.ItemDataRole.UserRole
UNKNOWN_COLOR = "#ff00ff"  # what the raster paints a terrain id the system does not define
SWATCH = 14


def swatch(color: str) -> QIcon:
    """A small square of ``color`` with a thin dark border (light colours stay visible)."""
    pix = QPixmap(SWATCH, SWATCH)
    pix.fill(QColor(color))
    p = QPainter(pix)
    p.setPen(QColor(0, 0, 0, 140))
    p.drawRect(0, 0, SWATCH - 1, SWATCH - 1)
    p.end()
    return QIcon(pix)


def terrain_counts(hmap: "HexMap") -> Counter[str]:
    """Hexes per terrain id on ``hmap`` (the rows' characters through the map's legend)."""
    chars = Counter("".join(hmap.terrain_index.lines))
    chars.pop(VOID, None)
    legend = hmap.terrain.legend
    counts: Counter[str] = Counter()
    for ch, n in chars.items():
        counts[legend.get(ch, f"?{ch}")] += n
    return counts


class _LegendTree(QTreeWidget):
    def sizeHint(self) -> QSize:
        # Room for a system's terrain list (about 12 rows) when the dock is first laid out; the
        # dock still shrinks to the tree's small minimum (it scrolls) on a small screen.
        hint = super().sizeHint()
        return QSize(hint.width(), max(hint.height(), 12 * self.fontMetrics().height() + 30))


class TerrainLegend(QWidget):
    terrainChosen = Signal(str)  # a terrain id the user clicked

    def __init__(self) -> None:
        super().__init__()
        self.doc: MapDocument | None = None
        self.current: str | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.tree = _LegendTree()
        self.tree.setObjectName("terrain-legend")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Terrain", "Hexes"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemClicked.connect(self._clicked)
        self.empty = QLabel("No bundle open.")
        lay.addWidget(self.tree)
        lay.addWidget(self.empty)
        self.tree.hide()

    # --- following the document ----------------------------------------------------------------

    def attach(self, doc: "MapDocument") -> None:
        """List ``doc``'s system terrain and its current map's counts, and follow its changes."""
        self._disconnect()
        self.doc = doc
        doc.changed.connect(self._on_change)
        self.empty.hide()
        self.tree.show()
        self.refresh()

    def detach(self) -> None:
        """No document: nothing listed (the old bundle's terrain must not stay on show)."""
        self._disconnect()
        self.doc, self.current = None, None
        self.tree.clear()
        self.tree.hide()
        self.empty.show()

    def _disconnect(self) -> None:
        if self.doc is not None:
            try:
                self.doc.changed.disconnect(self._on_change)
            except (RuntimeError, TypeError):
                pass

    def _on_change(self, change: Change) -> None:
        if isinstance(change, (TerrainChanged, DocumentReplaced)):
            self.refresh()

    def refresh(self) -> None:
        """Rebuild the rows: every terrain type of the system in its order, then unknown ids."""
        self.tree.clear()
        doc = self.doc
        if doc is None:
            return
        counts = terrain_counts(doc.hmap)
        rows = [(t.id, t.name, t.color) for t in doc.system.terrain]
        known = {tid for tid, _, _ in rows}
        rows += [(tid, f"{tid} (not in the system)", UNKNOWN_COLOR) for tid in sorted(counts) if tid not in known]
        for tid, name, color in rows:
            item = QTreeWidgetItem([name, str(counts.get(tid, 0))])
            item.setIcon(0, swatch(color))
            item.setData(0, ID_ROLE, tid)
            item.setToolTip(0, f"{name} ({tid}), {color}: click to paint with it")
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if tid not in known:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.tree.addTopLevelItem(item)
        self.set_current(self.current)

    # --- the paint terrain ---------------------------------------------------------------------

    def rows(self) -> list[tuple[str, str, int]]:
        """(terrain id, name, hex count) per row, as shown."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            it = self.tree.topLevelItem(i)
            out.append((str(it.data(0, ID_ROLE)), it.text(0), int(it.text(1))))
        return out

    def item_for(self, terrain: str) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            it = self.tree.topLevelItem(i)
            if it.data(0, ID_ROLE) == terrain:
                return it
        return None

    def set_current(self, terrain: str | None) -> None:
        """Show ``terrain`` as the paint terrain (no signal: the tool already has it)."""
        self.current = terrain
        item = self.item_for(terrain) if terrain is not None else None
        self.tree.blockSignals(True)
        try:
            if item is None:
                self.tree.clearSelection()
                self.tree.setCurrentItem(None)  # type: ignore[arg-type]
            else:
                self.tree.setCurrentItem(item)
                self.tree.scrollToItem(item)
        finally:
            self.tree.blockSignals(False)

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        tid = item.data(0, ID_ROLE)
        if self.doc is not None and tid in self.doc.system.terrain_by_id:
            self.terrainChosen.emit(str(tid))
