"""GTS-UNIT-002: no unit is listed twice in a setup (names compared after normalising)."""

from __future__ import annotations

from typing import Iterable

from model.counters import normalize_name
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter
from validators.rule import Rule


class DuplicateInSetup(Rule):
    """Each unit appears once in a scenario's setup; "6. gem Flak 153" and "6./gem.Flak 153" are the same unit.

    Rule case: 2.0 (one counter per unit; errata CG#1 lists "6. gem Flak 153" twice)

    Why: a unit set up twice is on the map twice; the errata had to delete a duplicated
    line (S20).

    Violating example: setup lists ``c5-ii-919`` and ``5./II./Gren 919``.

    Correct example: each company once.
    """

    code = "GTS-UNIT-002"
    name = "duplicate-in-setup"
    severity = Severity.ERROR
    groups = ("units", "gts")
    rule_case = "2.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        seen: dict[str, str] = {}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            key = c.id if c is not None else normalize_name(e.unit)
            if key in seen:
                yield ctx.finding(self, f"{e.unit} is set up twice (also as {seen[key]!r})", e, "unit", units=(e.unit,))
            else:
                seen[key] = e.unit
