"""Which optional rules the test-play engine applies (each plug-in's ``optional_coverage.yaml``),
and which of a scenario's selected optional rules it does not.

A scenario or variant selects optional rules with ``optional_rules: {id: true}``; the ids are
the system's ``optional_rules``. The engine plays only the ones a procedure consults, so a
selection the engine ignores must be said out loud: ``hexproof smoke`` reports it as
PLAY-SMOKE-012 (play/smoke.py) and a started game logs one ``optional_rules_not_applied``
event (:func:`notice`, called by ``Game`` after ``start``), which Play mode and scripted playtests show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from play.plugin import STATUSES, Coverage  # noqa: F401 (STATUSES: the statuses a table may use)

if TYPE_CHECKING:
    from model.scenario import Scenario
    from model.system import GameSystem
    from play.context import PlayContext

# Statuses under which selecting the rule plays everything the rule says.
PLAYED = ("applied", "scenario-data-only")


@dataclass(frozen=True)
class Unapplied:
    """A selected optional rule the engine does not (fully) play."""

    id: str
    status: str          # partial | not-applied | unknown (not in the system or the table)
    rule: str | None
    message: str


def table() -> dict[str, dict[str, Coverage]]:
    """Plug-in id -> optional rule id -> its coverage, for every plug-in."""
    from play.plugins import PLUGINS

    return {p.id: p.coverage for p in PLUGINS}


def coverage_for(system: "GameSystem") -> dict[str, Coverage]:
    from play.plugins import plugin_for

    return plugin_for(system).coverage


def unapplied(system: "GameSystem", scenario: "Scenario") -> list[Unapplied]:
    """The optional rules ``scenario`` selects (value true) that the engine does not fully play,
    in the scenario's order."""
    from play.plugins import plugin_for

    plugin = plugin_for(system)
    cov = plugin.coverage
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
                                                       f"(play/{plugin.folder.name}/optional_coverage.yaml); assume it is not applied"))
        else:
            what = "applied only in part" if c.status == "partial" else "not applied by the test-play engine"
            out.append(Unapplied(rid, c.status, c.rule, f"{rid} ({title}) is {what}" + (f": {c.note}" if c.note else "")))
    return out


def notice(game: "PlayContext") -> None:
    """Log, once as the game starts (right after ``start``), the selected optional rules the
    engine does not play: one ``optional_rules_not_applied`` event, which the Play mode log and
    status bar and the scripted playtests show."""
    missing = unapplied(game.system, game.scenario)
    if missing:
        game.emit("optional_rules_not_applied", rules=[m.id for m in missing],
                  statuses=[m.status for m in missing], message="; ".join(m.message for m in missing))
