"""The turn and phase track, read from the system's ``sequence_of_play`` (typed,
:class:`model.generic_rules.SequenceOfPlay`) or its older spelling ``params.sequence_of_play``.

Accepted data (system YAML, owned by the system authors)::

    sequence_of_play:
      rule: "DUEL 3.0"
      phases:
      - {id: reinforcement, name: Reinforcement, side: first}   # first | second | each | both | a side id
      - {id: movement, name: Movement, side: first}
      - {id: command, name: Command & Action, side: first, allows: [move, attack],
         steps: [{id: orders, name: Issue orders, rule: "DUEL 3.2"}]}
      - {id: end, name: End, side: both, kind: end}             # kind: when the id/name does not say it
      - …

    sequence_of_play:                 # the same phases once per player turn (IGO-UGO)
      player_turns: [first, second]
      phases: [Reinforcement, Movement, Combat]                 # plain names are accepted too

``side: each`` repeats the phase for every side in turn order; ``both`` (the default) is one
phase in which both sides act. A phase's *kind* (reinforcement / movement / combat / end /
other) is ``kind`` when given, else read from the phase's id and name; the engine runs the
scenario's arrivals in a reinforcement phase and ends the turn after the last phase. What a
phase *permits* is its ``allows:`` list of action kinds, else what its kind allows (moves in a
movement phase, attacks in a combat phase): :meth:`Phase.permits`. When the system has no
sequence, the engine uses the documented **generic default**: for the first player then the
second, Reinforcement, Movement, Combat; then a shared End phase.

**Played, partly played, not played.** The engine's unit is the phase (``next_phase``); the
``steps:`` a phase lists are what the rules print inside it. On entering a phase the engine
logs every step (or, for a phase without steps, the phase) that nothing plays as a
``step_not_played`` event, and every one only partly played as ``step_partly_played`` with the
procedure's reason (``policy=``): a step is never skipped silently. Who plays what
(:func:`status_of`): the engine plays the arrivals (kind reinforcement), moves and attacks
(a phase that permits them, or a step of kind movement / combat in it) and the turn's end
(kind end); a procedure plays the step and phase ids in its ``plays`` and partly plays those
in its ``partly`` (:class:`play.procedure.Procedure`). :func:`coverage_table` renders the
table of docs/play.md from the same declarations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Literal

from model.generic_rules import DEFAULT_ALLOWS

from model.scenario import Scenario
from model.system import GameSystem

if TYPE_CHECKING:
    from play.procedure import Procedure

GENERIC_PHASES = ("Reinforcement", "Movement", "Combat")
# The kind of an administrative action (a query, a value the data lacks declared, the sequence's
# own controls): every phase permits it. Which actions are administrative is data
# (play/<plug-in>/action_kinds.yaml, play/generic/action_kinds.yaml), never named here.
ADMIN = "admin"

GENERIC_POLICY = "generic-sequence: [Reinforcement, Movement, Combat] per player, then End"


@dataclass(frozen=True)
class Step:
    """A sub-step the rules print inside a phase, with its case."""

    id: str
    name: str
    rule: str | None = None
    kind: str | None = None  # the engine's work it is (reinforcement, movement …), else None


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    side: str | None  # side id, or None when both sides act (End phase)
    rule: str | None = None
    declared_kind: str | None = None  # the system data's ``kind:``, when it gives one
    allows: tuple[str, ...] | None = None  # the data's ``allows:``; None: from the kind
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def kind(self) -> str:
        """reinforcement / movement / combat / end / other: as declared, else from the id or name."""
        if self.declared_kind:
            return self.declared_kind
        text = f"{self.id} {self.name}".lower()
        for k in ("reinforcement", "movement", "combat", "end"):
            if k in text:
                return k
        return "other"

    @property
    def allowed(self) -> tuple[str, ...]:
        """The action kinds this phase permits: ``allows`` as declared, else from the kind."""
        return self.allows if self.allows is not None else DEFAULT_ALLOWS.get(self.kind, ())

    def permits(self, action: str) -> bool:
        """Whether an action of this kind (``move``, ``attack``, ``fire`` …) may be taken in this phase."""
        return action in self.allowed

    def refusal(self, do: str, kind: str, phases: "Iterable[Phase]" = ()) -> tuple[str, str | None, str | None] | None:
        """(message, rule, policy) when action ``do`` of ``kind`` is not an action of this phase,
        else None: every action dispatched is checked here, the administrative ones pass. The
        message names the phases of ``phases`` that do permit it."""
        if kind == ADMIN or self.permits(kind):
            return None
        if self.allows is None and any(kind in v for v in DEFAULT_ALLOWS.values()):
            return None  # a move or attack in a phase without allows:: its handler refuses it, with its policy
        what = do if kind == do else f"{do} ({kind})"
        here = f"{self.rule + ' ' if self.rule else ''}{self.name}"
        seen: list[str] = []
        for p in phases:
            if p.permits(kind):
                name = f"{p.rule + ' ' if p.rule else ''}{p.name}" + (f", {p.side}" if p.side else "")
                if name not in seen:
                    seen.append(name)
        where = f"; it is one of: {'; '.join(seen)}" if seen else "; no phase of this sequence permits it"
        side = f", {self.side}" if self.side else ""
        return f"{what} is not an action of {here}{side}{where}", self.rule, None

    def matches(self, text: str) -> bool:
        """Whether ``text`` names this phase: its id, its name, or ``"<id> <side>"``."""
        t = str(text).strip().lower()
        return t in (self.id.lower(), self.name.lower(), f"{self.id} {self.side}".lower())


def side_order(system: GameSystem, scenario: Scenario) -> list[str]:
    sides = [s.id for s in system.sides]
    first = scenario.first_player
    if first in sides:
        sides.remove(first)
        sides.insert(0, first)
    return sides


def build_sequence(system: GameSystem, scenario: Scenario) -> tuple[list[Phase], str | None]:
    """(phases, policy) — policy is the generic-default name when the system has none."""
    sides = side_order(system, scenario)
    typed = system.sequence_of_play
    data: Any = typed.model_dump(exclude_none=True) if typed is not None else system.params.get("sequence_of_play")
    rule = None
    if isinstance(data, dict):
        rule = data.get("rule")
        turns = data.get("player_turns") or []
        data = data.get("phases")
        if turns and isinstance(data, list):
            # One player turn per entry: its phases, each taken by that player [typed data only].
            data = [{**(p if isinstance(p, dict) else {"name": p}), "side": who} for who in turns for p in data]
    if isinstance(data, list) and data:
        out: list[Phase] = []
        for i, item in enumerate(data):
            if isinstance(item, str):
                item = {"id": item.lower().replace(" ", "_"), "name": item}
            if not isinstance(item, dict):
                continue
            name = str(item.get("name") or item.get("id") or f"Phase {i + 1}")
            pid = str(item.get("id") or name.lower().replace(" ", "_"))
            who = item.get("side", "both")
            targets: list[str | None]
            if who == "first":
                targets = [sides[0] if sides else None]
            elif who == "second":
                targets = [sides[1] if len(sides) > 1 else None]
            elif who == "each":
                targets = list(sides) or [None]
            elif who in sides:
                targets = [who]
            else:
                targets = [None]
            allows = item.get("allows")
            steps = tuple(Step(str(st["id"]), str(st.get("name") or st["id"]), st.get("rule") or item.get("rule")
                               or rule, st.get("kind"))
                          for st in item.get("steps") or [] if isinstance(st, dict) and st.get("id"))
            for s in targets:
                out.append(Phase(pid, name, s, item.get("rule") or rule, item.get("kind"),
                                 tuple(str(a) for a in allows) if isinstance(allows, list) else None, steps))
        if out:
            return out, None
    phases = [Phase(p.lower(), p, s) for s in sides for p in GENERIC_PHASES]
    phases.append(Phase("end", "End", None))
    return phases, GENERIC_POLICY


# --- played, partly played, not played ------------------------------------------------------

Status = Literal["played", "partly played", "not played"]
ENGINE = "engine"  # who plays the arrivals, moves, attacks and the turn's end (play/game.py, play/combat.py)


@dataclass(frozen=True)
class StepStatus:
    """How far one step (or a step-less phase) of the sequence is played, and by what."""

    phase: Phase
    step: Step | None  # None: the phase itself (it lists no steps)
    status: Status
    by: tuple[str, ...] = ()  # the procedures (class names) or "engine" that play it
    policy: str | None = None  # partly played: what is missing and why ("name: explanation")

    @property
    def id(self) -> str:
        return self.step.id if self.step is not None else self.phase.id

    @property
    def name(self) -> str:
        return self.step.name if self.step is not None else self.phase.name

    @property
    def rule(self) -> str | None:
        return self.step.rule if self.step is not None else self.phase.rule

    @property
    def message(self) -> str:
        """``"GTS 4.0 A Weather: not played"``: the case, the name, the status."""
        return f"{self.rule + ' ' if self.rule else ''}{self.name}: {self.status}"


# What the engine itself plays, by kind: arrivals, moves, the turn's end; attacks only when the
# game resolves them (a CRT in the data or a system's combat procedure: Game.engine_plays).
ENGINE_KINDS = frozenset({"reinforcement", "movement", "combat", "end"})


def _engine_plays(ph: Phase, kind: str | None, engine: frozenset[str]) -> bool:
    """Whether the engine itself plays an item of this kind in phase ``ph`` (see the module docstring)."""
    if kind is None or kind not in engine:
        return False
    if kind == "movement":
        return ph.permits("move")
    if kind == "combat":
        return ph.permits("attack")
    return ph.kind == kind  # reinforcement: the arrivals run as the phase begins; end: the turn ends


def status_of(ph: Phase, step: Step | None, procedures: "Iterable[Procedure]",
              engine: frozenset[str] = ENGINE_KINDS) -> StepStatus:
    """How far ``step`` of ``ph`` (None: the step-less phase itself) is played by the engine (the
    kinds in ``engine``) and these procedures. A procedure's ``partly`` wins over ``plays`` (its
    reason is the policy)."""
    item = step.id if step is not None else ph.id
    by: list[str] = []
    partly: str | None = None
    if step is None:
        engine_plays = any(_engine_plays(ph, k, engine) for k in {ph.kind, "movement", "combat"})
    else:
        engine_plays = _engine_plays(ph, step.kind, engine)
    if engine_plays:
        by.append(ENGINE)
    for proc in procedures:
        if item in proc.partly:
            partly = partly or proc.partly[item]
            by.append(type(proc).__name__)
        elif item in proc.plays:
            by.append(type(proc).__name__)
    status: Status = "partly played" if partly else ("played" if by else "not played")
    return StepStatus(ph, step, status, tuple(dict.fromkeys(by)), partly)


def coverage(ph: Phase, procedures: "Iterable[Procedure]", engine: frozenset[str] = ENGINE_KINDS) -> list[StepStatus]:
    """The status of every step of ``ph`` (or of the phase itself when it lists no steps)."""
    procs = list(procedures)
    return [status_of(ph, st, procs, engine) for st in ph.steps] if ph.steps else [status_of(ph, None, procs, engine)]


def coverage_table(phases: list[Phase], procedures: "Iterable[Procedure]", engine: frozenset[str] = ENGINE_KINDS) -> str:
    """A Markdown table of every step of one turn: phase, step, case, status, played by. A phase
    declared once per side appears once per side (the side column says whose)."""
    procs = list(procedures)
    rows = ["| phase | side | step | case | status | played by |", "|---|---|---|---|---|---|"]
    for ph in phases:
        for st in coverage(ph, procs, engine):
            step = st.name if st.step is not None else "—"
            note = f" ({st.policy.split(':', 1)[0]})" if st.policy else ""
            rows.append(f"| {ph.name} | {ph.side or 'both'} | {step} | {st.rule or ''} | {st.status}{note} | "
                        f"{', '.join(st.by) or '—'} |")
    return "\n".join(rows) + "\n"
