"""The analysis pictures (editor/analysis/plots.py): axis ticks that say where their value is,
and a title and colour legend that are never cut off nor drawn over the map."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtGui import QColor, QFont, QFontMetricsF

from conftest import REPO
from editor.analysis.plots import LEGEND_TOP, heatmap_image, histogram_image, nice_ticks
from model.bundle import load_bundle


@given(st.integers(1, 100_000))
def test_count_ticks_are_whole_evenly_spaced_and_cover_the_top(vmax: int) -> None:
    """A histogram of counts: every tick a whole number (a tick of 1.5 printed "2" read as 2 units
    where the bar showed 1.5 of the axis), evenly spaced from 0, the last ≥ the top bar."""
    ticks = nice_ticks(vmax)
    assert ticks[0] == 0 and ticks[-1] >= vmax and len(ticks) <= 8
    assert all(float(t).is_integer() for t in ticks)
    steps = {b - a for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1 and ticks[-1] - next(iter(steps)) < vmax


def test_a_bar_reaches_the_tick_of_its_count(qapp: Any) -> None:
    """The bar of 4 units ends level with the "4" tick: with the axis ending on its top tick
    (6) the top of that bar is 4/6 of the plot's height."""
    img = histogram_image({0: 4, 1: 6, 2: 1}, title="t", xlabel="x", ylabel="y", legend="l")
    blue = QColor(49, 130, 189)
    top, bottom = 44, img.height() - 56

    def bar_top(x: int) -> int:
        return next(y for y in range(top - 2, bottom + 1) if img.pixelColor(x, y) == blue)

    plot_w = img.width() - 64 - 20
    first = int(64 + plot_w / 6)  # the centre of bar 0 (3 bars)
    second = int(64 + plot_w / 2)
    assert abs((bottom - bar_top(first)) / (bottom - bar_top(second)) - 4 / 6) < 0.02


def test_the_heatmap_title_is_whole_and_the_legend_is_above_the_map(qapp: Any) -> None:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert bundle is not None
    hmap = bundle.map_for(bundle.resolved("beach-landing"))
    counts = {hmap.parse("18.026"): 5.0}
    title = "beach-landing: landing - hexes landed on, 50 seeds and a longer title than the map is wide"
    img = heatmap_image(bundle, "beach-landing", counts, title=title, legend="units landed")
    f = QFont()
    f.setPixelSize(16)
    f.setBold(True)
    assert img.width() >= QFontMetricsF(f).horizontalAdvance(title) + 16
    # the band above the map holds the legend: below it the first row of the map starts
    assert LEGEND_TOP + 72 < img.height() - 1
