"""CORE-REF-007."""

from __future__ import annotations

from typing import Iterable

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class DefinitionIdsUnique(Rule):
    """Boxes, named locations, areas, drop zones and beaches each have an id used by one definition only.

    Rule case: Hexproof bundle format (ids of named definitions)

    Why: A reference must resolve to exactly one definition. Two locations (map or scenario)
    with the same id, or two zones with one id, make every reference to that id ambiguous.

    Violating example:
        drop_zones:
        - {id: dz-a, name: DZ A, hexes: ['0502']}
        - {id: dz-a, name: DZ A again, hexes: ['0503']}

    Correct example:
        drop_zones:
        - {id: dz-a, name: DZ A, hexes: ['0502']}
        - {id: dz-b, name: DZ B, hexes: ['0503']}
    """

    code = "CORE-REF-007"
    name = "definition-ids-unique"
    severity = Severity.ERROR
    groups = ("references",)
    rule_case = "Hexproof bundle format"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        groups: dict[str, list[Node]] = {
            "box": list(ctx.bundle.game.boxes),
            "location": list(ctx.bundle.locations(scen)),
            "area": list(ctx.hmap.areas),
            "drop zone": list(scen.drop_zones),
            "beach": list(scen.beach_overlays) + [sb for o in scen.beach_overlays for sb in o.sub_beaches],
        }
        for kind, nodes in groups.items():
            seen: dict[str, Node] = {}
            for node in nodes:
                ident = getattr(node, "id")
                if ident in seen:
                    first = ctx.bundle.locate(seen[ident], "id").render()
                    yield ctx.finding(self, f"{kind} id {ident!r} is defined twice (first at {first})", node, "id")
                else:
                    seen[ident] = node
