"""Diagnostics as data: what the loader, the validators and the smoke playtest report.

A :class:`Diagnostic` names a stable code, a severity, a plain message, the rule case it
enforces (``"GTS 15.4.1"``) and a :class:`Location`: a file with line and column where the
loader knows them, a model path in ``$.setup[3].hex`` form, and typed references to the
hexes (printed labels), hexsides, units and turns involved. The ordering key makes output
deterministic whatever order rules ran in.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.IntEnum):
    """Ordered so that ``severity >= Severity.WARNING`` reads naturally."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, text: str) -> "Severity":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r}; use error, warning or info") from None

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Location:
    """Where a finding is: file position, model path and typed references.

    ``hexes`` hold printed labels (``"28.049"``), because a location is shown to people.
    ``hexsides`` hold ``"28.049/S"``-style labels, ``units`` counter ids, ``turns`` turn numbers.
    """

    file: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    path: str | None = None  # "$.setup[3].hex"
    hexes: tuple[str, ...] = ()
    hexsides: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    turns: tuple[int, ...] = ()
    scenario: str | None = None

    def render(self) -> str:
        """``file:line:col`` when known, else the file, else the model path."""
        parts: list[str] = []
        if self.file:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            parts.append(where)
        if self.path and (not self.file or self.line is None):
            parts.append(self.path)
        return " ".join(parts) if parts else "<unknown>"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("file", "line", "column", "path", "scenario"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        for key in ("hexes", "hexsides", "units", "turns"):
            value = getattr(self, key)
            if value:
                out[key] = list(value)
        return out


@dataclass(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    location: Location = field(default_factory=Location)
    rule_case: str | None = None
    related: tuple[Location, ...] = ()
    policy: str | None = None  # named policy applied where the rules are silent

    def sort_key(self) -> tuple[Any, ...]:
        loc = self.location
        return (
            loc.file or "",
            loc.scenario or "",
            loc.line if loc.line is not None else 1 << 30,
            loc.column or 0,
            loc.path or "",
            self.code,
            self.message,
        )

    def render(self) -> str:
        """One human line: ``file:line:col: error CODE: message [rule case]``."""
        case = f" [{self.rule_case}]" if self.rule_case else ""
        return f"{self.location.render()}: {self.severity} {self.code}: {self.message}{case}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "location": self.location.to_dict(),
        }
        if self.rule_case:
            out["rule_case"] = self.rule_case
        if self.policy:
            out["policy"] = self.policy
        if self.related:
            out["related"] = [r.to_dict() for r in self.related]
        return out


def sort_diagnostics(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Deterministic order, duplicates removed."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Diagnostic] = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.sort_key(), d.severity, d.rule_case)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def worst(diagnostics: list[Diagnostic]) -> Severity | None:
    return max((d.severity for d in diagnostics), default=None)
