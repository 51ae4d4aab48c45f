"""GTS-DZ-007: the straggler recovery table has one outcome for every roll and track value."""

from __future__ import annotations

from typing import Any, Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._data import data_param, roll_faces
from validators.rule import Rule
from validators.packs.gts._gts import SYSTEMS

# Rolls are compared with the Battalion Straggler Track; a track at 0 takes no more rolls
# (Excl 3.4.2) and any value of 9 or more compares alike with faces 0-9, so 1..10 is exhaustive.
TRACK_VALUES = range(1, 11)
FACES = range(0, 10)


def matches(row: dict[str, Any], roll: int, track: int) -> bool:
    return _matches(roll_faces(row.get("roll")), str(row.get("track", "any")), roll, track)


def _matches(faces: list[int] | None, rel: str, roll: int, track: int) -> bool:
    """:func:`matches` with the row's faces and comparison already read (the table has 100 cells)."""
    if faces is None or roll not in faces:
        return False
    return {"le": roll <= track, "gt": roll > track, "any": True}.get(rel, False)


class StragglerRecoveryTable(Rule):
    """Enumerate every (modified roll 0–9) × (Battalion Straggler Track 1–10) cell of the
    straggler recovery table (``straggler_recovery``): each cell matches at least one row, and
    a cell matched by several rows is settled by the declared ``precedence``.

    Rule case: Excl 3.4.2 (errata 3.4.2(iii): "This rule takes precedence over all other
    Straggler Recovery outcomes")

    Why: as printed, a modified 9 against a track of 9 or more meets both (i) "equal to or
    less than the track" (recover, roll again) and (iii) "nine or greater" (fail, stop): two
    outcomes for one roll (errata R5). Enumerating the table finds every such cell.

    Policy: rows list faces (``roll``) and a comparison with the track (``track: le | gt |
    any``); the first row of ``precedence`` that matches a cell wins; rows not listed rank
    equally, so two of them matching one cell is an overlap.

    Violating example: rows (i) ``{roll: [1, 9], track: le}`` and (iii) ``{roll: 9, track: any}``
    with no ``precedence``.

    Correct example: the same rows with ``precedence: [iii]``.
    """

    code = "GTS-DZ-007"
    name = "straggler-recovery-table"
    severity = Severity.ERROR
    groups = ("airborne", "tables", "gts")
    rule_case = "Excl 3.4.2"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        table, node, fields = data_param(ctx, "straggler_recovery")
        if not isinstance(table, dict):
            return
        rows = [r for r in table.get("rows", []) or [] if isinstance(r, dict)]
        precedence = [str(p) for p in table.get("precedence", []) or []]
        gaps: list[str] = []
        overlaps: dict[tuple[str, ...], list[str]] = {}
        parsed = [(str(r.get("id")), roll_faces(r.get("roll")), str(r.get("track", "any"))) for r in rows]
        for roll in FACES:
            for track in TRACK_VALUES:
                hit = [rid for rid, faces, rel in parsed if _matches(faces, rel, roll, track)]
                if not hit:
                    gaps.append(f"{roll}/{track}")
                    continue
                if len(hit) == 1 or any(p in hit for p in precedence):
                    continue
                overlaps.setdefault(tuple(hit), []).append(f"{roll}/{track}")
        if gaps:
            yield ctx.finding(self, f"straggler recovery: no row applies to roll/track {', '.join(gaps[:6])}"
                              + (f" and {len(gaps) - 6} more" if len(gaps) > 6 else ""), node, *fields)
        for ids, cells in sorted(overlaps.items()):
            yield ctx.finding(self, f"straggler recovery rows {', '.join(ids)} all apply to roll/track "
                              f"{', '.join(cells[:4])}{' …' if len(cells) > 4 else ''} and no precedence is declared",
                              node, *fields)
