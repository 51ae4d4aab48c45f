"""The test-play engine: one game of one scenario, driven by plain-dict actions.

``Game(bundle, scenario_id, seed)`` sets the scenario up, then ``apply(action)`` runs one
action (``{"do": "move", "unit": "a1", "to": "0303"}``) and returns an :class:`ActionResult`.
Every action, roll, arrival and refusal is appended to ``log`` as a plain dict, so the same
seed and actions give a byte-identical log (:meth:`Game.log_json`). ``undo()`` restores the
snapshot taken before the last action; ``save()`` / :func:`load_game` keep a game in progress
together with its dice state, so play continues exactly as it would have.

Actions: move, place, next_phase, end_turn, roll, step_loss, flip, marker, vp, attack.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

from model.bundle import Bundle, load_bundle
from model.calendar import resolve_turn
from model.counters import Counter
from model.hexes import Hex
from model.scenario import Entry, ScheduleEntry, Scenario
from model.formats.yamlio import atomic_write_text, dump_yaml

from play import rules
from play.arguments import MAX_TURN, check_action
from play.dice import Dice
from play.errors import ArgumentError, GameError, InternalError
from play.dispatch import GENERIC_ACTIONS, dispatch_table
from play.moves import MoveTables, Reach, reachable
from play.plugin import SystemPlugin
from play.plugins import DATA_ONLY, plugin_for
from play.procedure import Procedure
from play.result import ActionResult
from play.rules import MOVE_PHASE_POLICY, Problem
from play.sequence import ENGINE_KINDS, Phase, build_sequence, coverage
from play.setup_choice import ADJACENT_POLICY, adjacent_candidates
from play.state import GameState, UnitState

P = TypeVar("P", bound=Procedure)
SAVE_FORMAT = "hexproof-game"
SAVE_VERSION = 1
ARRIVING = ("reinforcement", "drop", "landing", "replacement")
FIRST_LEGAL_HEX_POLICY = "first-legal-entry-hex: an arrival takes the first listed entry hex it may legally enter"
SETUP_CHOICE_POLICY = ("setup-first-hex-free-of-enemy: a set-up by area, location or alternative hexes takes the "
                       "first hex, in the listed order, not held by an enemy unit (placed already, or set up "
                       "there by a single-hex entry)")



@dataclass
class _Snapshot:
    state: GameState
    dice: dict[str, Any]
    log_len: int
    actions_len: int


class Game:
    def __init__(self, bundle: Bundle, scenario_id: str, seed: int = 1, *, start: bool = True) -> None:
        self.bundle = bundle
        self.scenario_id = scenario_id
        self.scenario: Scenario = bundle.resolved(scenario_id)
        self.system = bundle.system
        self.hmap = bundle.map_for(self.scenario)
        self.counters: dict[str, Counter] = bundle.counter_index()
        self.dice = Dice(seed)
        self.log: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []
        self._undo: list[_Snapshot] = []
        self.keep_undo = True  # False for headless runs that never undo (smoke)
        # False for throwaway runs that discard the whole game when an action raises (a
        # Monte-Carlo seed, play/analysis): no snapshot before each action (most of its cost).
        self.rollback = True
        self.phases, self.sequence_policy = build_sequence(self.system, self.scenario)
        turns = self.system.calendar.all_turns
        first = last = None
        if self.scenario.turns is not None:
            first = resolve_turn(self.scenario.turns.first, turns)
            last = resolve_turn(self.scenario.turns.last, turns)
        self.first_turn: int = first if first is not None else (turns[0].n if turns else 1)
        self.last_turn: int = last if last is not None else (turns[-1].n if turns else self.first_turn)
        if self.last_turn - self.first_turn + 1 > MAX_TURN:
            # Smoke and play step through every turn; the scenario loader refuses turn numbers
            # over the cap, this catches a calendar that resolves to one.
            raise GameError(f"scenario {scenario_id!r} has {self.last_turn - self.first_turn + 1:,} turns "
                            f"({self.first_turn} to {self.last_turn}); test play handles at most {MAX_TURN:,}")
        self.state = GameState(turn=self.first_turn, vp=dict(self.scenario.vp))
        self.plugin: SystemPlugin = plugin_for(self.system)
        if self.plugin.state is not None:
            self.state.system = self.plugin.state()
        self.procedures: list[Procedure] = self.plugin.build(self)
        # --- generic rules as data (play/generic, issue 16 part 4): every system also gets the
        # shared procedures its data declares, after its own; one whose action an own procedure
        # already offers is left out (the system's code wins).
        from play.generic import generic_procedures

        self.procedures += generic_procedures(self, taken={a for p in self.procedures for a in p.actions})
        # --- end generic rules
        self._handlers = dispatch_table(self, GENERIC_ACTIONS, self.procedures)
        # What phase permission each action needs (play/<plug-in>/action_kinds.yaml over the
        # shared play/generic/action_kinds.yaml): Game.apply checks every action against it.
        self.action_kinds: dict[str, str] = {**DATA_ONLY.action_kinds, **self.plugin.action_kinds}
        # Dense step tables for legal_moves, per (map, class, column, costs); play.moves.warm_game
        # builds them ahead (the editor does it on a worker thread when Play mode starts).
        self.move_tables = MoveTables()
        if start:
            self._setup()

    def start(self) -> None:
        """Set a game made with ``start=False`` up and enter its first phase (after the caller
        changed what the setup reads, e.g. a playtest's own scenario params)."""
        self._setup()

    # --- helpers --------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.phases[self.state.phase]

    @property
    def side_to_move(self) -> str | None:
        return self.phase.side

    def overstack_refusal(self, dest: Hex, units: list) -> "ActionResult | None":
        """The refusal for ending a move of ``units`` in ``dest`` overstacked, or None."""
        sp = rules.stacking_problem(self.hmap, self.system, dest,
                                    [x for x in self.state.at(dest) if x not in units] + units, self.counters)
        if sp is None:
            return None
        return ActionResult(False, f"cannot end the move in {self.label(dest)}: overstacked, {sp.message}", sp.rule,
                            sp.policy)

    def label(self, h: Hex | None) -> str | None:
        return None if h is None else self.hmap.label(h)

    def hex_of(self, text: Any) -> Hex:
        try:
            return self.hmap.parse(str(text))
        except Exception as exc:  # label schemes raise ValueError/KeyError on bad text
            raise GameError(f"cannot read hex {text!r}: {exc}") from None

    def unit(self, uid: str) -> UnitState:
        uid = str(uid)
        if uid not in self.state.units and uid in self.counters:
            # Any counter of the manifest may be brought into a test game (off-map until placed).
            return self._new_unit(uid)
        try:
            return self.state.units[uid]
        except KeyError:
            raise GameError(f"unknown unit {uid!r}") from None

    def emit(self, type_: str, **data: Any) -> dict[str, Any]:
        event = {"seq": len(self.log), "turn": self.state.turn, "phase": self.phase.id,
                 "side": self.phase.side, "type": type_}
        event.update({k: v for k, v in data.items() if v is not None})
        self.log.append(event)
        return event

    def log_json(self) -> str:
        """The event log as canonical JSON: byte-identical for the same seed and actions."""
        return json.dumps(self.log, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def _new_unit(self, uid: str, side: str | None = None) -> UnitState:
        c = self.counters.get(uid)
        steps = c.steps if c is not None and c.steps else (2 if c is not None and c.back is not None else 1)
        u = UnitState(id=uid, side=(c.side if c is not None else side) or "unknown", steps=steps, max_steps=steps)
        self.state.units[uid] = u
        return u

    # --- setup and arrivals ---------------------------------------------------------------

    def _setup(self) -> None:
        self.emit("start", scenario=self.scenario_id, seed=self.dice.seed, first_turn=self.first_turn,
                  last_turn=self.last_turn, policy=self.sequence_policy)
        from play.optional_coverage import notice

        notice(self)  # selected optional rules the engine does not play, said once at the start
        # Hexes fixed by single-hex entries, by side: an engine-chosen hex never goes onto the enemy.
        fixed: dict[Hex, set[str]] = {}
        for entry in self.scenario.setup:
            if entry.hex is not None and not entry.alternatives and entry.box is None:
                known = self.state.units.get(entry.unit)
                c = self.counters.get(entry.unit)
                side = known.side if known is not None else ((c.side if c is not None else None) or "unknown")
                fixed.setdefault(entry.hex, set()).add(side)
        for i, entry in enumerate(self.scenario.setup):
            u = self.state.units.get(entry.unit) or self._new_unit(entry.unit)
            policy = None
            if entry.box is not None:
                u.where, u.box = "box", entry.box
            else:
                hexes = entry.hexes()
                near = f"in or adjacent to {self.label(entry.adjacent_to)}" if entry.adjacent_to else None
                if near is not None:  # the engine chooses (play/setup_choice.py)
                    hexes = adjacent_candidates(self, entry, u)
                    if not hexes:
                        self.emit("setup_refused", unit=u.id, index=i, place=near, policy=ADJACENT_POLICY,
                                  message=f"no hex {near} can take {u.id} (off the map, prohibited terrain or "
                                          "over the stacking limit): it is not set up")
                        continue
                if not hexes and entry.location:
                    hexes = self.location_hexes(entry.location)
                if not hexes and entry.area:
                    a = self.hmap.area(entry.area)
                    hexes = list(a.hexes) if a else []
                if len(hexes) > 1 or near is not None:  # the engine chooses: never a hex the enemy holds
                    policy = SETUP_CHOICE_POLICY if near is None else f"{ADJACENT_POLICY}; {SETUP_CHOICE_POLICY}"
                    legal = [h for h in hexes if not self._enemy_holds(h, u.side, fixed)]
                    if not legal:
                        where = entry.area or entry.location or near or "its hexes"
                        self.emit("setup_refused", unit=u.id, index=i, place=where, policy=policy,
                                  message=f"every hex of {where} is held by the enemy: {u.id} is not set up")
                        continue
                    hexes = legal
                if hexes:
                    u.where, u.hex = "hex", hexes[0]
            if "reduced" in entry.state:
                u.reduced = True
                u.steps = max(1, u.steps - 1)
            u.markers = [s for s in entry.state if s != "reduced"]
            u.arrived = self.first_turn
            self.emit("setup", unit=u.id, hex=self.label(u.hex), box=u.box, index=i, policy=policy)
        # Units that only appear in the schedule wait off-map.
        for entry in self.scenario.schedule:
            for uid in entry.units:
                if uid not in self.state.units:
                    self._new_unit(uid, entry.side)
        # Each unit's strength as the scenario set it up, and where the set-up's own rolls
        # begin in the log: a plug-in's set-up procedure (on_setup, e.g. a landing casualty
        # roll) runs next, and the analysis counts what it cost from these (play/analysis/trial.py).
        self.set_up_steps: dict[str, int] = {uid: u.steps for uid, u in self.state.units.items()}
        self.set_up_mark = len(self.log)
        for proc in self.procedures:
            proc.on_setup(self)
        self._enter_phase()

    def _enemy_holds(self, h: Hex, side: str, fixed: dict[Hex, set[str]]) -> bool:
        """Whether a unit of another side is in ``h``, or a single-hex set-up entry puts one there."""
        if any(x.side != side for x in self.state.at(h)):
            return True
        return any(s != side for s in fixed.get(h, ()))

    def location_hexes(self, loc_id: str) -> list[Hex]:
        """The hexes of scenario location ``loc_id`` ([] when there is none)."""
        for loc in self.bundle.locations(self.scenario):
            if loc.id == loc_id:
                return loc.all_hexes()
        return []

    def entry_targets(self, entry: Entry | None, sched: ScheduleEntry) -> tuple[list[Hex], str | None, Problem | None]:
        """(candidate hexes, box, problem) for a schedule entry's entry point."""
        if sched.drop is not None and entry is None:
            entry = Entry(drop_zone=sched.drop.zone)
        if entry is None:
            return [], None, Problem("no_entry", "no entry point given")
        if entry.hex is not None or entry.hexes:
            return ([entry.hex] if entry.hex is not None else []) + list(entry.hexes), None, None
        if entry.box is not None:
            if self.bundle.box(entry.box) is None:
                return [], None, Problem("unresolved", f"unknown box {entry.box!r}")
            return [], entry.box, None
        if entry.location is not None:
            hexes = self.location_hexes(entry.location)
            if hexes:
                return hexes, None, None
            if self.bundle.box(entry.location) is not None:
                return [], entry.location, None
            return [], None, Problem("unresolved", f"unknown location {entry.location!r}")
        if entry.drop_zone is not None:
            hexes = self.scenario.zone_hexes(entry.drop_zone)
            if hexes is None:
                return [], None, Problem("unresolved", f"unknown drop zone {entry.drop_zone!r}")
            return hexes, None, None
        if entry.beach is not None:
            for o in self.scenario.beach_overlays:
                if o.id == entry.beach:
                    return list(o.reinforcement_hexes or o.hexes), None, None
                for sb in o.sub_beaches:
                    if sb.id == entry.beach:
                        return list(sb.landing.actual or sb.landing.planned or sb.hexes), None, None
            return [], None, Problem("unresolved", f"unknown beach {entry.beach!r}")
        if entry.area is not None:
            a = self.hmap.area(entry.area)
            if a is None:
                return [], None, Problem("unresolved", f"unknown area {entry.area!r}")
            return list(a.hexes), None, None
        if entry.edge is not None:
            return [], f"edge:{entry.edge}", None
        return [], None, Problem("no_entry", "no entry point given")

    def _arrivals(self, side: str | None) -> None:
        """Run every schedule entry of this turn for ``side`` (None: every side)."""
        turns = self.system.calendar.all_turns
        for i, sched in enumerate(self.scenario.schedule):
            if resolve_turn(sched.turn, turns) != self.state.turn:
                continue
            if side is not None:
                sides = {sched.side} if sched.side else {self._side_of(u) for u in sched.units}
                if side not in sides:
                    continue
            self._run_schedule(i, sched)

    def _side_of(self, uid: str) -> str | None:
        u = self.state.units.get(uid)
        return u.side if u is not None else None

    def _run_schedule(self, index: int, sched: ScheduleEntry) -> None:
        if sched.kind == "withdrawal":
            for uid in sched.units:
                u = self.state.units.get(uid)
                if u is None or u.where not in ("hex", "box"):
                    where = "never arrived" if u is None or u.where == "offmap" else u.where
                    self.emit("withdraw_refused", unit=uid, index=index,
                              problem="not_on_map", message=f"{uid} cannot withdraw: it is not on the map ({where})",
                              rule=sched.rule)
                    continue
                u.where, u.hex, u.box = "withdrawn", None, None
                self.emit("withdraw", unit=uid, index=index, rule=sched.rule)
            return
        if sched.kind == "release":
            for uid in sched.units:
                u = self.state.units.get(uid)
                if u is not None and "immobile" in u.markers:
                    u.markers.remove("immobile")
                self.emit("release", unit=uid, index=index, rule=sched.rule)
            return
        if sched.kind not in ARRIVING:
            self.emit("schedule_event", index=index, text=sched.text, rule=sched.rule)
            return
        hexes, box, problem = self.entry_targets(sched.entry, sched)
        is_drop = sched.kind == "drop" or sched.drop is not None or (sched.entry is not None and sched.entry.drop_zone is not None)
        stick_of = {uid: j for j, stick in enumerate(sched.drop.sticks) for uid in stick} \
            if sched.drop is not None else {}
        for k, uid in enumerate(sched.units):
            # Each stick goes in a separate zone hex [GTS Excl 3.3B]; units of a stick stay together.
            k = stick_of.get(uid, k)
            u = self.state.units.get(uid) or self._new_unit(uid, sched.side)
            if uid not in self.counters:
                self.emit("arrival_refused", unit=uid, index=index, problem="unknown_unit",
                          message=f"{uid} is not in the counter manifest")
                continue
            if u.arrived is not None:
                self.emit("arrival_refused", unit=uid, index=index, problem="twice",
                          message=f"{uid} arrives again (it arrived on turn {u.arrived})")
                continue
            if problem is not None:
                self.emit("arrival_refused", unit=uid, index=index, **problem.to_dict())
                continue
            if box is not None:
                placed, redirect = box, None
                for proc in self.procedures:  # a system may redirect it (TKG Transit boxes [18.4.2])
                    placed, redirect = proc.arrival_box(self, u, placed, sched)
                    if redirect is not None:
                        break
                if redirect is not None:
                    self.emit("arrival_refused", unit=uid, index=index, box=box, **redirect.to_dict())
                    continue
                u.where, u.box, u.arrived = "box", placed, self.state.turn
                self.emit("arrive", unit=uid, box=placed, index=index, rule=sched.rule,
                          scheduled_box=box if placed != box else None)
                continue
            self._arrive_on_hexes(u, hexes, index, sched, is_drop, k)

    def _arrive_on_hexes(self, u: UnitState, hexes: list[Hex], index: int, sched: ScheduleEntry,
                         is_drop: bool, k: int) -> None:
        mclass = rules.movement_class(self.system, self.counters.get(u.id))
        enemy = {h for h in (x.hex for x in self.state.units.values() if x.on_map and x.side != u.side) if h}
        order = hexes
        if is_drop and hexes:
            # Stick k starts at zone hex k (one stick per hex); later hexes if that one is illegal.
            order = hexes[k % len(hexes):] + hexes[:k % len(hexes)]
        first_problem: Problem | None = None
        overstack_hex: tuple[Hex, Problem] | None = None
        for h in order:
            p = rules.drop_problem(self.hmap, self.system, h, mclass) if is_drop else \
                rules.terrain_entry_problem(self.hmap, self.system, h, mclass)
            if p is None and h in enemy:
                p = Problem("blocked", "entry hex occupied by the enemy")
            if p is not None:
                first_problem = first_problem or p
                if p.code in ("drop_prohibited",) and is_drop:
                    # A stick landing in prohibited terrain is the finding itself.
                    break
                continue
            sp = rules.stacking_problem(self.hmap, self.system, h, self.state.at(h) + [u], self.counters)
            if sp is not None:
                overstack_hex = overstack_hex or (h, sp)
                continue
            u.where, u.hex, u.arrived = "hex", h, self.state.turn
            self.emit("arrive", unit=u.id, hex=self.label(h), index=index, rule=sched.rule,
                      policy=FIRST_LEGAL_HEX_POLICY if len(hexes) > 1 else None)
            for proc in self.procedures:
                proc.after_arrival(self, u)  # e.g. an overstack penalised, not refused [GTS 14.7]
            return
        if overstack_hex is not None and (first_problem is None or first_problem.code != "drop_prohibited"):
            # Policy: an arrival that can only overstack is placed and flagged; the owner must fix it.
            h, sp = overstack_hex
            u.where, u.hex, u.arrived = "hex", h, self.state.turn
            self.emit("arrive", unit=u.id, hex=self.label(h), index=index, rule=sched.rule)
            self.emit("overstack", unit=u.id, hex=self.label(h), index=index, **sp.to_dict())
            for proc in self.procedures:
                proc.after_arrival(self, u)
            return
        p = first_problem or Problem("no_entry", "no entry hex given")
        self.emit("arrival_refused", unit=u.id, index=index, hex=self.label(order[0]) if order else None, **p.to_dict())

    def _enter_phase(self) -> None:
        ph = self.phase
        if self.state.phase == 0:
            self.emit("turn_start", label=self._turn_label())
            has_reinf = any(p.kind == "reinforcement" for p in self.phases)
            if not has_reinf:
                self._arrivals(None)
            else:
                # Withdrawals and events have no side phase of their own: run them at turn start.
                turns = self.system.calendar.all_turns
                for i, s in enumerate(self.scenario.schedule):
                    if s.kind not in ARRIVING and resolve_turn(s.turn, turns) == self.state.turn:
                        self._run_schedule(i, s)
        self.emit("phase_start", name=ph.name)
        self._log_unplayed_steps(ph)
        for proc in self.procedures:
            proc.on_phase_start(self)
        if ph.kind == "reinforcement":
            turns = self.system.calendar.all_turns
            for i, s in enumerate(self.scenario.schedule):
                if s.kind in ARRIVING and resolve_turn(s.turn, turns) == self.state.turn:
                    sides = {s.side} if s.side else {self._side_of(u) for u in s.units}
                    # A unit of unknown side arrives in the turn's first Reinforcement phase.
                    first_reinf = next(p for p in self.phases if p.kind == "reinforcement")
                    if ph.side is None or ph.side in sides or ((sides - {"unknown", None}) == set() and ph == first_reinf):
                        self._run_schedule(i, s)

    @property
    def engine_plays(self) -> frozenset[str]:
        """The phase kinds the engine itself plays (play/sequence.py): arrivals, moves and the
        turn's end always; attacks when a procedure resolves them or the data gives a CRT."""
        from play.combat import unavailable_reason

        kinds = set(ENGINE_KINDS)
        if not any("attack" in p.actions for p in self.procedures) and unavailable_reason(self) is not None:
            kinds.discard("combat")  # the log-only attack refuses: no CRT, no combat
        return frozenset(kinds)

    def _log_unplayed_steps(self, ph: Phase) -> None:
        """Every step of the phase (or the step-less phase) that nothing plays, or plays only in
        part, is said in the log with its case: the sequence never skips a step silently."""
        for st in coverage(ph, self.procedures, self.engine_plays):
            if st.status == "not played":
                self.emit("step_not_played", step=st.id, name=st.name, rule=st.rule, message=st.message)
            elif st.status == "partly played":
                self.emit("step_partly_played", step=st.id, name=st.name, rule=st.rule, message=st.message,
                          policy=st.policy)

    def turn_label(self) -> str:
        """The calendar's label of the current turn (e.g. "AM 6 June"), else "Turn N"."""
        return self._turn_label()

    def _turn_label(self) -> str:
        for t in self.system.calendar.all_turns:
            if t.n == self.state.turn:
                return t.label
        return f"Turn {self.state.turn}"

    # --- actions --------------------------------------------------------------------------

    def handler_for(self, do: str) -> Callable[[dict[str, Any]], ActionResult] | None:
        """The one callable that runs action ``do``, or None when this game has no such action."""
        return self._handlers.get(do)

    def action_names(self) -> list[str]:
        """Every action this game accepts: the generic ones and its procedures'."""
        return sorted(self._handlers)

    def procedure_of(self, kind: type[P]) -> P | None:
        """This game's procedure of class ``kind`` (a plug-in finding its sibling), or None."""
        return next((p for p in self.procedures if isinstance(p, kind)), None)

    def apply(self, action: dict[str, Any]) -> ActionResult:
        """Run one action. The boundary of the engine:

        * every argument is checked first (:func:`play.arguments.check_action`): a bad one is an
          :class:`ArgumentError` (a ``GameError``) and nothing has changed;
        * a ``GameError`` raised while the action runs (an unknown unit met half-way) rolls the
          game back to before the action and is re-raised;
        * any other exception is an engine bug: the game is rolled back and it is raised as
          :class:`InternalError` (``PLAY-INTERNAL-001``, a ``GameError``) naming the action.

        Rules refusals are not exceptions: they come back as ``ActionResult(ok=False)``."""
        if not isinstance(action, dict):
            raise ArgumentError("?", "action", action, "a map such as {do: move, unit: …, to: …}")
        raw = action.get("do", "")
        do = str(raw) if isinstance(raw, (str, int)) and not isinstance(raw, bool) else ""
        handler = self.handler_for(do)
        if handler is None:
            raise GameError(f"unknown action {raw!r}; this game's actions are: {', '.join(self.action_names())}")
        check_action(self, do, action)
        # Always snapshot (≈1 ms for a sample game): a failed action must leave no trace even in
        # headless runs that keep no undo history.
        snap = _Snapshot(copy.deepcopy(self.state), self.dice.get_state(), len(self.log), len(self.actions)) \
            if self.rollback or self.keep_undo else None
        try:
            self.actions.append(copy.deepcopy(action))
            if self.state.over and do not in ("roll",):
                result = ActionResult(False, "the scenario is over")
            elif (refused := self.phase_refusal(do)) is not None:
                result = refused  # not an action of this phase (its allows:): no procedure sees it
            else:
                result = next((r for r in (p.before(self, action) for p in self.procedures) if r is not None), None) \
                    or handler(action)
                for proc in self.procedures:
                    proc.after(self, action, result)
            if not isinstance(result, ActionResult):
                raise TypeError(f"the handler returned {type(result).__name__}, not an ActionResult")
            if not result.ok:
                self.emit("refused", action=do, message=result.message, rule=result.rule, policy=result.policy)
        except GameError:
            if snap is not None:
                self._restore(snap)
            raise
        except Exception as exc:  # the one place engine bugs are caught: see the docstring
            if snap is not None:
                self._restore(snap)
            raise InternalError(do, exc) from exc
        if self.keep_undo and snap is not None:
            self._undo.append(snap)
        return result

    def action_kind(self, do: str) -> str:
        """The phase permission action ``do`` needs (the kind a phase's ``allows:`` names), or
        ``admin``; an action classified nowhere is its own kind."""
        return self.action_kinds.get(do, do)

    def phase_refusal(self, do: str) -> ActionResult | None:
        """The refusal of ``do`` in the current phase when its ``allows:`` does not permit it
        (:meth:`play.sequence.Phase.refusal`), else None."""
        found = self.phase.refusal(do, self.action_kind(do), self.phases)
        return None if found is None else ActionResult(False, *found)

    def _restore(self, snap: _Snapshot) -> None:
        self.state = snap.state
        self.dice.set_state(snap.dice)
        del self.log[snap.log_len:]
        del self.actions[snap.actions_len:]

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        """Restore the state, dice and log from before the last action."""
        if not self._undo:
            return False
        self._restore(self._undo.pop())
        return True

    def stack(self, action: dict[str, Any]) -> list[UnitState]:
        """The units an action names (``units: [...]`` or ``unit: id``), in its order."""
        ids = action.get("units") or [action.get("unit")]
        return [self.unit(str(uid)) for uid in ids if uid is not None]

    def play_costs(self) -> dict[str, float] | None:
        """Numbers for ``unknown`` movement costs, from ``params.play_costs`` (scenario over
        system): terrain/hexside id → MP. Only data supplies them; the engine never guesses."""
        merged: dict[str, float] = {}
        for src in (self.system.params.get("play_costs"), self.scenario.params.get("play_costs")):
            if isinstance(src, dict):
                for k, v in src.items():
                    try:
                        merged[str(k)] = float(v)
                    except (TypeError, ValueError):
                        continue  # 'rule', 'illustrative', 'note' keys
        return merged or None

    def play_ma(self) -> dict[str, float] | None:
        """Illustrative MAs for counters that print none, from ``params.play_ma`` (scenario over
        system): counter id or category id → MA. Only data supplies them."""
        return rules.play_ma_lookup(self.system.params.get("play_ma"), self.scenario.params.get("play_ma"))

    def movement_allowance(self, u: UnitState) -> float | None:
        """The unit's MA: printed, else ``params.play_ma``, else None (cannot move)."""
        return rules.movement_allowance(self.system, self.counters.get(u.id), u.reduced, self.play_ma())

    def legal_moves(self, units: list[UnitState], column: bool = False) -> tuple[Reach | None, Problem | None]:
        """Reachable hexes for a stack (all in one hex), or why it cannot move."""
        if not units:
            return None, Problem("no_unit", "no unit selected")
        start = units[0].hex
        box = units[0].box if units[0].where == "box" else None
        if box is not None and all(u.where == "box" and u.box == box for u in units):
            return self._box_moves(units, box, column)
        if any(not u.on_map or u.hex != start for u in units) or start is None:
            return None, Problem("not_together", "the units are not together in one map hex")
        for u in units:
            if "immobile" in u.markers:
                return None, Problem("immobile", f"{u.id} is immobile until released")
        mas, classes = [], set()
        for u in units:
            c = self.counters.get(u.id)
            ma = self.movement_allowance(u)
            if ma is None:
                return None, Problem("no_ma", f"{u.id} has no printed movement allowance in the counter data",
                                     policy="unknown-ma-cannot-move: use 'place' to reposition it")
            for proc in self.procedures:
                cap = proc.ma_cap(self, u)
                if cap is not None and cap[0] < ma:
                    ma = cap[0]  # e.g. out of supply: MA 1 [SFN 9.1]
            mas.append(ma - u.mp_spent)
            classes.add(rules.movement_class(self.system, c))
        side = units[0].side
        blocked = {h for h in (x.hex for x in self.state.units.values() if x.on_map and x.side != side) if h}
        stop: set[Hex] = set()
        if rules.zoc_rules(self.system) is not None:
            stop = rules.enemy_zoc(self.system, self.state.units, self.counters, side)
        mclass = sorted(classes)[0]
        costs = self.play_costs()
        # System procedures may add per-step costs (TKG ZOC [8.2]); see Procedure.move_extra.
        extras = [f for f in (p.move_extra(self, units) for p in self.procedures) if f is not None]
        reach = reachable(self.hmap, self.system, start, max(0.0, min(mas)), mclass,
                          column=column, blocked=blocked, stop=stop, costs=costs, extra=extras,
                          tables=self.move_tables)
        for other in sorted(classes)[1:]:
            # A mixed stack may go only where every movement class can go.
            r2 = reachable(self.hmap, self.system, start, max(0.0, min(mas)), other,
                           column=column, blocked=blocked, stop=stop, costs=costs, extra=extras,
                           tables=self.move_tables)
            for h in list(reach.cost):
                if h not in r2.cost:
                    reach.refused[h] = r2.refused.get(h, ("not reachable by every unit", None))
                    del reach.cost[h]
                else:
                    reach.cost[h] = max(reach.cost[h], r2.cost[h])
        return reach, None

    def box_entry_hexes(self, box_id: str) -> list[Hex]:
        """A box's ``entry_hexes``: printed labels or location ids."""
        box = self.bundle.box(box_id)
        out: list[Hex] = []
        for ref in box.entry_hexes if box is not None else []:
            hexes = self.location_hexes(ref)
            if not hexes:
                try:
                    hexes = [self.hmap.parse(ref)]
                except Exception:  # neither a location nor a readable label
                    hexes = []
            out.extend(h for h in hexes if h not in out)
        return out

    def _box_moves(self, units: list[UnitState], box: str, column: bool) -> tuple[Reach | None, Problem | None]:
        """Entering the map from an off-map box through its entry hexes. Policy
        **box-entry-costs-entry-hex**: entering costs the entry hex's terrain cost, then the
        unit moves on with what is left."""
        entries = self.box_entry_hexes(box)
        for proc in self.procedures:
            entries = proc.box_entries(self, units, box, entries)  # e.g. SFN 7.3 beaches by nationality
        if not entries:
            return None, Problem("no_entry", f"box {box} has no entry hexes; use 'place'")
        c = self.counters.get(units[0].id)
        mas = [self.movement_allowance(u) for u in units]
        if any(m is None for m in mas):
            return None, Problem("no_ma", "a unit has no printed movement allowance in the counter data",
                                 policy="unknown-ma-cannot-move: use 'place' to reposition it")
        mp = min(m for m in mas if m is not None)
        mclass = rules.movement_class(self.system, c)
        side = units[0].side
        blocked = {h for h in (x.hex for x in self.state.units.values() if x.on_map and x.side != side) if h}
        costs = self.play_costs() or {}
        combined = Reach(start=entries[0], policies={"box-entry-costs-entry-hex"})
        for e in entries:
            p = rules.terrain_entry_problem(self.hmap, self.system, e, mclass)
            t = self.system.terrain_by_id.get(self.hmap.terrain_at(e) or "")
            word = t.move.get(mclass, "unknown") if t is not None else "unknown"
            cost = costs.get(t.id) if t is not None and t.id in costs else word
            if p is not None or e in blocked or not isinstance(cost, (int, float)) or cost > mp:
                combined.refused[e] = (p.message if p else "entry hex blocked or its cost unknown", p.rule if p else None)
                continue
            r = reachable(self.hmap, self.system, e, mp - float(cost), mclass, column=column,
                          blocked=blocked, costs=costs or None, tables=self.move_tables)
            for h, v in r.cost.items():
                if v + float(cost) < combined.cost.get(h, float("inf")):
                    combined.cost[h] = v + float(cost)
                    if h in r.parent:
                        combined.parent[h] = r.parent[h]
                    else:
                        combined.parent.pop(h, None)
            for h, why in r.refused.items():
                combined.refused.setdefault(h, why)
        for h in combined.cost:
            combined.refused.pop(h, None)
        combined.start = Hex(10 ** 6, 10 ** 6)  # off-map: every map hex is a real destination
        return combined, None

    def _do_move(self, action: dict[str, Any]) -> ActionResult:
        units = self.stack(action)
        dest = self.hex_of(action.get("to"))
        ph = self.phase
        if not ph.permits("move") or (ph.side is not None and any(u.side != ph.side for u in units)):
            return ActionResult(False, f"not the movement phase of {units[0].side if units else '?'} "
                                       f"(phase: {ph.name}{', ' + ph.side if ph.side else ''})",
                                ph.rule, MOVE_PHASE_POLICY)
        reach, problem = self.legal_moves(units, bool(action.get("column", False)))
        if problem is not None or reach is None:
            assert problem is not None
            return ActionResult(False, problem.message, problem.rule, problem.policy)
        if dest not in reach.cost or dest == reach.start:
            reason, rule = reach.refused.get(dest, ("out of reach with the MP left", None))
            if dest == reach.start:
                reason = "the unit is already there"
            elif not self.hmap.contains(dest):
                reason, rule = "off the map", None
            return ActionResult(False, f"cannot move to {self.label(dest)}: {reason}", rule)
        refused = self.overstack_refusal(dest, units)
        if refused is not None:
            return refused
        cost = reach.cost[dest]
        path = [self.label(h) for h in reach.path_to(dest)]
        for u in units:
            u.where, u.hex, u.box = "hex", dest, None
            u.mp_spent += cost
        self.emit("move", units=[u.id for u in units], to=self.label(dest), path=path, cost=cost,
                  policy=", ".join(sorted(reach.policies)) or None)
        return ActionResult(True, f"moved to {self.label(dest)} for {cost:g} MP", data={"cost": cost, "path": path})

    def _do_place(self, action: dict[str, Any]) -> ActionResult:
        """A playtester's free placement (no movement rules); logged as such."""
        u = self.unit(str(action.get("unit")))
        to = str(action.get("to", ""))
        if to.startswith("box:"):
            u.where, u.hex, u.box = "box", None, to[4:]
            self.emit("place", unit=u.id, box=u.box)
            return ActionResult(True, f"placed in box {u.box}")
        h = self.hex_of(to)
        if not self.hmap.contains(h):
            return ActionResult(False, f"{to} is off the map")
        u.where, u.hex, u.box = "hex", h, None
        if u.arrived is None:
            u.arrived = self.state.turn
        self.emit("place", unit=u.id, hex=self.label(h))
        return ActionResult(True, f"placed in {self.label(h)}")

    def _do_next_phase(self, action: dict[str, Any]) -> ActionResult:
        """The next phase; with ``to:`` (a phase id, name or ``"<id> <side>"``) every phase up to
        that one, which must be ahead in this turn. Each phase passed on the way is entered and left
        as a plain ``next_phase`` would (its procedures' ``before`` / ``after`` run), so a script
        names the phase it wants instead of counting."""
        target = action.get("to")
        if target is None:
            return self._advance_phase(action)
        ahead = [i for i in range(self.state.phase + 1, len(self.phases)) if self.phases[i].matches(str(target))]
        if not ahead:
            names = ", ".join(f"{p.id}" + (f" {p.side}" if p.side else "") for p in self.phases[self.state.phase + 1:])
            return ActionResult(False, f"phase {target!r} is not ahead in turn {self.state.turn} "
                                       f"(ahead: {names or 'none, the turn ends next'})", self.phase.rule)
        hop = {"do": "next_phase"}
        # A refusal on the way (a procedure's ``before``) leaves the game where the action began.
        snap = _Snapshot(copy.deepcopy(self.state), self.dice.get_state(), len(self.log), len(self.actions))
        result = self._advance_phase(hop)
        while result.ok and self.state.phase < ahead[0]:
            for proc in self.procedures:
                proc.after(self, hop, result)  # the phase just entered is left again
            result = next((r for r in (p.before(self, hop) for p in self.procedures) if r is not None), None) \
                or self._advance_phase(hop)
        if not result.ok:
            self._restore(snap)
            return ActionResult(False, f"cannot go on to phase {target!r}: {result.message}", result.rule,
                                result.policy)
        return ActionResult(True, f"phase {self.phase.name}")

    def _advance_phase(self, action: dict[str, Any]) -> ActionResult:
        for u in self.state.units.values():
            u.mp_spent = 0.0
        if self.state.phase + 1 < len(self.phases):
            self.state.phase += 1
            self._enter_phase()
            return ActionResult(True, f"phase {self.phase.name}")
        return self._do_end_turn(action)

    def _do_end_turn(self, action: dict[str, Any]) -> ActionResult:
        for u in self.state.units.values():
            u.mp_spent = 0.0
        for proc in self.procedures:
            proc.on_turn_end(self)
        self.emit("turn_end")
        if self.state.turn >= self.last_turn:
            self.state.over = True
            self.emit("game_over", vp=dict(sorted(self.state.vp.items())))
            return ActionResult(True, "the last turn has ended")
        self.state.turn += 1
        self.state.phase = 0
        self._enter_phase()
        return ActionResult(True, f"turn {self.state.turn}")

    def _do_roll(self, action: dict[str, Any]) -> ActionResult:
        spec = str(action.get("dice", "1d6")).lower()
        count_s, _, sides_s = spec.partition("d")
        try:
            count, sides = int(count_s or 1), int(sides_s or 6)
        except ValueError:
            raise GameError(f"cannot read dice {spec!r}; write e.g. 2d6") from None
        dice = self.dice.roll(count, sides)
        self.emit("roll", dice=spec, result=dice, total=sum(dice), reason=action.get("reason"))
        return ActionResult(True, f"rolled {dice}", data={"dice": dice, "total": sum(dice)})

    def _do_step_loss(self, action: dict[str, Any]) -> ActionResult:
        return self.lose_step(str(action.get("unit")), int(action.get("steps", 1)))

    def lose_step(self, uid: str, n: int = 1) -> ActionResult:
        """Unit ``uid`` loses ``n`` steps: a two-sided counter flips on its first loss, a unit
        with none left is eliminated (``step_loss`` / ``eliminated`` events)."""
        u = self.unit(uid)
        if u.where in ("eliminated", "withdrawn", "offmap"):
            return ActionResult(False, f"{u.id} is not in play ({u.where})")
        u.steps -= n
        c = self.counters.get(u.id)
        if u.steps <= 0:
            u.steps, u.where, u.hex, u.box = 0, "eliminated", None, None
            self.emit("eliminated", unit=u.id)
            return ActionResult(True, f"{u.id} eliminated")
        if not u.reduced and c is not None and c.back is not None:
            u.reduced = True  # the first loss flips a two-sided counter to its reduced side
        self.emit("step_loss", unit=u.id, steps=u.steps, reduced=u.reduced)
        return ActionResult(True, f"{u.id} has {u.steps} step(s) left")

    def _do_flip(self, action: dict[str, Any]) -> ActionResult:
        u = self.unit(str(action.get("unit")))
        c = self.counters.get(u.id)
        if c is None or c.back is None:
            return ActionResult(False, f"{u.id} has no back side to flip to")
        u.reduced = not u.reduced
        self.emit("flip", unit=u.id, reduced=u.reduced)
        return ActionResult(True, f"{u.id} {'reduced' if u.reduced else 'full strength'}")

    def _do_marker(self, action: dict[str, Any]) -> ActionResult:
        u = self.unit(str(action.get("unit")))
        add, remove = action.get("add"), action.get("remove")
        if add:
            u.markers.append(str(add))
        if remove:
            if str(remove) not in u.markers:
                return ActionResult(False, f"{u.id} has no {remove} marker")
            u.markers.remove(str(remove))
        self.emit("marker", unit=u.id, add=add, remove=remove, markers=list(u.markers))
        return ActionResult(True, f"{u.id} markers: {', '.join(u.markers) or 'none'}")

    def _do_vp(self, action: dict[str, Any]) -> ActionResult:
        side = str(action.get("side"))
        delta = int(action.get("delta", 0))
        self.state.vp[side] = self.state.vp.get(side, 0) + delta
        self.emit("vp", vp_side=side, delta=delta, total=self.state.vp[side])
        return ActionResult(True, f"{side} VP {self.state.vp[side]}")

    def _do_attack(self, action: dict[str, Any]) -> ActionResult:
        from play.combat import resolve_attack

        return resolve_attack(self, action)

    # --- save / load ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "bundle": str(self.bundle.root),
                "scenario": self.scenario_id, "seed": self.dice.seed,
                "state": self.state.to_dict(self.hmap), "dice": self.dice.get_state(),
                "log": copy.deepcopy(self.log), "actions": copy.deepcopy(self.actions)}

    def save(self, path: str | Path) -> None:
        """JSON (``.json``) or YAML (anything else), written atomically. The undo history is not saved."""
        path = Path(path)
        data = self.to_dict()
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n" \
            if path.suffix == ".json" else dump_yaml(data)
        atomic_write_text(path, text, keep_backup=False)


def load_game(path: str | Path, bundle: Bundle | None = None) -> Game:
    """A saved game, ready to continue exactly where it stopped."""
    from model.formats.yamlio import MAX_BYTES, YamlError, parse_typed_yaml
    from model.safefile import SafeFileError, read_bytes

    try:
        # A regular file, bounded by the bytes read (a FIFO or /dev/zero refused at once).
        text = read_bytes(path, MAX_BYTES, what="saved game").decode("utf-8")
    except SafeFileError as exc:
        raise GameError(f"{path}: {exc.message}") from None
    except UnicodeDecodeError:
        raise GameError(f"{path} is not UTF-8 text, so not a saved Hexproof game") from None
    try:
        data = json.loads(text) if Path(path).suffix == ".json" else parse_typed_yaml(text, str(path))
    except YamlError as exc:
        loc = exc.diagnostic.location
        raise GameError(f"{loc.render() if loc else path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise GameError(f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg}), so not a saved Hexproof game") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise GameError(f"{path} is not a saved Hexproof game")
    if bundle is None:
        result = load_bundle(data["bundle"])
        if result.bundle is None:
            raise GameError(f"cannot load the game's bundle {data['bundle']!r}")
        bundle = result.bundle
    game = Game(bundle, str(data["scenario"]), int(data["seed"]), start=False)
    game.state = GameState.from_dict(data["state"], game.hmap, game.plugin.state)
    game.dice.set_state(data["dice"])
    game.log = list(data["log"])
    game.actions = list(data.get("actions", []))
    return game
