"""GTS-REF-001: named regions cited by a scenario exist in the map data."""

from __future__ import annotations

import re
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule

AREA_NAME = re.compile(r"((?:\d+(?:st|nd|rd|th)|[\w.]+)\s+(?:ID|Infantry Division)\s+Assembly Area)", re.IGNORECASE)


class NamedRegionExists(Rule):
    """Every area a scenario cites — ``area:`` fields and "… Assembly Area" in rule texts — exists on the map.

    Rule case: Excl 17.4 (errata: the 90th ID Assembly Area "as outlined on Map 6")

    Why: the errata rewrote 17.4 around an area the printed map did not define (R20); a
    restriction tied to a region the data lacks cannot be enforced or played.

    Violating example: a special rule "90th ID units stay in the 90th ID Assembly Area" with
    no map area of that name.

    Correct example: the map defines area ``assembly-90th`` named "90th ID Assembly Area".
    """

    code = "GTS-REF-001"
    name = "named-region-exists"
    severity = Severity.ERROR
    groups = ("references", "gts")
    rule_case = "Excl 17.4 (errata)"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        areas = {a.id for a in ctx.hmap.areas}
        names = {a.name.lower() for a in ctx.hmap.areas}
        for e in scen.setup:
            if e.area and e.area not in areas:
                yield ctx.finding(self, f"setup of {e.unit} names area {e.area!r}, which the map does not define", e, "area")
        for s in scen.schedule:
            if s.entry is not None and s.entry.area and s.entry.area not in areas:
                yield ctx.finding(self, f"entry names area {s.entry.area!r}, which the map does not define", s.entry, "area")
        if scen.playable is not None and scen.playable.area and scen.playable.area not in areas:
            yield ctx.finding(self, f"playable area {scen.playable.area!r} is not defined on the map", scen.playable, "area")
        texts = [(r, "text", r.text) for r in scen.special_rules] + [(v, "text", v.text) for v in scen.victory]
        texts += [(s, "text", s.text) for s in scen.schedule if s.text]
        for node, field, text in texts:
            for m in AREA_NAME.finditer(text or ""):
                if m.group(1).lower() not in names:
                    yield ctx.finding(self, f"{m.group(1)!r} is cited but no map area has that name", node, field)
