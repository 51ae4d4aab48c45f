"""TKG-MAP-005."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule

BEACHES = ("utah", "omaha", "gold", "juno", "sword")


class BeachDisplayComplete(Rule):
    """The five beaches have hexes and Landing Boxes 1 and 2, Utah has Intended and Actual hexes, and Mulberry B is N3139.

    Digest §8: MAP-05.

    Rule case: TKG [11.4.1]

    Why: "each of the five named Beaches (e.g. Gold) may act as one supported Allied HQ"
    [11.4.1], and "Allied-controlled Beach Landing and Mulberry hexes are Allied Supply
    Sources" (L839); every beach has Landing Boxes 1 and 2 (L189, [18.1.2]); the Utah landing
    roll picks Intended or Actual hexes (L2183); and "The British Mulberry cannot be used for
    landing or construction, until the Mulberry B hex (N3139) has been occupied by an Allied
    unit" (L1752; also L892, L1740). Not in the draft: an earlier version cited "[20.4.2]",
    which the draft does not have; its Mulberry paragraphs (L1738-1754) are unnumbered,
    between [20.3.3] and [20.5.1], so they are cited by line.

    Violating example:
        - {id: mulberry_b, kind: mulberry, entry_hexes: [N3138]}

    Correct example:
        - {id: mulberry_b, kind: mulberry, entry_hexes: [N3139]}

    Policy: Beaches are boxes of kind ``beach`` with ids utah/omaha/gold/juno/sword and
    their beach hexes as ``entry_hexes``; landing boxes are kind ``landing_box`` with
    ``connects: [beach]`` and flag lb1/lb2; Utah's hexes are the map locations
    ``utah_intended`` and ``utah_actual``. Checked when a map has an N sheet.
    """

    code = "TKG-MAP-005"
    name = "beach-display-complete"
    severity = Severity.ERROR
    groups = ("map", "boxes", "dday")
    rule_case = "TKG [11.4.1]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        hmap = next((m for m in ctx.bundle.maps.values() if any(s.id == "N" for s in m.grid.sheets)), None)
        if hmap is None:
            return
        game = ctx.bundle.game
        for beach in BEACHES:
            box = ctx.bundle.box(beach)
            if box is None or box.kind != "beach":
                yield ctx.finding(self, f"beach {beach!r} is not defined as a box of kind beach", game, "boxes")
                continue
            if not box.entry_hexes:
                yield ctx.finding(self, f"beach {beach!r} has no beach hexes", box)
            for i, ref in enumerate(box.entry_hexes):
                h = hmap.spec.try_parse(ref)
                if h is None or not hmap.contains(h):
                    yield ctx.finding(self, f"beach {beach!r} hex {ref} is not on the map", box, "entry_hexes", i)
            lbs = {f for b in game.boxes if b.kind == "landing_box" and beach in b.connects for f in b.flags}
            for need in ("lb1", "lb2"):
                if need not in lbs:
                    yield ctx.finding(self, f"beach {beach!r} has no Landing Box {need[-1]}", box)
        for loc_id in ("utah_intended", "utah_actual"):
            loc = hmap.location(loc_id)
            if loc is None or not loc.all_hexes():
                yield ctx.finding(self, f"Utah {loc_id.split('_')[1]} landing hexes ({loc_id}) are not defined (L2183)",
                                  hmap, "locations")
        for mid in ("mulberry_a", "mulberry_b"):
            if ctx.bundle.box(mid) is None:
                yield ctx.finding(self, f"{mid} display box is not defined", game, "boxes")
        mb = ctx.bundle.box("mulberry_b")
        if mb is not None and mb.entry_hexes != ["N3139"]:
            yield ctx.finding(self, f"Mulberry B must be N3139 (L1752), found {mb.entry_hexes}", mb, "entry_hexes")
