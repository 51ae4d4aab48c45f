"""GTS-LDR-001: every leader starts with his own formation, or has an explicit off-map status."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter
from validators.rule import Rule

OFF_MAP_STATES = frozenset({"off_map", "straggler", "straggler_box"})


class LeaderPlaced(Rule):
    """A leader set up on the map shares a hex with a unit of his formation; an arriving
    leader arrives in the same stick or entry as one; otherwise he is in a box or has an
    ``off_map``/``straggler`` state.

    Rule case: 21.2 (leaders stack with a unit of their formation; errata CG#1: Heyna's
    command post is off-map and his phone units are In Command)

    Why: a leader with nobody to stack with cannot be placed (errata S21).

    Violating example: ``{unit: ldr-919, hex: '40.040'}`` with no Gren 919 unit there.

    Correct example: ``{unit: ldr-919, hex: '31.030'}`` with 5./II./Gren 919.
    """

    code = "GTS-LDR-001"
    name = "leader-placed"
    severity = Severity.ERROR
    groups = ("leaders", "gts")
    rule_case = "21.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        units_at: dict = {}
        for e in scen.setup:
            c = counter(ctx, e.unit)
            if c is not None and c.category != "leader" and e.hex is not None:
                units_at.setdefault(e.hex, []).append(c)
        for e in scen.setup:
            c = counter(ctx, e.unit)
            if c is None or c.category != "leader" or e.box or OFF_MAP_STATES & set(e.state):
                continue
            here = units_at.get(e.hex, []) if e.hex is not None else []
            if not any(u.formation == c.leader_of for u in here):
                where = ctx.label(e.hex) if e.hex is not None else "his setup place"
                yield ctx.finding(self, f"leader {e.unit} at {where} is not stacked with a unit of {c.leader_of}",
                                  e, "unit", units=(c.id,))
        for s in scen.schedule:
            groups = s.drop.sticks if s.drop is not None and s.drop.sticks else [s.units]
            for group in groups:
                found = [counter(ctx, u) for u in group]
                for c in found:
                    if c is None or c.category != "leader":
                        continue
                    if not any(u is not None and u.category != "leader" and u.formation == c.leader_of for u in found):
                        yield ctx.finding(self, f"leader {c.id} arrives at {s.turn} without a unit of {c.leader_of} "
                                          "in the same stick or entry", s, "units", units=(c.id,))
