"""Layout: hex ↔ map units ↔ pixels, separate from the hex value (Red Blob Games).

Map units put the hex *size* (centre to corner) at 1. y grows downward, as on a printed
map and a screen. Flat-top: x = 1.5·q, y = √3·(r + q/2). Pointy-top: x = √3·(q + r/2), y = 1.5·r.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from model.hexes import Hex, hex_round

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Orientation:
    name: str
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in multiples of 60°


FLAT = Orientation("flat", 1.5, 0.0, SQRT3 / 2, SQRT3, 2 / 3, 0.0, -1 / 3, SQRT3 / 3, 0.0)
POINTY = Orientation("pointy", SQRT3, SQRT3 / 2, 0.0, 1.5, SQRT3 / 3, -1 / 3, 0.0, 2 / 3, 0.5)
ORIENTATIONS = {"flat": FLAT, "pointy": POINTY}


@dataclass(frozen=True)
class Layout:
    orientation: Orientation = FLAT
    size: float = 1.0
    origin_x: float = 0.0
    origin_y: float = 0.0

    @classmethod
    def for_orientation(cls, name: str, size: float = 1.0, origin: tuple[float, float] = (0.0, 0.0)) -> "Layout":
        return cls(ORIENTATIONS[name], size, origin[0], origin[1])

    def center(self, h: Hex) -> tuple[float, float]:
        o = self.orientation
        x = (o.f0 * h.q + o.f1 * h.r) * self.size + self.origin_x
        y = (o.f2 * h.q + o.f3 * h.r) * self.size + self.origin_y
        return x, y

    def fractional(self, x: float, y: float) -> tuple[float, float]:
        o = self.orientation
        px = (x - self.origin_x) / self.size
        py = (y - self.origin_y) / self.size
        return o.b0 * px + o.b1 * py, o.b2 * px + o.b3 * py

    def hex_at(self, x: float, y: float) -> Hex:
        return hex_round(*self.fractional(x, y))

    def corner_offset(self, corner: int) -> tuple[float, float]:
        angle = 2.0 * math.pi * (self.orientation.start_angle + corner) / 6.0
        return self.size * math.cos(angle), self.size * math.sin(angle)

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.center(h)
        out = []
        for i in range(6):
            dx, dy = self.corner_offset(i)
            out.append((cx + dx, cy + dy))
        return out

    def edge_corners(self, direction: int) -> tuple[int, int]:
        """The two corner indices bounding the side toward ``direction``.

        Corners are at angles (start_angle + i)·60° with y down; the side toward direction d
        sits between the corners that flank that direction's angle.
        """
        # Direction d's neighbour centre angle, measured with y down:
        if self.orientation.name == "flat":
            # DIRECTIONS (1,0)->30°, (1,-1)->-30°, (0,-1)->-90°, (-1,0)->-150°, (-1,1)->150°, (0,1)->90°
            table = ((0, 1), (5, 0), (4, 5), (3, 4), (2, 3), (1, 2))
        else:
            # (1,0)->0°, (1,-1)->-60°, (0,-1)->-120°, (-1,0)->180°, (-1,1)->120°, (0,1)->60°
            table = ((5, 0), (4, 5), (3, 4), (2, 3), (1, 2), (0, 1))
        return table[direction % 6]

    @property
    def hex_width(self) -> float:
        return 2 * self.size if self.orientation.name == "flat" else SQRT3 * self.size

    @property
    def hex_height(self) -> float:
        return SQRT3 * self.size if self.orientation.name == "flat" else 2 * self.size
