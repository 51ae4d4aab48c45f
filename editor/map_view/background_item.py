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

    def refresh(self) -> None:
        bg = self.doc.hmap.background
        if bg is None:
            self.residuals = []
            self.setPixmap(QPixmap())
            self._image_path = None
            self.setVisible(False)
            return
        path = Path(bg.image)
        if not path.is_absolute():
            path = self.doc.bundle.root / path
        if path != self._image_path:
            self.setPixmap(_load_pixmap(path))
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


def _load_pixmap(path: Path) -> QPixmap:
    """The image, or an empty pixmap when its header says it is over MAX_IMAGE_PIXELS
    (checked before decoding: a 100,000 × 100,000 PNG is 40 GB once decoded)."""
    from editor.image_limits import check_image_size

    try:
        check_image_size(path)
    except OSError:
        return QPixmap()
    return QPixmap(str(path))
