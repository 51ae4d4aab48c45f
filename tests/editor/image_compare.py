"""A perceptual image comparison for the screenshot regression tests (numpy only, no Qt).

Two RGB images (``uint8`` arrays [row, col, channel] of one shape, already downscaled, which
averages away anti-aliasing and sub-pixel text jitter) are alike when both

* the mean absolute difference over every channel of every pixel is at most
  ``MEAN_TOLERANCE`` (of 255): a faint change over the whole window, such as another colour
  scheme or a shifted map, fails this; and
* the fraction of pixels whose largest channel difference exceeds ``PIXEL_THRESHOLD`` is at
  most ``CHANGED_TOLERANCE``: a local change — a missing dock, a block of repainted hexes, a
  button that lost its icon — fails this, while a few changed digits (the status bar's
  validation time) pass.

The tolerances were chosen from the screenshots themselves: the same screen rendered twice on
one machine is identical pixel for pixel (the validation time is cut off before the grab), while
the changes tests/editor/test_screenshots.py makes on purpose differ far beyond them (measured:
37 Utah hexes repainted, mean 1.03 and 0.86 % of pixels; the Terrain Legend closed, mean 4.2
and 3.0 %). The margin absorbs font hinting or anti-aliasing that differs between machines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MEAN_TOLERANCE = 2.0
PIXEL_THRESHOLD = 48
CHANGED_TOLERANCE = 0.003


@dataclass(frozen=True)
class ImageDiff:
    mean_abs: float  # mean absolute per-channel difference, 0–255
    changed: float  # fraction of pixels with a channel off by more than PIXEL_THRESHOLD
    same_shape: bool = True

    @property
    def alike(self) -> bool:
        return self.same_shape and self.mean_abs <= MEAN_TOLERANCE and self.changed <= CHANGED_TOLERANCE

    def describe(self) -> str:
        if not self.same_shape:
            return "the images differ in size"
        return (f"mean |Δ| {self.mean_abs:.3f} (tolerance {MEAN_TOLERANCE}), {self.changed:.4%} of pixels changed "
                f"by more than {PIXEL_THRESHOLD} (tolerance {CHANGED_TOLERANCE:.2%})")


def compare(a: np.ndarray, b: np.ndarray) -> ImageDiff:
    if a.shape != b.shape:
        return ImageDiff(float("inf"), 1.0, same_shape=False)
    d = np.abs(a.astype(np.int16) - b.astype(np.int16))
    return ImageDiff(float(d.mean()), float((d.max(axis=2) > PIXEL_THRESHOLD).mean()))


def diff_image(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b`` greyed out, with the pixels that differ beyond the threshold in red (for a reviewer)."""
    grey = (b.astype(np.float32).mean(axis=2, keepdims=True) * 0.35 + 160).astype(np.uint8).repeat(3, axis=2)
    if a.shape == b.shape:
        mask = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) > PIXEL_THRESHOLD
        grey[mask] = (220, 0, 0)
    return grey
