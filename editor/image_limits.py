"""Image size limit (model/limits.py MAX_IMAGE_PIXELS), read from the file's header with
``QImageReader`` before anything is decoded: a tiny PNG can declare 100,000 × 100,000
pixels, which is 40 GB once decoded."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImageReader

from model.limits import MAX_IMAGE_PIXELS


def _allow_our_limit() -> None:
    # Qt's own decode limit (256 MB by default) would refuse images well inside ours, and
    # silently: raise it to what MAX_IMAGE_PIXELS needs at 4 bytes a pixel.
    need_mb = MAX_IMAGE_PIXELS * 4 // (1024 * 1024) + 64
    if QImageReader.allocationLimit() < need_mb:
        QImageReader.setAllocationLimit(need_mb)


def _header_size(reader: QImageReader, name: str) -> tuple[int, int]:
    """(width, height) from ``reader``'s header only; ``OSError`` when unreadable or too big."""
    size = reader.size()
    if not size.isValid():
        raise OSError(f"cannot read image {name}: {reader.errorString()}")
    w, h = size.width(), size.height()
    if w * h > MAX_IMAGE_PIXELS:
        raise OSError(f"image {name} is {w:,} × {h:,} = {w * h:,} pixels; the limit is {MAX_IMAGE_PIXELS:,}")
    return w, h


def check_image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) from the header; ``OSError`` naming the file when it cannot be read
    or holds more than MAX_IMAGE_PIXELS pixels."""
    _allow_our_limit()
    return _header_size(QImageReader(str(path)), str(path))


def check_image_data(data: bytes, name: str) -> tuple[int, int]:
    """:func:`check_image_size` for bytes already read (through model/safefile)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    _allow_our_limit()
    buf = QBuffer()
    buf.setData(QByteArray(data))
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    return _header_size(QImageReader(buf), name)


def image_path(root: str | Path | None, name: str | Path, what: str = "background image") -> Path:
    """Where a data-named image is: ``name`` resolved inside ``root`` after symlinks
    (model/safefile.resolve_inside; absolute and escaping names refused), or ``name`` itself
    when ``root`` is None (a path the user gave). ``OSError`` saying why when refused."""
    from model.safefile import SafeFileError, resolve_inside

    if root is None:
        return Path(name)
    try:
        return resolve_inside(root, name, what=what)
    except SafeFileError as exc:
        raise OSError(exc.message) from None


def read_image(path: str | Path, what: str = "image"):  # type: ignore[no-untyped-def]
    """The decoded QImage of ``path``: a bounded read of a regular file through model/safefile
    (a FIFO or a device is refused at once, never blocks), the header checked against
    MAX_IMAGE_PIXELS, then decoded from memory. ``OSError`` naming the file and the reason."""
    from PySide6.QtGui import QImage

    from model.limits import MAX_IMAGE_BYTES
    from model.safefile import SafeFileError, read_bytes

    try:
        data = read_bytes(path, MAX_IMAGE_BYTES, what=what)
    except SafeFileError as exc:
        raise OSError(f"{path}: {exc.message}") from None
    check_image_data(data, str(path))
    img = QImage.fromData(data)
    if img.isNull():
        raise OSError(f"cannot read image {path}: not a PNG, JPEG or other image Qt can decode")
    return img
