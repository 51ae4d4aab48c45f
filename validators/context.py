"""What a rule sees: :class:`RuleContext` (bundle, system, resolved scenario, map, counters)
and :meth:`RuleContext.finding`, which turns a message into a located :class:`Diagnostic`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Iterable

from model.base import Node
from model.counters import Counter
from model.diagnostics import Diagnostic, Location, Severity
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Scenario
from model.system import GameSystem

if TYPE_CHECKING:  # pragma: no cover - typing only
    from model.bundle import Bundle
    from validators.rule import Rule


@dataclass
class RuleContext:
    """One run of rules over a bundle (scope "bundle") or one resolved scenario."""

    bundle: "Bundle"
    scenario: Scenario | None = None
    scenario_id: str | None = None
    cache: dict[str, object] = field(default_factory=dict)  # shared per-context memo for rules

    @property
    def system(self) -> GameSystem:
        return self.bundle.system

    @cached_property
    def hmap(self) -> HexMap:
        return self.bundle.map_for(self.scenario)

    @cached_property
    def counters(self) -> dict[str, Counter]:
        return self.bundle.counter_index()

    def label(self, h: Hex) -> str:
        """The printed label of ``h`` on this scenario's map."""
        return self.hmap.label(h)

    def labels(self, hexes: Iterable[Hex]) -> tuple[str, ...]:
        return tuple(self.label(h) for h in hexes)

    def optional_rule(self, rule_id: str) -> bool:
        """Whether an optional rule is switched on in this scenario."""
        return bool(self.scenario is not None and self.scenario.optional_rules.get(rule_id, False))

    def finding(self, rule: "Rule | type[Rule]", message: str, node: Node | None = None, *fields: str | int,
                hexes: Iterable[Hex | str] = (), units: Iterable[str] = (), turns: Iterable[int] = (),
                hexsides: Iterable[str] = (), severity: Severity | None = None,
                policy: str | None = None) -> Diagnostic:
        """A diagnostic for ``rule``, located at ``node`` (and ``fields`` inside it)."""
        hex_labels = tuple(h if isinstance(h, str) else self.label(h) for h in hexes)
        turn_list = tuple(t for t in turns if isinstance(t, int))
        loc: Location = self.bundle.locate(node, *fields)
        loc = replace(loc, hexes=hex_labels or loc.hexes, units=tuple(units) or loc.units,
                      turns=turn_list or loc.turns, hexsides=tuple(hexsides) or loc.hexsides,
                      scenario=self.scenario_id if self.scenario_id is not None else loc.scenario)
        return Diagnostic(
            code=rule.code,
            severity=severity if severity is not None else rule.severity,
            message=message,
            location=loc,
            rule_case=rule.rule_case or None,
            policy=policy,
        )
