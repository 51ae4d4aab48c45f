"""GTS-NOTE-001: every setup notation a scenario uses ("*", dot-underline) is in its legend."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, param
from validators.rule import Rule


class NotationLegend(Rule):
    """A scenario that marks a setup entry with ``*`` (``off_map_star: true``) or a
    dot-underline (``state: [dot-underlined]``) defines that mark in
    ``params.notation_legend``.

    Rule case: Err General (Scenario Books, p.2: "If there is an * with the starting location
    of a unit, it indicates that the historical location of the unit was off the scenario map")

    Why: the scenario books used "*" without ever defining it (errata G3) and the
    dot-underline likewise (S13); a mark without a legend is noise to the player.

    Violating example: ``{unit: c5-ii-919, hex: '31.030', off_map_star: true}`` and no
    ``notation_legend``.

    Correct example: ``notation_legend: {'*': historical location off the scenario map}``.
    """

    code = "GTS-NOTE-001"
    name = "notation-legend"
    severity = Severity.WARNING
    groups = ("scenario-text", "gts")
    rule_case = "Err General"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        legend = param(ctx, "notation_legend", {}) or {}
        for i, e in enumerate(scen.setup):
            used = (["*"] if e.off_map_star else []) + (["dot-underline"] if "dot-underlined" in e.state else [])
            for mark in used:
                if not legend.get(mark):
                    yield ctx.finding(self, f"{e.unit} is marked {mark!r} but the scenario's notation_legend does not "
                                      "define it", e, "off_map_star" if mark == "*" else "state", units=(e.unit,))
