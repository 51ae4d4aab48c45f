"""Patterns that a system file gives (``params.hex_label_pattern`` …), compiled under the
ReDoS guard of :mod:`model.safe_regex` and located at their key in the system file."""

from __future__ import annotations

from typing import Any

from model.safe_regex import GuardedPattern, PatternError, compile_data_pattern
from validators.context import RuleContext

__all__ = ["PatternError", "system_pattern"]


def system_pattern(ctx: RuleContext, keys: tuple[str, ...], default: str) -> GuardedPattern:
    """The pattern at ``params.<keys>`` of the system file (``default`` when absent).

    Raises :class:`PatternError` whose ``where`` is ``file:line:col (params.key)``; callers
    turn it into a finding at ``ctx.system`` / ``("params", *keys)``."""
    cur: Any = ctx.system.params
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            return compile_data_pattern(default, "built-in default")
        cur = cur[k]
    loc = ctx.bundle.locate(ctx.system, "params", *keys)
    where = f"{loc.file}:{loc.line}:{loc.column}" if loc.line else str(loc.file or "system file")
    return compile_data_pattern(cur, f"{where} (params.{'.'.join(keys)})")
