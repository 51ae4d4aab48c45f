"""GTS-DZ-006: every Drop Table result that takes units off the map says where they go."""

from __future__ import annotations

import re
from typing import Any, Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._data import data_param
from validators.packs.gts._gts import SYSTEMS, counter, sys_param
from validators.rule import Rule

REMOVING = frozenset({"replace", "eliminate"})


def result_codes(table: Any) -> set[str]:
    """Base result codes of the Drop Table columns: ``1*(DD)`` → ``1*``, ``R(D)`` → ``R``."""
    out: set[str] = set()
    if not isinstance(table, dict):
        return out
    for column in ("para", "glider"):
        for cell in table.get(column, []) or []:
            out.add(re.sub(r"\(.*\)$", "", str(cell)).strip())
    return out


class StragglerConservation(Rule):
    """Counter conservation over the drop data: each Drop Table result code has an entry in
    ``drop_results``; a result that takes units off the map (``replace``, ``eliminate``)
    names the box they go to (``removed_to``), and every airborne division dropping in the
    scenario has a box of that kind.

    Rule case: Excl 3.3.1 (errata: R result — "Place the replaced Units in the Straggler box
    on the parent Airborne Divisional Display"; Excl 3.4.1 and 3.4.3 bring them back)

    Why: the printed R result replaced units with Rearguards but never said where the replaced
    units went, so they could never return through the straggler rules (errata R4). Units that
    leave the map without a destination vanish from the counter mix.

    Policy: a box belongs to a division when the division's name is in the box's name
    ("101st Airborne Division Straggler box"). The E result is checked even though no printed
    Drop Table cell shows it (digest §11.2).

    Violating example: ``drop_results: {R: {effect: replace}}`` (no ``removed_to``), or no
    ``kind: straggler`` box for the 101st Airborne Division.

    Correct example: ``R: {effect: replace, removed_to: straggler, rule: Excl 3.3.1}`` and
    ``{id: div-101-stragglers, kind: straggler, name: 101st Airborne Division Straggler box}``.
    """

    code = "GTS-DZ-006"
    name = "straggler-conservation"
    severity = Severity.ERROR
    groups = ("airborne", "gts")
    rule_case = "Excl 3.3.1"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        drops = [s for s in scen.schedule if s.drop is not None]
        if not drops:
            return
        results, node, fields = data_param(ctx, "drop_results")
        if not isinstance(results, dict):
            yield ctx.finding(self, "no drop_results: the Drop Table's results have no effects in the data",
                              ctx.system, "params")
            return
        codes = result_codes(sys_param(ctx, "drop_table")) | {"E"}
        for code in sorted(codes - set(results)):
            yield ctx.finding(self, f"Drop Table result {code!r} has no entry in drop_results", node, *fields)
        kinds: set[str] = set()
        for code, effect in sorted(results.items()):
            if not isinstance(effect, dict) or effect.get("effect") not in REMOVING:
                continue
            dest = effect.get("removed_to")
            if not dest:
                yield ctx.finding(self, f"Drop Table result {code}: units are taken off the map "
                                  f"({effect.get('effect')}) but drop_results names no box they go to",
                                  node, *fields, code)
                continue
            kinds.add(str(dest))
        divisions = sorted({c.division for s in drops for u in s.units
                            if (c := counter(ctx, u)) is not None and c.division})
        for kind in sorted(kinds):
            for div in divisions:
                if not any(b.kind == kind and div in b.name for b in ctx.bundle.game.boxes):
                    yield ctx.finding(self, f"{div} drops in this scenario but has no {kind!r} box for units "
                                      "removed by the Drop Table", ctx.bundle.game, "boxes")
