"""GTS-DZ-002: sticks per drop fit the zone; overlapping zones are checked together."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, turn_no, zone_hexes
from validators.rule import Rule


class StickCapacity(Rule):
    """The sticks of a drop fit in separate hexes of the zone; drops on the same turn into
    overlapping zones (DZ B/LZ W, DZ C/LZ E) share the hexes they have in common.

    Rule case: Excl 3.3 (B: "Each arriving Unit must be placed in a separate hex from other sticks")

    Why: each stick needs its own hex; more sticks than hexes cannot be placed.

    Policy: overlapping zones on the same turn are checked by a matching between sticks and
    the union of their zones' hexes (each stick needs a hex of its own zone).

    Violating example: ten sticks into DZ A (9 hexes).

    Correct example: six sticks into DZ A.
    """

    code = "GTS-DZ-002"
    name = "stick-capacity"
    severity = Severity.ERROR
    groups = ("airborne", "gts")
    rule_case = "Excl 3.3"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        by_turn: dict[int, list] = {}
        for s in scen.schedule:
            if s.drop is None:
                continue
            hexes = zone_hexes(ctx, s.drop.zone)
            if hexes is None:
                continue  # GTS-DZ-001
            n = len(s.drop.sticks)
            if n > len(hexes):
                yield ctx.finding(self, f"{n} sticks dropped into {s.drop.zone}, which has {len(hexes)} hexes",
                                  s.drop, "sticks")
                continue
            t = turn_no(ctx, s.turn)
            if t is not None:
                by_turn.setdefault(t, []).append((s, hexes))
        for t, drops in by_turn.items():
            if len(drops) < 2:
                continue
            slots: list[set] = []
            for s, hexes in drops:
                slots.extend(set(hexes) for _ in s.drop.sticks)
            if _matching(slots) < len(slots):
                s = drops[-1][0]
                yield ctx.finding(self, f"sticks dropping at {s.turn} into overlapping zones "
                                  f"({', '.join(d.drop.zone for d, _ in drops)}) cannot each get a hex of their own",
                                  s.drop, "sticks", turns=(t,))


def _matching(slots: list[set]) -> int:
    """Size of a maximum matching stick → hex (Kuhn's algorithm; zones are small)."""
    owner: dict = {}

    def augment(i: int, seen: set) -> bool:
        for h in slots[i]:
            if h in seen:
                continue
            seen.add(h)
            if h not in owner or augment(owner[h], seen):
                owner[h] = i
                return True
        return False

    return sum(1 for i in range(len(slots)) if augment(i, set()))
