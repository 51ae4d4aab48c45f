"""GTS-BEACH-001: Beach hexes are used only on an overlay in play, and never by Germans."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, counter
from validators.rule import Rule


class BeachOnlyOnOverlay(Rule):
    """Beach hexes are used only while an overlay holding them is in play; no German unit is on one.

    Rule case: Excl 2.1.8 (Beach hexes exist only on the Beach Overlays; Germans never enter them)

    Why: outside an overlay a Beach hex counts as Impassable, and German units may never
    enter Beach hexes at all.

    Violating example: ``{unit: c5-ii-919, hex: '19.025'}`` — a German unit on a Beach hex.

    Correct example: the German company at 24.026 (dunes) behind the beach.
    """

    code = "GTS-BEACH-001"
    name = "beach-only-on-overlay"
    severity = Severity.ERROR
    groups = ("beach", "gts")
    rule_case = "Excl 2.1.8"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        beach_types = {t.id for t in ctx.system.terrain if "beach" in t.tags}
        overlay_hexes = {h for o in scen.beach_overlays if o.visible for h in o.hexes}
        for e in scen.setup:
            for h in e.hexes():
                if ctx.hmap.terrain_at(h) not in beach_types:
                    continue
                c = counter(ctx, e.unit)
                if c is not None and c.side == "german":
                    yield ctx.finding(self, f"German unit {e.unit} set up on Beach hex {ctx.label(h)}", e, "hex",
                                      hexes=(h,), units=(e.unit,))
                elif h not in overlay_hexes:
                    yield ctx.finding(self, f"{e.unit} set up on Beach hex {ctx.label(h)}, which no overlay in play holds",
                                      e, "hex", hexes=(h,), units=(e.unit,))
        for s in scen.schedule:
            if s.entry is None:
                continue
            for h in ([s.entry.hex] if s.entry.hex is not None else []) + list(s.entry.hexes):
                if ctx.hmap.terrain_at(h) not in beach_types:
                    continue
                if s.side == "german":
                    yield ctx.finding(self, f"German units enter on Beach hex {ctx.label(h)}", s.entry, "hex", hexes=(h,))
                elif h not in overlay_hexes:
                    yield ctx.finding(self, f"entry on Beach hex {ctx.label(h)}, which no overlay in play holds",
                                      s.entry, "hex", hexes=(h,))
