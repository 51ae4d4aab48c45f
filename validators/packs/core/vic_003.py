"""CORE-VIC-003."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.rule import Rule


class VictorySide(Rule):
    """A victory condition's ``side`` is one of the game system's sides.

    Rule case: SFN 4.6 ("If that total is 11 or more, the German player is declared the winner"); TKG [25.1.1] ("Victory Determination")

    Why: a condition for a side the game does not have (``americans`` where the system's
    sides are ``allied`` and ``german``) is read by nobody: neither player can win by it,
    and play mode cannot tell whose condition it is.

    Violating example:
        victory:
        - {side: americans, text: Clear the beach}

    Correct example:
        victory:
        - {side: allied, text: Clear the beach}     # or no side: the condition is for both
    """

    code = "CORE-VIC-003"
    name = "victory-side"
    severity = Severity.ERROR
    groups = ("victory", "references")
    rule_case = "SFN 4.6; TKG [25.1.1]"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        sides = ctx.system.side_by_id
        for v in ctx.scenario.victory:
            if v.side is not None and v.side not in sides:
                yield ctx.finding(self, f"victory condition side {v.side!r} is not a side of {ctx.system.name} "
                                        f"({', '.join(sides)})", v, "side")
