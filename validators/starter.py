"""Which rules a brand-new bundle cannot pass yet, so that it can start clean and say so.

A system's rule pack checks the content of *its* game: SFN's map must have the Calais and
Dieppe invasion areas and 50 points of VP hexes, TKG's N sheet its key hexes and beaches.
A bundle made from nothing (model/new_bundle.py) has a blank map, so those rules fail until
the designer draws that content. :func:`rules_needing_content` runs every rule over the new
bundle in memory and returns the *system-specific* rules (``Rule.systems`` set) that report
an error, with their first message: the caller writes them into game.yaml's
``validate: ignore:`` (with a comment saying why) and shows the list, so the new bundle
validates clean and the designer knows which checks to switch back on.

A core rule (CORE-*) failing on a new bundle is never parked: that would be a fault in the
new bundle itself, and it stays visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from model.diagnostics import Severity
from validators.config import Config
from validators.engine import validate_bundle
from validators.registry import Registry, default_registry

if TYPE_CHECKING:  # pragma: no cover - typing only
    from model.bundle import Bundle


@dataclass(frozen=True)
class PendingRule:
    code: str
    message: str  # the first error it reported on the new bundle
    count: int    # how many errors it reported


def rules_needing_content(bundle: "Bundle", registry: Registry | None = None) -> list[PendingRule]:
    """System-specific rules that report errors on ``bundle`` (in code order)."""
    registry = registry or default_registry()
    system_rules = {r.code for r in registry.rules() if r.systems is not None}
    found: dict[str, list[str]] = {}
    for d in validate_bundle(bundle, Config(preview=False, use_bundle_settings=False), registry):
        if d.severity >= Severity.ERROR and d.code in system_rules:
            found.setdefault(d.code, []).append(d.message)
    return [PendingRule(code, msgs[0], len(msgs)) for code, msgs in sorted(found.items())]
