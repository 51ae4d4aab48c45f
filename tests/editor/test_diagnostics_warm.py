"""Warm-up of the diagnostics runner: the validation run at open leaves the validator's shared
look-ups built for the frozen maps, counters and game file, and the first drop afterwards
re-validates only its scenario, reusing them (no look-up rebuilt), with results equal to a
fresh full validation of the live bundle. Edits that are not scenario edits drop the frozen
copies, so nothing stale is ever validated. Assertions are on state, never on timing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from editor.commands.scenario import SetCounterValue
from editor.commands.terrain import PaintTerrain
from editor.diagnostics import runner as runner_mod
from editor.diagnostics.runner import ValidationRunner
from editor.diagnostics.snapshot import Snapshotter
from editor.main_window import MainWindow
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)
from model.bundle import load_bundle
from validators.engine import validate_bundle

UTAH = REPO / "scenarios" / "utah-beach"
SID = "beach-landing"


def opened(qtbot: Any, path: Path = UTAH, sid: str = SID) -> MainWindow:
    w = show_window(qtbot, path)
    assert w.scenario_mode.open_scenario(sid)
    settle(qtbot, w.diagnostics.runner)
    return w


def settle(qtbot: Any, r: ValidationRunner) -> None:
    r.flush()
    qtbot.waitUntil(lambda: not r.busy and r.completed == r.generation, timeout=30000)


def rendered(diags: list[Any]) -> list[str]:
    return [d.render() for d in diags]


def full(w: MainWindow) -> list[str]:
    assert w.doc is not None
    return rendered(validate_bundle(w.doc.bundle))


def scenario_rule_runs(r: ValidationRunner, sids: list[str]) -> int:
    v = r._validator
    assert v is not None
    return len(sids) * sum(1 for rule in v.active_rules() if rule.scope == "scenario")


def family(w: MainWindow, sid: str) -> list[str]:
    """``sid`` and every variant built on it (what a scenario edit reruns)."""
    assert w.doc is not None
    out = {sid}
    grew = True
    while grew:
        grew = False
        for other, scen in w.doc.bundle.scenarios.items():
            if other not in out and scen.extends in out:
                out.add(other)
                grew = True
    return sorted(out)


def impassable(w: MainWindow) -> Any:
    assert w.doc is not None
    hm = w.doc.hmap
    return next(h for h in hm.hexes() if hm.terrain_at(h) == "impassable")


def test_open_runs_one_warm_up_and_publishes_its_findings(qtbot: Any) -> None:
    w = opened(qtbot)
    r = w.diagnostics.runner
    assert r.warmups == 1 and r.last_mode == "warm-up"
    assert r._estimate is not None  # measured by the warm scenario pass
    assert r._validator is not None and len(r._validator.shared) > 0  # look-ups built
    assert rendered(w.diagnostics.panel.diagnostics) == full(w)


def test_first_drop_after_open_reuses_the_warmed_cache_inline(qtbot: Any) -> None:
    w = opened(qtbot)
    r, mode = w.diagnostics.runner, w.scenario_mode
    v = r._validator
    assert v is not None
    if r._estimate is not None and r._estimate >= runner_mod.INLINE_SECONDS:
        pytest.skip("this machine's warm scenario pass is over the inline threshold")  # pragma: no cover
    builds, runs = v.shared.builds, v.runs
    assert "GTS-HEX-004" not in {d.code for d in w.diagnostics.panel.diagnostics}
    assert mode.drop_unit(["wn-5"], hex=impassable(w))
    settle(qtbot, r)
    assert r.last_mode == "inline" and r.inline_runs == 1
    assert r._validator is v
    assert v.shared.builds == builds  # every look-up came from the warm-up
    assert v.runs - runs == scenario_rule_runs(r, family(w, SID))  # only the edited scenario family
    # The frozen owners the warm-up memoised are the ones the inline run read.
    assert v.bundle.default_map is not w.doc.bundle.default_map  # type: ignore[union-attr]
    assert v.bundle.scenarios is w.doc.bundle.scenarios  # type: ignore[union-attr]
    # Not stale: the new finding is there and everything equals a fresh full run.
    assert "GTS-HEX-004" in {d.code for d in w.diagnostics.panel.diagnostics}
    assert rendered(r.diagnostics) == full(w)


def test_first_drop_on_the_worker_also_reuses_the_warmed_cache(qtbot: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_mod, "INLINE_SECONDS", 0.0)  # force the threaded path
    w = opened(qtbot)
    r, mode = w.diagnostics.runner, w.scenario_mode
    v = r._validator
    assert v is not None and r.warmups == 1
    frozen_map = v.bundle.default_map
    builds, runs = v.shared.builds, v.runs
    assert mode.drop_unit(["wn-5"], hex=impassable(w))
    settle(qtbot, r)
    assert r.last_mode == "worker" and r.inline_runs == 0
    assert v.shared.builds == builds
    assert v.runs - runs == scenario_rule_runs(r, family(w, SID))
    assert v.bundle.default_map is frozen_map  # the snapshot reused the frozen map
    assert v.bundle.scenarios is not w.doc.bundle.scenarios  # type: ignore[union-attr]  # scenarios copied
    assert rendered(r.diagnostics) == full(w)


def test_map_edit_then_drops_never_validate_a_stale_map(qtbot: Any) -> None:
    w = opened(qtbot)
    r, mode, doc = w.diagnostics.runner, w.scenario_mode, w.doc
    assert doc is not None
    target = next(e.hex for e in doc.bundle.scenarios[SID].setup if e.hex is not None)
    old_map = r._validator.bundle.default_map  # type: ignore[union-attr]
    # Paint a setup hex impassable and drop a unit before the debounce fires: one full run.
    doc.push(PaintTerrain(doc, {target: "impassable"}))
    hexes = [h for h in doc.hmap.hexes() if doc.hmap.terrain_at(h) not in (None, "impassable")]
    mode.drop_unit(["wn-5"], hex=hexes[len(hexes) // 2])
    settle(qtbot, r)
    assert r.last_mode == "full"
    assert r._validator.bundle.default_map is not old_map  # type: ignore[union-attr]
    assert rendered(r.diagnostics) == full(w)
    # The next drop runs inline over the new frozen map, which has the painted hex.
    mode.drop_unit(["wn-5"], hex=hexes[len(hexes) // 3])
    settle(qtbot, r)
    assert r.last_mode == "inline"
    assert r._validator.bundle.default_map.terrain_at(target) == "impassable"  # type: ignore[union-attr]
    assert rendered(r.diagnostics) == full(w)


def test_counter_edit_drops_the_frozen_counters(qtbot: Any) -> None:
    w = opened(qtbot)
    r, mode, doc = w.diagnostics.runner, w.scenario_mode, w.doc
    assert doc is not None
    counter = next(c for c in doc.bundle.counters if c.id == "wn-5")
    frozen = next(c for c in r._validator.bundle.counters if c.id == "wn-5")  # type: ignore[union-attr]
    assert frozen is not counter
    doc.push(SetCounterValue(doc, counter, "front", "probe", 7))
    assert frozen.front.values.get("probe") is None  # the frozen copy is not edited in place
    settle(qtbot, r)
    assert r.last_mode == "full"
    fresh = next(c for c in r._validator.bundle.counters if c.id == "wn-5")  # type: ignore[union-attr]
    assert fresh is not frozen and fresh.front.values.get("probe") == 7
    mode.drop_unit(["wn-5"], hex=impassable(w))
    settle(qtbot, r)
    assert r.last_mode == "inline"
    assert next(c for c in r._validator.bundle.counters if c.id == "wn-5") is fresh  # type: ignore[union-attr]
    assert rendered(r.diagnostics) == full(w)


def test_snapshotter_view_needs_a_complete_frozen_set() -> None:
    b = load_bundle(UTAH).bundle
    assert b is not None
    snap = Snapshotter()
    assert snap.view(b) is b  # nothing frozen yet: the live bundle
    copy = snap.take(b)
    view = snap.view(b)
    assert view.counters is copy.counters and view.game is copy.game
    assert all(view.maps[k] is copy.maps[k] for k in copy.maps)
    assert view.scenarios is b.scenarios
    assert snap.take(b).counters is copy.counters  # reused until told otherwise
    snap.forget_rest()
    assert snap.view(b) is b
    again = snap.take(b)
    assert again.counters is not copy.counters
    assert next(iter(again.maps.values())) is next(iter(copy.maps.values()))  # maps still frozen
    snap.forget_maps()
    assert snap.view(b) is b
    assert next(iter(snap.take(b).maps.values())) is not next(iter(copy.maps.values()))
