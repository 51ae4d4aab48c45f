"""GTS-DISP-001: every US Division Display has the boxes the rules put on it."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, sys_param
from validators.rule import Rule


class DivisionDisplayTemplate(Rule):
    """Every division with an allied ``division_display`` box in ``game.yaml`` also has a box
    of each kind in the system's ``us_division_display_boxes`` (Air Support, Supplied).

    Rule case: Excl 17.1 (Fighter Bombers go "in the Air Support section on each Allied
    Divisional Display"; Excl 17.3 designates "Supplied" divisions; errata Charts: "9th
    Infantry Division Chart: Add a box for 'Air Support' and a box for 'Supplied'")

    Why: the 9th ID chart was printed without these boxes (errata C3); a display built from
    one template cannot miss one.

    Policy: a box belongs to a division when the division's name is in the box's name; the
    division of a display box is its name up to " reinforcement box" / " Division Display".

    Violating example: ``div-4-reinforcements`` and ``div-4-supplied`` but no
    ``{kind: air_support, name: 4th Infantry Division Air Support box}``.

    Correct example: all three boxes for the 4th Infantry Division.
    """

    code = "GTS-DISP-001"
    name = "division-display-template"
    severity = Severity.ERROR
    groups = ("displays", "gts")
    rule_case = "Excl 17.1"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        kinds = [str(k) for k in sys_param(ctx, "us_division_display_boxes", []) or []]
        boxes = ctx.bundle.game.boxes
        for b in boxes:
            if b.kind != "division_display" or b.side != "allied":
                continue
            div = b.name
            for tail in (" reinforcement box", " Division Display"):
                div = div.split(tail)[0]
            for kind in kinds:
                if not any(o.kind == kind and div in o.name for o in boxes):
                    yield ctx.finding(self, f"{div}: its Division Display has no {kind!r} box", b)
