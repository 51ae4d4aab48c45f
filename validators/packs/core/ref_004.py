"""CORE-REF-004."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import entries
from validators.rule import Rule


class AreaReferenceResolves(Rule):
    """Every map area and sheet a scenario names (setup, entries, playable area) exists on its map.

    Rule case: Hexproof bundle format (map areas and sheets)

    Why: "Set up anywhere in the assembly area" and "play on sheets N and W" only mean
    something when the named area or sheet exists on the scenario's map.

    Violating example:
        playable: {sheets: [east]}     # the mini map has one sheet, main

    Correct example:
        playable: {sheets: [main]}
    """

    code = "CORE-REF-004"
    name = "area-reference-resolves"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        areas = {a.id for a in ctx.hmap.areas}
        sheets = {s.id for s in ctx.hmap.spec.sheets}
        for e in scen.setup:
            if e.area is not None and e.area not in areas:
                yield ctx.finding(self, f"area {e.area!r} is not defined on map {ctx.hmap.id!r}", e, "area",
                                  units=(e.unit,))
        for entry, _ in entries(scen):
            if entry.area is not None and entry.area not in areas:
                yield ctx.finding(self, f"area {entry.area!r} is not defined on map {ctx.hmap.id!r}", entry, "area")
        pl = scen.playable
        if pl is not None:
            if pl.area is not None and pl.area not in areas:
                yield ctx.finding(self, f"playable area {pl.area!r} is not defined on map {ctx.hmap.id!r}", pl, "area")
            for i, s in enumerate(pl.sheets):
                if s not in sheets:
                    yield ctx.finding(self, f"sheet {s!r} is not a sheet of map {ctx.hmap.id!r}", pl, "sheets", i)
