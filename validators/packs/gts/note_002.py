"""GTS-NOTE-002: every off-map Artillery Park or command post states its terrain."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule

# Off-map holding places whose occupants are fired at or command from, so their terrain matters.
OFF_MAP_KINDS = frozenset({"artillery_park", "command_post"})
NO_TERRAIN = "none"


class OffMapTerrainStated(Rule):
    """An off-map Artillery Park or command post says what terrain its units are in:
    a box flag ``terrain:<terrain id>``, or ``terrain:none`` for "no terrain modifiers".

    Rule case: Err Intro#1/#2 ("There are no terrain modifiers for off-map artillery parks in this scenario")

    Why: the Introductory scenarios put Artillery Parks off the map without saying what terrain
    their units get when fired at; the errata had to add the clarification twice (S4, S6), and
    Heyna's off-map command post raised the same question (S21). A box that states its terrain
    answers it before print.

    Policy: "off-map-terrain-flag": boxes of kind ``artillery_park`` or ``command_post`` must carry
    exactly one ``terrain:`` flag naming a terrain type of the system, or ``terrain:none``.

    Violating example: ``{id: div-4-artillery-park, kind: artillery_park}`` with no flags.

    Correct example: ``{id: div-4-artillery-park, kind: artillery_park, flags: ['terrain:none']}``.
    """

    code = "GTS-NOTE-002"
    name = "off-map-terrain-stated"
    severity = Severity.WARNING
    groups = ("scenario-text", "gts")
    rule_case = "Err Intro#1/#2"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        terrain_ids = set(ctx.system.terrain_by_id)
        for box in ctx.bundle.game.boxes:
            if box.kind not in OFF_MAP_KINDS:
                continue
            stated = [f.split(":", 1)[1].strip() for f in box.flags if f.startswith("terrain:")]
            if not stated:
                yield ctx.finding(self, f"off-map box {box.id} ({box.kind}) does not state its terrain "
                                  "(flag terrain:<id> or terrain:none)", box, policy="off-map-terrain-flag")
            elif len(stated) > 1:
                yield ctx.finding(self, f"off-map box {box.id} states its terrain {len(stated)} times: {', '.join(stated)}",
                                  box, "flags", policy="off-map-terrain-flag")
            elif stated[0] != NO_TERRAIN and stated[0] not in terrain_ids:
                yield ctx.finding(self, f"off-map box {box.id} names terrain {stated[0]!r}, which the system does not define",
                                  box, "flags", policy="off-map-terrain-flag")
