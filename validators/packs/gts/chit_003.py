"""GTS-CHIT-003: no unit arrives before the chit that brings it in is in play."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import ARRIVALS, SYSTEMS, counter, divact_chits, is_unit, mug_turns, turn_label, turn_no
from validators.rule import Rule


class ReinforcementEntryPath(Rule):
    """A reinforcement or drop arrives only once its division's DivAct chit is in the mug; a
    beach landing needs the Naval chit instead (unless the entry cites a special rule).

    Rule case: 8.0 (reinforcements enter when the DivAct is drawn; Naval chit Excl 4.3.1)

    Why: units placed in a Division box enter when that division's chit is drawn; the
    errata found 9th ID units scheduled before their chit was ever in the mug (S14).

    Violating example: the German reinforcement at 1100 6 June while ``chit-divact-709`` is
    not in the mug.

    Correct example: ``mug: [{turn: 0700 6 June, chits: [chit-naval, chit-divact-4, chit-divact-709, ...]}]``.
    """

    code = "GTS-CHIT-003"
    name = "reinforcement-entry-path"
    severity = Severity.ERROR
    groups = ("chits", "schedule", "gts")
    rule_case = "8.0"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        if "mug" not in scen.params:
            return
        mug = mug_turns(ctx)
        divacts = divact_chits(ctx)
        naval = [c.id for c in ctx.bundle.counters if "naval_chit" in c.flags]
        for s in scen.schedule:
            n = turn_no(ctx, s.turn)
            if s.kind not in ARRIVALS or n is None or (s.rule and "SSR" in s.rule):
                continue
            if s.kind == "landing":
                if not any(mug.get(c, 10**9) <= n for c in naval):
                    yield ctx.finding(self, f"landing at {turn_label(ctx, n)} but no Naval chit is in the mug",
                                      s, "turn", turns=(n,))
                continue
            for j, u in enumerate(s.units):
                c = counter(ctx, u)
                if c is None or not is_unit(c, ctx) or not c.division:
                    continue
                chit = divacts.get(c.division)
                if chit is not None and mug.get(chit.id, 10**9) > n:
                    yield ctx.finding(self, f"{u} arrives at {turn_label(ctx, n)} before the {c.division} DivAct "
                                      "chit is in the mug", s, "units", j, units=(c.id,), turns=(n,))
