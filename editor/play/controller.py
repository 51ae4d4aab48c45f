"""PlayController: one test game (``play.game.Game``) of the open bundle, driven by the window.

The controller is the only thing in Play mode that changes game state. It holds the
selection (a stack of unit ids in one hex or box) and the reachable hexes of that selection,
runs every action through ``Game.apply`` (so the engine's log, refusals and undo stay the
single source of truth), and emits :attr:`changed` after each one so the views redraw.
The document (map edits, the QUndoStack) is never touched: a game reads the bundle only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import time

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from editor.play.los_check import LosCheck, check
from model.bundle import Bundle
from model.hexes import Hex
from play.combat import unavailable_reason
from play.game import ActionResult, Game, GameError
from play.moves import Reach, warm_game
from play.rules import Problem
from play.state import UnitState

DEFAULT_SEED = 1
_EXIT_HOOK = False


def _wait_for_warmers() -> None:
    """At interpreter exit, let a running warm-up finish: a Python worker thread still running
    while the interpreter tears down can crash the process."""
    QThreadPool.globalInstance().waitForDone(30000)


class _WarmSignals(QObject):
    done = Signal(object, float, int)  # the game warmed, seconds, tables built


class _WarmJob(QRunnable):
    """Builds a game's dense step tables (play.moves.warm_game) on a pool thread, so the first
    click in Play mode does not pay for them. MoveTables locks: a query on the UI thread in the
    meantime waits for the table being built instead of building it twice."""

    def __init__(self, game: Game, signals: _WarmSignals) -> None:
        super().__init__()
        self.game, self.signals = game, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        t0 = time.perf_counter()
        try:
            n = warm_game(self.game)
        except Exception:  # a warm-up is an optimisation: the first query builds what failed here
            n = -1
        self.signals.done.emit(self.game, time.perf_counter() - t0, n)


@dataclass(frozen=True)
class Prefetch:
    """What a click selecting ``key``'s units would compute, computed before it
    (:meth:`PlayController.prefetch`), for the state ``key`` names."""

    key: tuple[object, ...]  # the units and the state (PlayController._reach_key)
    last_entry: object  # the log entry the key names by identity, kept alive so its id stays its own
    reach: tuple[Reach | None, Problem | None]
    # The Fire Zone query's result and hexes, when Show Fire Zone was on (else None: not asked).
    fire_zone: tuple[ActionResult, set[Hex]] | None


class PlayController(QObject):
    changed = Signal()  # state, selection or log changed: redraw everything
    result = Signal(object)  # the ActionResult of the last action (status bar, log)
    los_line_checked = Signal(object)  # the LosCheck of a click LOS check (drawn on the map)
    warmed = Signal(float, int)  # step tables built off the UI thread: seconds, table count

    def __init__(self, bundle: Bundle, scenario_id: str | None = None, seed: int = DEFAULT_SEED,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bundle = bundle
        self.seed = seed
        ids = bundle.scenario_ids()
        if not ids:
            raise GameError("the bundle has no scenario to play")
        self.scenario_id = scenario_id if scenario_id in ids else ids[0]
        if scenario_id is not None and scenario_id not in ids:
            raise GameError(f"no scenario {scenario_id!r} in the bundle (has: {', '.join(ids)})")
        self.game = Game(bundle, self.scenario_id, seed)
        self.selection: list[str] = []
        self.reach: Reach | None = None
        self.reach_problem: Problem | None = None
        self.last: ActionResult | None = None
        # Extra arguments of the next map attack, from the Actions dock's check boxes (the
        # plug-in's attack options, play.plugin_ui.AttackOption).
        self.attack_options: dict[str, Any] = {}
        self.fire_zone_on = False
        self.fire_zone: set[Hex] = set()  # the engine's Fire Zone of the selected unit
        self.los_mode = False  # Check LOS on: a plain click checks LOS instead of moving
        self.los_line: LosCheck | None = None  # the last click LOS check, drawn until the next action
        self.warm_seconds: float | None = None  # the last background warm-up's duration
        # A state change (apply, undo, restart) counts up: a reach computed before one is stale.
        self._version = 0
        # What a click on the hovered stack would compute, computed before it (prefetch).
        self._prefetched: Prefetch | None = None
        self.prefetches = 0  # reaches computed ahead (a test counts them)
        # No parent: the running job keeps it alive even if the controller goes first.
        self._warm_signals = _WarmSignals()
        self._warm_signals.done.connect(self._warm_done)

    # --- game lifecycle ------------------------------------------------------------------------

    def restart(self, scenario_id: str | None = None, seed: int | None = None) -> None:
        """Start the scenario (or another one) again from its setup; clears undo history."""
        if scenario_id is not None:
            if scenario_id not in self.bundle.scenario_ids():
                raise GameError(f"no scenario {scenario_id!r} in the bundle")
            self.scenario_id = scenario_id
        if seed is not None:
            self.seed = seed
        self.game = Game(self.bundle, self.scenario_id, self.seed)
        self._version += 1
        self.selection, self.reach, self.reach_problem, self.last = [], None, None, None
        self.fire_zone = set()
        self.los_line = None
        self.warm()
        self.changed.emit()

    def warm(self) -> None:
        """Build the game's step tables on a pool thread (Play mode calls this on entering)."""
        global _EXIT_HOOK
        if not _EXIT_HOOK:
            import atexit

            atexit.register(_wait_for_warmers)
            _EXIT_HOOK = True
        QThreadPool.globalInstance().start(_WarmJob(self.game, self._warm_signals))

    def _warm_done(self, game: object, seconds: float, tables: int) -> None:
        if game is self.game:
            self.warm_seconds = seconds
            self.warmed.emit(seconds, tables)

    def apply(self, action: dict[str, Any]) -> ActionResult:
        """Run one engine action. Malformed actions come back as a refusal, never an exception
        (a GUI click must not crash the window)."""
        self._version += 1
        try:
            res = self.game.apply(action)
        except GameError as exc:
            res = ActionResult(False, str(exc))
        self.last = res
        self.los_line = None  # the state changed: an old sight line may be stale
        self._refresh_reach()
        self.result.emit(res)
        self.changed.emit()
        return res

    def undo(self) -> bool:
        self._version += 1
        ok = self.game.undo()
        if ok:
            self.last = None
            self._refresh_reach()
            self.changed.emit()
        return ok

    def next_phase(self, to: str | None = None) -> ActionResult:
        """The next phase, or (``to``: a phase id or name) every phase up to that one this turn."""
        self.selection = []
        return self.apply({"do": "next_phase"} if to is None else {"do": "next_phase", "to": to})

    def end_turn(self) -> ActionResult:
        self.selection = []
        return self.apply({"do": "end_turn"})

    # --- selection and movement ----------------------------------------------------------------

    def units_at(self, h: Hex) -> list[UnitState]:
        return sorted(self.game.state.at(h), key=lambda u: u.id)

    def stack_for(self, h: Hex) -> list[str]:
        """The units a click on ``h`` selects: the phasing side's units there if any, else the
        units of the side of the first counter (a stack never mixes sides)."""
        units = self.units_at(h)
        if not units:
            return []
        side = self.game.side_to_move
        mine = [u for u in units if u.side == side]
        pick = mine or [u for u in units if u.side == units[0].side]
        return [u.id for u in pick]

    def select(self, unit_ids: list[str]) -> None:
        self.selection = [u for u in unit_ids if u in self.game.state.units]
        if self.los_line is not None and self.los_line.firer not in [self.game.state.units[u].hex for u in self.selection]:
            self.los_line = None  # drawn from a unit no longer selected
        self._refresh_reach()
        self.changed.emit()

    def select_hex(self, h: Hex) -> list[str]:
        self.select(self.stack_for(h))
        return self.selection

    def clear_selection(self) -> None:
        self.select([])

    def selected_units(self) -> list[UnitState]:
        return [self.game.state.units[u] for u in self.selection if u in self.game.state.units]

    def _refresh_reach(self) -> None:
        units = self.selected_units()
        self.selection = [u.id for u in units if u.where in ("hex", "box")]
        units = [u for u in units if u.where in ("hex", "box")]
        pre, self._prefetched = self._prefetched, None  # used once, or dropped
        if pre is not None and not (units and pre.key == self._reach_key(units)):
            pre = None
        if not units:
            self.reach, self.reach_problem = None, None
        elif pre is not None:
            self.reach, self.reach_problem = pre.reach
        else:
            self.reach, self.reach_problem = self.game.legal_moves(units)
        self._refresh_fire_zone(pre.fire_zone if pre is not None else None)

    def _reach_key(self, units: list[UnitState]) -> tuple[object, ...]:
        """What a reach depends on: the units and the game state. The state is the controller's
        change count and the log's length and last entry (compared by identity), so a change
        made to the game directly, past the controller, makes a prefetched reach stale too when
        it writes the log (the engine logs every action; a change to the state that writes no
        log entry is not seen)."""
        log = self.game.log
        return (tuple(u.id for u in units), self._version, len(log), id(log[-1]) if log else None)

    def click_outcome(self, h: Hex) -> str:
        """What a plain click on ``h`` does (PlayTool.click acts on it, the prefetch reads it):
        ``"select"`` the stack there — with nothing selected, always; with a selection, another
        friendly stack outside its reach —, ``"keep"`` the selected stack selected (a click on
        it), ``"attack"`` an enemy stack in a combat phase, else ``"move"`` there (a reachable
        hex; any other, and the engine says why not)."""
        sel = self.selected_units()
        if not sel:
            return "select"
        if sel[0].on_map and sel[0].hex == h:
            return "keep"
        here = self.units_at(h)
        enemy_here = bool(here) and all(u.side != sel[0].side for u in here)
        if enemy_here and self.game.phase.kind == "combat":
            return "attack"
        reach = self.reach
        if reach is not None and h != reach.start and h in reach.cost:
            return "move"  # as h in reachable_costs(), without building that dict
        return "select" if here and not enemy_here else "move"

    def click_selects(self, h: Hex) -> bool:
        """Whether a plain click on ``h`` selects the stack there (:meth:`click_outcome`)."""
        return self.click_outcome(h) == "select"

    def prefetch(self, h: Hex | None) -> list[UnitState]:
        """While the pointer is on ``h``: what a click there would compute if it selects the
        stack there (:meth:`click_selects`), computed now, so the click only shows it (PlayMode
        calls this on an idle turn after the pointer reaches a hex). That is the stack's reach
        and, with Show Fire Zone on, its Fire Zone: the engine queries the click would make,
        ``Game.legal_moves`` and the ``fire_zone`` query, which write nothing.

        Returns the units it is for (computed now or before, in this state); none when a click
        there would not select or there is no stack."""
        if h is None or not self.click_selects(h):
            return []
        units = [self.game.state.units[u] for u in self.stack_for(h)]
        units = [u for u in units if u.where in ("hex", "box")]
        if not units:
            return []
        key = self._reach_key(units)
        pre = self._prefetched
        if pre is None or pre.key != key:
            log = self.game.log
            pre = Prefetch(key, log[-1] if log else None, self.game.legal_moves(units), None)
            self.prefetches += 1
        if self.fire_zone_on and pre.fire_zone is None:
            pre = Prefetch(pre.key, pre.last_entry, pre.reach, self._fire_zone_of(units))
        self._prefetched = pre
        return units

    def prefetched(self, units: list[UnitState]) -> Prefetch | None:
        """What :meth:`prefetch` computed for ``units`` in the state as it is, else None."""
        pre = self._prefetched
        return pre if pre is not None and pre.key == self._reach_key(units) else None

    def reachable_costs(self) -> dict[Hex, float]:
        """Destinations of the current selection and their MP costs (the start hex excluded)."""
        if self.reach is None:
            return {}
        return {h: c for h, c in self.reach.cost.items() if h != self.reach.start}

    def move_to(self, h: Hex) -> ActionResult:
        """Move the selection to ``h``; the engine refuses illegal moves with their rule case."""
        if not self.selection:
            res = ActionResult(False, "select a unit first")
            self.last = res
            self.result.emit(res)
            return res
        res = self.apply({"do": "move", "units": list(self.selection), "to": self.game.label(h)})
        return res

    def attack(self, target: Hex) -> ActionResult:
        action = {"do": "attack", "attackers": list(self.selection), "target": self.game.label(target)}
        action.update(self.attack_options)
        res = self.apply(action)
        if res.ok and self.attack_options:
            self.attack_options.clear()  # an option is for the next attack only: its box unticks
            self.changed.emit()
        return res

    # --- what the panels show ------------------------------------------------------------------

    def combat_note(self) -> str | None:
        """None when the engine can resolve combat; else what it reports instead."""
        if any("attack" in p.actions for p in self.game.procedures):
            return None  # a system procedure resolves combat (its own battle board or CRT)
        msg = unavailable_reason(self.game)
        return None if msg is None else msg[0].upper() + msg[1:]

    def turn_text(self) -> str:
        g = self.game
        return f"Turn {g.state.turn} of {g.last_turn} · {g.turn_label()}"

    # --- fire zone and LOS (engine queries; systems without LOS rules say why) ------------------

    def los_off_reason(self) -> str | None:
        """Why this game draws no LOS (the system's own words and rule case), or None."""
        los = self.game.system.los
        if los.enabled:
            return None
        why = los.disabled_reason or "this game system has no line-of-sight rules"
        return f"LOS is off: {why}"

    def offers(self, do: str) -> bool:
        return any(do in p.actions for p in self.game.procedures)

    def query(self, action: dict[str, Any]) -> ActionResult:
        """Run an engine query (``fire_zone``, ``los``) without recording it: a query changes no
        state, so it must not become an undo step or flood the log on every hover."""
        g = self.game
        log_len, act_len, keep = len(g.log), len(g.actions), g.keep_undo
        g.keep_undo = False
        try:
            res = g.apply(action)
        except GameError as exc:
            res = ActionResult(False, str(exc))
        finally:
            g.keep_undo = keep
            del g.log[log_len:]
            del g.actions[act_len:]
        return res

    def set_fire_zone(self, on: bool) -> ActionResult:
        """Show (or hide) the selected unit's Fire Zone; the result goes to the status bar."""
        self.fire_zone_on = on
        res = self._refresh_fire_zone() if on else ActionResult(True, "Fire Zone hidden")
        self.last = res
        self.result.emit(res)
        self.changed.emit()
        return res

    def _refresh_fire_zone(self, ahead: tuple[ActionResult, set[Hex]] | None = None) -> ActionResult:
        """The selection's Fire Zone, when shown: ``ahead`` if the prefetch computed it for this
        selection in this state, else asked of the engine now."""
        if not self.fire_zone_on:
            self.fire_zone = set()
            return ActionResult(True, "Fire Zone hidden")
        res, self.fire_zone = ahead if ahead is not None else self._fire_zone_of(self.selected_units())
        return res

    def _fire_zone_of(self, units: list[UnitState]) -> tuple[ActionResult, set[Hex]]:
        """The engine's Fire Zone of the first of ``units`` on the map, or why there is none."""
        off = self.los_off_reason()
        if off is not None:
            return ActionResult(False, off, self.game.system.los.rule), set()
        if not self.offers("fire_zone"):
            return ActionResult(False, "this game has no Fire Zone query"), set()
        sel = [u for u in units if u.on_map and u.hex is not None]
        if not sel:
            return ActionResult(False, "select a unit on the map to see its Fire Zone"), set()
        res = self.query({"do": "fire_zone", "unit": sel[0].id})
        return res, ({self.game.hex_of(lab) for lab in res.data.get("hexes", [])} if res.ok else set())

    def los_to(self, h: Hex) -> ActionResult:
        """The engine's LOS verdict from the selected unit to ``h``, with the rule case that
        decided it (``LosResult.decided_by``); systems without LOS give their reason instead."""
        off = self.los_off_reason()
        if off is not None:
            return ActionResult(False, off, self.game.system.los.rule)
        sel = [u for u in self.selected_units() if u.on_map and u.hex is not None]
        if not sel:
            return ActionResult(False, "select a unit on the map to check LOS from it")
        if not self.game.hmap.contains(h):
            return ActionResult(False, "no map hex there")
        assert sel[0].hex is not None
        res = self.query({"do": "los", "from": self.game.label(sel[0].hex), "to": self.game.label(h)})
        if res.ok and not res.data.get("visible", True):
            # The query's explanation marks the first blocker; the crossing itself (with its
            # rule case) comes from the same model.los evaluation the query ran.
            from model.los import line_of_sight

            lr = line_of_sight(self.game.hmap, self.game.system, sel[0].hex, h,
                               **self.game.plugin.play_ui.los_conditions(self.game))
            blocker = lr.first_blocker
            rule = lr.decided_by.rule if lr.decided_by is not None else res.rule
            data = dict(res.data, blocker_rule=blocker.rule) if blocker is not None else res.data
            return ActionResult(True, f"{res.message}: {lr.reason}", rule, res.policy, data=data)
        return res

    def check_los_line(self, h: Hex) -> LosCheck:
        """Check LOS from the selected unit to ``h`` (Ctrl+click, or a click with Check LOS on):
        the engine's verdict, drawn on the map (:attr:`los_line`) and announced on
        :attr:`los_line_checked`. A query: no undo step, no log line."""
        sel = [u for u in self.selected_units() if u.on_map and u.hex is not None]
        res = check(self.game, sel[0] if sel else None, h, self.query)
        self.los_line = res if res.ok else None
        self.los_line_checked.emit(res)
        self.changed.emit()
        return res
