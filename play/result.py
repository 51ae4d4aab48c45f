"""The answer to every engine action: done or refused, with its message, rule case and policy.

Its own small module so procedure modules can build results at import time without importing
``play.game`` (which imports them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ActionResult:
    ok: bool
    message: str
    rule: str | None = None
    policy: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        case = f" [{self.rule}]" if self.rule else ""
        return f"{'ok' if self.ok else 'refused'}: {self.message}{case}"


def result(ok: bool, msg: str, rule: str | None = None, policy: str | None = None, **data: Any) -> ActionResult:
    """An :class:`ActionResult` with ``data`` given as keywords."""
    return ActionResult(ok, msg, rule, policy, data=data)
