"""The play engine's exceptions, in a module of their own so ``play.dice``, ``play.arguments``
and the procedures can raise them without importing ``play.game`` (which imports them).

* :class:`GameError` — the action cannot be run as written (unknown unit, unreadable hex):
  not a rules refusal, which is an ``ActionResult`` with ``ok=False``.
* :class:`ArgumentError` — a ``GameError`` about one argument of one action, raised by
  :func:`play.arguments.check_action` before the action touches the game.
* :class:`InternalError` — any other exception inside an action: a bug in the engine, caught
  once at :meth:`play.game.Game.apply`, after the game was rolled back (``PLAY-INTERNAL-001``).
  It is a ``GameError`` so a caller that shows ``GameError`` messages (the editor) keeps
  working; callers that must tell bugs apart (the script runner, the fuzz test) catch it first.
"""

from __future__ import annotations

from typing import Any

INTERNAL_CODE = "PLAY-INTERNAL-001"


def show(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message must stay readable even when the
    offending value is a 10 000-digit number or a huge list."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cut(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters (an exception's message can be megabytes)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class GameError(Exception):
    """A malformed action (unknown unit, unreadable hex): not a rules refusal."""


class ArgumentError(GameError):
    """One argument of one action is missing, of the wrong type or out of range."""

    def __init__(self, action: str, argument: str, value: Any, expected: str, *, missing: bool = False,
                 problem: str | None = None) -> None:
        self.action, self.argument, self.value, self.expected = action, argument, value, expected
        what = "is missing" if missing else f"is {show(value)}" + (f" ({problem})" if problem else "")
        super().__init__(f"{action}: argument {argument!r} {what}; expected {expected}")


class InternalError(GameError):
    """An exception other than GameError inside an action: an engine bug (PLAY-INTERNAL-001)."""

    code = INTERNAL_CODE

    def __init__(self, action: str, exc: BaseException) -> None:
        self.action, self.exc = action, exc
        super().__init__(f"{INTERNAL_CODE} internal error in action {action!r}: {type(exc).__name__}: "
                         f"{cut(str(exc))}; the game was rolled back to before the action "
                         f"(this is a bug in the play engine, please report it)")
