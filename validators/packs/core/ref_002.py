"""CORE-REF-002."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.core._scan import entries
from validators.rule import Rule


class BoxReferenceResolves(Rule):
    """Every off-map box a setup line or schedule entry names is defined in game.yaml.

    Rule case: Hexproof bundle format (game.yaml boxes)

    Why: Units set up in, or enter from, a holding or off-map box that the bundle does not
    define have nowhere to be; the editor cannot draw them and play cannot move them.

    Violating example:
        schedule:
        - {turn: 2, units: [a1], entry: {box: scotland}}   # game.yaml defines only england

    Correct example:
        schedule:
        - {turn: 2, units: [a1], entry: {box: england}}
    """

    code = "CORE-REF-002"
    name = "box-reference-resolves"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        boxes = {b.id for b in ctx.bundle.game.boxes}
        for e in ctx.scenario.setup:
            if e.box is not None and e.box not in boxes:
                yield ctx.finding(self, f"box {e.box!r} is not defined in game.yaml", e, "box", units=(e.unit,))
        for entry, sched in entries(ctx.scenario):
            if entry.box is not None and entry.box not in boxes:
                yield ctx.finding(self, f"box {entry.box!r} is not defined in game.yaml", entry, "box")
