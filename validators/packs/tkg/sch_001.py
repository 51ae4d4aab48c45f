"""TKG-SCH-001."""

from __future__ import annotations

from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.tkg._tkg import param
from validators.rule import Rule


# What the play engine cannot do without: the turns to play and units on the map. A gap here
# is a warning (the scenario cannot be test-played as given); every other gap is information
# for the designer, listed once per scenario.
PLAY_NEEDS = ("scenario_length", "unit_setup")
PLAY_POLICY = "play-needs-turns-and-units: only a gap that stops test play (no turns, no unit setup) is a warning"


class ScenarioElementsPresent(Rule):
    """Report the [25.1.1] scenario elements (and the Victory Level Schedule) that a scenario does not give.

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

    Policy: one finding per scenario lists its gaps: the [25.1.1] elements the rules do not give,
    and apart from them the other gaps it declares (which [25.1.1] does not name). It is an
    INFO, or a WARNING when a gap stops test play — no scenario length, no unit setup
    (play-needs-turns-and-units). An element the scenario holds after all (a variant that
    adds a setup to a base that declares none) is not a gap. Elements the model holds
    directly (turns, weather, playable sheets, setup, special rules, victory) that are
    neither given nor declared in ``missing:`` are warnings: the data says nothing about them.
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
        known = list((param(ctx, "scenario_elements", default={}) or {}).get("items", []))
        given = {
            "scenario_length": s.turns is not None,
            "weather": bool(s.weather),
            "map_setup": s.playable is not None and bool(s.playable.sheets),
            "unit_setup": bool(s.setup),
            "special_rules": bool(s.special_rules),
            "victory_determination": bool(s.victory),
        }
        gaps = [m for m in dict.fromkeys(s.missing) if not given.get(m, False)]
        elements = [m for m in gaps if m in known]
        others = [m for m in gaps if m not in known]

        def words(items: list[str]) -> str:
            return ", ".join(m.replace("_", " ") for m in items)

        if gaps:
            parts = [f"not given by the rules: {words(elements)}"] if elements else []
            if others:
                parts.append(f"also declared missing, beyond the [25.1.1] list: {words(others)}")
            stops = [m for m in PLAY_NEEDS if m in gaps]
            if stops:  # one finding a scenario: a warning when the gaps stop test play, else information
                parts.append(f"it cannot be test-played as the rules give it: no {words(stops)}")
            yield ctx.finding(self, f"scenario {s.id!r}: " + "; ".join(parts), s, "missing",
                              severity=Severity.WARNING if stops else Severity.INFO,
                              policy=PLAY_POLICY if stops else None)
        for item, ok in given.items():
            if not ok and item not in s.missing:
                yield ctx.finding(self, f"scenario {s.id!r}: {item.replace('_', ' ')} is neither given nor declared "
                                        "in missing:", s)
