"""What a rule sees: :class:`RuleContext` (bundle, system, resolved scenario, map, counters)
and :meth:`RuleContext.finding`, which turns a message into a located :class:`Diagnostic`.

Two memos: ``ctx.cache`` lives as long as one context (one scenario of one run); ``ctx.memo``
(a :class:`SharedCache` owned by the :class:`~validators.engine.Validator`) survives across the
scenarios of a run and across incremental runs, for look-ups derived from the parts of the
bundle that are not scenarios (game file, system, maps, counters) or keyed by their content.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, TypeVar, cast

from model.base import Node
from model.calendar import resolve_turn
from model.counters import Counter
from model.diagnostics import Diagnostic, Location, Severity
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Scenario
from model.system import GameSystem

if TYPE_CHECKING:  # pragma: no cover - typing only
    from model.bundle import Bundle
    from validators.rule import Rule

T = TypeVar("T")

# Parts of a bundle that are absent (not merely empty) when the file holding them could not be
# read, keyed by the Bundle attributes through which rules reach them.
READ_SUBJECTS: dict[str, str] = {
    "counters": "counters", "counter_index": "counters",
    "scenarios": "scenarios", "scenario_ids": "scenarios", "resolved": "scenarios",
}


def unreadable_subjects(bundle: "Bundle") -> frozenset[str]:
    """Which :data:`READ_SUBJECTS` lost a file: ``counters`` when the counter manifest could not
    be read, ``scenarios`` when a scenario file could not (the loader's ``bundle.unreadable``),
    or was read but refused by its schema (``bundle.failed_files``: its model is absent too, so a
    manifest with one ``steps: x`` must not also report every unit as missing from it)."""
    lost = {str(Path(p)) for p in (*getattr(bundle, "unreadable", ()), *getattr(bundle, "failed_files", ()))}
    if not lost:
        return frozenset()
    out = set()
    game = bundle.game
    if game.counters and str(Path(game.counters)) in lost:
        out.add("counters")
    others = lost - {str(Path(m)) for m in game.maps} - {str(Path(game.counters or "")), "game.yaml"}
    if others:  # what is left are scenario files (a scenario on an unreadable map among them)
        out.add("scenarios")
    return frozenset(out)


class ReadRecorder:
    """A read-only view of a :class:`~model.bundle.Bundle` that notes which of the
    :data:`READ_SUBJECTS` a rule reads. Used only while some file is unreadable, so that a rule
    that looked at absent data has its findings dropped instead of reporting their absence."""

    __slots__ = ("_bundle", "_reads")

    def __init__(self, bundle: "Bundle", reads: set[str]) -> None:
        object.__setattr__(self, "_bundle", bundle)
        object.__setattr__(self, "_reads", reads)

    def __getattr__(self, name: str) -> Any:
        subject = READ_SUBJECTS.get(name)
        if subject is not None:
            self._reads.add(subject)
        return getattr(self._bundle, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rules only read the bundle")


class SharedCache:
    """Look-ups shared by every context of one :class:`~validators.engine.Validator`.

    An entry is found by ``name`` and the identity of its ``owner`` (the map, counter list or
    game file it is derived from), and is used only while its ``key`` (content the look-up
    depends on, compared with ``==``) is unchanged. The Validator clears everything when told
    the whole bundle changed (``invalidate()``): the same contract under which it keeps
    per-scenario results, so an entry is never older than the results it helps compute.
    Values are pure data with no per-scenario state; a value that is itself a memo (a dict
    filled on demand) may only gain entries that are functions of its owner and key.
    """

    MAX_OWNERS = 4  # entries kept per look-up name (live bundle, snapshot copy, other maps)

    def __init__(self) -> None:
        # (name, id(owner)) → (owner, key, value); the owner is kept alive so ids are not reused.
        self._entries: dict[tuple[str, int], tuple[object, object, object]] = {}
        self.builds = 0  # how many look-ups were (re)built (tests and benchmarks read it)

    def get(self, name: str, build: Callable[[], T], owner: object = None, key: object = ()) -> T:
        slot = (name, id(owner))
        hit = self._entries.get(slot)
        if hit is not None and hit[0] is owner and hit[1] == key:
            return hit[2]  # type: ignore[return-value]
        value = build()
        self.builds += 1
        self._entries.pop(slot, None)  # re-inserted last: the dict's order is the age order
        self._entries[slot] = (owner, key, value)
        same = [k for k in self._entries if k[0] == name]
        for old in same[:-self.MAX_OWNERS]:
            # The editor validates copies (snapshots) between live runs: keep the few latest
            # owners of each look-up, not one entry per snapshot for the whole session.
            del self._entries[old]
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class RuleContext:
    """One run of rules over a bundle (scope "bundle") or one resolved scenario."""

    bundle: "Bundle"
    scenario: Scenario | None = None
    scenario_id: str | None = None
    cache: dict[str, object] = field(default_factory=dict)  # shared per-context memo for rules
    shared: SharedCache = field(default_factory=SharedCache, repr=False)  # per-Validator memo (:meth:`memo`)
    # What the running rule has read of the bundle's unreadable-prone parts (READ_SUBJECTS);
    # filled only while some file is unreadable (:meth:`track_reads`), cleared before each rule.
    reads: set[str] = field(default_factory=set, repr=False)
    lost: frozenset[str] = field(default=frozenset(), repr=False)  # unreadable_subjects(bundle)

    def track_reads(self) -> None:
        """Route rule reads through a :class:`ReadRecorder` when some file was unreadable."""
        self.lost = unreadable_subjects(self.bundle)
        if self.lost and not isinstance(self.bundle, ReadRecorder):
            self.bundle = cast("Bundle", ReadRecorder(self.bundle, self.reads))

    def read_lost_data(self) -> bool:
        """Whether the running rule read a part of the bundle whose file could not be read."""
        return bool(self.reads & self.lost)

    @property
    def system(self) -> GameSystem:
        return self.bundle.system

    @cached_property
    def hmap(self) -> HexMap:
        return self.bundle.map_for(self.scenario)

    @property
    def counters(self) -> dict[str, Counter]:
        # A property over the per-context memo, not a cached_property: every read goes through
        # the bundle, so :meth:`read_lost_data` sees each rule that uses the counters.
        if self.lost:
            self.reads.add("counters")
        return self.local("ctx.counters", self.bundle.counter_index)

    def memo(self, name: str, build: Callable[[], T], owner: object = None, key: Any = ()) -> T:
        """``build()`` once per Validator for ``owner`` and ``key`` (see :class:`SharedCache`).

        Use it for look-ups that depend only on ``owner`` (a map, the counter list, the game
        file) and on ``key`` — never on the scenario unless the scenario data is in ``key``."""
        return self.shared.get(name, build, owner, key)

    def local(self, name: str, build: Callable[[], T]) -> T:
        """``build()`` once per context (this scenario, this run): ``ctx.cache`` as a call."""
        if name not in self.cache:
            self.cache[name] = build()
        return self.cache[name]  # type: ignore[return-value]

    def turn_number(self, ref: int | str) -> int | None:
        """``model.calendar.resolve_turn(ref, system calendar)``, memoised per Validator:
        resolve_turn rebuilds the calendar's whole label table on every call. The calendar's
        turn list is built once per system (a cached property), so it owns the memo."""
        turns = self.system.calendar.all_turns
        if not isinstance(ref, str):  # numbers, and whatever else a params block holds (maybe unhashable)
            return resolve_turn(ref, turns)
        answers: dict[str, int | None] = self.memo("calendar.turn_number", dict, owner=turns, key=len(turns))
        if ref not in answers:
            answers[ref] = resolve_turn(ref, turns)
        return answers[ref]

    def scenario_turns(self, stated_only: bool = False) -> tuple[int | None, int | None]:
        """The scenario's first and last turn numbers as its ``turns`` states them (None where a
        label is not on the calendar); without ``turns``, the calendar's span, unless
        ``stated_only``."""
        scen = self.scenario
        if scen is not None and scen.turns is not None:
            return self.turn_number(scen.turns.first), self.turn_number(scen.turns.last)
        cal = self.system.calendar.all_turns
        return (cal[0].n, cal[-1].n) if cal and not stated_only else (None, None)

    def turn_span_text(self, first: int | None, last: int | None) -> str:
        """A span of turns as findings speak it: ``turn 1 (0100 6 June) to turn 5``; an open end
        (a label not on the calendar) reads "the first turn" / "the last turn"."""
        return (f"{self.turn_text(first) if first is not None else 'the first turn'} to "
                f"{self.turn_text(last) if last is not None else 'the last turn'}")

    def turn_text(self, n: int) -> str:
        """Turn ``n`` as the printed turn track names it: ``turn 7 (0700 6 June)``, or ``turn 7``
        when the calendar has no label of its own for it (findings never speak internal numbers
        alone, issue #19)."""
        turns = self.system.calendar.all_turns
        by_n: dict[int, str] = self.memo("calendar.turn_labels", lambda: {t.n: t.label for t in turns},
                                         owner=turns, key=len(turns))
        label = (by_n.get(n) or "").strip()
        if not label or label == str(n):
            return f"turn {n}"
        # A label that already names the turn ("GT 9 (14 Jun 1944)") stands alone; "1500 6 June"
        # is a time, not turn 6.
        named = re.search(rf"\b(?:gt|game[- ]turn|turn|t)\s*{n}(?!\d)", label, re.IGNORECASE)
        return label if named else f"turn {n} ({label})"

    def label(self, h: Hex) -> str:
        """The printed label of ``h`` on this scenario's map."""
        return self.hmap.label(h)

    def labels(self, hexes: Iterable[Hex]) -> tuple[str, ...]:
        return tuple(self.label(h) for h in hexes)

    def optional_rule(self, rule_id: str) -> bool:
        """Whether an optional rule is switched on in this scenario."""
        return bool(self.scenario is not None and self.scenario.optional_rules.get(rule_id, False))

    def finding(self, rule: "Rule | type[Rule]", message: str, node: Node | None = None, *fields: str | int,
                hexes: Iterable[Hex | str] = (), units: Iterable[str] = (), turns: Iterable[int] = (),
                hexsides: Iterable[str] = (), severity: Severity | None = None,
                policy: str | None = None) -> Diagnostic:
        """A diagnostic for ``rule``, located at ``node`` (and ``fields`` inside it)."""
        hex_labels = tuple(h if isinstance(h, str) else self.label(h) for h in hexes)
        turn_list = tuple(t for t in turns if isinstance(t, int))
        loc: Location = self.bundle.locate(node, *fields)
        loc = replace(loc, hexes=hex_labels or loc.hexes, units=tuple(units) or loc.units,
                      turns=turn_list or loc.turns, hexsides=tuple(hexsides) or loc.hexsides,
                      scenario=self.scenario_id if self.scenario_id is not None else loc.scenario)
        return Diagnostic(
            code=rule.code,
            severity=severity if severity is not None else rule.severity,
            message=message,
            location=loc,
            rule_case=rule.rule_case or None,
            policy=policy,
        )
