"""TKG-SCH-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule


class ScenarioElementsPresent(Rule):
    """Report every [25.1.1] scenario element (and the Victory Level Schedule) that the scenario does not give.

    Digest §8: SCH-01.

    Rule case: TKG [25.1.1]

    Why: [25.1.1] says every scenario "will contain" length, weather, map setup, start
    line, unit setup, IP setup, logistics, air availability, special rules and victory
    determination; victory is read on the scenario's Victory Level Schedule [24.6.1]. The
    draft gives these only partly (only 25.4 has logistics), so a designer must see, per
    scenario, what is still to be written.

    Violating example:
        id: breakout
        turns: {first: 42, last: 57}
        missing: [unit_setup, victory_level_schedule]

    Correct example:
        # a finished scenario: every element given, `missing:` empty

    Policy: WARNING, not error: the gaps are in the rulebook itself, and the sample must
    still load and play. Each gap is declared once in ``missing:``; elements the model
    holds directly (turns, weather, playable sheets, start lines or control areas, special
    rules, victory) that are
    neither given nor declared are reported too.
    """

    code = "TKG-SCH-001"
    name = "scenario-elements-present"
    severity = Severity.WARNING
    groups = ("scenario",)
    rule_case = "TKG [25.1.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        s = ctx.scenario
        assert s is not None
        known = set((param(ctx, "scenario_elements", default={}) or {}).get("items", []))
        for i, item in enumerate(s.missing):
            extra = "" if item in known else " (not a [25.1.1] element)"
            yield ctx.finding(self, f"scenario {s.id!r}: {item.replace('_', ' ')} is not given by the rules{extra}",
                              s, "missing", i)
        given = {
            "scenario_length": s.turns is not None,
            "weather": bool(s.weather),
            "map_setup": s.playable is not None and bool(s.playable.sheets),
            "start_line_and_control": s.start_lines is not None or s.control_areas is not None,
            "unit_setup": bool(s.setup),
            "special_rules": bool(s.special_rules),
            "victory_determination": bool(s.victory),
        }
        for item, ok in given.items():
            if not ok and item not in s.missing:
                yield ctx.finding(self, f"scenario {s.id!r}: {item.replace('_', ' ')} is neither given nor declared "
                                        "in missing:", s)
