"""The counter preview keeps its text inside the counter: a back printing ``unknown`` values
used to overflow both edges (seen in the counter editor's screenshot)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetricsF

from editor.scenario.counter_preview import fitted_font


def test_long_text_is_shrunk_to_fit(qapp) -> None:  # noqa: ARG001 - fonts need the application
    text = "unknown-unknown-unknown"
    font = fitted_font(text, 120, 22, bold=True)
    assert QFontMetricsF(font).horizontalAdvance(text) <= 120 and font.pixelSize() < 22 and font.bold()


def test_short_text_keeps_its_size(qapp) -> None:  # noqa: ARG001
    assert fitted_font("6-6-3", 120, 22).pixelSize() == 22


def test_the_size_never_drops_below_six_pixels(qapp) -> None:  # noqa: ARG001
    assert fitted_font("x" * 500, 10, 22).pixelSize() == 6
