"""Scenario-editor responsiveness: a unit dropped on a hex, re-validated on the worker thread
and redrawn until the diagnostics dock shows the result; and a viewshed overlay after a click.

Offscreen Qt. The drop goes through the same code path as a real drag (ScenarioMode.drop_unit
→ PlaceUnit); the debounce timer is flushed (the 250 ms debounce is a deliberate wait, not
work, and is reported separately). "Dock updated" = the runner's result is in the dock for
this edit's generation and the viewport has repainted.

The first placement is reported on its own: it follows the open-time warm-up (a full validation
plus one warm pass over the scenarios on the worker thread, see editor/diagnostics/runner.py),
and ``first_drop_mode`` / ``first_drop_lookups_built`` say whether it ran inline and reused the
warmed look-ups.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parents[1]
SAMPLES = {"utah-beach": ("beach-landing", "wn-5"), "killing-ground": (None, None)}


def _ms(xs: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(xs) * 1000, 1), "max_ms": round(max(xs) * 1000, 1)}


def bench_sample(name: str, sid: str | None, unit: str | None, reps: int) -> dict[str, Any]:
    from editor.app import application
    from editor.main_window import MainWindow

    app = application()
    w = MainWindow(autosave_seconds=3600)
    w.resize(1400, 900)
    w.show()
    w.open_path(REPO / "scenarios" / name)
    doc = w.doc
    assert doc is not None and w.view is not None
    mode = w.scenario_mode
    sid = sid or doc.bundle.scenario_ids()[0]
    mode.open_scenario(sid)
    unit = unit or doc.bundle.counters[0].id
    runner = w.diagnostics.runner
    assert runner is not None

    def wait_done() -> None:
        from PySide6.QtCore import QEventLoop

        # Block in the event loop (as the real UI does) rather than spin: a spinning loop
        # would take the GIL from the worker thread and slow the validation it waits for.
        while runner.busy or runner.completed != runner.generation:
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)

    runner.flush()
    wait_done()
    open_validation = runner.last_seconds  # worker wall time of the open-time run (with warm-up)
    warm_pass = runner._estimate or 0.0    # CPU of the warm-up's second (warm) scenario pass
    hexes = [h for h in doc.hmap.hexes() if doc.hmap.terrain_at(h) not in (None, "impassable")]
    step = max(1, len(hexes) // (reps + 1))
    ui_block: list[float] = []
    total: list[float] = []
    worker: list[float] = []
    modes: list[str] = []
    validator = runner._validator
    builds0 = validator.shared.builds if validator is not None else 0
    first_builds = 0
    for i in range(reps):
        h = hexes[(i + 1) * step]
        w.view.center_on_hex(h)
        t0 = time.perf_counter()
        mode.drop_unit([unit], hex=h)
        runner.flush()                      # snapshot + hand-off happen here, on the UI thread
        t1 = time.perf_counter()
        wait_done()
        w.view.viewport().repaint()
        t2 = time.perf_counter()
        ui_block.append(t1 - t0)
        total.append(t2 - t0)
        worker.append(runner.last_seconds)
        modes.append(runner.last_mode)
        if i == 0 and runner._validator is not None:
            first_builds = runner._validator.shared.builds - builds0
    # viewshed after a click (LOS systems only)
    vs: list[float] = []
    if doc.system.los.enabled:
        assert mode.panels is not None
        tool = mode.panels.los.tool
        tool.viewshed(hexes[0])  # warm: builds the offset templates once per process
        for i in range(reps):
            h = hexes[(i + 1) * step]
            w.view.center_on_hex(h)
            app.processEvents()
            t0 = time.perf_counter()
            tool.viewshed(h)
            w.view.viewport().repaint()
            vs.append(time.perf_counter() - t0)
    out = {"hexes": len(doc.hmap.hexes()), "scenario": sid, "inline_runs": runner.inline_runs,
           "warmups": runner.warmups, "open_validation_ms": round(open_validation * 1000, 1),
           "of_which_warm_pass_cpu_ms": round(warm_pass * 1000, 1),
           "first_drop_mode": modes[0] if modes else None, "first_drop_lookups_built": first_builds,
           "first_drop_to_dock_updated_ms": round(total[0] * 1000, 1) if total else None,
           "drop_to_dock_updated": _ms(total), "ui_thread_drop_snapshot_or_inline_validation": _ms(ui_block),
           "worker_validation": _ms(worker)}
    if vs:
        out["viewshed_click_to_painted"] = _ms(vs)
    w.hide()
    doc.undo_stack.setClean()
    return out


def main(args: list[str] | None = None) -> dict[str, Any]:
    """``--cold`` (``--cold=N``, default 5): only the cold/warm table of the first viewshed click
    and the first Play-mode click, N fresh processes each."""
    cold = next((a for a in args or [] if a.startswith("--cold")), None)
    if cold is not None:
        return cold_main(int(cold.split("=", 1)[1]) if "=" in cold else 5)
    reps = int(os.environ.get("HEXPROOF_BENCH_REPS", "15"))
    results = {name: bench_sample(name, sid, unit, reps) for name, (sid, unit) in SAMPLES.items()}
    for name, r in results.items():
        print(name, r)
    return results




# --- cold: first viewshed click and first Play-mode click in a fresh process (issue #21 item 5) --

PLAY_SCENARIO, PLAY_UNIT, PLAY_ZOOM = "night-drop-playtest", "b-1-502", 2.0
# How long the button is held in the tap rows: shorter than a finger's or a mouse button's usual
# hold (an assumption, not measured here), so the prefetch has less time than a user gives it.
TAP_HOLD_S = 0.05
WARM_CLICKS = int(os.environ.get("HEXPROOF_BENCH_WARM_CLICKS", "10"))


def _window(name: str) -> Any:
    from editor.app import application, settle
    from editor.main_window import MainWindow

    app = application()
    w = MainWindow(autosave_seconds=3600)
    w.resize(1400, 900)
    w.show()
    assert w.open_path(REPO / "scenarios" / name)
    app.processEvents()
    return w, app, settle


def _activate(game: Any, unit: str) -> None:
    """GTS: Units act only in the 4.0 H Activation Phase under their Formation chit [GTS 10.0.1,
    13.1]: the chit is put in play as if drawn (as tests/editor/helpers.activate does)."""
    from play.gts import gate
    from play.gts.params import gts_params
    from play.gts.state import gts_state

    formation = game.counters[unit].formation
    chit = next(c.id for c in game.counters.values() if "formation_chit" in c.flags and c.formation == formation)
    chits = gts_state(game).chits
    if chit in chits.mug:
        chits.mug.remove(chit)
    chits.drawn.append(chit)
    gate.start(game, chit, gts_params(game).activation)


def play_hover_child() -> dict[str, Any]:
    """As :func:`play_click_child`, but the pointer comes to rest on the unit's hex before the
    first click, as a mouse's does (its reach and overlay are then prefetched)."""
    return play_click_child(hover_first=True)


def play_fire_zone_child() -> dict[str, Any]:
    """As :func:`play_hover_child`, with Show Fire Zone on before the first click: the click's
    frame shows the reach and the unit's Fire Zone [GTS 17.3], both prefetched at the hover."""
    return play_click_child(hover_first=True, fire_zone=True)


def play_click_child(warm: int = WARM_CLICKS, hover_first: bool = False, fire_zone: bool = False) -> dict[str, Any]:
    """Utah's playtest variant in Play mode at 200 %, the step-table warm-up finished (a user
    looks at the map before clicking); the first click on B/1/502 is timed from the mouse press
    to the end of the frame that shows its reach (bench/ui_frames.py says exactly what is timed),
    then ``warm`` more select (and deselect, right click) clicks, without and with the prefetch;
    then the same with Show Fire Zone on (``fire_zone``: on before the first click too)."""
    from PySide6.QtCore import QEventLoop, QPointF, Qt

    from bench.ui_frames import PaintWatch, send_move, time_click, time_tap

    w, app, settle = _window("utah-beach")
    m = w.play_mode
    assert m.play(PLAY_SCENARIO)
    ctl = m.ctl
    g = ctl.game
    side = g.unit(PLAY_UNIT).side
    while not (g.phase.permits("move") and g.phase.side in (None, side)):
        assert ctl.next_phase().ok
    if "draw_chit" in g.action_names():
        _activate(g, PLAY_UNIT)
    h = g.unit(PLAY_UNIT).hex
    assert h is not None
    while ctl.warm_seconds is None:
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
    w.view.set_zoom(PLAY_ZOOM)
    w.view.center_on_hex(h)
    settle(w)
    # The paint warm-up (editor/play/warm_up.py) runs on the UI thread when Play mode opens and
    # after a zoom settles; like the step tables, it is done before a user's first click.
    while m.warm_up is None or not m.warm_up.done or w.view.zoom not in m.warmed_scales:
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
    vp = w.view.viewport()
    watch = PaintWatch(vp)
    local = QPointF(w.view.mapFromScene(QPointF(*w.scene.layout.center(h))))
    # the panels a selection changes follow the overlay's frame (PlayMode.map_first): also timed
    def panels_done() -> bool:
        after = getattr(m, "_panels_after_paint", None)  # None: a tree before map_first (a before/after run)
        return after is None or not after.armed

    if fire_zone:
        m.fire_zone_action.setChecked(True)
        assert ctl.fire_zone_on
    if hover_first:
        send_move(vp, local)
    first = time_click(vp, watch, local, settled=panels_done)  # after an idle drain (the prefetch's time)
    assert ctl.selection and len(ctl.reachable_costs()) > 0
    assert not fire_zone or ctl.fire_zone
    out: dict[str, Any] = {"reach_hexes": len(ctl.reachable_costs()), "first": first.wall_s,
                           "first_cpu": first.cpu_s, "first_handler": first.handler_s, "first_paint": first.paint_s,
                           "first_settled": first.settled_s,
                           "warmup_s": ctl.warm_seconds, "paint_warmup_longest_s": m.warm_up.longest,
                           "paint_warmup_total_s": m.warm_up.total}
    sel, sel_cpu, clear, handler, paint, settled = [], [], [], [], [], []
    pre, pre_handler, prefetched = [], [], []
    # The pointer on the unit's hex, as a mouse's is before it clicks (the view's hover).
    send_move(vp, local)
    can_prefetch = hasattr(m, "prefetch_on_hover")  # a tree before the hover prefetch (before/after runs)
    for i in range(2 * warm if can_prefetch else warm):
        ahead = can_prefetch and i % 2 == 1  # every other click: the stack's reach computed while the pointer rested
        if can_prefetch:
            m.prefetch_on_hover = ahead
        c = time_click(vp, watch, local, button=Qt.MouseButton.RightButton)
        assert not ctl.selection
        if not ahead:
            clear.append(c.wall_s)
        hits = m.layer.move_overlay.prefetch_hits if can_prefetch else 0
        t = time_click(vp, watch, local, settled=panels_done)
        assert ctl.selection
        if ahead:
            pre.append(t.wall_s)
            pre_handler.append(t.handler_s)
            prefetched.append(m.layer.move_overlay.prefetch_hits == hits + 1)
            continue
        sel.append(t.wall_s)
        sel_cpu.append(t.cpu_s)
        handler.append(t.handler_s)
        paint.append(t.paint_s)
        settled.append(t.settled_s)
    out.update(warm=sel, warm_cpu=sel_cpu, warm_handler=handler, warm_paint=paint, warm_clear=clear,
               warm_settled=settled, prefetched=pre, prefetched_handler=pre_handler,
               prefetch_used=sum(prefetched))
    if can_prefetch and hasattr(ctl, "click_selects"):  # a tree before the Fire Zone prefetch has neither
        m.fire_zone_action.setChecked(True)
        assert ctl.fire_zone_on
        fz, fz_pre, fz_used = [], [], 0
        for i in range(2 * warm):
            ahead = i % 2 == 1
            m.prefetch_on_hover = ahead
            time_click(vp, watch, local, button=Qt.MouseButton.RightButton)
            assert not ctl.selection
            hits = m.layer.move_overlay.prefetch_hits
            t = time_click(vp, watch, local, settled=panels_done)
            assert ctl.selection and ctl.fire_zone
            (fz_pre if ahead else fz).append(t.wall_s)
            fz_used += ahead and m.layer.move_overlay.prefetch_hits == hits + 1
        out.update(fire_zone=fz, fire_zone_prefetched=fz_pre, fire_zone_prefetch_used=fz_used,
                   fire_zone_hexes=len(ctl.fire_zone))
        m.fire_zone_action.setChecked(False)
        # A tap: the pointer was elsewhere (a hex with no stack) and no move brings it here before
        # the press (a finger, a jumped pointer); the release comes TAP_HOLD_S later.
        empty = next(x for x in sorted(ctl.reachable_costs(), key=lambda x: (x.q, x.r)) if not ctl.units_at(x))
        away = QPointF(w.view.mapFromScene(QPointF(*w.scene.layout.center(empty))))
        m.prefetch_on_hover = True
        taps, tap_used = [], 0
        for _ in range(warm):
            time_click(vp, watch, local, button=Qt.MouseButton.RightButton)
            send_move(vp, away)
            hits = m.layer.move_overlay.prefetch_hits
            taps.append(time_tap(vp, watch, local, TAP_HOLD_S))
            assert ctl.selection
            tap_used += m.layer.move_overlay.prefetch_hits == hits + 1
        out.update(tap=taps, tap_prefetch_used=tap_used)
    w.hide()
    return out


def viewshed_child(warm: int = WARM_CLICKS) -> dict[str, Any]:
    """Utah in Scenario mode: the LOS tool's viewshed (what a right click runs) from a hex,
    then ``viewport().repaint()``: the first in the process, then ``warm`` more from other hexes."""
    import time as _t

    w, app, settle = _window("utah-beach")
    mode = w.scenario_mode
    assert mode.open_scenario(SAMPLES["utah-beach"][0])
    doc = w.doc
    hexes = [h for h in doc.hmap.hexes() if doc.hmap.terrain_at(h) not in (None, "impassable")]
    step = max(1, len(hexes) // (warm + 2))
    tool = mode.panels.los.tool
    w.view.center_on_hex(hexes[step])
    settle(w)

    def one(h: Any) -> tuple[float, float]:
        c0, t0 = _t.process_time(), _t.perf_counter()
        tool.viewshed(h)
        w.view.viewport().repaint()
        return _t.perf_counter() - t0, _t.process_time() - c0

    first, first_cpu = one(hexes[step])
    ws = [one(hexes[(i + 2) * step]) for i in range(warm)]
    w.hide()
    return {"first": first, "first_cpu": first_cpu, "warm": [x[0] for x in ws], "warm_cpu": [x[1] for x in ws]}


def cold_main(n: int) -> dict[str, Any]:
    from bench.cold import load, run_children, table, verdict

    before = load()
    play = run_children("bench_scenario_ui", "play", n)
    hover = run_children("bench_scenario_ui", "play-hover", n)
    fire = run_children("bench_scenario_ui", "play-fire-zone", n)
    vs = run_children("bench_scenario_ui", "viewshed", n)
    after = load()

    def col(runs: list[dict[str, Any]], k: str) -> list[float]:
        return [x for r in runs for x in (r[k] if isinstance(r[k], list) else [r[k]])]

    rows = [
        (f"click → legal-move overlay painted (Play, Utah {PLAY_SCENARIO}, {PLAY_UNIT}, "
         f"{play[0]['reach_hexes']} hexes, 200 %), press → end of frame, wall",
         col(play, "first"), col(play, "warm"), f"≤ 5 ms — cold {verdict(col(play, 'first'), 0.005)}; "
                                                 f"warm {verdict(col(play, 'warm'), 0.005)}"),
        ("same, CPU", col(play, "first_cpu"), col(play, "warm_cpu"), ""),
        ("of which press and release handled (tool, engine query, overlay build)", col(play, "first_handler"),
         col(play, "warm_handler"), ""),
        ("of which the frame's paint (viewport Paint event → end of frame)", col(play, "first_paint"),
         col(play, "warm_paint"), ""),
        ("click → the Unit, Log, Actions panels and turn bar refreshed and painted too (the frame after)",
         col(play, "first_settled"), col(play, "warm_settled"), ""),
        ("click after the pointer rested on the stack (its reach and overlay prefetched, PlayMode.prefetch_hovered), wall",
         col(hover, "first"), col(play, "prefetched"),
         f"≤ 5 ms — cold {verdict(col(hover, 'first'), 0.005)}; warm {verdict(col(play, 'prefetched'), 0.005)}"),
        ("of which press and release handled", None, col(play, "prefetched_handler"), ""),
        (f"click with Show Fire Zone on ({play[0]['fire_zone_hexes']}-hex Fire Zone drawn too), not prefetched, wall",
         None, col(play, "fire_zone"), f"≤ 5 ms — warm {verdict(col(play, 'fire_zone'), 0.005)}"),
        ("click with Show Fire Zone on after the pointer reached the stack (reach and Fire Zone prefetched), wall",
         col(fire, "first"), col(play, "fire_zone_prefetched"),
         f"≤ 5 ms — cold {verdict(col(fire, 'first'), 0.005)}; "
         f"warm {verdict(col(play, 'fire_zone_prefetched'), 0.005)}"),
        (f"tap with no move before it (press, {TAP_HOLD_S * 1000:.0f} ms held, release): release → overlay painted, wall",
         None, col(play, "tap"), f"≤ 5 ms — warm {verdict(col(play, 'tap'), 0.005)}"),
        ("right click → overlay cleared, wall", None, col(play, "warm_clear"), ""),
        ("viewshed click → overlay repainted (Scenario mode, `tool.viewshed` + `viewport().repaint()`), wall",
         col(vs, "first"), col(vs, "warm"), f"≤ 50 ms — cold {verdict(col(vs, 'first'), 0.05)}"),
        ("same, CPU", col(vs, "first_cpu"), col(vs, "warm_cpu"), ""),
    ]
    used = sum(r.get("prefetch_used", 0) for r in play)
    print(f"  prefetched clicks that showed the prefetched overlay: {used} of {len(col(play, 'prefetched'))}")
    used = sum(r.get("fire_zone_prefetch_used", 0) for r in play)
    print(f"  with Show Fire Zone on: {used} of {len(col(play, 'fire_zone_prefetched'))}")
    used = sum(r.get("tap_prefetch_used", 0) for r in play)
    print(f"  taps prefetched while the button was held: {used} of {len(col(play, 'tap'))}")
    warmups = ", ".join(f"{r['warmup_s'] * 1000:.0f}" for r in play)
    paint_warm = ", ".join(f"{r['paint_warmup_total_s'] * 1000:.1f} (longest step {r['paint_warmup_longest_s'] * 1000:.1f})"
                           for r in play)
    print(f"  cold UI: {n} fresh processes each, load average before {before}, after {after}; "
          f"warm = {WARM_CLICKS} more in each process; Play warm-up (off the UI thread, done before "
          f"the first click) {warmups} ms; paint warm-up on the UI thread (one step per event-loop turn) "
          f"{paint_warm} ms")
    print()  # a blank line: the table below is Markdown, pasted as is into docs/benchmarks.md
    for line in table(rows):
        print("  " + line)
    return {"cold_runs": n, "load_before": before, "load_after": after, "play": play, "play_hover": hover,
            "play_fire_zone": fire,
            "viewshed": vs}


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    from bench.cold import emit

    emit({"play": play_click_child, "play-hover": play_hover_child, "play-fire-zone": play_fire_zone_child,
          "viewshed": viewshed_child}[sys.argv[2]]())


if __name__ == "__main__" and sys.argv[1:2] != ["--child"]:
    main(sys.argv[1:])
