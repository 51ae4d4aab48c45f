"""Image size limit (model/limits.py MAX_IMAGE_PIXELS), read from the file's header with
``QImageReader`` before anything is decoded: a tiny PNG can declare 100,000 × 100,000
pixels, which is 40 GB once decoded."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImageReader

from model.limits import MAX_IMAGE_PIXELS


def check_image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) from the header; ``OSError`` naming the file when it cannot be read
    or holds more than MAX_IMAGE_PIXELS pixels."""
    # Qt's own decode limit (256 MB by default) would refuse images well inside ours, and
    # silently: raise it to what MAX_IMAGE_PIXELS needs at 4 bytes a pixel.
    need_mb = MAX_IMAGE_PIXELS * 4 // (1024 * 1024) + 64
    if QImageReader.allocationLimit() < need_mb:
        QImageReader.setAllocationLimit(need_mb)
    reader = QImageReader(str(path))
    size = reader.size()  # from the header only
    if not size.isValid():
        raise OSError(f"cannot read image {path}: {reader.errorString()}")
    w, h = size.width(), size.height()
    if w * h > MAX_IMAGE_PIXELS:
        raise OSError(f"image {path} is {w:,} × {h:,} = {w * h:,} pixels; the limit is {MAX_IMAGE_PIXELS:,}")
    return w, h
