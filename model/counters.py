"""Counter manifests: both printed sides of every counter, with the fields each system needs.

Printed values live in ``front.values`` / ``back.values`` keyed by the system's
``counter_fields`` ids (``attack``, ``defense``, ``movement`` for SFN; ``fr``, ``ar``, ``tq``,
``ma`` … for GTS), so a new system adds fields in data, not code. ``None`` means "not
printed"; the text ``"unknown"`` means the rules we have do not give the value.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import Field, field_validator

from model.base import Node

Value = int | float | str | None


def _coerce(value: Any) -> Any:
    """Numeric text from YAML becomes a number; everything else stays as written."""
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        if re.fullmatch(r"-?\d+\.\d+", text):
            return float(text)
    return value


class CounterSide(Node):
    designation: str | None = None
    values: dict[str, Value] = Field(default_factory=dict)
    state: str | None = Field(None, description="what this side represents: full, reduced, cadre, column, …")

    @field_validator("values", mode="before")
    @classmethod
    def _numbers(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: _coerce(v) for k, v in value.items()}
        return value


class Counter(Node):
    id: str
    name: str
    side: str
    category: str
    nationality: str | None = None
    army: str | None = None
    division: str | None = None
    formation: str | None = None
    battalion: str | None = None
    size: str | None = None
    movement_class: str | None = None
    steps: int | None = None
    front: CounterSide = CounterSide()
    back: CounterSide | None = None
    flags: list[str] = Field(default_factory=list)
    parent: str | None = Field(None, description="parent unit of a breakdown")
    leader_of: str | None = Field(None, description="formation a leader commands")
    count: int = Field(1, ge=1, description="identical copies in the counter mix")
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None

    @property
    def normalized_name(self) -> str:
        return normalize_name(self.name)


def normalize_name(name: str) -> str:
    """Compare unit names the way a proof-reader would: case, accents, punctuation and
    spacing do not make two listings different units ("6. gem Flak 153" = "6 Gem. Flak 153")."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^0-9a-z]+", " ", text.lower())
    return " ".join(text.split())
