"""The turn and phase track, read from the system's ``sequence_of_play`` (typed,
:class:`model.generic_rules.SequenceOfPlay`) or its older spelling ``params.sequence_of_play``.

Accepted data (system YAML, owned by the system authors)::

    sequence_of_play:
      rule: "DUEL 3.0"
      phases:
      - {id: reinforcement, name: Reinforcement, side: first}   # first | second | each | both | a side id
      - {id: movement, name: Movement, side: first}
      - {id: end, name: End, side: both, kind: end}             # kind: when the id/name does not say it
      - …

    sequence_of_play:                 # the same phases once per player turn (IGO-UGO)
      player_turns: [first, second]
      phases: [Reinforcement, Movement, Combat]                 # plain names are accepted too

``side: each`` repeats the phase for every side in turn order; ``both`` (the default) is one
phase in which both sides act. A phase's *kind* (reinforcement / movement / combat / end /
other) decides what the engine allows in it (moves in movement phases, attacks in combat
phases); it is ``kind`` when given, else read from the phase's id and name. When the system
has no sequence, the engine uses the documented **generic default**: for the first player then
the second, Reinforcement, Movement, Combat; then a shared End phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.scenario import Scenario
from model.system import GameSystem

GENERIC_PHASES = ("Reinforcement", "Movement", "Combat")
GENERIC_POLICY = "generic-sequence: [Reinforcement, Movement, Combat] per player, then End"


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    side: str | None  # side id, or None when both sides act (End phase)
    rule: str | None = None
    declared_kind: str | None = None  # the system data's ``kind:``, when it gives one

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
            for s in targets:
                out.append(Phase(pid, name, s, item.get("rule") or rule, item.get("kind")))
        if out:
            return out, None
    phases = [Phase(p.lower(), p, s) for s in sides for p in GENERIC_PHASES]
    phases.append(Phase("end", "End", None))
    return phases, GENERIC_POLICY
