"""TKG-SET-021."""

from __future__ import annotations

from typing import Iterable, Mapping

from model.counters import Counter
from model.diagnostics import Diagnostic, Severity
from model.hexes import Hex
from model.scenario import ScheduleEntry
from validators.context import RuleContext
from validators.packs.core._scan import ARRIVALS, WITHDRAWALS
from validators.packs.tkg._tkg import entry_hexes, param, tags
from validators.rule import Rule


class GermanArtilleryReleaseWithHq(Rule):
    """German artillery released from the Holding Box goes on or next to its parent corps HQ (any German HQ for non-corps artillery), and corps artillery other than XXV Corps needs its parent HQ on the map.

    Digest §8: SET-21 (scope corrected: the case governs the release, not the set-up).

    Rule case: TKG [18.6.2]

    Why: "When German artillery units are placed on the map from the Holding Box: • Corps
    artillery units are placed on or adjacent their parent HQ. • Non-Corps artillery may be
    placed on or adjacent to any German HQ. • German Corps designated artillery (except for the
    XXV Corps) must have their parent HQ on map before they can be placed on the map" [18.6.2].
    The initial set-up has no such requirement: units are placed "on the map or Turn Record
    Track depending on the scenario instructions" [25.1.6], so set-up entries are not checked
    (the code keeps its SET- prefix because codes are stable).

    Violating example:
        setup: [{unit: de_84_corps_hq, hex: W3826}]
        schedule: [{turn: 30, kind: release, side: german, units: [de_84_arty], entry: {hex: W3830}}]

    Correct example:
        setup: [{unit: de_84_corps_hq, hex: W3826}]
        schedule: [{turn: 30, kind: release, side: german, units: [de_84_arty], entry: {hex: W3827}}]

    Policy: *release-entries*: a schedule entry of kind ``release`` that puts a German
    artillery unit (category tagged ``artillery``) on map hexes is a release from the Holding
    Box. Corps artillery has a counter value ``corps``; its parent HQ is the German HQ counter
    with the same ``corps``; the exempt corps are the system's ``corps_artillery_exempt_corps``
    (XXV), exempt from the third point only. *hq-position-known*: an HQ's hex on the release
    turn is known only from its set-up ``hex`` when the release is on the scenario's first turn
    and from a same-turn arrival at one exact hex (reinforcements and releases both happen in
    the Replacement Segment, L1511); otherwise the placement is a play-time fact and is not
    checked. The parent HQ is "not on map" when it has neither a set-up entry nor an arrival on
    or before the release turn, or has withdrawn by then. *xxv-corps-artillery-placement*:
    exempt corps artillery whose parent HQ is not on the map has no placement the case states;
    it is reported as info, not checked.
    """

    code = "TKG-SET-021"
    name = "german-corps-artillery-with-hq"
    severity = Severity.ERROR
    groups = ("schedule",)
    rule_case = "TKG [18.6.2]"
    systems = ("tkg",)

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        scen = ctx.scenario
        assert scen is not None
        exempt = {str(x) for x in param(ctx, "corps_artillery_exempt_corps", default=[]) or []}
        hqs = [c for c in ctx.counters.values() if c.side == "german" and "hq" in tags(ctx, c)]
        hq_of = {str(c.front.values["corps"]): c for c in hqs if c.front.values.get("corps")}
        first = ctx.turn_number(scen.turns.first) if scen.turns is not None else None
        set_up = {e.unit for e in scen.setup}
        setup_hex = {e.unit: e.hex for e in scen.setup if e.hex is not None}
        timed = [(ctx.turn_number(s.turn), s) for s in scen.schedule]
        for n, e in timed:
            if e.kind != "release" or n is None:
                continue
            targets = entry_hexes(e.entry)
            if not targets:
                continue  # a release into a box is not a placement on the map
            for c in (ctx.counters.get(u) for u in e.units):
                if c is None or c.side != "german" or "artillery" not in tags(ctx, c):
                    continue
                yield from self._release(ctx, e, n, c, targets, hqs, hq_of, exempt, first, set_up, setup_hex, timed)

    def _release(self, ctx: RuleContext, e: ScheduleEntry, n: int, c: Counter, targets: list[Hex],
                 hqs: list[Counter], hq_of: dict[str, Counter], exempt: set[str], first: int | None,
                 set_up: set[str], setup_hex: Mapping[str, Hex],
                 timed: list[tuple[int | None, ScheduleEntry]]) -> Iterable[Diagnostic]:
        corps = c.front.values.get("corps")
        if corps is not None and str(corps) == "unknown":
            return  # the corps is not known: which point of [18.6.2] applies is not known
        where = ", ".join(ctx.label(h) for h in targets)

        def known_hex(hq: Counter) -> Hex | None:
            """The HQ's hex on turn ``n`` when the scenario data fixes it (policy hq-position-known)."""
            for m, s in timed:
                hexes = entry_hexes(s.entry)
                if m == n and hq.id in s.units and (s.kind in ARRIVALS or s.kind == "release") and len(hexes) == 1:
                    return hexes[0]
            return setup_hex.get(hq.id) if n == first else None

        def on_map_possible(hq: Counter) -> bool:
            events = sorted(((m, s.kind) for m, s in timed if m is not None and m <= n and hq.id in s.units
                             and (s.kind in ARRIVALS or s.kind in WITHDRAWALS or s.kind == "release")),
                            key=lambda t: t[0])
            if events and events[-1][1] in WITHDRAWALS:
                return False
            return hq.id in set_up or bool(events)

        if corps:
            hq = hq_of.get(str(corps))
            present = hq is not None and on_map_possible(hq)
            if not present:
                if str(corps) in exempt:
                    yield ctx.finding(self, f"{c.name} ({corps} Corps, exempt from the parent-HQ requirement) is "
                                            f"released onto {where} with its HQ not on the map: [18.6.2] states no "
                                            "placement for it; not checked", e, "entry", units=(c.id,),
                                      hexes=targets, turns=(n,), severity=Severity.INFO,
                                      policy="xxv-corps-artillery-placement")
                else:
                    yield ctx.finding(self, f"{c.name}: its parent {corps} Corps HQ must be on the map before it is "
                                            "placed on the map from the Holding Box [18.6.2]", e, "entry",
                                      units=(c.id,), hexes=targets, turns=(n,), policy="release-entries")
                return
            assert hq is not None
            at = known_hex(hq)
            if at is not None and any(at.distance(h) > 1 for h in targets):
                yield ctx.finding(self, f"{c.name} released onto {where}, not on or adjacent to its parent HQ "
                                        f"{hq.name} ({ctx.label(at)}) [18.6.2]", e, "entry", units=(c.id, hq.id),
                                  hexes=targets, turns=(n,), policy="hq-position-known")
            return
        known = [h for h in (known_hex(hq) for hq in hqs) if h is not None]
        unknown_any = len(known) < len([hq for hq in hqs if on_map_possible(hq)])
        if known and not unknown_any and any(min(k.distance(h) for k in known) > 1 for h in targets):
            yield ctx.finding(self, f"{c.name} (non-corps artillery) released onto {where}, not on or adjacent to "
                                    "any German HQ [18.6.2]", e, "entry", units=(c.id,), hexes=targets, turns=(n,),
                              policy="hq-position-known")
