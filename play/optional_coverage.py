"""Which optional rules the test-play engine applies (``play/data/optional_coverage.yaml``),
and which of a scenario's selected optional rules it does not.

A scenario or variant selects optional rules with ``optional_rules: {id: true}``; the ids are
the system's ``optional_rules``. The engine plays only the ones a procedure consults, so a
selection the engine ignores must be said out loud: ``hexproof smoke`` reports it as
PLAY-SMOKE-012 (play/smoke.py) and a started game logs one ``optional_rules_not_applied``
event (:func:`notice`, called by ``Game`` after ``start``), which Play mode and scripted playtests show.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

if TYPE_CHECKING:
    from model.scenario import Scenario
    from model.system import GameSystem
    from play.game import Game

DATA = Path(__file__).parent / "data" / "optional_coverage.yaml"
STATUSES = ("applied", "partial", "scenario-data-only", "not-applied")
# Statuses under which selecting the rule plays everything the rule says.
PLAYED = ("applied", "scenario-data-only")


@dataclass(frozen=True)
class Coverage:
    id: str
    status: str
    rule: str | None = None
    module: str | None = None
    data: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Unapplied:
    """A selected optional rule the engine does not (fully) play."""

    id: str
    status: str          # partial | not-applied | unknown (not in the system or the table)
    rule: str | None
    message: str


@lru_cache(maxsize=1)
def table() -> dict[str, dict[str, Coverage]]:
    """System id -> optional rule id -> its coverage."""
    raw = yaml.load(DATA.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    out: dict[str, dict[str, Coverage]] = {}
    for sid, rules in raw.items():
        out[str(sid)] = {str(k): Coverage(str(k), str(v.get("status")), v.get("rule"), v.get("module"),
                                          v.get("data"), v.get("note"))
                         for k, v in (rules or {}).items()}
    return out


def coverage_for(system: "GameSystem") -> dict[str, Coverage]:
    return table().get(system.id, {})


def unapplied(system: "GameSystem", scenario: "Scenario") -> list[Unapplied]:
    """The optional rules ``scenario`` selects (value true) that the engine does not fully play,
    in the scenario's order."""
    cov = coverage_for(system)
    out: list[Unapplied] = []
    for rid, on in scenario.optional_rules.items():
        if not on:
            continue
        title = system.optional_rules.get(rid)
        c = cov.get(rid)
        if c is not None and c.status in PLAYED:
            continue
        if title is None:
            out.append(Unapplied(rid, "unknown", None, f"{rid!r} is not an optional rule of system {system.id!r}; "
                                                       "the engine ignores it"))
        elif c is None:
            out.append(Unapplied(rid, "unknown", None, f"{rid} ({title}): not in the engine's coverage table "
                                                       "(play/data/optional_coverage.yaml); assume it is not applied"))
        else:
            what = "applied only in part" if c.status == "partial" else "not applied by the test-play engine"
            out.append(Unapplied(rid, c.status, c.rule, f"{rid} ({title}) is {what}" + (f": {c.note}" if c.note else "")))
    return out


def notice(game: "Game") -> None:
    """Log, once as the game starts (right after ``start``), the selected optional rules the
    engine does not play: one ``optional_rules_not_applied`` event, which the Play mode log and
    status bar and the scripted playtests show."""
    missing = unapplied(game.system, game.scenario)
    if missing:
        game.emit("optional_rules_not_applied", rules=[m.id for m in missing],
                  statuses=[m.status for m in missing], message="; ".join(m.message for m in missing))
