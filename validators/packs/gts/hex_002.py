"""GTS-HEX-002: hexes named in scenario parameters and map registries exist in the grid."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, in_grid, param, parse
from validators.rule import Rule


class HexExists(Rule):
    """Every hex a scenario parameter or map registry names exists in the game grid.

    Rule case: Excl 4.4.3 (17.029 and 18.027 are "just off the map" yet legal marker hexes)

    Why: GTS hex ids exist beyond the playable area, so "exists in the grid" is a test of
    its own, separate from "on the scenario map" (GTS-HEX-003) and "playable" (GTS-HEX-004).
    This rule covers the hexes the core pack does not see: Assault Force markers and the
    corners of the deprecated ``params.scenario_map`` rectangle. Map locations and areas are
    CORE-HEX-004's, the ``playable.bounds`` corners CORE-HEX-001's.

    Violating example: ``af_markers: {UtS: {hex: '150.027'}}`` — column 150 is beyond the grid.

    Correct example: ``af_markers: {UtS: {hex: '18.027'}}`` — off the playable map, but in the grid.
    """

    code = "GTS-HEX-002"
    name = "hex-exists"
    severity = Severity.ERROR
    groups = ("hexes", "gts")
    rule_case = "Excl 4.4.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        named: list[tuple[str, str, tuple[str | int, ...]]] = []
        for force, spec in (param(ctx, "af_markers", {}) or {}).items():
            if isinstance(spec, dict):
                named.append((str(spec.get("hex")), f"Assault Force marker {force}", ("params", "af_markers", force, "hex")))
        rect = param(ctx, "scenario_map")
        if isinstance(rect, dict):
            for end in ("from", "to"):
                named.append((str(rect.get(end)), f"scenario map corner '{end}'", ("params", "scenario_map", end)))
        for text, what, path in named:
            h = parse(ctx, text)
            if h is None or not in_grid(ctx, h):
                yield ctx.finding(self, f"{what}: hex {text} is not in the game grid", scen, *path, hexes=(text,))
