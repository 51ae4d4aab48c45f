"""TKG-MAP-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import boxes
from validators.rule import Rule

OMM_FLAGS = {"east", "south", "brittany", "british_flag", "supply", "le_mans"}
REGION_FLAGS = {"east", "south", "brittany"}


class OmmBoxesComplete(Rule):
    """Each OMM box has a number, entry hexes, neighbours and a region flag; Transit boxes mirror the OMM numbers.

    Digest §8: MAP-04.

    Rule case: TKG [7.5.2]

    Why: Units reach the map from an OMM box only "via the hexes indicated by the lines
    between the designated hexes" [7.5.2]; box-to-box moves need the neighbours; garrison,
    British-flag and supply rules hang on the flags (L404, [7.5.5]); and single-map play
    uses Transit boxes that "have the same numbers as the OMM boxes" ([18.4.2], L408).

    Violating example:
        - {id: W5, kind: omm, number: 5, entry_hexes: [], connects: [W6], flags: [brittany]}

    Correct example:
        - {id: W5, kind: omm, number: 5, entry_hexes: [W4501, W4001], connects: [W6], flags: [brittany]}

    Policy: Allowed flags are east, south, brittany, british_flag, supply and le_mans;
    every OMM box needs one region flag (east/south/brittany). Box numbers are unique.
    """

    code = "TKG-MAP-004"
    name = "omm-boxes-complete"
    severity = Severity.ERROR
    groups = ("map", "boxes")
    rule_case = "TKG [7.5.2]"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        omm = boxes(ctx, "omm")
        ids = {b.id for b in ctx.bundle.game.boxes}
        numbers: dict[int, str] = {}
        for b in omm:
            if b.number is None:
                yield ctx.finding(self, f"OMM box {b.id!r} has no number", b)
            elif b.number in numbers:
                yield ctx.finding(self, f"OMM boxes {numbers[b.number]!r} and {b.id!r} share number {b.number}", b, "number")
            else:
                numbers[b.number] = b.id
            if not b.entry_hexes:
                yield ctx.finding(self, f"OMM box {b.id!r} has no entry hexes [7.5.2]", b)
            if not b.connects:
                yield ctx.finding(self, f"OMM box {b.id!r} connects to no other box", b)
            for i, other in enumerate(b.connects):
                if other not in ids:
                    yield ctx.finding(self, f"OMM box {b.id!r} connects to unknown box {other!r}", b, "connects", i)
            bad = sorted(set(b.flags) - OMM_FLAGS)
            if bad:
                yield ctx.finding(self, f"OMM box {b.id!r} has unknown flags {bad}", b, "flags")
            if not set(b.flags) & REGION_FLAGS:
                yield ctx.finding(self, f"OMM box {b.id!r} has no region flag (east, south or brittany)", b)
        transit = boxes(ctx, "transit")
        tnums = {b.number for b in transit}
        for b in transit:
            if b.number not in numbers:
                yield ctx.finding(self, f"Transit box {b.id!r} number {b.number} matches no OMM box [18.4.2]", b, "number")
        if transit:
            for num, bid in sorted(numbers.items()):
                if num not in tnums:
                    yield ctx.finding(self, f"OMM box {bid!r} (number {num}) has no Transit box [18.4.2]",
                                      ctx.bundle.box(bid))
