"""Background calibration: image pixels → scene coordinates from clicked hex centres.

Two points give a similarity (scale, rotation, shift); three or more give a full affine
fit by numpy least squares, so a slightly skewed scan still lines up.
"""

from __future__ import annotations

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
