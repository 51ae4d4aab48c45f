"""QImage ↔ numpy for map-art proofing, and a calibrated render of a map (for tests and for
designers who want to proof Hexproof's own output against a scan)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

from editor.export.map_render import render_image
from editor.map_view.scene import MapScene
from model.hexes import Hex


def qimage_to_rgb(img: QImage) -> np.ndarray:
    """H×W×3 uint8 RGB copy of any QImage."""
    rgb = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    buf = np.frombuffer(rgb.constBits(), dtype=np.uint8, count=stride * h).reshape(h, stride)
    return buf[:, : w * 3].reshape(h, w, 3).copy()


def load_rgb(path: str | Path, root: str | Path | None = None) -> np.ndarray:
    """The image as RGB. With ``root``, ``path`` is named by data (a map's background image)
    and must resolve inside ``root`` after symlinks; either way the file is read through
    model/safefile (regular file, bounded, a FIFO refused at once), its header checked
    against MAX_IMAGE_PIXELS, then decoded from memory. ``OSError`` saying why."""
    from editor.image_limits import image_path, read_image

    return qimage_to_rgb(read_image(image_path(root, path), what="background image" if root else "image"))


def render_calibrated(scene: MapScene, scale: float = 1.0, terrain_only: bool = True,
                      source: QRectF | None = None) -> tuple[QImage, list[tuple[Hex, float, float]]]:
    """The map as an image plus calibration points (three corner hexes ↔ their pixels).

    ``terrain_only`` hides the detail layer, so each hex centre shows its terrain colour
    the way a printed centre dot would (roads and symbols would cover it otherwise).
    """
    src = source if source is not None else scene.sceneRect()
    details = scene.details
    was = details.isVisible() if details is not None else False
    if details is not None and terrain_only:
        details.setVisible(False)
    try:
        img = render_image(scene, src, scale)
    finally:
        if details is not None:
            details.setVisible(was)
    hexes = scene.doc.hmap.hexes()
    picks = [hexes[0], hexes[len(hexes) // 2], hexes[-1]] if len(hexes) >= 3 else hexes
    cal = []
    for h in picks:
        x, y = scene.layout.center(h)
        cal.append((h, (x - src.x()) * scale, (y - src.y()) * scale))
    return img, cal
