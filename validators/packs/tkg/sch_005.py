"""TKG-SCH-005."""

from __future__ import annotations

from typing import Iterable

from model.bundle import Box
from model.counters import Counter, normalize_name
from model.diagnostics import Diagnostic, Severity
from model.scenario import ScheduleEntry
from validators.context import RuleContext
from validators.packs.tkg._tkg import logistics, nation_group, param, schedule_units, tags
from validators.rule import Rule

# German reinforcements come onto the map through these [18.4.1], [18.4.2], L1564-1565.
GERMAN_ENTRY_KINDS = ("omm", "transit", "rail")


class ReinforcementEntryBox(Rule):
    """German arrivals through a box name an OMM, Transit or Rail box (artillery may also wait in the German Holding Box); Allied arrivals name their own nation's Floating Reserve, and British AGRA units the Allied Holding Box.

    Digest §8: SCH-05.

    Rule case: TKG [18.4.1], [18.1.3], [18.6.2], [18.3.1]

    Why: German reinforcements "arrive in the OMM Map boxes" or, in single-map play, the
    Off-map Movement Transit Display or the Rail Reinforcement Box (L1565, [18.4.1],
    [18.4.2]); but "Until V Panzer Army is Committed, German artillery reinforcements may be
    placed in the German Holding Box upon their arrival" [18.6.2], and once it is Committed
    they "no longer go to the Holding Box" (L947). Allied reinforcements go to "British/Canadian
    reinforcements to the Commonwealth Floating Reserve box and U.S. reinforcements to the U.S.
    Floating Reserve box" [18.1.3]; British AGRA units "arrive as reinforcements where they are
    placed into the holding box. (Exception: The 9th AGRA arrives as a normal reinforcement in
    the Commonwealth Floating Reserve)" [18.3.1].

    Violating example:
        schedule: [{turn: 31, side: german, units: [de_2ss_d], entry: {box: fr_us}}]

    Correct example:
        schedule: [{turn: 31, side: german, units: [de_84_arty], entry: {box: german_holding}}]

    Policy: *holding-box-until-committed*: a German artillery unit (category tagged
    ``artillery``) may arrive in a ``holding`` box of its own side unless the scenario's
    ``params.german.logistics_state`` is ``Committed`` (L947); a state that changes during play
    (the V Panzer Army roll, L941) is not known to the validator, so an arrival while the
    scenario starts In-Reserve is accepted. *agra-by-flag*: AGRA units are counters with the
    flag ``agra``; those named (by printed name) in the system's
    ``agra_floating_reserve_units`` (the 9th AGRA) arrive as normal reinforcements through the
    Commonwealth Floating Reserve. Allied entries may also name a landing box (checked by
    TKG-SCH-007) or hold a hex (TKG-SCH-008).
    """

    code = "TKG-SCH-005"
    name = "reinforcement-entry-box"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "TKG [18.4.1], [18.1.3], [18.6.2], [18.3.1]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        assert ctx.scenario is not None
        committed = (logistics(ctx, "german") or "").lower() == "committed"
        normal_agra = {normalize_name(str(n)) for n in param(ctx, "agra_floating_reserve_units", "names",
                                                              default=[]) or []}
        for e in ctx.scenario.schedule:
            if e.entry is None or e.entry.box is None or e.kind != "reinforcement":
                continue
            box = ctx.bundle.box(e.entry.box)
            if box is None:
                continue  # CORE-REF-002 reports unknown boxes
            for c in schedule_units(ctx, e):
                if c.side == "german":
                    yield from self._german(ctx, e, box, c, committed)
                elif c.side == "allied":
                    yield from self._allied(ctx, e, box, c, normal_agra)

    def _german(self, ctx: RuleContext, e: ScheduleEntry, box: Box, c: Counter,
                committed: bool) -> Iterable[Diagnostic]:
        if box.kind in GERMAN_ENTRY_KINDS:
            return
        artillery = "artillery" in tags(ctx, c)
        own_holding = box.kind == "holding" and box.side in (None, c.side)
        if artillery and own_holding:
            if committed:
                yield ctx.finding(self, f"German {c.name} arrives in {box.name}, but V Panzer Army is Committed: "
                                        "artillery reinforcements no longer go to the Holding Box (L947)",
                                  e.entry, "box", units=(c.id,), policy="holding-box-until-committed")
            return
        also = "; artillery may also wait in the German Holding Box [18.6.2]" if artillery else ""
        yield ctx.finding(self, f"German {c.name} enters through {box.kind} box {box.id!r}; use an OMM, "
                                f"Transit or Rail box [18.4.1]{also}", e.entry, "box", units=(c.id,))

    def _allied(self, ctx: RuleContext, e: ScheduleEntry, box: Box, c: Counter,
                normal_agra: set[str]) -> Iterable[Diagnostic]:
        if "agra" in c.flags and c.normalized_name not in normal_agra:
            # [18.3.1]: an AGRA reinforcement is placed into the (Allied) Holding Box.
            if not (box.kind == "holding" and box.side in (None, c.side)):
                yield ctx.finding(self, f"{c.name} is an AGRA unit: it arrives in the Allied Holding Box, not "
                                        f"{box.kind} box {box.id!r} [18.3.1]", e.entry, "box", units=(c.id,),
                                  policy="agra-by-flag")
            return
        if box.kind not in ("floating_reserve", "landing_box"):
            yield ctx.finding(self, f"Allied {c.name} enters through {box.kind} box {box.id!r}; use the "
                                    "Floating Reserve [18.1.3]", e.entry, "box", units=(c.id,),
                              policy="agra-by-flag" if "agra" in c.flags else None)
        elif nation_group(c) not in box.flags:
            yield ctx.finding(self, f"{c.name} ({nation_group(c)}) may not use {box.name} [18.1.2]",
                              e.entry, "box", units=(c.id,))
