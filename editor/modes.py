"""Editor modes as peers: the :class:`Mode` protocol and the :class:`ModeSet` a window owns.

A mode (Map, Scenario, Play) is one way of working on the open document in the same window and
map view. The window owns one ``ModeSet``: it tells every mode about each new document and keeps
exactly one mode active. So no mode wraps a window method and no mode looks another one up: a
mode that wants the window in another mode asks the window (``MainWindow.set_mode``).

The set is plain Python (no Qt), so its laws are tested with stand-in modes
(tests/editor/test_modes.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from editor.document import MapDocument
    from model.diagnostics import Diagnostic


@runtime_checkable
class Mode(Protocol):
    """One mode of the main window. Only the window calls these (through its ``ModeSet``)."""

    # Read-only here, so a mode may hold them as plain attributes of narrower types.
    @property
    def name(self) -> str:
        """"map", "scenario", "play": the handle for ``MainWindow.set_mode`` and ``--mode``."""
        ...

    @property
    def action(self) -> "QAction | None":
        """Its checkable View-menu toggle (the window places and wires it); None for the default mode."""
        ...

    @property
    def active(self) -> bool:
        """True between a successful enter() and the next leave()."""
        ...

    def document_set(self, document: "MapDocument") -> None:
        """A new document is open (its scene and view exist): drop what belonged to the old one.
        Every mode is told, active or not, in no promised order."""
        ...

    def document_closed(self) -> None:
        """File ▸ Close: no document any more (the window is back in the default mode first).
        Drop, and stop showing, everything of the old one."""
        ...

    def enter(self) -> bool:
        """Become the active mode: show its docks, take the map tool. Return False, having
        changed nothing, when it cannot now (no document, a game that cannot start)."""
        ...

    def leave(self) -> None:
        """Stop being the active mode: hide what enter() showed, give back what it took."""
        ...

    def show_diagnostic(self, diagnostic: "Diagnostic") -> bool:
        """Reveal a finding the user clicked in the window's diagnostics dock (centre,
        highlight, select); False when it is none of this mode's business."""
        ...


class ModeSet:
    """The modes of one window: all hear of every document, exactly one is active.

    The default mode (Map) is active from the start and is what the window falls back to; it
    must always be enterable."""

    def __init__(self, default: Mode) -> None:
        self.default = default
        self._modes: list[Mode] = [default]
        self._active: Mode = default
        default.enter()

    def add(self, mode: Mode) -> None:
        if any(m.name == mode.name for m in self._modes):
            raise ValueError(f"two modes named {mode.name!r}")
        self._modes.append(mode)

    def __iter__(self) -> Iterator[Mode]:
        return iter(list(self._modes))

    def __len__(self) -> int:
        return len(self._modes)

    def named(self, name: str) -> Mode:
        for m in self._modes:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def active(self) -> Mode:
        return self._active

    def document_set(self, document: "MapDocument") -> None:
        for m in list(self._modes):
            m.document_set(document)

    def document_closed(self) -> None:
        for m in list(self._modes):
            m.document_closed()

    def switch(self, mode: Mode) -> bool:
        """Leave the active mode, then enter ``mode``; True when ``mode`` is now active.

        When ``mode`` refuses, the mode that was active comes back (or the default one), so
        there is never a moment after this call with no mode, or two, active."""
        if not any(m is mode for m in self._modes):
            raise ValueError(f"mode {mode.name!r} is not one of this window's")
        old = self._active
        if mode is old:
            return True
        old.leave()
        if mode.enter():
            self._active = mode
            return True
        for fallback in (old, self.default):
            if fallback.enter():
                self._active = fallback
                break
        else:
            self._active = self.default  # pragma: no cover - the default mode always enters
        return False

    def diagnostic_handlers(self) -> list[Mode]:
        """Who is asked to reveal a clicked finding: the active mode first, then the others."""
        return [self._active] + [m for m in self._modes if m is not self._active]
