"""Axial/cube hex coordinates (Red Blob Games), the only coordinates the model computes with.

``Hex(q, r)`` is an immutable axial coordinate; the cube coordinate ``s = -q - r`` is derived.
Offset coordinates and printed labels ("2412", "28.048", "N1511") exist only at the edges,
in :mod:`model.labels`. Pixel positions live in :mod:`model.layout`.

Direction indices are orientation-free: 0..5 run counter-clockwise starting from
``(+1, 0)``. For flat-top maps with y growing downward (screen and map convention) that is
SE, NE, N, NW, SW, S; the names per orientation live in :data:`DIRECTION_NAMES`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> "Hex":  # type: ignore[override]
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> "Hex":
        return Hex(self.q * k, self.r * k)

    def neighbor(self, direction: int) -> "Hex":
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> list["Hex"]:
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS]

    def direction_to(self, other: "Hex") -> int | None:
        """Direction index of an adjacent hex, or None if not adjacent."""
        return _DIR_INDEX.get((other.q - self.q, other.r - self.r))

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: "Hex") -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def rotate_left(self) -> "Hex":
        return Hex(-self.r, -self.s)

    def rotate_right(self) -> "Hex":
        return Hex(-self.s, -self.q)

    def line_to(self, other: "Hex") -> list["Hex"]:
        """Hexes on the straight line (Red Blob linedraw with an epsilon nudge).

        The nudge breaks ties on hexsides and vertices consistently; exact line-of-sight
        geometry does not use this, it uses :mod:`model.los`.
        """
        n = self.distance(other)
        if n == 0:
            return [self]
        eps_q, eps_r = 1e-6, 2e-6
        aq, ar = self.q + eps_q, self.r + eps_r
        bq, br = other.q + eps_q, other.r + eps_r
        out = []
        for i in range(n + 1):
            t = i / n
            out.append(hex_round(aq + (bq - aq) * t, ar + (br - ar) * t))
        return out

    def ring(self, radius: int) -> list["Hex"]:
        if radius == 0:
            return [self]
        results: list[Hex] = []
        h = self + Hex(*DIRECTIONS[4]).scale(radius)
        for i in range(6):
            for _ in range(radius):
                results.append(h)
                h = h.neighbor(i)
        return results

    def range(self, radius: int) -> Iterator["Hex"]:
        """All hexes within ``radius`` (inclusive), in a stable order."""
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)


DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_DIR_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}

# Names of direction indices with y growing downward (north up).
DIRECTION_NAMES: dict[str, tuple[str, ...]] = {
    "flat": ("SE", "NE", "N", "NW", "SW", "S"),
    "pointy": ("E", "NE", "NW", "W", "SW", "SE"),
}


def direction_index(orientation: str, name: str) -> int:
    try:
        return DIRECTION_NAMES[orientation].index(name.upper())
    except ValueError:
        valid = ", ".join(DIRECTION_NAMES[orientation])
        raise ValueError(f"unknown direction {name!r} for {orientation}-top hexes; use {valid}") from None


def hex_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))
