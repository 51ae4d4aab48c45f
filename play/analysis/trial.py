"""One seed of a Monte-Carlo run: a pure, picklable function of (bundle, scenario, seed).

:func:`run_seed` starts a fresh game with the seed, plays the scenario's random steps
(:mod:`play.analysis.plan`) in order and reads what happened to each counted unit from the
game's state and log. :func:`replay_script` is the same run as a scripted playtest (the same
seed, the same actions), so any figure of a report can be replayed and read event by event:
``hexproof analyze … --seed K --script K.yaml`` then ``hexproof playtest K.yaml --events``. The
outcome carries the sha256 of the run's event log; the playtest of the script has the same one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from model.bundle import load_bundle
from play.analysis.plan import RandomStep
from play.game import Game

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


@dataclass(frozen=True)
class StepOutcome:
    kind: str
    zone: str | None
    ok: bool
    result: str | None      # the procedure's result (``ActionResult.data["result"]``), e.g. a table row
    policy: str | None
    # (event type, result) of each event of the step's ``tally`` types it emitted (a table roll)
    tallied: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SeedOutcome:
    seed: int
    units: tuple[UnitOutcome, ...]
    steps: tuple[StepOutcome, ...]
    log_sha256: str         # of ``Game.log_json()``: the replayed playtest's log has the same


def steps_for(game: Game) -> list[RandomStep]:
    """The random steps of the started ``game``'s scenario, from its plug-in (none if it lists none)."""
    fn = game.plugin.analysis
    return list(fn(game)) if fn is not None else []


def opening_action(game: Game) -> dict[str, Any] | None:
    """The ``next_phase`` that brings a fresh game to the first phase of its sequence in which
    units may move: the first turn's arrivals are placed by then (GTS 4.0 C comes before the
    4.0 H Activation Phase), so the random procedures of the start of play find their units on
    the map. None when the game starts in such a phase."""
    target = next((p for p in game.phases if p.permits("move")), None)
    if target is None or game.phases.index(target) <= game.state.phase:
        return None
    return {"do": "next_phase", "to": target.id}


def group_of(game: Game, uid: str) -> str:
    c = game.counters.get(uid)
    if c is None:
        return uid
    return c.battalion or c.formation or uid


def play_steps(bundle: "Bundle", scenario: str, seed: int
               ) -> tuple[Game, list[RandomStep], list[Any], dict[str, int], int, list[int]]:
    """A fresh game with ``seed`` and its random steps played: (game, steps, results, each
    counted unit's steps before the first roll, the index of the steps' first event, and the
    index of each step's first event followed by the log's length)."""
    game = Game(bundle, scenario, seed)
    game.keep_undo = game.rollback = False  # a headless run never undoes; a seed that raises is lost whole
    opening = opening_action(game)
    if opening is not None:
        game.apply(opening)
    steps = steps_for(game)
    before = {uid: game.unit(uid).steps for s in steps for uid in s.units}
    first = len(game.log)
    results = []
    marks = [first]
    for s in steps:
        results.append(game.apply(dict(s.action)))
        marks.append(len(game.log))
    return game, steps, results, before, first, marks


def run_seed(bundle: "Bundle", scenario: str, seed: int) -> SeedOutcome:
    """The pure per-seed function: the same (bundle, scenario, seed) always gives the same outcome."""
    game, steps, results, before, first, marks = play_steps(bundle, scenario, seed)
    units: list[UnitOutcome] = []
    drift: dict[str, int] = {}
    seen: dict[str, set[str]] = {}
    for e in game.log[first:]:
        uid = e.get("unit")
        if not isinstance(uid, str):
            continue
        seen.setdefault(uid, set()).add(str(e.get("type")))
        d = e.get("distance")  # a drift event names its unit and the hexes it drifted
        if isinstance(d, int) and not isinstance(d, bool):
            drift[uid] = drift.get(uid, 0) + d
    for s in steps:
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
                                     max(0, before[uid] - u.steps), tuple(sorted(seen.get(uid, ())))))
    outs = tuple(StepOutcome(s.kind, s.zone, r.ok, _text(r.data.get("result")) if r.data else None,
                             "; ".join(p for p in (s.policy, r.policy) if p) or None,
                             _tallied(game.log[marks[i]:marks[i + 1]], s.tally))
                 for i, (s, r) in enumerate(zip(steps, results)))
    digest = hashlib.sha256(game.log_json().encode("utf-8")).hexdigest()
    return SeedOutcome(seed, tuple(units), outs, digest)


def _tallied(events: list[dict[str, Any]], types: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(event type, its ``result``) for each event of ``types`` a step emitted: a table roll."""
    return tuple((str(e["type"]), str(e.get("result"))) for e in events if e.get("type") in types)


def _text(v: Any) -> str | None:
    return None if v is None else str(v)


def replay_script(bundle_path: str | Path, scenario: str, seed: int, steps: list[RandomStep],
                  script_dir: str | Path | None = None) -> dict[str, Any]:
    """The playtest script (play/script.py) that plays seed ``seed``'s random steps: running it
    gives the same event log as :func:`run_seed`. ``bundle`` is written relative to the
    script's folder ``script_dir`` when given (the runner reads it so)."""
    import os

    bundle = str(Path(bundle_path).resolve())
    if script_dir is not None:
        bundle = os.path.relpath(bundle, Path(script_dir).resolve())
    loaded = load_bundle(bundle_path).bundle
    opening = opening_action(Game(loaded, scenario, seed)) if loaded is not None else None
    return {"seed": seed, "bundle": bundle, "scenario": scenario,
            "actions": ([opening] if opening else []) + [dict(s.action) for s in steps]}


def seed_task(context: "tuple[Bundle, str]", seed: int) -> SeedOutcome:
    """:func:`run_seed` for an executor: ``context`` is (bundle, scenario id), sent once per worker."""
    bundle, scenario = context
    return run_seed(bundle, scenario, seed)
