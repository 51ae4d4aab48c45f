"""The play engine at its boundary (issue #15 part 7): random legal and illegal actions on every
sample scenario and variant, and what ``Game.apply`` must guarantee for each.

A hypothesis state machine plays a game of a random scenario: it steps phases and turns (so
each system's procedures run in their own phases), moves units to nearby hexes, and throws
random actions at it — names from the game's registered actions mixed with junk, arguments
from the names the engine knows mixed with typos, values that are real unit ids, hex labels
and box ids of that game mixed with junk (huge, negative and non-finite numbers, lists where a
unit is expected, maps where a hex is expected, empty text, nulls, nested data).

Properties after every action:

* the only exception is a ``GameError``; an ``InternalError`` (``PLAY-INTERNAL-001``, an
  engine bug caught at the boundary) fails the test with the action that caused it;
* an action that raised left ``Game.to_dict()`` (state, dice, log, actions) exactly as before;
* no action takes longer than ``ACTION_SECONDS`` (a hang is a failure, not a stuck CI job).

Run length: the ``ci`` profile (``CI=1``) runs ``CI_EXAMPLES`` games per bundle, about two
minutes in all; ``HEXPROOF_PLAY_FUZZ_EXAMPLES=N`` runs N per bundle; ``HEXPROOF_PLAY_FUZZ_MINUTES=M``
keeps drawing fresh (random-seeded) batches for M minutes per bundle and prints the count.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from functools import lru_cache
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from conftest import REPO
from model.bundle import Bundle, load_bundle
from play.arguments import ACTIONS, COMMON
from play.errors import GameError, InternalError
from play.game import Game

BUNDLES = ["utah-beach", "second-front-now", "killing-ground"]
ACTION_SECONDS = 20      # one action; the slowest legal sample action takes well under 1 s
STEPS = 40               # actions per game
CI_EXAMPLES = 200        # games per bundle under CI=1: ≈ 2 minutes for the three bundles (measured 2:30 at 250)
DEV_EXAMPLES = 30        # games per bundle in a plain local run (≈ 25 s)

# Arguments most procedures read (a spec lists only overrides and required ones).
CORE_ARGS = ["unit", "units", "attackers", "to", "target", "hex", "side", "division", "leader", "ship", "turn", "steps"]
JUNK_NAMES = ["", "unti", "_setup", "__init__", "do_move", "MOVE", "move ", "🙂", "x" * 300, "0"]
JUNK_SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-10 ** 20, 10 ** 20), st.sampled_from([0, -1, 1, 2, 10 ** 9, 10 ** 18, -10 ** 9]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["nan", "inf", "-inf", "1e999", "1.5"]),
    st.text(max_size=12), st.sampled_from(["", " ", "box:", "box:nowhere", "1000000000000000000", "-1", "0",
                                            "1000000000d6", "3d0", "d", "true", "all", "x" * 300, "0402x",
                                            "99.999", "0000", "9999", "N0101", "\x00", "\u202e"]),
)


@lru_cache(maxsize=None)
def bundle(name: str) -> Bundle:
    b = load_bundle(REPO / "scenarios" / name).bundle
    assert b is not None, f"sample bundle {name} does not load"
    return b


@lru_cache(maxsize=None)
def base_game(name: str, scenario: str) -> Game:
    return Game(bundle(name), scenario, 1)


def game_values(game: Game) -> dict[str, list[Any]]:
    """Real ids and labels of this game, to mix with the junk so some actions get far."""
    units = sorted(game.state.units)[:60] or ["nobody"]
    on_map = [game.label(u.hex) for u in game.state.units.values() if u.hex is not None][:40]
    hexes = sorted(set(on_map)) + [game.label(h) for h in game.hmap.hexes()[::97][:40]]
    boxes = [b.id for b in game.bundle.game.boxes][:20]
    sides = [s.id for s in game.system.sides]
    return {"units": units, "hexes": hexes or ["0101"], "boxes": boxes, "sides": sides}


def value_strategy(game: Game, values: dict[str, list[Any]]) -> st.SearchStrategy[Any]:
    real = st.sampled_from(values["units"] + values["hexes"] + ["box:" + b for b in values["boxes"]]
                           + values["boxes"] + values["sides"]
                           + ["1d6", "2d10", "3", "1", "2", "true", "false", "all", "next", "this", "One"])
    unit = st.sampled_from(values["units"])
    hexl = st.sampled_from(values["hexes"])
    lists = st.lists(st.one_of(unit, unit, JUNK_SCALARS), max_size=4)
    maps = st.dictionaries(st.one_of(unit, st.text(max_size=6)), st.one_of(real, hexl, JUNK_SCALARS, lists), max_size=3)
    nested = st.recursive(JUNK_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                                 st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                          max_leaves=8)
    return st.one_of(real, real, real, unit, hexl, st.lists(unit, min_size=1, max_size=3), JUNK_SCALARS, lists, maps,
                     nested)


def valid_pool(game: Game, values: dict[str, list[Any]]) -> list[Any]:
    """Candidate values of every shape; :func:`valid_values` keeps those a kind accepts."""
    u, h = values["units"], values["hexes"]
    return (u[:20] + h[:20] + [u[:1], u[:2], u[1:3]] + ["box:" + b for b in values["boxes"][:5]] + values["boxes"][:5]
            + values["sides"] + [True, False, "yes", "all", "2d6", "1d10", "3"]
            + [str(n) for n in range(-2, 13)] + list(range(0, 6)) + ["1.5", 2.5]
            + [{u[0]: h[0]}, {"terrain": 1}, {"company_bonus": "2"}, {u[0]: {"tq": 5}}, [{"unit": u[0], "target": u[-1]}]]
            + ["next", "this", "One", "Two", "fire", "charge", "run", "passed", "failed", "lc", "nests"])


@lru_cache(maxsize=None)
def valid_values(name: str, scenario: str, do: str, arg: str) -> tuple[Any, ...]:
    """Values of the pool that pass ``arg``'s check for ``do`` in this scenario's game."""
    from play.arguments import kind_of

    g = base_game(name, scenario)
    kind = kind_of(do, arg)
    if kind is None:
        return ()
    return tuple(v for v in valid_pool(g, game_values(g)) if kind.check(g, v) is None)


class Boundary(RuleBasedStateMachine):
    bundle_name = BUNDLES[0]

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.values: dict[str, list[Any]] = {}
        self.applied = 0

    @initialize(data=st.data(), seed=st.integers(0, 2 ** 31))
    def start(self, data: st.DataObject, seed: int) -> None:
        b = bundle(self.bundle_name)
        scenario = data.draw(st.sampled_from(b.scenario_ids()), label="scenario")
        self.game = Game(b, scenario, seed)
        self.values = game_values(self.game)

    def _apply(self, action: Any) -> None:
        g = self.game
        assert g is not None
        before = g.to_dict()
        undo_depth = len(g._undo)
        old = signal.signal(signal.SIGALRM, _timeout)
        signal.alarm(ACTION_SECONDS)
        t0 = time.perf_counter()
        try:
            res = g.apply(action)
        except InternalError as exc:
            assert g.to_dict() == before, f"{exc}: the game was not rolled back"
            raise AssertionError(f"engine bug on {action!r}: {exc}") from exc.exc
        except GameError:
            # A malformed action: refused before or while running, and nothing changed.
            assert g.to_dict() == before, f"GameError on {action!r} left the game changed"
            assert len(g._undo) == undo_depth, f"GameError on {action!r} pushed an undo step"
            return
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        assert time.perf_counter() - t0 < ACTION_SECONDS
        self.applied += 1
        assert isinstance(res.ok, bool) and isinstance(res.message, str)

    @rule(data=st.data())
    def random_action(self, data: st.DataObject) -> None:
        g = self.game
        assert g is not None
        names = g.action_names()
        do = data.draw(st.one_of(*[st.sampled_from(names)] * 6, st.sampled_from(JUNK_NAMES), JUNK_SCALARS), label="do")
        spec = ACTIONS.get(do) if isinstance(do, str) else None
        likely = sorted(set(spec.args) | set(spec.required)) if spec else []
        arg_names = st.sampled_from(likely or ["unit"]) if likely else st.sampled_from(["unit", "units", "to"])
        keys = data.draw(st.lists(st.one_of(arg_names, arg_names, st.sampled_from(sorted(COMMON)),
                                            st.sampled_from(JUNK_NAMES)), max_size=5, unique_by=str), label="args")
        vals = value_strategy(g, self.values)
        action: dict[Any, Any] = {"do": do}
        for k in keys:
            if k != "do":
                action[k] = data.draw(vals, label=f"value of {k}")
        self._apply(action)

    @rule(data=st.data())
    def unit_action(self, data: st.DataObject) -> None:
        """A well-formed action on a real unit: these get past the checks into the procedures."""
        g = self.game
        assert g is not None
        do = data.draw(st.sampled_from(g.action_names()), label="do")
        u = data.draw(st.sampled_from(self.values["units"]), label="unit")
        target = data.draw(st.sampled_from(self.values["hexes"] + self.values["units"]), label="target")
        action = {"do": do, "unit": u, "units": [u], "attackers": [u], "to": target, "target": target}
        spec = ACTIONS.get(do)
        for name in spec.required if spec else ():
            action.setdefault(name, data.draw(value_strategy(g, self.values), label=name))
        self._apply(action)

    def context(self) -> list[Any]:
        """Values that make an action likely to get deep: units of the side to move, enemy
        units near them and their hexes, hexes next to the friendly units."""
        g = self.game
        assert g is not None
        side = g.side_to_move
        friends = sorted((u for u in g.state.units.values() if u.on_map and side in (None, u.side)), key=lambda u: u.id)[:30]
        out: list[Any] = [u.id for u in friends] + [[u.id] for u in friends[:10]]
        for f in friends[:10]:
            assert f.hex is not None
            out += [g.label(f.hex.neighbor(d)) for d in range(6)]
            foes = sorted((u for u in g.state.units.values() if u.on_map and u.side != f.side and u.hex is not None
                           and u.hex.distance(f.hex) <= 4), key=lambda u: u.id)[:5]
            out += [u.id for u in foes] + [g.label(u.hex) for u in foes]
            same = [u.id for u in g.state.units.values() if u.on_map and u.hex == f.hex]
            out.append(same)
        return out

    @rule(data=st.data())
    def plausible_action(self, data: st.DataObject) -> None:
        """Arguments that each pass their check (mostly drawn from :meth:`context`), then at
        most two replaced by junk: the procedures see well-typed values in combinations no
        test wrote."""
        from play.arguments import kind_of

        g = self.game
        assert g is not None
        do = data.draw(st.sampled_from(g.action_names()), label="do")
        spec = ACTIONS.get(do)
        own = sorted(set(spec.args) | set(spec.required)) if spec else []
        extra = data.draw(st.lists(st.sampled_from(CORE_ARGS), max_size=4, unique=True), label="core args") \
            + data.draw(st.lists(st.sampled_from(sorted(COMMON)), max_size=3, unique=True), label="extra args")
        ctx = self.context()
        action: dict[str, Any] = {"do": do}
        for arg in own + [a for a in extra if a not in own and a != "do"]:
            kind = kind_of(do, arg)
            near = [v for v in ctx if kind is not None and kind.check(g, v) is None]
            ok = valid_values(self.bundle_name, g.scenario_id, do, arg)
            choices = [st.sampled_from(x) for x in (near, near, ok) if x]
            if choices:
                action[arg] = data.draw(st.one_of(choices), label=arg)
        for arg in data.draw(st.lists(st.sampled_from(sorted(action)), max_size=2, unique=True), label="junked"):
            if arg != "do":
                action[arg] = data.draw(value_strategy(g, self.values), label=f"junk {arg}")
        self._apply(action)

    @precondition(lambda self: self.game is not None and not self.game.state.over)
    @rule(kind=st.sampled_from(["movement", "combat", "reinforcement", "end", "command"]))
    def to_phase(self, kind: str) -> None:
        """Step to the next phase of this kind (if the sequence has one): where the rules act."""
        g = self.game
        assert g is not None
        if not any(kind in p.kind for p in g.phases):
            return
        for _ in range(len(g.phases) + 1):
            if g.state.over or kind in g.phase.kind:
                return
            self._apply({"do": "next_phase"})

    @rule(data=st.data())
    def move_near(self, data: st.DataObject) -> None:
        g = self.game
        assert g is not None
        on_map = [u for u in g.state.units.values() if u.on_map and (g.side_to_move in (None, u.side))]
        if not on_map:
            return
        u = data.draw(st.sampled_from(sorted(on_map, key=lambda x: x.id)), label="mover")
        assert u.hex is not None
        d, n = data.draw(st.integers(0, 5), label="dir"), data.draw(st.integers(1, 3), label="dist")
        h = u.hex
        for _ in range(n):
            h = h.neighbor(d)
        self._apply({"do": "move", "unit": u.id, "to": g.label(h)})

    @rule()
    def next_phase(self) -> None:
        self._apply({"do": "next_phase"})

    @rule(data=st.data())
    def plausible_again(self, data: st.DataObject) -> None:
        """Twice the weight: most of a game should be actions that get past the checks."""
        self.plausible_action(data)

    @precondition(lambda self: self.game is not None and self.game.can_undo)
    @rule()
    def undo(self) -> None:
        assert self.game is not None
        self.game.undo()

    @invariant()
    def state_is_plain(self) -> None:
        if self.game is not None:
            self.game.to_dict()  # a state that cannot be saved is a bug too


def _timeout(signum: int, frame: Any) -> None:
    raise TimeoutError(f"an action ran longer than {ACTION_SECONDS} s (a hang)")


def _examples() -> int:
    if os.environ.get("HEXPROOF_PLAY_FUZZ_EXAMPLES"):
        return int(os.environ["HEXPROOF_PLAY_FUZZ_EXAMPLES"])
    return CI_EXAMPLES if os.environ.get("CI") else DEV_EXAMPLES


def _machine(name: str) -> type[Boundary]:
    return type(f"Boundary_{name.replace('-', '_')}", (Boundary,), {"bundle_name": name})


@pytest.mark.parametrize("name", BUNDLES)
def test_random_actions_never_escape_the_boundary(name: str) -> None:
    machine = _machine(name)
    minutes = float(os.environ.get("HEXPROOF_PLAY_FUZZ_MINUTES") or 0)
    common = dict(stateful_step_count=STEPS, deadline=None, print_blob=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                         HealthCheck.data_too_large])
    if not minutes:
        run_state_machine_as_test(machine, settings=settings(settings.default, max_examples=_examples(), **common))
        return
    # Long run: fresh random batches until the time is up (one process, nice it yourself).
    stop, batches = time.monotonic() + minutes * 60, 0
    while time.monotonic() < stop:
        run_state_machine_as_test(machine, settings=settings(max_examples=50, derandomize=False, database=None,
                                                             **common))
        batches += 1
    print(f"[play-fuzz] {name}: {batches * 50} games of up to {STEPS} actions in {minutes:g} min, 0 failures",
          file=sys.stderr)


def _scenarios() -> Iterator[tuple[str, str]]:
    for name in BUNDLES:
        for sid in bundle(name).scenario_ids():
            yield name, sid


@pytest.mark.parametrize("name,scenario", list(_scenarios()))
def test_every_action_with_junk_arguments_on_every_scenario(name: str, scenario: str) -> None:
    """A deterministic sweep the random run cannot miss: every scenario and variant, every
    registered action with no arguments, with the junk values above, and with real ids."""
    g = Game(bundle(name), scenario, 7)
    vals = game_values(g)
    junk: list[Any] = [None, True, -1, 10 ** 18, float("nan"), "", "x" * 300, [], {}, ["nobody"], {"a": [1]},
                       "box:", "73.056", vals["units"][0], vals["hexes"][0], [vals["units"][0]]]
    for do in g.action_names():
        spec = ACTIONS.get(do)
        names = sorted(set(spec.args) | set(spec.required)) if spec else ["unit", "to", "target"]
        for args in [{}] + [{n: v for n in names} for v in junk]:
            before = g.to_dict()
            try:
                g.apply({"do": do, **args})
            except InternalError as exc:
                pytest.fail(f"{name}/{scenario}: {do} {args!r}: {exc}")
            except GameError:
                assert g.to_dict() == before, f"{name}/{scenario}: GameError on {do} {args!r} changed the game"
