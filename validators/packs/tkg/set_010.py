"""TKG-SET-010."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import nation_group
from validators.rule import Rule


class AlliedAttachmentSameArmy(Rule):
    """No U.S. unit attaches to a British/Canadian HQ or vice versa, and Allied units attach to their own army's HQ.

    Digest §8: SET-10.

    Rule case: TKG [14.8.4]

    Why: "U.S. and British/Canadian units may never be attached to each other's HQs"
    [14.8.4]; a unit tracing to another army's HQ is out of supply [14.8.3].

    Violating example:
        setup: [{unit: us_8_inf, hex: W3826, attached_to: br_i_corps_hq}]

    Correct example:
        setup: [{unit: us_8_inf, hex: W3826, attached_to: us_vii_corps_hq}]

    Policy: Only Allied attachments are checked (German army is set by the HQ traced
    to, L89). Attachment is read from ``attached_to`` on setup and schedule entries.
    """

    code = "TKG-SET-010"
    name = "allied-attachment-same-army"
    severity = Severity.ERROR
    groups = ("setup", "supply")
    rule_case = "TKG [14.8.4]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        pairs = [(e, e.unit, e.attached_to) for e in ctx.scenario.setup if e.attached_to]
        pairs += [(s, u, s.attached_to) for s in ctx.scenario.schedule if s.attached_to for u in s.units]
        for node, unit_id, hq_id in pairs:
            unit, hq = ctx.counters.get(unit_id), ctx.counters.get(hq_id or "")
            if unit is None or hq is None or unit.side != "allied":
                continue
            if nation_group(unit) != nation_group(hq):
                yield ctx.finding(self, f"{unit.name} ({unit.nationality}) is attached to {hq.name} ({hq.nationality}): "
                                        "no U.S./Commonwealth attachment [14.8.4]", node, "attached_to", units=(unit_id, hq_id))
            elif unit.army and hq.army and unit.army != hq.army:
                yield ctx.finding(self, f"{unit.name} ({unit.army}) is attached to {hq.name} of another army "
                                        f"({hq.army}) [14.8.3]", node, "attached_to", units=(unit_id, hq_id))
