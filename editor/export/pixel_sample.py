"""Pixel colours of an image at given points, through Qt's image reader (model/ has no image
decoder): what import-vassal reads terrain from (policy vassal-terrain-swatch)."""

from __future__ import annotations

from PySide6.QtGui import QImage


def sample_colours(data: bytes, points: list[tuple[int, int]]) -> list[str | None]:
    """``#rrggbb`` at each (x, y); None outside the image or when it cannot be decoded."""
    img = QImage.fromData(data)
    if img.isNull():
        return [None] * len(points)
    w, h = img.width(), img.height()
    out: list[str | None] = []
    for x, y in points:
        out.append(f"#{img.pixel(x, y) & 0xFFFFFF:06x}" if 0 <= x < w and 0 <= y < h else None)
    return out
