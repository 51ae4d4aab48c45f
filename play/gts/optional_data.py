"""The GTS optional rules' data: ``play/gts/optional_rules.yaml`` (key ``gts_optional``), one
block per rule, each value with its case. Its own module so each optional rule's procedure
reads it without importing another's."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from model.formats.yamlio import read_package_data

DATA = Path(__file__).parent / "optional_rules.yaml"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return (read_package_data(DATA) or {}).get("gts_optional") or {}


def cfg(key: str = "airborne_leader_losses") -> dict[str, Any]:
    """The block ``key`` of the GTS optional-rule data ({} when there is none)."""
    out = _data().get(key)
    return out if isinstance(out, dict) else {}
