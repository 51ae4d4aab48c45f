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
    # Where the counter is printed (model/counter_sheets.py): sheet id, 1-based row and column
    # of the front. The back is at the mirrored slot of the same sheet, unless ``back_row`` /
    # ``back_col`` say where it is (checked by PROOF-SHEET-002). Loading takes a partial
    # position (PROOF-SHEET-001 reports it), so an editor can set the fields one at a time.
    sheet: str | None = Field(None, description="counter sheet id the counter is printed on")
    row: int | None = Field(None, ge=1, description="1-based row of the front on its sheet")
    col: int | None = Field(None, ge=1, description="1-based column of the front on its sheet")
    back_row: int | None = Field(None, ge=1, description="explicit row of the back (default: the front's row)")
    back_col: int | None = Field(None, ge=1, description="explicit column of the back (default: mirrored)")

    @property
    def normalized_name(self) -> str:
        return normalize_name(self.name)


class CounterSheet(Node):
    """One printed counter sheet (``counter_sheets:`` in game.yaml): its grid of slots.

    ``cols`` is what the back's mirrored position is computed from (policy
    *sheet-width-declared*); a sheet that counters name but game.yaml does not declare takes
    the largest column its counters use (policy *sheet-width-from-max-col*)."""

    id: str
    name: str | None = None
    rows: int | None = Field(None, ge=1, description="rows of counter slots (unknown when absent)")
    cols: int = Field(..., ge=1, description="columns of counter slots; the back mirrors across them")
    note: str | None = None


def normalize_name(name: str) -> str:
    """Compare unit names the way a proof-reader would: case, accents, punctuation and
    spacing do not make two listings different units ("6. gem Flak 153" = "6 Gem. Flak 153")."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^0-9a-z]+", " ", text.lower())
    return " ".join(text.split())
