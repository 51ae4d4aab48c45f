"""Scripted playtests: a YAML list of actions with assertions, run headless with a fixed seed.

::

    seed: 42
    bundle: ../bundles/mini          # relative to this file (else to the working folder)
    scenario: base
    actions:
    - {do: next_phase}
    - {do: move, unit: a1, to: '0203'}
    - {do: move, unit: a1, to: '0101', expect: refused, expect_rule: 'DUEL 2.4'}
    - assert: [{unit_at: {unit: a1, hex: '0203'}}]     # checked at this point
    - {do: end_turn, repeat: 3}                         # the same action three times
    assert:                                             # checked at the end
    - {unit_at: {unit: a1, hex: '0203'}}                # hex label, box:ID, offmap, eliminated, withdrawn
    - {turn: 2}
    - {phase: movement}
    - {log_contains: {type: arrive, unit: a1}}          # an event with these fields, or a text
    - {unit_state: {unit: a1, reduced: true, steps: 1}}
    - {vp: {side: allied, equals: 3}}
    - {over: true}

Every step that goes wrong is reported with its number (``step 4``); the log is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from model.bundle import load_bundle
from model.yamlio import YamlError, read_yaml

from play.game import Game, GameError

UNREADABLE = 2
FAILED = 1
PASSED = 0


class ScriptError(Exception):
    """The script cannot be run (unreadable file, bundle, scenario or action)."""


@dataclass
class ScriptResult:
    path: str
    failures: list[str] = field(default_factory=list)
    steps: int = 0
    game: Game | None = None

    @property
    def ok(self) -> bool:
        return not self.failures


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
    try:
        data, _, errors = read_yaml(path, str(path))
    except (YamlError, OSError) as exc:
        raise ScriptError(f"{path}: cannot read the script: {exc}") from None
    if errors or not isinstance(data, dict):
        raise ScriptError(f"{path}: not a playtest script" + (f" ({errors[0].message})" if errors else ""))
    for key in ("bundle", "scenario"):
        if key not in data:
            raise ScriptError(f"{path}: missing {key!r}")
    return data


def run_script(path: str | Path) -> ScriptResult:
    """Run a playtest script. Raises :class:`ScriptError` when it cannot be run."""
    path = Path(path)
    data = load_script(path)
    bundle_path = path.parent / str(data["bundle"])
    if not bundle_path.exists():
        bundle_path = Path(str(data["bundle"]))
    loaded = load_bundle(bundle_path)
    if loaded.bundle is None:
        raise ScriptError(f"{path}: cannot load bundle {data['bundle']!r}: "
                          + "; ".join(d.render() for d in loaded.diagnostics[:3]))
    scenario = str(data["scenario"])
    if scenario not in loaded.bundle.scenarios:
        raise ScriptError(f"{path}: bundle has no scenario {scenario!r}")
    try:
        seed = int(str(data.get("seed", 1)))
    except ValueError:
        raise ScriptError(f"{path}: seed must be a whole number") from None
    game = Game(loaded.bundle, scenario, seed)
    result = ScriptResult(str(path), game=game)
    actions = data.get("actions") or []
    if not isinstance(actions, list):
        raise ScriptError(f"{path}: actions must be a list")
    for n, action in enumerate(actions, 1):
        result.steps = n
        if not isinstance(action, dict):
            raise ScriptError(f"{path}: step {n}: not a mapping")
        try:
            if "do" not in action and "assert" in action:
                checks = action["assert"] if isinstance(action["assert"], list) else [action["assert"]]
                for a in checks:
                    msg = check(game, a)
                    if msg:
                        result.failures.append(f"step {n}: assertion {a} failed: {msg}")
                continue
            act = {k: v for k, v in action.items() if k not in ("expect", "expect_rule", "repeat")}
            for _ in range(max(1, int(str(action.get("repeat", 1))))):
                outcome = game.apply(act)
        except GameError as exc:
            raise ScriptError(f"{path}: step {n}: {exc}") from None
        expect = str(action.get("expect", "ok"))
        if expect == "ok" and not outcome.ok:
            result.failures.append(f"step {n}: {action.get('do')} was {outcome}")
        elif expect == "refused" and outcome.ok:
            result.failures.append(f"step {n}: {action.get('do')} should have been refused but was {outcome}")
        if "expect_rule" in action and str(action["expect_rule"]) != (outcome.rule or ""):
            result.failures.append(f"step {n}: rule case {outcome.rule!r}, expected {action['expect_rule']!r}")
    final = data.get("assert") or []
    for a in final if isinstance(final, list) else [final]:
        try:
            msg = check(game, a)
        except (GameError, KeyError, TypeError) as exc:
            raise ScriptError(f"{path}: final assertion {a}: {exc}") from None
        if msg:
            result.failures.append(f"end: assertion {a} failed: {msg}")
    return result
