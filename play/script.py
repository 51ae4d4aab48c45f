"""Scripted playtests: a YAML list of actions with assertions, run headless with a fixed seed.

::

    seed: 42
    bundle: ../bundles/mini          # relative to this file (else to the working folder)
    scenario: base
    actions:
    - {do: next_phase, to: movement}  # on to a phase by id or name (not ahead this turn: refused)
    - {do: move, unit: a1, to: '0203'}
    - {do: move, unit: a1, to: '0101', expect: refused, expect_rule: 'DUEL 2.4'}
    - assert: [{unit_at: {unit: a1, hex: '0203'}}]     # checked at this point
    - {do: end_turn, repeat: 3}                         # the same action three times
    params: {activation_before_first_chit: free}        # optional: over the scenario's params
    assert:                                             # checked at the end
    - {unit_at: {unit: a1, hex: '0203'}}                # hex label, box:ID, offmap, eliminated, withdrawn
    - {turn: 2}
    - {phase: movement}                                 # phase id, name or "<id> <side>"
    - {log_contains: {type: step_not_played, step: A}}  # a step the engine does not play, by case
    - {log_contains: {type: arrive, unit: a1}}          # an event with these fields, or a text
    - {unit_state: {unit: a1, reduced: true, steps: 1}}
    - {vp: {side: allied, equals: 3}}
    - {over: true}

Every step that goes wrong is reported with its ``file:line:col`` and number (``step 4``); the
log is kept. The whole script is checked before it runs (step shapes, ``repeat`` 1-10 000,
at most 50 000 actions, assertion shapes); each action's arguments are checked by the engine
(``play/arguments.py``) and a bad one is reported at the argument's own line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.bundle import load_bundle
from model.formats.yamlio import SourceMap, YamlError, read_yaml

from play.errors import INTERNAL_CODE, ArgumentError, InternalError, show
from play.game import Game, GameError

UNREADABLE = 2
FAILED = 1
PASSED = 0


# Script limits (docs/reliability.md, "Play engine at its boundary"): checked for the whole
# script before its first action runs, so a script that would run for hours is refused at once.
MAX_REPEAT = 10_000           # ``repeat:`` of one step
MAX_SCRIPT_ACTIONS = 50_000   # actions one script may run, repeats counted
ASSERTIONS = ("unit_at", "turn", "phase", "over", "vp", "unit_state", "log_contains", "log_lacks")


class ScriptError(Exception):
    """The script cannot be run (unreadable file, bundle, scenario or action)."""


@dataclass
class ScriptResult:
    path: str
    failures: list[str] = field(default_factory=list)
    steps: int = 0
    game: Game | None = None
    # ``file:line:col`` of each failure's step (same order as ``failures``), for the report.
    where: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, where: str, message: str) -> None:
        self.failures.append(message)
        self.where.append(where)

    def report(self) -> list[str]:
        """Each failure as ``file:line:col: step N: …``."""
        return [f"{w}: {f}" for w, f in zip(self.where, self.failures)]


class _Places:
    """``file:line:col`` of the script's keys, from the located YAML reader."""

    def __init__(self, path: Path, smap: SourceMap) -> None:
        self.path, self.smap = path, smap

    def at(self, *keys: str | int) -> str:
        pos = self.smap.find(tuple(keys))
        return f"{self.path}:{pos[0]}:{pos[1]}" if pos else str(self.path)


def _truth(v: Any) -> bool:
    return str(v).strip().lower() in ("1", "true", "yes", "on")


def _same(a: Any, b: Any) -> bool:
    """YAML scalars arrive as text; compare values as the script wrote them."""
    if isinstance(a, bool) or isinstance(b, bool):
        return _truth(a) == _truth(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        try:
            return float(a) == float(b)
        except (TypeError, ValueError):
            return False
    return str(a) == str(b)


def assertion_problem(assertion: Any) -> str | None:
    """Why ``assertion`` is malformed (checked before the script runs), or None."""
    if not isinstance(assertion, dict) or len(assertion) != 1:
        return f"an assertion is one key and its value, got {show(assertion)}"
    (kind, arg), = assertion.items()
    if kind not in ASSERTIONS:
        return f"unknown assertion {kind!r}; expected one of {', '.join(ASSERTIONS)}"
    need = {"unit_at": ("unit",), "vp": ("side", "equals"), "unit_state": ("unit",)}.get(kind)
    if need is not None:
        if not isinstance(arg, dict):
            return f"{kind}: expected a map with {', '.join(need)}, got {show(arg)}"
        missing = [k for k in need if arg.get(k) is None]
        if kind == "unit_at" and arg.get("hex", arg.get("where")) is None:
            missing.append("hex (or where)")
        if missing:
            return f"{kind}: missing {', '.join(missing)}"
        bad = [k for k, v in arg.items() if not (v is None or isinstance(v, (str, int, float, bool)))
               and not (kind == "unit_state" and isinstance(v, list))]
        if bad:
            return f"{kind}: {bad[0]} must be a single value, got {show(arg[bad[0]])}"
        return None
    if kind in ("turn", "phase", "over") and not isinstance(arg, (str, int, float, bool)):
        return f"{kind}: expected a single value, got {show(arg)}"
    if kind in ("log_contains", "log_lacks") and not isinstance(arg, (dict, str, int, float)):
        return f"{kind}: expected a map of event fields or a text, got {show(arg)}"
    return None


def check(game: Game, assertion: dict[str, Any]) -> str | None:
    """None when the assertion holds, else what was found instead."""
    if not isinstance(assertion, dict) or len(assertion) != 1:
        raise ScriptError(f"an assertion is one key and its value, got {assertion!r}")
    (kind, arg), = assertion.items()
    if kind == "unit_at":
        u = game.unit(str(arg["unit"]))
        want = str(arg.get("hex", arg.get("where")))
        if u.where == "hex":
            have = game.label(u.hex)
        elif u.where == "box":
            have = f"box:{u.box}"
        else:
            have = u.where
        if want not in ("offmap", "eliminated", "withdrawn") and not want.startswith("box:"):
            want = game.label(game.hex_of(want)) or want
        return None if have == want else f"{u.id} is at {have}, expected {want}"
    if kind == "turn":
        return None if _same(game.state.turn, arg) else f"turn is {game.state.turn}, expected {arg}"
    if kind == "phase":
        ph = game.phase
        ok = str(arg).lower() in (ph.id.lower(), ph.name.lower(), f"{ph.id} {ph.side}".lower())
        return None if ok else f"phase is {ph.name} ({ph.side}), expected {arg}"
    if kind == "over":
        return None if game.state.over == _truth(arg) else f"game over is {game.state.over}, expected {arg}"
    if kind == "vp":
        have = game.state.vp.get(str(arg["side"]), 0)
        return None if _same(have, arg["equals"]) else f"{arg['side']} VP {have}, expected {arg['equals']}"
    if kind == "unit_state":
        u = game.unit(str(arg["unit"]))
        d = u.to_dict(game.hmap)
        bad = [f"{k}={d.get(k)!r} (expected {v!r})" for k, v in arg.items() if k != "unit" and not _same(d.get(k), v)]
        return None if not bad else f"{u.id}: " + ", ".join(bad)
    if kind == "log_contains":
        if isinstance(arg, dict):
            for e in game.log:
                if all(k in e and _same(e[k], v) for k, v in arg.items()):
                    return None
            return f"no event with {arg}"
        text = str(arg)
        for e in game.log:
            if any(text in str(v) for v in e.values()):
                return None
        return f"no event mentions {text!r}"
    if kind == "log_lacks":
        return None if check(game, {"log_contains": arg}) is not None else f"an event matches {arg}"
    raise ScriptError(f"unknown assertion {kind!r}")


def load_script(path: Path) -> dict[str, Any]:
    return _load(path)[0]


def _load(path: Path) -> tuple[dict[str, Any], SourceMap]:
    try:
        data, smap, errors = read_yaml(path, str(path))
    except (YamlError, OSError) as exc:
        raise ScriptError(f"{path}: cannot read the script: {exc}") from None
    if errors or not isinstance(data, dict):
        raise ScriptError(f"{path}: not a playtest script" + (f" ({errors[0].render()})" if errors else ""))
    for key in ("bundle", "scenario"):
        if not isinstance(data.get(key), str):
            raise ScriptError(f"{path}: missing {key!r} (a text)" if key not in data
                              else f"{_Places(path, smap).at(key)}: {key!r} must be a text, got {show(data[key])}")
    return data, smap


def _repeat(step: dict[str, Any]) -> int | None:
    """The step's ``repeat`` as a number 1..MAX_REPEAT, or None when it is not one."""
    v = step.get("repeat", 1)
    if isinstance(v, bool) or not isinstance(v, (int, str)) or not str(v).strip().isdigit() or len(str(v)) > 12:
        return None
    n = int(str(v))
    return n if 1 <= n <= MAX_REPEAT else None


def _plan(path: Path, data: dict[str, Any], places: _Places) -> list[tuple[int, dict[str, Any]]]:
    """Every step checked for its shape before anything runs: (repeat count, step). Raises
    :class:`ScriptError` at the first malformed step, with its file:line:col."""
    actions = data.get("actions") or []
    if not isinstance(actions, list):
        raise ScriptError(f"{places.at('actions')}: actions must be a list")
    final = data.get("assert") or []
    for i, a in enumerate(final if isinstance(final, list) else [final]):
        why = assertion_problem(a)
        if why:
            raise ScriptError(f"{places.at('assert', i) if isinstance(final, list) else places.at('assert')}: "
                              f"final assertion: {why}")
    plan: list[tuple[int, dict[str, Any]]] = []
    total = 0
    for i, step in enumerate(actions):
        n, here = i + 1, places.at("actions", i)
        if not isinstance(step, dict):
            raise ScriptError(f"{here}: step {n}: not a mapping")
        if "do" not in step:
            if "assert" not in step:
                raise ScriptError(f"{here}: step {n}: a step is an action ({{do: …}}) or {{assert: […]}}")
            checks = step["assert"] if isinstance(step["assert"], list) else [step["assert"]]
            for j, a in enumerate(checks):
                why = assertion_problem(a)
                if why:
                    raise ScriptError(f"{places.at('actions', i, 'assert', j)}: step {n}: {why}")
            plan.append((1, step))
            continue
        times = _repeat(step)
        if times is None:
            raise ScriptError(f"{places.at('actions', i, 'repeat')}: step {n}: {step.get('do')}: repeat is "
                              f"{show(step.get('repeat'))}; expected a whole number from 1 to {MAX_REPEAT:,}")
        if str(step.get("expect", "ok")) not in ("ok", "refused"):
            raise ScriptError(f"{places.at('actions', i, 'expect')}: step {n}: expect is "
                              f"{show(step.get('expect'))}; expected ok or refused")
        total += times
        if total > MAX_SCRIPT_ACTIONS:
            raise ScriptError(f"{here}: step {n}: the script runs more than {MAX_SCRIPT_ACTIONS:,} actions "
                              f"(repeats counted); split it into smaller scripts")
        plan.append((times, step))
    return plan


def run_script(path: str | Path) -> ScriptResult:
    """Run a playtest script. Raises :class:`ScriptError` when it cannot be run (exit 2);
    an engine bug inside an action (``PLAY-INTERNAL-001``) is a located failure (exit 1)."""
    path = Path(path)
    data, smap = _load(path)
    places = _Places(path, smap)
    plan = _plan(path, data, places)
    bundle_path = path.parent / str(data["bundle"])
    if not bundle_path.exists():
        bundle_path = Path(str(data["bundle"]))
    loaded = load_bundle(bundle_path)
    if loaded.bundle is None:
        raise ScriptError(f"{path}: cannot load bundle {data['bundle']!r}: "
                          + "; ".join(d.render() for d in loaded.diagnostics[:3]))
    scenario = str(data["scenario"])
    if scenario not in loaded.bundle.scenarios:
        raise ScriptError(f"{places.at('scenario')}: bundle has no scenario {scenario!r}")
    try:
        seed = int(str(data.get("seed", 1)))
    except ValueError:
        raise ScriptError(f"{places.at('seed')}: seed must be a whole number") from None
    params = data.get("params")
    if params is not None and not isinstance(params, dict):
        raise ScriptError(f"{places.at('params')}: params must be a mapping (name: value) over the scenario's params")
    try:
        game = Game(loaded.bundle, scenario, seed, start=False)
        # The script's own scenario params (e.g. the named opt-out activation_before_first_chit:
        # free), over the scenario's, before the first phase begins.
        game.scenario.params.update({str(k): v for k, v in (params or {}).items()})
        game.start()
    except GameError as exc:
        raise ScriptError(f"{places.at('scenario')}: {exc}") from None
    except Exception as exc:  # setting the scenario up failed inside the engine: a bug, not the script's
        raise ScriptError(f"{places.at('scenario')}: {INTERNAL_CODE} internal error setting up scenario "
                          f"{scenario!r}: {type(exc).__name__}: {show(str(exc), 200)}") from None
    result = ScriptResult(str(path), game=game)
    for i, (times, action) in enumerate(plan):
        n, here = i + 1, places.at("actions", i)
        result.steps = n
        try:
            if "do" not in action:
                checks = action["assert"] if isinstance(action["assert"], list) else [action["assert"]]
                for j, a in enumerate(checks):
                    msg = _checked(game, a, places.at("actions", i, "assert", j), f"step {n}")
                    if msg:
                        result.fail(places.at("actions", i, "assert", j), f"step {n}: assertion {a} failed: {msg}")
                continue
            act = {k: v for k, v in action.items() if k not in ("expect", "expect_rule", "repeat")}
            for _ in range(times):
                outcome = game.apply(act)
        except InternalError as exc:
            # The engine rolled the action back; the steps after it would test a game that
            # did not happen, so the script stops here.
            result.fail(here, f"step {n}: {exc}")
            return result
        except ArgumentError as exc:
            at = places.at("actions", i, exc.argument) if exc.argument in action else here
            raise ScriptError(f"{at}: step {n}: {exc}") from None
        except GameError as exc:
            raise ScriptError(f"{here}: step {n}: {exc}") from None
        expect = str(action.get("expect", "ok"))
        # the policy the engine applied belongs in the report too (text outputs name it)
        applied = f" (policy {outcome.policy})" if outcome.policy else ""
        if expect == "ok" and not outcome.ok:
            result.fail(here, f"step {n}: {action.get('do')} was {outcome}{applied}")
        elif expect == "refused" and outcome.ok:
            result.fail(here, f"step {n}: {action.get('do')} should have been refused but was {outcome}{applied}")
        if "expect_rule" in action and str(action["expect_rule"]) != (outcome.rule or ""):
            result.fail(places.at("actions", i, "expect_rule"),
                        f"step {n}: rule case {outcome.rule!r}, expected {action['expect_rule']!r}")
    final = data.get("assert") or []
    for j, a in enumerate(final if isinstance(final, list) else [final]):
        at = places.at("assert", j) if isinstance(final, list) else places.at("assert")
        try:
            msg = _checked(game, a, at, "final assertion")
        except InternalError as exc:
            result.fail(at, f"end: {exc}")
            continue
        if msg:
            result.fail(at, f"end: assertion {a} failed: {msg}")
    return result


def _checked(game: Game, assertion: dict[str, Any], at: str, what: str) -> str | None:
    """:func:`check`, with its errors located: a ``GameError`` (unknown unit, unreadable hex)
    is the script's fault (:class:`ScriptError`); anything else is a bug in this runner,
    reported like an engine bug (``PLAY-INTERNAL-001``) instead of as a traceback."""
    try:
        return check(game, assertion)
    except (GameError, ScriptError) as exc:
        raise ScriptError(f"{at}: {what}: assertion {show(assertion)}: {exc}") from None
    except Exception as exc:
        raise InternalError(f"assert {next(iter(assertion), '?')}", exc) from exc
