"""TKG-CTR-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import tags
from validators.rule import Rule


class ZocTypes(Rule):
    """Non-cadre regiments exert an RZOC, battalions with the bar a BZOC, and no other unit a ZOC.

    Digest §8: CTR-04.

    Rule case: TKG [8.1.2]

    Why: "All non-cadre regiments" have an RZOC, battalions with a bar a BZOC, and "No
    other units exert a ZOC" [8.1.2]; HQs and cadres have none ([11.1.1], [9.4.3]).

    Violating example:
        - {id: de_916_cadre, category: cadre, front: {values: {zoc: RZOC}}}

    Correct example:
        - {id: de_916_cadre, category: cadre, front: {values: {zoc: none}}}

    Policy: The ZOC type is the counter value ``zoc``; the bar is the flag ``bzoc_bar``.
    Counters without a ``zoc`` value are not checked.
    """

    code = "TKG-CTR-004"
    name = "zoc-types"
    severity = Severity.ERROR
    groups = ("counters",)
    rule_case = "TKG [8.1.2]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        for c in ctx.bundle.counters:
            zoc = c.front.values.get("zoc")
            if zoc is None:
                continue
            t = tags(ctx, c)
            if "regiment" in t and "cadre" not in t:
                want = "RZOC"
            elif "bzoc_bar" in c.flags:
                want = "BZOC"
            else:
                want = "none"
            if str(zoc) != want:
                yield ctx.finding(self, f"{c.name} ({c.category}) has ZOC {zoc!r}; [8.1.2] gives it {want!r}",
                                  c, "front", "values", units=(c.id,))
