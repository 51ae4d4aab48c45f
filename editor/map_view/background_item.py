"""The scanned-map background: an image under the grid, placed by its calibration."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtGui import QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsPixmapItem

from model.calibration import Residual, residuals, solve_affine
from editor.document import MapDocument
from editor.qt_geometry import layout_for


class BackgroundItem(QGraphicsPixmapItem):
    def __init__(self, doc: MapDocument) -> None:
        super().__init__()
        self.doc = doc
        self._image_path: Path | None = None
        self.residuals: list[Residual] = []  # of the current calibration fit

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
            self.setPixmap(QPixmap(str(path)))
            self._image_path = path
        self.setOpacity(bg.opacity)
        self.setVisible(bg.visible)
        lay = layout_for(self.doc.hmap)
        pts = [(p.x, p.y, *lay.center(p.label)) for p in bg.calibration]
        if len(pts) >= 2:
            src = np.array([(a, b) for a, b, _, _ in pts])
            dst = np.array([(c, d) for _, _, c, d in pts])
            m = solve_affine(src, dst)
            self.setTransform(QTransform(m[0, 0], m[1, 0], m[0, 1], m[1, 1], m[0, 2], m[1, 2]))
            labels = [self.doc.hmap.label(p.label) for p in bg.calibration]
            self.residuals = residuals(src, dst, labels, lay.size, m)
        else:
            self.setTransform(QTransform())
            self.residuals = []
