"""The benchmarks' cold mode runs (smoke: one fresh process each, few warm repetitions; no timing
is asserted, only that each figure was measured and is a positive number)."""

from __future__ import annotations

from typing import Any

import pytest

from bench import bench_los, bench_scenario_ui


def _positive(xs: Any) -> bool:
    return all(isinstance(x, float) and x > 0 for x in xs)


def test_los_cold_mode_runs(capsys: pytest.CaptureFixture[str]) -> None:
    out = bench_los.main(["--cold=1"])
    assert out["cold_runs"] == 1
    for k in ("first_query", "unbuilt_template", "first_viewshed", "warm_query", "warm_viewshed"):
        assert _positive(out[k]) and len(out[k]) == 1, k
    text = capsys.readouterr().out
    assert "first LOS query in a process" in text and "≤ 5 ms" in text and "load average" in text


def test_scenario_ui_cold_mode_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HEXPROOF_BENCH_WARM_CLICKS", "2")
    out = bench_scenario_ui.main(["--cold=1"])
    [play] = out["play"]
    assert play["reach_hexes"] > 0 and _positive([play["first"], play["first_cpu"], play["first_paint"]])
    assert len(play["warm"]) == 2 and _positive(play["warm"]) and _positive(play["warm_clear"])
    [vs] = out["viewshed"]
    assert _positive([vs["first"]]) and len(vs["warm"]) == 2
    text = capsys.readouterr().out
    assert "click → legal-move overlay painted" in text and "≤ 50 ms" in text
