"""One seed of a Monte-Carlo run: a pure, picklable function of (bundle, scenario, seed).

:func:`run_seed` starts a fresh game with the seed, plays the scenario's random steps
(:mod:`play.analysis.plan`) in order and reads what happened to each counted unit from the
game's state and log. :func:`replay_script` is the same run as a scripted playtest (the same
seed, the same actions), so any figure of a report can be replayed and read event by event:
``hexproof analyze … --seed K --script K.yaml`` then ``hexproof playtest K.yaml --events``. The
outcome carries the sha256 of the run's event log; the playtest of the script has the same one.
A step the engine played by itself while setting the game up (``RandomStep.at_start``: a
set-up roll such as SFN 3.5) is read from the set-up's events, not applied, and has no action
in the script: the script's game makes the same roll from the same seed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from model.bundle import load_bundle
from play.analysis.plan import NotAnalysed, RandomStep
from play.game import Game
from play.result import ActionResult

if TYPE_CHECKING:
    from model.bundle import Bundle

# Where a counted unit is after the steps (``UnitOutcome.status``).
IN_ZONE, OFF_ZONE, IN_BOX, ELIMINATED, WITHDRAWN, OFF_MAP = \
    "in_zone", "off_zone", "box", "eliminated", "withdrawn", "offmap"
STATUSES = (IN_ZONE, OFF_ZONE, IN_BOX, ELIMINATED, WITHDRAWN, OFF_MAP)


@dataclass(frozen=True)
class UnitOutcome:
    unit: str
    group: str              # the counter's battalion, else its formation, else its id
    kind: str               # the step's kind ("drop", …)
    zone: str | None        # the zone it aimed for
    status: str             # one of STATUSES
    hex: str | None         # the hex it ended in (printed label), on the map
    box: str | None         # the box it ended in
    drift: int | None       # hexes drifted (sum of its events' ``distance``), None: it did not drift
    steps_lost: int
    events: tuple[str, ...] = ()  # the types of the events the steps emitted naming it (``unit``), sorted
    turn: str | None = None  # "NN label", the turn its step was played in (sorts by number); None when no step names a turn


@dataclass(frozen=True)
class StepOutcome:
    kind: str
    zone: str | None
    ok: bool
    result: str | None      # the procedure's result (``ActionResult.data["result"]``), e.g. a table row
    policy: str | None
    # (event type, result) of each event of the step's ``tally`` types it emitted (a table roll)
    tallied: tuple[tuple[str, str], ...] = ()
    turn: str | None = None  # as UnitOutcome.turn
    message: str | None = None  # why a step was not played ("not reached: ..."), else None


@dataclass(frozen=True)
class SeedOutcome:
    seed: int
    units: tuple[UnitOutcome, ...]
    steps: tuple[StepOutcome, ...]
    log_sha256: str         # of ``Game.log_json()``: the replayed playtest's log has the same
    # (turn "NN label", level name, value or None: unknown) at the end of each turn played, for
    # the levels the plug-in reads (``SystemPlugin.analysis_levels``: a beach defence track)
    levels: tuple[tuple[str, str, float | None], ...] = ()


def turn_key(game: Game) -> str:
    """How a report names the game's current turn: ``"NN label"`` ("01 AM 6 June"): its number
    (two digits at least) and its calendar label. :func:`turn_order` sorts these keys by number,
    100 after 99, which text order does not."""
    return f"{game.state.turn:02d} {game.turn_label()}"


def turn_order(key: str) -> tuple[int, str]:
    """A :func:`turn_key` key's sort key: the turn number, then the text."""
    number, _, label = key.partition(" ")
    return (int(number), label) if number.isdigit() else (-1, key)


def turn_label_of(key: str) -> str:
    """The calendar label of a :func:`turn_key` key (what a text report prints)."""
    number, _, label = key.partition(" ")
    return label if number.isdigit() and label else key


def steps_for(game: Game) -> list[RandomStep]:
    """The random steps of the started ``game``'s scenario, from its plug-in (none if it lists none)."""
    fn = game.plugin.analysis
    return list(fn(game)) if fn is not None else []


def gaps_for(bundle: "Bundle", scenario: str) -> list[NotAnalysed]:
    """What the scenario's random procedures include that the analysis cannot play, from its
    plug-in (:class:`NotAnalysed`: a table not in the rules file); the same for every seed, so
    asked once per report, of a fresh game."""
    game = Game(bundle, scenario, 0)
    fn = game.plugin.analysis_gaps
    return list(fn(game)) if fn is not None else []


def opening_phase(game: Game) -> str | None:
    """The id of the first phase of the sequence in which units may move: the turn's arrivals
    are placed by then (GTS 4.0 C comes before the 4.0 H Activation Phase), so a random
    procedure of that turn finds its units on the map. None when no phase permits a move."""
    target = next((p for p in game.phases if p.permits("move")), None)
    return target.id if target is not None else None


def opening_action(game: Game) -> dict[str, Any] | None:
    """The ``next_phase`` that brings a fresh game to :func:`opening_phase` (the random procedures
    of the start of play are played there). None when the game starts in such a phase."""
    target = next((p for p in game.phases if p.permits("move")), None)
    if target is None or game.phases.index(target) <= game.state.phase:
        return None
    return {"do": "next_phase", "to": target.id}


def group_of(game: Game, uid: str) -> str:
    c = game.counters.get(uid)
    if c is None:
        return uid
    return c.battalion or c.formation or uid


def turn_limit(game: Game, turns: int | None) -> int | None:
    """The last turn number a trial of ``turns`` turns plays (``--turns N``: the scenario's first
    turn counts as 1), None: no limit."""
    return None if turns is None else game.state.turn + max(0, turns) - 1


class Played(NamedTuple):
    """One seed's game after the trial: what :func:`run_seed` reads and ``--seed K`` prints."""

    game: Game
    steps: list[RandomStep]            # the steps played (or found unreachable), in order
    results: list[ActionResult]        # each step's result (a refusal when its turn was not reached)
    before: dict[str, int]             # each counted unit's steps before the first roll
    first: int                         # the index of the steps' first event in the log
    marks: list[int]                   # each step's first event index, then the log's length
    actions: list[dict[str, Any]]      # every action applied, in order: the replay script's
    played_in: list[str]               # per step: "NN label" of the turn it was played in (or stuck in)
    levels: dict[str, dict[str, float | None]] = {}  # per turn "NN label": the plug-in's levels at its end
    # the log's slice the set-up's own rolls wrote (Game.set_up_mark to the end of the game's
    # start): the events of the ``at_start`` steps
    set_up: tuple[int, int] = (0, 0)


def _advance(game: Game, turn: int | None, phase: str | None, applied: list[dict[str, Any]]) -> ActionResult | None:
    """Bring ``game`` to ``turn`` (and then ``phase``, when it is ahead in that turn) with the
    engine's own phase-ending action, ``next_phase``, one phase at a time across turns and
    ``next_phase to:`` within one (what a playtest script writes). Every action applied is
    appended to ``applied``. None when there; else why not (a refusal, or the scenario ended):
    the trial does not go on past it."""
    while turn is not None and game.state.turn < turn:
        if game.state.over:
            return ActionResult(False, f"not reached: the scenario ended before turn {turn}")
        hop = {"do": "next_phase"}
        applied.append(dict(hop))
        r = game.apply(hop)
        if not r.ok:
            return ActionResult(False, f"not reached: {r.message}", r.rule, r.policy)
    if game.state.over and turn is not None:
        return ActionResult(False, f"not reached: the scenario is over (turn {game.state.turn})")
    if phase is not None and (turn is None or game.state.turn == turn):
        ahead = any(p.matches(phase) for p in game.phases[game.state.phase + 1:])
        if ahead:  # a phase already entered (or passed) this turn: the step is played where the game is
            hop = {"do": "next_phase", "to": phase}
            applied.append(dict(hop))
            r = game.apply(hop)
            if not r.ok:
                return ActionResult(False, f"not reached: {r.message}", r.rule, r.policy)
    return None


def _end_of(game: Game, turn: int, applied: list[dict[str, Any]]) -> None:
    """Play on through the end of ``turn`` (``--turns N``): what the engine does by itself on
    the way (a mandatory landing when an Activation Phase ends [Err 4.5.1]) is counted too."""
    while not game.state.over and game.state.turn <= turn:
        hop = {"do": "next_phase"}
        applied.append(dict(hop))
        if not game.apply(hop).ok:
            return


class _Observed:
    """A game whose ``apply`` also reads the plug-in's levels afterwards, keyed by the turn the
    game is then in (the last reading of a turn is its end); everything else is the game's."""

    def __init__(self, game: Game, read: Any, levels: dict[str, dict[str, float | None]]) -> None:
        self.inner, self._read, self._levels = game, read, levels
        levels[turn_key(game)] = dict(read(game))

    def apply(self, action: dict[str, Any]) -> ActionResult:
        r = self.inner.apply(action)
        self._levels[turn_key(self.inner)] = dict(self._read(self.inner))
        return r

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def play_steps(bundle: "Bundle", scenario: str, seed: int, turns: int | None = None) -> Played:
    """A fresh game with ``seed`` and its random steps played, each on its turn and phase
    (:class:`RandomStep`), the game advanced between them by ``next_phase``. ``turns``: play
    the first ``turns`` turns only (steps of later turns are not listed) and through the end of
    the last of them; None: up to the last step's turn and phase."""
    game = Game(bundle, scenario, seed)
    game.keep_undo = game.rollback = False  # a headless run never undoes; a seed that raises is lost whole
    applied: list[dict[str, Any]] = []
    read = game.plugin.analysis_levels
    levels: dict[str, dict[str, float | None]] = {}
    # the last reading in a turn is its end: read after every action of the trial; a plug-in
    # that reads nothing at the start (no Beach Overlay, the storm rule off) is not asked again
    if read is not None and read(game):
        game = _Observed(game, read, levels)  # type: ignore[assignment]
    set_up = (getattr(game, "set_up_mark", 0), len(game.log))
    at_start_turn = turn_key(game)
    opening = opening_action(game)
    if opening is not None:
        applied.append(dict(opening))
        game.apply(opening)
    limit = turn_limit(game, turns)
    steps = [s for s in steps_for(getattr(game, "inner", game)) if limit is None or s.turn is None or s.turn <= limit]
    set_up_steps: dict[str, int] = getattr(game, "set_up_steps", {})
    before = {uid: (set_up_steps.get(uid, game.unit(uid).steps) if s.at_start else game.unit(uid).steps)
              for s in steps for uid in s.units if uid in game.state.units}
    first = len(game.log)
    results: list[ActionResult] = []
    marks = [first]
    stuck: ActionResult | None = None
    played_in: list[str] = []
    for s in steps:
        if s.at_start:  # rolled by the engine at set-up: read from its event, not applied
            played_in.append(at_start_turn)
            results.append(_read_at_start(game.log[set_up[0]:set_up[1]], s))
            marks.append(len(game.log))
            continue
        if stuck is None:
            stuck = _advance(game, s.turn, s.phase, applied)
        played_in.append(turn_key(game))
        if stuck is not None:
            # A turn was not reached: neither its step nor any after it is played (a later step
            # with no turn of its own comes after the unreached one, not in the turn the game
            # stopped in).
            results.append(stuck)
        else:
            applied.append(dict(s.action))
            results.append(game.apply(dict(s.action)))
        marks.append(len(game.log))
    if limit is not None and stuck is None:
        _end_of(game, limit, applied)
        marks[-1] = len(game.log)
    return Played(getattr(game, "inner", game), steps, results, before, first, marks, applied, played_in, levels,
                  set_up)


def _read_at_start(events: list[dict[str, Any]], step: RandomStep) -> ActionResult:
    """An ``at_start`` step's result: the first event of its ``tally`` types the set-up wrote."""
    e = next((e for e in events if e.get("type") in step.tally), None)
    if e is None:
        return ActionResult(False, f"not rolled: the set-up wrote no {' / '.join(step.tally) or 'tallied'} event",
                            step.rule)
    return ActionResult(True, f"rolled at set-up ({e['type']})", e.get("rule") or step.rule,
                        data={"result": e.get("result")})


def run_seed(bundle: "Bundle", scenario: str, seed: int, turns: int | None = None) -> SeedOutcome:
    """The pure per-seed function: the same (bundle, scenario, seed, turns) always gives the same outcome."""
    game, steps, results, before, first, marks, _actions, played_in, levels, set_up = \
        play_steps(bundle, scenario, seed, turns)
    # the set-up's own rolls (``at_start`` steps) are read from where they were written
    read_from = min(first, set_up[0]) if any(s.at_start for s in steps) else first
    # by turn only when some step names its turn: a start-of-play report stays as it was
    when = played_in if any(s.turn is not None for s in steps) else [None] * len(steps)
    units: list[UnitOutcome] = []
    drift: dict[str, int] = {}
    seen: dict[str, set[str]] = {}
    for e in game.log[read_from:]:
        uid = e.get("unit")
        if not isinstance(uid, str):
            continue
        seen.setdefault(uid, set()).add(str(e.get("type")))
        d = e.get("distance")  # a drift event names its unit and the hexes it drifted
        if isinstance(d, int) and not isinstance(d, bool):
            drift[uid] = drift.get(uid, 0) + d
    for i, s in enumerate(steps):
        zone_hexes = set(s.zone_hexes) or (set(game.scenario.zone_hexes(s.zone) or []) if s.zone else set())
        for uid in s.units:
            u = game.unit(uid)
            if u.where == "hex":
                status = IN_ZONE if u.hex in zone_hexes else OFF_ZONE
            elif u.where == "box":
                status = IN_BOX
            else:
                status = u.where if u.where in STATUSES else OFF_MAP
            units.append(UnitOutcome(uid, group_of(game, uid), s.kind, s.zone, status,
                                     game.label(u.hex) if u.where == "hex" else None,
                                     u.box if u.where == "box" else None, drift.get(uid),
                                     max(0, before.get(uid, u.steps) - u.steps), tuple(sorted(seen.get(uid, ()))),
                                     when[i]))
    outs = tuple(StepOutcome(s.kind, s.zone, r.ok, _text(r.data.get("result")) if r.data else None,
                             "; ".join(p for p in (s.policy, r.policy) if p) or None,
                             _tallied(game.log[slice(*set_up) if s.at_start else slice(marks[i], marks[i + 1])],
                                      s.tally), when[i],
                             None if r.ok or not r.message.startswith("not reached") else r.message)
                 for i, (s, r) in enumerate(zip(steps, results)))
    digest = hashlib.sha256(game.log_json().encode("utf-8")).hexdigest()
    read = tuple((t, name, levels[t][name]) for t in sorted(levels, key=turn_order) for name in sorted(levels[t]))
    return SeedOutcome(seed, tuple(units), outs, digest, read)


def _tallied(events: list[dict[str, Any]], types: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(event type, its ``result``) for each event of ``types`` a step emitted: a table roll."""
    return tuple((str(e["type"]), str(e.get("result"))) for e in events if e.get("type") in types)


def _text(v: Any) -> str | None:
    return None if v is None else str(v)


def replay_script(bundle_path: str | Path, scenario: str, seed: int, steps: list[RandomStep] | None = None,
                  script_dir: str | Path | None = None, turns: int | None = None) -> dict[str, Any]:
    """The playtest script (play/script.py) that plays seed ``seed``'s trial: the opening
    ``next_phase``, each random step, and every ``next_phase`` the trial applied to reach a
    step's turn, in the order applied; running it gives the same event log as :func:`run_seed`.
    ``bundle`` is written relative to the script's folder ``script_dir`` when given (the runner
    reads it so). ``steps`` is accepted for the callers that have them; the actions are the
    played trial's own (``Played.actions``), so nothing is re-derived."""
    import os

    bundle = str(Path(bundle_path).resolve())
    if script_dir is not None:
        bundle = os.path.relpath(bundle, Path(script_dir).resolve())
    loaded = load_bundle(bundle_path).bundle
    actions = play_steps(loaded, scenario, seed, turns).actions if loaded is not None else []
    return {"seed": seed, "bundle": bundle, "scenario": scenario, "actions": [dict(a) for a in actions]}


def seed_task(context: "tuple[Bundle, str] | tuple[Bundle, str, int | None]", seed: int) -> SeedOutcome:
    """:func:`run_seed` for an executor: ``context`` is (bundle, scenario id[, turns]), sent once per worker."""
    bundle, scenario = context[0], context[1]
    turns = context[2] if len(context) > 2 else None  # type: ignore[misc]
    return run_seed(bundle, scenario, seed, turns)
