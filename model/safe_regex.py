"""Regular expressions that come from data files, compiled and run under a guard.

A system file may give a pattern (``hex_label_pattern``, ``hex_pattern`` …). Python's
``re`` backtracks without limit, so ``^(\\d+)+$`` against 31 digits and a letter runs for
hours: a ReDoS that hangs ``validate``. Patterns from data therefore go through
:func:`compile_data_pattern`, which uses the ``regex`` package (same syntax as ``re``) with
a per-match timeout (:data:`~model.limits.REGEX_TIMEOUT`) and a length cap
(:data:`~model.limits.MAX_REGEX_LENGTH`). A pattern that does not compile, is too long, or
times out once raises :class:`PatternError` naming where it was written; after a timeout
the pattern refuses every further match at once, so N values cost one timeout, not N.

Patterns written in Hexproof's own code keep using ``re``.
"""

from __future__ import annotations

from typing import Any

from model.limits import MAX_REGEX_LENGTH, REGEX_TIMEOUT


class PatternError(ValueError):
    """A data pattern that cannot be used; ``where`` says which file and key gave it."""

    def __init__(self, message: str, where: str, pattern: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.pattern = pattern
        self.reason = message


class GuardedPattern:
    """A compiled data pattern whose ``match``/``fullmatch``/``search`` time out."""

    def __init__(self, pattern: str, where: str, timeout: float = REGEX_TIMEOUT):
        self.pattern = pattern
        self.where = where
        self.timeout = timeout
        self.failed: PatternError | None = None
        import regex  # here: a process that compiles no data pattern does not pay its import

        try:
            self._re = regex.compile(pattern, flags=regex.VERSION0)
        except (regex.error, TypeError, ValueError, OverflowError, RecursionError) as exc:
            raise PatternError(f"pattern {_short(pattern)} is not a valid regular expression: {exc}",
                               where, pattern) from None

    def _run(self, method: str, text: str) -> Any:
        if self.failed is not None:
            raise self.failed
        try:
            return getattr(self._re, method)(text, timeout=self.timeout)
        except TimeoutError:
            self.failed = PatternError(
                f"pattern {_short(self.pattern)} took more than {self.timeout:g} s on {_short(text)} "
                "(catastrophic backtracking, e.g. a nested repeat like (\\d+)+); refusing it",
                self.where, self.pattern)
            raise self.failed from None

    def match(self, text: str) -> Any:
        return self._run("match", text)

    def fullmatch(self, text: str) -> Any:
        return self._run("fullmatch", text)

    def search(self, text: str) -> Any:
        return self._run("search", text)


def compile_data_pattern(pattern: Any, where: str, timeout: float = REGEX_TIMEOUT) -> GuardedPattern:
    """Compile a pattern read from a data file; ``where`` is ``file:line:col (key)`` or the
    key's name, used in every error."""
    text = str(pattern)
    if len(text) > MAX_REGEX_LENGTH:
        raise PatternError(f"pattern is {len(text):,} characters; the limit is {MAX_REGEX_LENGTH:,}", where, text)
    return GuardedPattern(text, where, timeout)


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")
