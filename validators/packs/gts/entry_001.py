"""GTS-ENTRY-001: no unit sets up on, or within two hexes of, an enemy reinforcement entry hex."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from model.base import Node
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS, arrivals, counter, location, param
from validators.rule import Rule

APPROACH = 2  # "within two hexes of an enemy reinforcement entry hex" [14.1]


@dataclass(frozen=True)
class EntryHex:
    """A reinforcement entry hex in use in the scenario, whose it is, and where it is stated."""

    hex: Hex
    side: str
    name: str
    node: Node
    fields: tuple[str | int, ...]


def entry_hexes(ctx: RuleContext) -> Iterator[EntryHex]:
    """The scenario's reinforcement entry hexes with their side: those its special rules
    declare (``params.entry_hexes``, location ids) and those its arrivals enter at (an entry
    ``hex``/``hexes`` or ``location``). Landings on a beach and drops into a zone are not
    reinforcement hexes (Excl 4.5, 3.2). A hex whose side cannot be told is skipped."""
    scen = ctx.scenario
    assert scen is not None
    declared = param(ctx, "entry_hexes", []) or []
    for i, loc_id in enumerate(declared if isinstance(declared, list) else []):
        loc = location(ctx, str(loc_id))
        if loc is None or not loc.side:
            continue
        for h in loc.all_hexes():
            yield EntryHex(h, loc.side, loc.name, scen, ("params", "entry_hexes"))
    for s in arrivals(ctx):
        if s.kind != "reinforcement" or s.entry is None:
            continue
        sides = {c.side for c in (counter(ctx, u) for u in s.units) if c is not None and c.side}
        side = s.side or (next(iter(sides)) if len(sides) == 1 else None)
        if s.entry.location:
            loc = location(ctx, s.entry.location)
            if loc is not None and (side or loc.side):
                for h in loc.all_hexes():
                    yield EntryHex(h, str(side or loc.side), loc.name, s.entry, ("location",))
        if side is None:
            continue
        if s.entry.hex is not None:
            yield EntryHex(s.entry.hex, side, f"entry hex {ctx.label(s.entry.hex)}", s.entry, ("hex",))
        for i, h in enumerate(s.entry.hexes):
            yield EntryHex(h, side, f"entry hex {ctx.label(h)}", s.entry, ("hexes", i))


class SetupClearOfEnemyEntry(Rule):
    """No unit sets up on an enemy reinforcement entry hex (error) or within two hexes of one (warning).

    Rule case: 14.1 ("Units may never move within two hexes of an enemy reinforcement entry hex"; entry hexes 8.0)

    Why: reinforcements are placed "on the reinforcement hex marked on the map by the
    matching Divisional symbol ... Stack them all on the entry hex without regard to
    stacking limits; they start there" [8.0], and "Units may never use a Movement Action to
    enter a hex occupied by an enemy Unit, and Units may never move within two hexes of an
    enemy reinforcement entry hex" [14.1]. A unit set up on the hex blocks the arrival the
    rules promise; one set up within two hexes stands where no unit of its side could ever
    move.

    Policy: *entry-hex-setup* — the scenario's entry hexes are those its special rules
    declare (``params.entry_hexes``) and those its reinforcement arrivals name (``hex``,
    ``hexes`` or ``location``); their side is the arrival's ``side``, else its units' side,
    else the location's. Setup on an enemy entry hex is an error (8.0 puts the arrivals
    there, 14.1 forbids entering an enemy-occupied hex); within two hexes is a warning,
    since 14.1 governs movement and the rules do not speak of setup. Only exact setup
    ``hex`` placements are checked.

    Violating example:
        params: {entry_hexes: {value: [us-reinf-1]}}    # American Reinforcement Hex 1, 29.030
        setup:
        - {unit: c5-ii-919, hex: '29.030'}             # a German company on it

    Correct example:
        setup:
        - {unit: c5-ii-919, hex: '24.026'}             # ten hexes away
    """

    code = "GTS-ENTRY-001"
    name = "setup-clear-of-enemy-entry"
    severity = Severity.ERROR
    groups = ("setup", "reinforcements", "gts")
    rule_case = "14.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        entries: dict[tuple[Hex, str], EntryHex] = {}
        for e in entry_hexes(ctx):
            entries.setdefault((e.hex, e.side), e)
        if not entries:
            return
        for placed in scen.setup:
            if placed.hex is None:
                continue
            c = counter(ctx, placed.unit)
            if c is None or not c.side:
                continue
            nearest: tuple[int, EntryHex] | None = None
            for entry in entries.values():
                if entry.side == c.side:
                    continue
                d = placed.hex.distance(entry.hex)
                if d <= APPROACH and (nearest is None or d < nearest[0]):
                    nearest = (d, entry)
            if nearest is None:
                continue
            d, entry = nearest
            article = "an" if entry.side[:1].lower() in "aeiou" else "a"
            where = f"{entry.name} ({ctx.label(entry.hex)}), {article} {entry.side} reinforcement entry hex"
            if d == 0:
                yield ctx.finding(self, f"{placed.unit} ({c.side}) sets up on {where}, where the arrivals are "
                                  "placed [8.0]", placed, "hex",
                                  hexes=(placed.hex,), units=(placed.unit,), policy="entry-hex-setup")
            else:
                yield ctx.finding(self, f"{placed.unit} ({c.side}) sets up {d} hex{'es' if d > 1 else ''} from {where}, "
                                  "where 14.1 lets no unit of its side move", placed, "hex",
                                  hexes=(placed.hex, entry.hex), units=(placed.unit,), severity=Severity.WARNING,
                                  policy="entry-hex-setup")
