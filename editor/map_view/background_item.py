"""The scanned-map background: an image under the grid, placed by its calibration."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtGui import QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsPixmapItem

from model.calibration import CalibrationError, Residual, residuals, solve_affine
from editor.document import MapDocument
from editor.qt_geometry import layout_for


class BackgroundItem(QGraphicsPixmapItem):
    def __init__(self, doc: MapDocument) -> None:
        super().__init__()
        self.doc = doc
        self._image_path: Path | None = None
        self.residuals: list[Residual] = []  # of the current calibration fit
        self.calibration_error: str | None = None  # why the calibration cannot be applied
        self.image_error: str | None = None  # why the image cannot be shown (outside the bundle, a FIFO…)

    def refresh(self) -> None:
        bg = self.doc.hmap.background
        if bg is None:
            self.residuals = []
            self.setPixmap(QPixmap())
            self._image_path = None
            self.setVisible(False)
            return
        path = Path(self.doc.bundle.root) / bg.image
        if path != self._image_path:
            pixmap, self.image_error = _load_pixmap(self.doc.bundle.root, bg.image)
            self.setPixmap(pixmap)
            self._image_path = path
        self.setOpacity(bg.opacity)
        self.setVisible(bg.visible)
        lay = layout_for(self.doc.hmap)
        pts = [(p.x, p.y, *lay.center(p.label)) for p in bg.calibration]
        self.calibration_error = None
        if len(pts) >= 2:
            src = np.array([(a, b) for a, b, _, _ in pts])
            dst = np.array([(c, d) for _, _, c, d in pts])
            labels = [self.doc.hmap.label(p.label) for p in bg.calibration]
            try:
                m = solve_affine(src, dst, hex_size=lay.size, labels=labels)
            except CalibrationError as exc:
                # Two labels at one pixel, a non-finite or absurd scale: show the image
                # unplaced and say why, rather than a transform that cannot be drawn.
                self.calibration_error = str(exc)
                self.setTransform(QTransform())
                self.residuals = []
                return
            self.setTransform(QTransform(m[0, 0], m[1, 0], m[0, 1], m[1, 1], m[0, 2], m[1, 2]))
            self.residuals = residuals(src, dst, labels, lay.size, m)
        else:
            self.setTransform(QTransform())
            self.residuals = []


def _load_pixmap(root: Path, name: str) -> tuple[QPixmap, str | None]:
    """(the image, None), or (an empty pixmap, why): the name must resolve inside the bundle
    after symlinks, the file is read through model/safefile (regular file, bounded; a FIFO is
    refused at once, so Qt never blocks on it), its header checked against MAX_IMAGE_PIXELS
    (a 100,000 × 100,000 PNG is 40 GB once decoded), then decoded from memory."""
    from editor.image_limits import image_path, read_image

    try:
        return QPixmap.fromImage(read_image(image_path(root, name), what="background image")), None
    except OSError as exc:
        return QPixmap(), str(exc)
