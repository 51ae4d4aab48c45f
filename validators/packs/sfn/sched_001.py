"""SFN-SCHED-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, TURN_CODE, param, setup_code
from validators.rule import Rule


class GermanReinforcementSchedule(Rule):
    """German reinforcements with a turn code arrive in the North box on that turn, and German arrivals fall on every fifth turn.

    Rule case: SFN 7.1
    Why: newly organised units (two-digit code: 17th SS PzGr, 179 Res Pz, 349 Inf) go into
    the North box on the turn printed (the 17th SS on GT 60); German reinforcements appear
    every fifth game turn (3.6, 7.1).
    Violating example: the 17th SS PzGr (printed 60) scheduled for GT 61, or into the South box.
    Correct example: ``{turn: 60, units: [de-17-ss-pzgr], entry: {box: north}}``.
    """

    code = "SFN-SCHED-001"
    name = "german-reinforcement-schedule"
    groups = ("schedule",)
    rule_case = "SFN 7.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        spec = param(ctx, "reinforcements")
        box, every = spec.get("box", "north"), int(spec.get("every", 5))
        scheduled: dict[str, tuple[int | None, str | None, object]] = {}
        for entry in scen.schedule:
            if entry.kind not in ("reinforcement", "release"):
                continue
            turn = ctx.turn_number(entry.turn)
            german = [u for u in entry.units if (c := ctx.counters.get(u)) is not None and c.side == "german"]
            if german and turn is not None and turn % every != 0:
                yield ctx.finding(self, f"German units arrive only every {every}th game turn, not GT {turn}", entry,
                                  "turn", units=german, turns=[turn])
            for u in german:
                scheduled[u] = (turn, entry.entry.box if entry.entry else None, entry)
        for unit in ctx.counters.values():
            code = setup_code(unit)
            if unit.side != "german" or not TURN_CODE.match(code):
                continue
            want = int(code)
            if unit.id not in scheduled:
                yield ctx.finding(self, f"{unit.id} (printed {code}) is not scheduled to arrive", scen, "schedule",
                                  units=[unit.id], turns=[want])
                continue
            turn, got_box, entry = scheduled[unit.id]
            if turn != want or got_box != box:
                yield ctx.finding(self, f"{unit.id} (printed {code}) arrives in the {box} box on GT {want}, not "
                                  f"GT {turn} in {got_box}", entry, "turn", units=[unit.id], turns=[want])  # type: ignore[arg-type]
