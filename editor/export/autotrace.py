"""Auto-trace: terrain suggestions read from the calibrated background's centre dots
[Utah Excl 2.1], shown as a layer the designer accepts hex by hex or all at once.

The reading is :func:`model.formats.mapart.proof_map_art`; a hex is suggested only when its dot
names exactly one terrain type that differs from the data (an unknown colour or a shared
dot suggests nothing — the designer decides). Accepting pushes one ``PaintTerrain`` command
on the document's undo stack, so it undoes like any brush stroke.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor.commands import PaintTerrain
from editor.document import MapDocument
from editor.export.image_io import load_rgb
from editor.qt_geometry import hex_polygon, layout_for
from model.hexes import Hex
from model.formats.mapart import ArtReport, proof_map_art


def read_background(doc: MapDocument) -> ArtReport:
    """Proof the current map against its background image (ValueError/OSError when there
    is no calibrated background or the image cannot be read)."""
    bg = doc.hmap.background
    if bg is None:
        raise ValueError("the map has no background image")
    return proof_map_art(load_rgb(bg.image, doc.bundle.root), doc.hmap, doc.system)


def suggestions(report: ArtReport) -> dict[Hex, str]:
    return {s.hex: s.suggestion for s in report.samples if s.suggestion is not None}


class AutoTraceLayer(QGraphicsItem):
    """Suggested hexes outlined and tinted with the suggested terrain's colour."""

    def __init__(self, doc: MapDocument) -> None:
        super().__init__()
        self.doc = doc
        self.layout = layout_for(doc.hmap)
        self.pending: dict[Hex, str] = {}
        self.setZValue(20)

    def boundingRect(self) -> QRectF:
        scene = self.scene()
        return scene.sceneRect() if scene is not None else QRectF()

    def set_suggestions(self, pending: dict[Hex, str]) -> None:
        self.prepareGeometryChange()
        self.pending = dict(pending)
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colours = {t.id: t.color for t in self.doc.system.terrain}
        painter.setPen(QPen(QColor("#ff00ff"), self.layout.size * 0.12, Qt.PenStyle.DashLine))
        for h, tid in self.pending.items():
            fill = QColor(colours.get(tid, "#ff00ff"))
            fill.setAlpha(150)
            painter.setBrush(fill)
            poly: QPolygonF = hex_polygon(self.layout, h)
            if option.exposedRect.intersects(poly.boundingRect()):
                painter.drawPolygon(poly)


class AutoTrace:
    """Suggestions for one document, with accept-one / accept-all through the undo stack."""

    def __init__(self, doc: MapDocument) -> None:
        self.doc = doc
        self.layer = AutoTraceLayer(doc)
        self.report: ArtReport | None = None

    def refresh(self) -> dict[Hex, str]:
        self.report = read_background(self.doc)
        # Suggest only where the data still differ (accepted hexes drop out on refresh).
        self.layer.set_suggestions(suggestions(self.report))
        return dict(self.layer.pending)

    @property
    def pending(self) -> dict[Hex, str]:
        return dict(self.layer.pending)

    def accept(self, hexes: Iterable[Hex] | None = None) -> int:
        """Paint the suggested terrain into ``hexes`` (default: all); one undo step."""
        chosen = self.layer.pending if hexes is None else {h: self.layer.pending[h] for h in hexes
                                                             if h in self.layer.pending}
        if not chosen:
            return 0
        cmd = PaintTerrain(self.doc, dict(chosen))
        cmd.setText(f"Accept Auto-Trace ({len(chosen)} hex{'es' if len(chosen) != 1 else ''})")
        self.doc.push(cmd)
        self.layer.set_suggestions({h: t for h, t in self.layer.pending.items() if h not in chosen})
        return len(chosen)

    def reject(self, hexes: Iterable[Hex]) -> None:
        """Drop suggestions without touching the map (the data were right)."""
        drop = set(hexes)
        self.layer.set_suggestions({h: t for h, t in self.layer.pending.items() if h not in drop})
