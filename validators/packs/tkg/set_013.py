"""TKG-SET-013."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import by_hex, logistics, param
from validators.rule import Rule


class EntrenchmentPlacement(Rule):
    """An Entrenchment is German, on an IP, not in bocage/hedgerow/city/forest, and only when the Germans are Committed.

    Digest §8: SET-13.

    Rule case: TKG [20.2.1]

    Why: Entrenchments are German only, upgrade an IP, are barred from bocage, hedgerow,
    city and forest [20.2.1], and may be built only once the German logistics state is
    Committed (L939).

    Violating example:
        setup: [{unit: de_916_gr, hex: W5021, state: [entrenchment, ip]}]   # W5021 is bocage

    Correct example:
        setup: [{unit: de_916_gr, hex: W3826, state: [entrenchment, ip]}]   # clear, Committed

    Policy: Markers are setup ``state`` words ``ip`` and ``entrenchment`` on a unit in
    the hex; the logistics state is ``params.german.logistics_state``.
    """

    code = "TKG-SET-013"
    name = "entrenchment-placement"
    severity = Severity.ERROR
    groups = ("setup",)
    rule_case = "TKG [20.2.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        forbidden = set(param(ctx, "entrenchment_forbidden_terrain", default=[]) or [])
        committed = (logistics(ctx, "german") or "").lower() == "committed"
        for h, stack in sorted(by_hex(ctx).items()):
            states = {st for e, _ in stack for st in e.state}
            ents = [(e, c) for e, c in stack if "entrenchment" in e.state]
            if not ents:
                continue
            e, c = ents[0]
            terrain = ctx.hmap.terrain_at(h)
            if c is not None and c.side != "german":
                yield ctx.finding(self, f"{c.name}: only German units may entrench", e, "state", units=(e.unit,), hexes=(h,))
            if "ip" not in states:
                yield ctx.finding(self, f"Entrenchment in {ctx.label(h)} is not on an IP", e, "state", hexes=(h,))
            if terrain in forbidden:
                yield ctx.finding(self, f"Entrenchment in {ctx.label(h)}: not allowed in {terrain}", e, "state", hexes=(h,))
            if not committed:
                yield ctx.finding(self, f"Entrenchment in {ctx.label(h)} while the Germans are not Committed (L939)",
                                  e, "state", hexes=(h,))
