"""PNG and SVG export of a map view, through the same layer painter as the proof PDF.

SVG uses QtSvg's QSvgGenerator (shipped in PySide6-Essentials): labels, hexsides, paths and
features stay vectors; terrain is one embedded raster image (the editor draws it as tiles).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator

from editor.export.map_render import render_image, render_region
from editor.map_view.scene import MapScene


def export_png(scene: MapScene, out: str | Path, scale: float = 1.0, source: QRectF | None = None) -> Path:
    """The map (or ``source``) as PNG at ``scale`` pixels per scene unit (1 = editor 100 %)."""
    out = Path(out)
    img = render_image(scene, source, scale)
    if not img.save(str(out), "PNG"):
        raise OSError(f"cannot write {out}")
    return out


def export_svg(scene: MapScene, out: str | Path, scale: float = 1.0, source: QRectF | None = None) -> Path:
    out = Path(out)
    src = source if source is not None else scene.sceneRect()
    size = QSize(max(1, int(src.width() * scale)), max(1, int(src.height() * scale)))
    gen = QSvgGenerator()
    gen.setFileName(str(out))
    gen.setSize(size)
    gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
    gen.setTitle(scene.doc.hmap.name)
    gen.setDescription("Exported by Hexproof")
    p = QPainter()
    if not p.begin(gen):
        raise OSError(f"cannot write {out}")
    p.fillRect(QRectF(0, 0, size.width(), size.height()), scene.backgroundBrush())
    render_region(scene, p, QRectF(0, 0, size.width(), size.height()), src)
    p.end()
    return out
