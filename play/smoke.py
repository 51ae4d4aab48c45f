"""The smoke playtest: step through every turn of a scenario, set up every unit and bring
in every reinforcement at its entry point, and report what cannot happen legally.

Findings are :class:`model.diagnostics.Diagnostic` with codes ``PLAY-SMOKE-NNN`` (never
reused), the rule case where the data gives one, and file:line:col of the setup or schedule
entry at fault:

=============== ==========================================================================
PLAY-SMOKE-001  entry or setup hex is off the map
PLAY-SMOKE-002  entry or setup hex is terrain the unit may not enter
PLAY-SMOKE-003  entry hex occupied by the enemy when the unit arrives, or a set-up the
                engine cannot place (every hex of its area / "in or adjacent to" refused)
PLAY-SMOKE-004  overstacked on arrival (or at setup)
PLAY-SMOKE-005  a unit arrives twice (set up and scheduled, or scheduled twice)
PLAY-SMOKE-006  a unit arrives before it exists (not in the counter manifest, or scheduled
                before the scenario's first turn)
PLAY-SMOKE-007  an airborne drop into prohibited terrain
PLAY-SMOKE-008  a withdrawal of a unit that is not on the map
PLAY-SMOKE-009  an entry point that does not resolve (unknown box, location, zone, beach)
PLAY-SMOKE-010  a schedule entry after the scenario's last turn (never happens)
PLAY-SMOKE-011  a reinforcement that cannot reach its OMM Transit box (TKG single map [18.4.2])
PLAY-SMOKE-012  a selected optional rule the engine does not apply, or applies only in part
                (warning; each plug-in's ``optional_coverage.yaml``, at ``optional_rules.<id>``)
=============== ==========================================================================

``PLAY-INTERNAL-001`` is an engine bug met while stepping through the turns (an exception other
than ``GameError`` inside an action, see ``play/errors.py``): reported, and the run stops there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from model.bundle import Bundle
from model.calendar import resolve_turn
from model.diagnostics import Diagnostic, Severity, sort_diagnostics

from play import rules
from play.errors import INTERNAL_CODE, InternalError
from play.game import Game
from play.optional_coverage import unapplied

CODES: dict[str, tuple[str, Severity, str]] = {
    "off_map": ("PLAY-SMOKE-001", Severity.ERROR, "entry hex off the map"),
    "prohibited": ("PLAY-SMOKE-002", Severity.ERROR, "entry into prohibited terrain"),
    "blocked": ("PLAY-SMOKE-003", Severity.ERROR, "entry hex blocked"),
    "overstack": ("PLAY-SMOKE-004", Severity.ERROR, "overstacked on arrival"),
    "twice": ("PLAY-SMOKE-005", Severity.ERROR, "unit arrives twice"),
    "unknown_unit": ("PLAY-SMOKE-006", Severity.ERROR, "unit arrives before it exists"),
    "before_start": ("PLAY-SMOKE-006", Severity.ERROR, "unit arrives before it exists"),
    "drop_prohibited": ("PLAY-SMOKE-007", Severity.ERROR, "drop into prohibited terrain"),
    "not_on_map": ("PLAY-SMOKE-008", Severity.ERROR, "withdrawal of a unit not on the map"),
    "unresolved": ("PLAY-SMOKE-009", Severity.ERROR, "entry point does not resolve"),
    "no_entry": ("PLAY-SMOKE-009", Severity.ERROR, "entry point does not resolve"),
    "after_end": ("PLAY-SMOKE-010", Severity.WARNING, "scheduled after the last turn"),
    "no_transit": ("PLAY-SMOKE-011", Severity.ERROR, "reinforcement cannot reach its OMM Transit box"),
    "optional_not_applied": ("PLAY-SMOKE-012", Severity.WARNING, "optional rule not applied in test play"),
}
COVERAGE_POLICY = ("optional-rule-coverage: the engine plays only the optional rules its coverage table "
                   "marks applied; this selection is accepted but not played")
SILENT_POLICY = "smoke-engine-policy: the rules give no case for this; it is a data consistency check"


@dataclass
class SmokeReport:
    scenario: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    arrivals: int = 0
    blocked: int = 0
    overstacks: int = 0
    turns: int = 0
    optional: int = 0  # PLAY-SMOKE-012: selected optional rules not (fully) applied

    @property
    def other(self) -> int:
        return len(self.diagnostics) - self.blocked - self.overstacks - self.optional

    def row(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "turns": self.turns, "arrivals": self.arrivals,
                "arrivals_blocked": self.blocked, "overstacks": self.overstacks, "other_findings": self.other,
                "optional_not_applied": self.optional}


def _diag(bundle: Bundle, game: Game, problem: str, message: str, node: Any, fieldname: str | None,
          rule: str | None, policy: str | None, unit: str | None, hexes: tuple[str, ...], turn: int | None) -> Diagnostic:
    code, sev, title = CODES[problem]
    refs: dict[str, Any] = {"units": (unit,) if unit else (), "hexes": hexes,
                            "turns": (turn,) if turn is not None else (), "scenario": game.scenario_id}
    loc = bundle.locate(node, *([fieldname] if fieldname else []), **refs)
    # The policy a finding applied is kept (every output shows it); the smoke's own data-check
    # policy only stands in where the finding has no rule case.
    return Diagnostic(code, sev, f"{title}: {message}", loc, rule_case=rule,
                      policy=policy if rule is None or policy != SILENT_POLICY else None)


def _optional_owner(bundle: Bundle, scenario_id: str, rule_id: str) -> Any:
    """The scenario file node that selects ``rule_id``: the variant itself, or the base it
    extends (so the finding points at the line that says ``rule_id: true``)."""
    sid: str | None = scenario_id
    seen: set[str] = set()
    while sid and sid in bundle.scenarios and sid not in seen:
        seen.add(sid)
        node = bundle.scenarios[sid]
        if rule_id in node.optional_rules:
            return node
        sid = node.extends
    return bundle.scenarios.get(scenario_id)


def optional_findings(bundle: Bundle, game: Game) -> list[Diagnostic]:
    """PLAY-SMOKE-012 for each selected optional rule the engine does not fully apply."""
    code, sev, title = CODES["optional_not_applied"]
    out = []
    for m in unapplied(game.system, game.scenario):
        node = _optional_owner(bundle, game.scenario_id, m.id)
        loc = bundle.locate(node, "optional_rules", m.id, scenario=game.scenario_id)
        out.append(Diagnostic(code, sev, f"{title}: {m.message}", loc, rule_case=m.rule,
                              policy=COVERAGE_POLICY if m.rule is None else None))
    return out


def smoke(bundle: Bundle, scenario_id: str, seed: int = 1) -> SmokeReport:
    game = Game(bundle, scenario_id, seed)
    game.keep_undo = False  # nothing to undo in a smoke run; saves a deep copy per phase
    report = SmokeReport(scenario_id)
    scen = game.scenario
    out: list[Diagnostic] = optional_findings(bundle, game)
    report.optional = len(out)

    # Setup: every unit in a legal hex, not overstacked, in the manifest, set up once.
    seen: set[str] = set()
    for i, entry in enumerate(scen.setup):
        unit = entry.unit
        if unit in seen:
            out.append(_diag(bundle, game, "twice", f"{unit} is set up twice", entry, "unit",
                             entry.rule, SILENT_POLICY, unit, (), game.first_turn))
        seen.add(unit)
        if unit not in game.counters:
            out.append(_diag(bundle, game, "unknown_unit", f"{unit} is not in the counter manifest", entry, "unit",
                             entry.rule, SILENT_POLICY, unit, (), game.first_turn))
            continue
        h = entry.hex  # "in or adjacent to": the engine chooses a hex, or logs setup_refused (below)
        if h is None:
            continue
        mclass = rules.movement_class(game.system, game.counters.get(unit))
        p = rules.terrain_entry_problem(game.hmap, game.system, h, mclass)
        if p is not None:
            out.append(_diag(bundle, game, p.code, f"{unit} set up in {game.label(h)}: {p.message}", entry,
                             "hex", p.rule, SILENT_POLICY, unit, (game.label(h) or "",), game.first_turn))
    for e in game.log:
        if e["type"] == "setup_refused" and isinstance(e.get("index"), int):
            entry = scen.setup[e["index"]]
            field = next((n for n in ("adjacent_to", "area", "location", "hex") if getattr(entry, n, None)), "unit")
            out.append(_diag(bundle, game, "blocked", f"{e.get('unit')}: {e.get('message', '')}", entry, field,
                             e.get("rule"), e.get("policy") or SILENT_POLICY, e.get("unit"), (), game.first_turn))
            report.blocked += 1
    stacked: set[Any] = set()
    for u in game.state.units.values():
        if u.on_map and u.hex not in stacked and u.hex is not None:
            stacked.add(u.hex)
            p = rules.stacking_problem(game.hmap, game.system, u.hex, game.state.at(u.hex), game.counters)
            if p is not None:
                ids = [x.id for x in game.state.at(u.hex)]
                node = next((e for e in scen.setup if e.unit == ids[-1]), None)
                out.append(_diag(bundle, game, "overstack", f"{', '.join(ids)} set up in {game.label(u.hex)}: {p.message}",
                                 node, "hex", p.rule, SILENT_POLICY, ids[-1], (game.label(u.hex) or "",), game.first_turn))
                report.overstacks += 1

    # Schedule entries that never fire.
    turns = game.system.calendar.all_turns
    for i, s in enumerate(scen.schedule):
        t = resolve_turn(s.turn, turns)
        if t is None:
            continue
        if t < game.first_turn and s.kind != "withdrawal":
            for unit in s.units:
                out.append(_diag(bundle, game, "before_start",
                                 f"{unit} is scheduled on turn {t}, before the scenario starts (turn {game.first_turn})",
                                 s, "turn", s.rule, SILENT_POLICY, unit, (), t))
        elif t > game.last_turn:
            out.append(_diag(bundle, game, "after_end",
                             f"turn {t} is after the scenario's last turn {game.last_turn}: "
                             f"{', '.join(s.units) or s.kind} never happens", s, "turn", s.rule, SILENT_POLICY,
                             s.units[0] if s.units else None, (), t))

    # Play every phase of every turn.
    guard = (game.last_turn - game.first_turn + 2) * (len(game.phases) + 1)
    while not game.state.over and guard > 0:
        try:
            game.apply({"do": "next_phase"})
        except InternalError as exc:
            # An engine bug while stepping: report it where the scenario starts and stop (the
            # game was rolled back, so later turns would not be the scenario's).
            loc = bundle.locate(bundle.scenarios.get(scenario_id), turns=(game.state.turn,), scenario=scenario_id)
            out.append(Diagnostic(INTERNAL_CODE, Severity.ERROR, f"smoke stopped on turn {game.state.turn}: {exc}", loc))
            break
        guard -= 1
    report.turns = game.last_turn - game.first_turn + 1
    for e in game.log:
        kind = e["type"]
        if kind == "arrive":
            report.arrivals += 1
            continue
        if kind not in ("arrival_refused", "withdraw_refused", "overstack"):
            continue
        node = scen.schedule[e["index"]] if isinstance(e.get("index"), int) else None
        problem = e.get("problem", "overstack")
        if problem not in CODES:
            problem = "unresolved"
        fieldname = "entry" if node is not None and node.entry is not None else "units"
        if kind == "overstack":
            report.overstacks += 1
        elif kind == "arrival_refused" and problem in ("off_map", "prohibited", "blocked", "drop_prohibited"):
            report.blocked += 1
        message = f"{e.get('unit')} on turn {e['turn']}" + (f" at {e['hex']}" if e.get("hex") else "") \
            + f": {e.get('message', '')}"
        out.append(_diag(bundle, game, problem, message, node, fieldname, e.get("rule"),
                         e.get("policy") or SILENT_POLICY, e.get("unit"), (e["hex"],) if e.get("hex") else (),
                         e["turn"]))
    report.diagnostics = sort_diagnostics(out)
    return report


def smoke_all(bundle: Bundle, scenario_ids: list[str] | None = None, seed: int = 1) -> list[SmokeReport]:
    return [smoke(bundle, sid, seed) for sid in (scenario_ids or bundle.scenario_ids())]


def comparison_table(reports: list[SmokeReport]) -> str:
    head = ("scenario", "turns", "arrivals", "blocked", "overstacks", "other", "optional")
    rows = [(r.scenario, str(r.turns), str(r.arrivals), str(r.blocked), str(r.overstacks), str(r.other),
             str(r.optional)) for r in reports]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*r) for r in rows]
    return "\n".join(lines) + "\n"
