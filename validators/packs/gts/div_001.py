"""GTS-DIV-001: a division whose chit is in the mug has Command and Dispatch Ratings."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, divact_chits, mug_turns, param, turn_label, turn_no
from validators.rule import Rule


class RatingsDefined(Rule):
    """Each division whose DivAct chit is in the mug has a Command Rating and a Dispatch
    Rating (``params.ratings``) in effect from that turn.

    Rule case: 10.0.3 (Command Points use the Command Rating; errata CG#3/#5: 17.SS chit from
    0700 10 June but ratings only from 1700)

    Why: without ratings the CP and DP rolls cannot be made (errata S25).

    Policy: ``unknown`` counts as given — the value exists in the scenario books, which the
    sample does not hold; a missing entry, or one that starts later than the chit, is an error.

    Violating example: ``chit-divact-243`` in the mug at 0700 6 June and no ``ratings: {243.ID: ...}``.

    Correct example: ``ratings: {243.ID: {command: unknown, dispatch: unknown, from: 0700 6 June}}``.
    """

    code = "GTS-DIV-001"
    name = "ratings-defined"
    severity = Severity.ERROR
    groups = ("divisions", "gts")
    rule_case = "10.0.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        mug = mug_turns(ctx)
        ratings = param(ctx, "ratings", {}) or {}
        for div, chit in sorted(divact_chits(ctx).items()):
            n = mug.get(chit.id)
            if n is None:
                continue
            r = ratings.get(div)
            if not isinstance(r, dict) or r.get("command") is None or r.get("dispatch") is None:
                yield ctx.finding(self, f"{div}: DivAct chit in the mug from {turn_label(ctx, n)} but no Command/Dispatch "
                                  "Rating is given", scen, "params", "ratings", turns=(n,))
                continue
            start = turn_no(ctx, r.get("from")) if r.get("from") is not None else None
            if start is not None and start > n:
                yield ctx.finding(self, f"{div}: ratings start at {turn_label(ctx, start)}, after its chit enters the mug "
                                  f"({turn_label(ctx, n)})", scen, "params", "ratings", div, turns=(n,))
