"""Background calibration: image pixels → map coordinates from clicked hex centres (pure numpy).

Two points give a similarity (scale, rotation, shift); three or more give a full affine
fit by numpy least squares, so a slightly skewed scan still lines up. :func:`residuals`
says, per point, how far the fit puts it from its hex centre (map units, image pixels, hexes).
"""

from __future__ import annotations

from dataclasses import dataclass

import math

import numpy as np

from model.limits import MAX_CALIBRATION_COORD, MAX_PIXELS_PER_HEX, MIN_CALIBRATION_SPREAD, MIN_PIXELS_PER_HEX


class CalibrationError(ValueError):
    """A calibration that cannot be fitted; ``point`` is the 0-based index of the point to
    blame (for a located message), when one is."""

    def __init__(self, message: str, point: int | None = None):
        super().__init__(message)
        self.point = point


def check_points(image_pts: np.ndarray, scene_pts: np.ndarray, labels: list[str] | None = None) -> None:
    """Refuse calibrations that would make a degenerate or absurd fit (model/limits.py):
    non-finite or huge pixel coordinates, two points at one pixel, or (three or more)
    every point on one line. Before this, two labels at one pixel made proof-art try to
    allocate 5.96 EiB and 1e300 raised OverflowError."""
    src = np.asarray(image_pts, dtype=float).reshape(-1, 2)
    dst = np.asarray(scene_pts, dtype=float).reshape(-1, 2)
    names = labels or [f"point {i + 1}" for i in range(len(src))]
    for i, (x, y) in enumerate(src):
        if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > MAX_CALIBRATION_COORD:
            raise CalibrationError(f"calibration point {names[i]}: pixel ({x:g}, {y:g}) is not a finite number "
                                   f"within ±{MAX_CALIBRATION_COORD:g}", i)
    seen: dict[tuple[float, float], int] = {}
    for i, (x, y) in enumerate(src):
        for (u, v), k in seen.items():
            if math.hypot(x - u, y - v) < MIN_CALIBRATION_SPREAD:
                raise CalibrationError(f"calibration points {names[k]} and {names[i]} are at the same pixel "
                                       f"({x:g}, {y:g}); give each hex centre its own pixel", i)
        if len(seen) < 64:  # pairwise check of the first points only: enough to catch a slip
            seen[(x, y)] = i
    for i in range(len(dst)):
        for j in range(i):
            if np.allclose(dst[i], dst[j]):
                raise CalibrationError(f"calibration points {names[j]} and {names[i]} name the same hex", i)
    if len(src) >= 3:
        centred = src - src.mean(axis=0)
        sv = np.linalg.svd(centred, compute_uv=False)
        if sv[0] == 0 or sv[-1] / sv[0] < 1e-6:
            raise CalibrationError("calibration points all lie on one line; add a point off that line")


def check_scale(m: np.ndarray, hex_size: float) -> None:
    """Refuse a fit whose image scale (pixels per hex size) is absurd or degenerate."""
    det = float(np.linalg.det(np.asarray(m, dtype=float)[:, :2]))
    if not math.isfinite(det) or det == 0:
        raise CalibrationError("the calibration fit is degenerate (points on one line or at one pixel)")
    px = hex_size / math.sqrt(abs(det))
    if not (MIN_PIXELS_PER_HEX <= px <= MAX_PIXELS_PER_HEX):
        raise CalibrationError(f"the calibration puts {px:.4g} image pixels in one hex; the limit is "
                               f"{MIN_PIXELS_PER_HEX:g}–{MAX_PIXELS_PER_HEX:g} (check the clicked points and their labels)")


def solve_affine(image_pts: np.ndarray, scene_pts: np.ndarray, hex_size: float | None = None,
                 labels: list[str] | None = None) -> np.ndarray:
    """2×3 matrix M with scene ≈ M · [x, y, 1] for each image point.

    Raises :class:`CalibrationError` for a degenerate or absurd calibration; with
    ``hex_size`` (scene units centre to corner) the fit's scale is checked too."""
    src = np.asarray(image_pts, dtype=float)
    dst = np.asarray(scene_pts, dtype=float)
    n = len(src)
    if n < 2:
        raise CalibrationError("calibration needs at least two points")
    check_points(src, dst, labels)
    m = _solve(src, dst)
    if hex_size is not None:
        check_scale(m, hex_size)
    return m


def _solve(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    n = len(src)
    if n == 2:
        # Similarity: x' = a x - b y + c, y' = b x + a y + d.
        rows, rhs = [], []
        for (x, y), (u, v) in zip(src, dst):
            rows.append([x, -y, 1, 0])
            rhs.append(u)
            rows.append([y, x, 0, 1])
            rhs.append(v)
        a, b, c, d = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
        return np.array([[a, -b, c], [b, a, d]])
    design = np.column_stack([src, np.ones(n)])
    sol, *_ = np.linalg.lstsq(design, dst, rcond=None)
    return sol.T


@dataclass(frozen=True)
class Residual:
    """How far one calibration point lands from its hex centre after the fit."""

    label: str
    map_units: float  # distance in scene/map units
    image_px: float  # the same distance in pixels of the scanned image
    hexes: float  # … and as a fraction of the hex size

    def text(self) -> str:
        return f"{self.label}: {self.map_units:.2f} u ({self.image_px:.1f} px, {self.hexes:.2f} hex)"


def residuals(image_pts: np.ndarray, scene_pts: np.ndarray, labels: list[str], hex_size: float,
              matrix: np.ndarray | None = None) -> list[Residual]:
    """Per-point residuals of the fit (two or three points fit exactly, so 0; four or more
    show how well the scan agrees with the grid)."""
    src = np.asarray(image_pts, dtype=float)
    dst = np.asarray(scene_pts, dtype=float)
    m = solve_affine(src, dst) if matrix is None else matrix
    fitted = (m @ np.column_stack([src, np.ones(len(src))]).T).T
    dist = np.hypot(*(fitted - dst).T)
    # Image pixels per map unit: the inverse of the fit's mean linear scale.
    scale = float(np.sqrt(abs(np.linalg.det(m[:, :2])))) or 1.0
    return [Residual(lbl, float(d), float(d) / scale, float(d) / hex_size) for lbl, d in zip(labels, dist)]


def residual_summary(res: list[Residual]) -> str:
    if not res:
        return ""
    worst = max(res, key=lambda r: r.map_units)
    rms = float(np.sqrt(np.mean([r.map_units ** 2 for r in res])))
    return (f"Calibration: {len(res)} points, RMS {rms:.2f} map units, worst {worst.text()}. "
            + "; ".join(r.text() for r in res))
