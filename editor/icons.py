"""Action icons: a Qt standard pixmap where one fits (``std:SP_DialogOpenButton``), else one of
the small SVGs drawn for Hexproof in ``editor/icons/`` (shipped as package data: pyproject's
``[tool.setuptools.package-data]``), and tooltips that name the shortcut ("Paint terrain (B)")."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QApplication, QStyle

ICON_DIR = Path(__file__).resolve().with_name("icons")


@lru_cache(maxsize=None)
def _svg(name: str) -> QIcon:
    return QIcon(str(ICON_DIR / f"{name}.svg"))


def icon(name: str) -> QIcon:
    """The icon ``name``: ``std:SP_…`` (the style's standard pixmap) or an SVG stem of editor/icons.
    An unknown name raises: a missing icon is a bug to see, not a blank button."""
    if name.startswith("std:"):
        pixmap = getattr(QStyle.StandardPixmap, name[4:])
        style = QApplication.style()
        return style.standardIcon(pixmap)
    if not (ICON_DIR / f"{name}.svg").is_file():
        raise FileNotFoundError(f"no icon {name!r} in {ICON_DIR}")
    return _svg(name)


def shortcut_text(shortcut: QKeySequence) -> str:
    """The shortcut as the platform writes it in menus ("Ctrl+O", "B")."""
    return shortcut.toString(QKeySequence.SequenceFormat.NativeText)


def tooltip(text: str, shortcut: QKeySequence | None) -> str:
    """``text`` with the shortcut after it in brackets, as toolbars show it: "Zoom in (Ctrl+=)"."""
    keys = shortcut_text(shortcut) if shortcut is not None and not shortcut.isEmpty() else ""
    return f"{text} ({keys})" if keys else text


def decorate(action: QAction, icon_name: str, tip: str | None = None) -> None:
    """Give ``action`` its icon and a tooltip naming its current shortcut (``tip`` defaults to
    the action's text without its mnemonic and ellipsis)."""
    action.setIcon(icon(icon_name))
    base = tip or action.text().replace("&", "").rstrip("…").strip()
    action.setToolTip(tooltip(base, action.shortcut()))
