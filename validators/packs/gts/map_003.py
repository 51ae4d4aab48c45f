"""GTS-MAP-003: the scenario map is stated once, as the core playable area."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import offset_rect
from validators.packs.gts._gts import SYSTEMS, param, parse
from validators.rule import Rule


class ScenarioMapInPlayable(Rule):
    """The scenario's map is given as ``playable.bounds``, not the deprecated ``params.scenario_map``.

    Rule case: Err Adv#1 (52.067 and 34.067 "are off the playable map for this scenario")

    Why: a scenario's playable area was stated twice, as the core ``playable`` and as the
    GTS ``params.scenario_map`` rectangle, and each check read only one of them: an entry
    hex outside the scenario map tripped the GTS check alone. The area is now stated once,
    in the core format, and the GTS scenario map derives from it.

    Policy: *one-playable-area* — ``params.scenario_map`` is still read when ``playable``
    gives no ``bounds`` (an info finding asks to move it); when both are given,
    ``playable.bounds`` wins and a different ``params.scenario_map`` is a warning.

    Violating example:
        params:
          scenario_map: {from: '14.000', to: '107.066'}

    Correct example:
        playable: {bounds: ['14.000', '107.066'], rule: Err Adv#1}
    """

    code = "GTS-MAP-003"
    name = "scenario-map-in-playable"
    severity = Severity.INFO
    groups = ("hexes", "gts")
    rule_case = "Err Adv#1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        rect = param(ctx, "scenario_map")
        if rect is None:
            return
        corners = [parse(ctx, rect.get(end)) for end in ("from", "to")] if isinstance(rect, dict) else []
        wanted = f"playable: {{bounds: ['{rect.get('from')}', '{rect.get('to')}']}}" if isinstance(rect, dict) \
            else "playable: {bounds: [FROM, TO]}"
        bounds = scen.playable.bounds if scen.playable is not None else []
        if not bounds:
            yield ctx.finding(self, f"params.scenario_map is deprecated; state the scenario map once as {wanted}",
                              scen, "params", "scenario_map", policy="one-playable-area")
            return
        same = None not in corners and len(corners) == 2 and \
            offset_rect(ctx.hmap, corners) == offset_rect(ctx.hmap, bounds)  # type: ignore[arg-type]
        if same:
            yield ctx.finding(self, "params.scenario_map repeats playable.bounds; delete it", scen, "params",
                              "scenario_map", policy="one-playable-area")
        else:
            yield ctx.finding(self, f"params.scenario_map differs from playable.bounds "
                              f"({ctx.label(bounds[0])}–{ctx.label(bounds[1])}), which is the one that counts; "
                              "delete params.scenario_map", scen, "params", "scenario_map",
                              severity=Severity.WARNING, policy="one-playable-area")
