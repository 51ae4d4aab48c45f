"""A validation snapshot of a bundle: what the worker thread reads while the UI keeps editing.

Scenarios, counters and the game file are copied on every run (a few milliseconds on the
samples); maps are copied only after a map edit (the copy is kept, with its warm caches,
until the next one), so a scenario edit never pays for copying a 7,000-hex map.
Qt-free.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from model.bundle import Bundle
from model.mapdata import HexMap


class Snapshotter:
    def __init__(self) -> None:
        self._maps: dict[str, tuple[HexMap, HexMap]] = {}  # map id → (live map, frozen copy)

    def forget_maps(self) -> None:
        """A map (or the whole document) changed: copy the maps afresh next time."""
        self._maps.clear()

    def take(self, bundle: Bundle) -> Bundle:
        maps: dict[str, HexMap] = {}
        for mid, live in bundle.maps.items():
            hit = self._maps.get(mid)
            if hit is None or hit[0] is not live:
                hit = (live, live.model_copy(deep=True))
                self._maps[mid] = hit
            maps[mid] = hit[1]
        scenarios = {sid: s.model_copy(deep=True) for sid, s in bundle.scenarios.items()}
        counters = [c.model_copy(deep=True) for c in bundle.counters]
        # model_copy(deep=True) keeps the source file/path private attributes, so findings
        # still point at file:line:col of the files on disk.
        return replace(bundle, game=bundle.game.model_copy(deep=True), maps=maps, scenarios=scenarios,
                       counters=counters, files=dict(bundle.files), sources=dict(bundle.sources))


__all__ = ["Snapshotter", "copy"]
