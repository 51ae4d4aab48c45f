"""SFN-SETUP-005."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic
from validators.context import RuleContext
from validators.packs.sfn._sfn import SYSTEMS, setup_code, starts_reduced
from validators.rule import Rule


class AsteriskStartsReduced(Rule):
    """A unit whose printed set-up code carries an asterisk starts reduced; no other does.

    Rule case: SFN 3.4
    Why: "German Divisions marked with their set up hexes followed by an asterisk begin play
    already reduced to one-step strength" (and 2.5: the 10th SS starts in the South box at one step).
    Violating example: the 10th SS Panzer (printed S*) in the South box with no ``state: [reduced]``.
    Correct example: ``{unit: de-10-ss-pz, box: south, state: [reduced]}``.
    """

    code = "SFN-SETUP-005"
    name = "asterisk-starts-reduced"
    groups = ("setup",)
    rule_case = "SFN 3.4"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        for entry in scen.setup:
            unit = ctx.counters.get(entry.unit)
            if unit is None:
                continue
            reduced = "reduced" in entry.state
            if starts_reduced(unit) and not reduced:
                yield ctx.finding(self, f"{entry.unit} is printed {setup_code(unit)}: it begins play reduced "
                                  "(add state: [reduced])", entry, units=[entry.unit])
            elif reduced and not starts_reduced(unit) and unit.side == "german":
                yield ctx.finding(self, f"{entry.unit} starts reduced but its printed code "
                                  f"{setup_code(unit) or '(blank)'} has no asterisk", entry, "state", units=[entry.unit])
