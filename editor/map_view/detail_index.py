"""A spatial index of map details in offset-coordinate buckets, so a paint visits only the
hexsides, paths, features, portions and area hexes near the exposed rectangle, whatever
the map size. Kept current from change events (hexsides incrementally, the short lists by
rebuilding)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from model.base import HexsideKey
from model.hexes import Hex
from model.mapdata import Feature, HexMap, ImpassablePortion, MapPath

BUCKET = 16


class DetailIndex:
    def __init__(self, hmap: HexMap) -> None:
        self.hmap = hmap
        self.rebuild()

    def bucket(self, h: Hex) -> tuple[int, int]:
        x, y = self.hmap.spec.offset(h)
        return x // BUCKET, y // BUCKET

    def rebuild(self) -> None:
        self.hexsides: dict[tuple[int, int], set[HexsideKey]] = defaultdict(set)
        for key in self.hmap.hexside_index:
            self.hexsides[self.bucket(key.hex)].add(key)
        self.rebuild_lists()

    def rebuild_lists(self) -> None:
        hmap = self.hmap
        self.features: dict[tuple[int, int], list[Feature]] = defaultdict(list)
        for f in hmap.features:
            self.features[self.bucket(f.hex)].append(f)
        self.portions: dict[tuple[int, int], list[ImpassablePortion]] = defaultdict(list)
        for p in hmap.portions:
            self.portions[self.bucket(p.hex)].append(p)
        self.paths: dict[tuple[int, int], list[MapPath]] = defaultdict(list)
        for path in hmap.paths:
            for b in {self.bucket(h) for h in path.hexes}:
                self.paths[b].append(path)
        self.areas: dict[tuple[int, int], list[tuple[int, Hex]]] = defaultdict(list)
        for i, area in enumerate(hmap.areas):
            for h in area.hexes:
                self.areas[self.bucket(h)].append((i, h))
        self.locations: dict[tuple[int, int], list[Hex]] = defaultdict(list)
        for loc in hmap.locations:
            for h in loc.all_hexes():
                self.locations[self.bucket(h)].append(h)

    def update_hexsides(self, keys: Iterable[HexsideKey]) -> None:
        index = self.hmap.hexside_index
        for key in keys:
            b = self.bucket(key.hex)
            if key in index:
                self.hexsides[b].add(key)
            else:
                self.hexsides[b].discard(key)

    def buckets(self, x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
        """Buckets covering the offset range (inclusive), one bucket of margin."""
        return [(bx, by) for by in range(y0 // BUCKET - 1, y1 // BUCKET + 2)
                for bx in range(x0 // BUCKET - 1, x1 // BUCKET + 2)]
