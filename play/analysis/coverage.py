"""LOS coverage: for every hex, how many of a side's observers have LOS to it (issue #22).

Observers are the side's set-up units (the scenario's ``setup``, as the game places them; a
unit counts once, so a stack of three counts three) or the map's point features of one type
(``op``, ``strongpoint``; each counts once). Visibility comes from the fast all-pairs engine
(:meth:`model.los_fast.FastLos.rows`) under the conditions given (night, storm), each observer
within the system's LOS range for them. Policy **own-hex-covered**: an observer covers the hex
it stands in (the LOS engine has no line from a hex to itself).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from model.hexes import Hex
from model.los_fast import FastLos

if TYPE_CHECKING:
    from model.bundle import Bundle

OWN_HEX_POLICY = "own-hex-covered: an observer covers the hex it stands in (no LOS line from a hex to itself)"
UNITS = "units"


class CoverageError(ValueError):
    """Bad request (unknown side, no such feature type): a message, never a traceback."""


@dataclass
class Coverage:
    scenario: str
    side: str | None
    observers_kind: str
    observers: dict[Hex, int]            # observer hex -> how many observers stand there
    counts: dict[Hex, int]               # hex -> observers with LOS to it (0 not listed)
    hexes_on_map: int
    night: bool = False
    storm: bool = False
    seconds: float = 0.0                 # measured: LOS engine arrays + rows + counting
    setup_seconds: float = 0.0           # measured: placing the set-up (a game's start)
    policies: list[str] = field(default_factory=lambda: [OWN_HEX_POLICY])

    @property
    def covered(self) -> int:
        return len(self.counts)

    @property
    def max_count(self) -> int:
        return max(self.counts.values(), default=0)


def observers_for(bundle: "Bundle", scenario: str, side: str | None, kind: str = UNITS) -> dict[Hex, int]:
    """Where the observers stand: hex -> how many."""
    hmap = bundle.map_for(bundle.resolved(scenario))
    if kind != UNITS:
        found = Counter(f.hex for f in hmap.features if f.type == kind)
        if not found:
            types = sorted({f.type for f in hmap.features})
            raise CoverageError(f"map {hmap.id} has no {kind!r} feature (it has: {', '.join(types) or 'none'})")
        return dict(found)
    from play.game import Game

    game = Game(bundle, scenario, 1)
    sides = {u.side for u in game.state.units.values()}
    if side not in sides:
        raise CoverageError(f"scenario {scenario!r} has no unit of side {side!r} (sides: "
                            f"{', '.join(sorted(str(s) for s in sides))})")
    placed = {e["unit"] for e in game.log if e.get("type") == "setup"}
    return dict(Counter(u.hex for uid, u in game.state.units.items()
                        if uid in placed and u.side == side and u.on_map and u.hex is not None))


def coverage(bundle: "Bundle", scenario: str, side: str | None, *, kind: str = UNITS, night: bool = False,
             storm: bool = False, engine: FastLos | None = None) -> Coverage:
    t_setup = time.perf_counter()
    hmap = bundle.map_for(bundle.resolved(scenario))
    obs = observers_for(bundle, scenario, side, kind)
    t0 = time.perf_counter()
    fl = engine or FastLos(hmap, bundle.system)
    origins, offsets, vis = fl.rows(list(obs), night=night, storm=storm)
    counts: Counter[Hex] = Counter()
    for i, o in enumerate(origins):
        weight = obs[o]
        counts[o] += weight  # own-hex-covered
        for k in vis[i].nonzero()[0]:
            h = o + offsets[int(k)]
            if hmap.contains(h):
                counts[h] += weight
    n = sum(1 for _ in hmap.hexes())
    return Coverage(scenario, side, kind, obs, dict(counts), n, night, storm, time.perf_counter() - t0, t0 - t_setup)


def to_json(cov: Coverage, label) -> dict:  # type: ignore[no-untyped-def]
    """Plain data with printed labels; ``label`` is the map's ``label(hex)``."""
    return {"scenario": cov.scenario, "side": cov.side, "observers": cov.observers_kind,
            "conditions": {"night": cov.night, "storm": cov.storm},
            "observer_hexes": {label(h): n for h, n in sorted(cov.observers.items(), key=lambda x: label(x[0]))},
            "hexes_on_map": cov.hexes_on_map, "hexes_covered": cov.covered, "max_count": cov.max_count,
            "histogram": {str(k): v for k, v in sorted(Counter(cov.counts.values()).items())},
            "counts": {label(h): n for h, n in sorted(cov.counts.items(), key=lambda x: label(x[0]))},
            "seconds": {"los": round(cov.seconds, 4), "setup": round(cov.setup_seconds, 4)},
            "policies": cov.policies}
