"""Workaround: PySide6 6.12 on Python 3.11 drops a reference to ``None`` on every call of a
void C++ method (``QPainter.setPen``, ``drawLine``, ``setBrush`` …; measured: 1000 calls →
``sys.getrefcount(None)`` falls by 1000). A long paint session then deallocates ``None`` and
aborts the interpreter ("none_dealloc"). Python 3.12+ makes ``None`` immortal, so the bug is
harmless there; on older Pythons we give ``None`` a huge reference count once, which is what
3.12 does. Remove this module when PySide6 is fixed or Python 3.11 support is dropped.

The same happens to ``True`` on every emission of a ``bool`` signal (``cleanChanged``,
``modifiedChanged``, ``toggled`` …; measured: 100 emits of either value → ``True`` falls by
100; in the editor each edit + undo costs 4). Found by the stateful undo test: a session of
about 1 600 edit/undo pairs aborted the editor ("bool_dealloc"), so ``True`` and ``False``
get the same boost.
"""

from __future__ import annotations

import ctypes
import sys

_BOOST = 1 << 40


def make_none_immortal() -> bool:
    """Raise the refcounts of None, True and False by 2**40 (once per process); True if applied."""
    if sys.version_info >= (3, 12) or getattr(sys, "_hexproof_none_boosted", False):
        return False
    for singleton in (None, True, False):
        refcnt = ctypes.c_ssize_t.from_address(id(singleton))
        refcnt.value += _BOOST
    sys._hexproof_none_boosted = True  # type: ignore[attr-defined]
    return True


make_none_immortal()
