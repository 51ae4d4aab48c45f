"""Background calibration: image pixels → map coordinates from clicked hex centres (pure numpy).

Two points give a similarity (scale, rotation, shift); three or more give a full affine
fit by numpy least squares, so a slightly skewed scan still lines up. :func:`residuals`
says, per point, how far the fit puts it from its hex centre (map units, image pixels, hexes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def solve_affine(image_pts: np.ndarray, scene_pts: np.ndarray) -> np.ndarray:
    """2×3 matrix M with scene ≈ M · [x, y, 1] for each image point."""
    src = np.asarray(image_pts, dtype=float)
    dst = np.asarray(scene_pts, dtype=float)
    n = len(src)
    if n < 2:
        raise ValueError("calibration needs at least two points")
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
