"""GTS-UNIT-001: every unit, leader, chit and marker name resolves to exactly one counter."""

from __future__ import annotations

from typing import Iterable, Iterator

from model.base import Node
from model.counters import normalize_name
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule


def _refs(ctx: RuleContext) -> Iterator[tuple[str, Node, tuple[str | int, ...]]]:
    scen = ctx.scenario
    assert scen is not None
    for e in scen.setup:
        yield e.unit, e, ("unit",)
    for s in scen.schedule:
        for i, u in enumerate(s.units):
            yield u, s, ("units", i)
    for i, block in enumerate(scen.params.get("mug", []) or []):
        if isinstance(block, dict):
            for j, chit in enumerate(block.get("chits", []) or []):
                yield str(chit), scen, ("params", "mug", i, "chits", j)
    contact = scen.params.get("contact_markers", [])
    contact = contact.get("value", []) if isinstance(contact, dict) else contact
    for i, u in enumerate(contact or []):
        yield str(u), scen, ("params", "contact_markers", i)


class UnitExists(Rule):
    """Every unit, leader, chit and marker a scenario names — setup, schedule, mug and
    contact-marker lists — resolves to exactly one counter (by id, else by normalised name).

    Rule case: 2.0 (counters; errata General Comments: "Any reference to Wn 10 should state Stp 10")

    Why: the errata fixed names that matched no counter ("Wn 10" for Stp 10) and markers that
    do not exist (III./Art. 177 Contact Pending). The core pack checks setup and schedule
    ids; this rule adds the GTS mug and marker lists and name look-ups.

    Violating example: ``mug: [{turn: Night 5 June, chits: [chit-divact-82]}]`` with no such chit.

    Correct example: ``chits: [chit-divact-101, chit-divact-709]``.
    """

    code = "GTS-UNIT-001"
    name = "unit-exists"
    severity = Severity.ERROR
    groups = ("units", "gts")
    rule_case = "2.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        by_name: dict[str, int] = {}
        for c in ctx.bundle.counters:
            key = normalize_name(c.name)
            by_name[key] = by_name.get(key, 0) + 1
        for ref, node, fields in _refs(ctx):
            if ref in ctx.counters:
                continue
            n = by_name.get(normalize_name(ref), 0)
            if n == 0:
                yield ctx.finding(self, f"{ref!r} names no counter", node, *fields, units=(ref,))
            elif n > 1:
                yield ctx.finding(self, f"{ref!r} matches {n} counters by name; use the counter id", node, *fields,
                                  units=(ref,))
