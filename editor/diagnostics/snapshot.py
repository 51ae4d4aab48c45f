"""A validation snapshot of a bundle: what the worker thread reads while the UI keeps editing.

Scenarios are copied on every run (a few milliseconds on the samples). Everything else — maps,
counters and the game file — is copied once and the frozen copy reused until an edit that is
not a scenario edit says it changed (:meth:`Snapshotter.forget_maps`, :meth:`forget_rest`):
so a scenario edit never pays for copying a 7,000-hex map, and the look-ups the validator
memoises per owner (``ctx.memo``, keyed by the identity of the map, counter list or game file)
stay warm from the first run on.

:meth:`Snapshotter.view` gives the UI thread's inline runs the same frozen owners under the live
scenarios, so an inline re-validation hits the memos the worker's runs built.
Qt-free.
"""

from __future__ import annotations

from dataclasses import replace

from model.bundle import Bundle, GameFile
from model.counters import Counter
from model.mapdata import HexMap


class Snapshotter:
    def __init__(self) -> None:
        self._maps: dict[str, tuple[HexMap, HexMap]] = {}  # map id → (live map, frozen copy)
        # (live game file, live counter list, frozen game file, frozen counter list)
        self._rest: tuple[GameFile, list[Counter], GameFile, list[Counter]] | None = None

    def forget_maps(self) -> None:
        """A map (or the whole document) changed: copy the maps afresh next time."""
        self._maps.clear()
        self.forget_rest()

    def forget_rest(self) -> None:
        """Counters or the game file may have changed (edited in place): copy them afresh."""
        self._rest = None

    def take(self, bundle: Bundle) -> Bundle:
        maps: dict[str, HexMap] = {}
        for mid, live in bundle.maps.items():
            hit = self._maps.get(mid)
            if hit is None or hit[0] is not live:
                hit = (live, live.model_copy(deep=True))
                self._maps[mid] = hit
            maps[mid] = hit[1]
        rest = self._rest
        if rest is None or rest[0] is not bundle.game or rest[1] is not bundle.counters:
            rest = (bundle.game, bundle.counters, bundle.game.model_copy(deep=True),
                    [c.model_copy(deep=True) for c in bundle.counters])
            self._rest = rest
        scenarios = {sid: s.model_copy(deep=True) for sid, s in bundle.scenarios.items()}
        # model_copy(deep=True) keeps the source file/path private attributes, so findings
        # still point at file:line:col of the files on disk.
        return replace(bundle, game=rest[2], maps=maps, scenarios=scenarios, counters=rest[3],
                       files=dict(bundle.files), sources=dict(bundle.sources))

    def view(self, bundle: Bundle) -> Bundle:
        """The live bundle with its maps, counters and game file swapped for the frozen copies
        (equal content: nothing but scenarios changed since they were taken), or the live bundle
        itself when there is no complete frozen set. For runs on the UI thread only: the live
        scenarios are read in place, so no edit can happen meanwhile."""
        rest = self._rest
        if rest is None or rest[0] is not bundle.game or rest[1] is not bundle.counters:
            return bundle
        maps: dict[str, HexMap] = {}
        for mid, live in bundle.maps.items():
            hit = self._maps.get(mid)
            if hit is None or hit[0] is not live:
                return bundle
            maps[mid] = hit[1]
        return replace(bundle, game=rest[2], maps=maps, counters=rest[3])

    @property
    def frozen(self) -> bool:
        """Whether a complete frozen set (maps, counters, game file) is held."""
        return self._rest is not None


__all__ = ["Snapshotter"]
