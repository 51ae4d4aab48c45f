"""The ``gts`` pack: Grand Tactical Series + The Greatest Day: Utah Beach.

Checks from research/gts-utah-digest.md §9: hex syntax and the three hex tests (grid /
scenario map / playable), beach overlays, reinforcement hexes, organisation and chits,
airborne drops, naval markers, turn labels and schedules, rule cross-references and counter
proofing. Game facts (zone ids, drop numbers, track names, sectors) come from
``resources/systems/gts-utah.yaml`` ``params``; per-scenario data from ``Scenario.params``.
"""

from __future__ import annotations

import sys

from validators.registry import discover_pack_rules
from validators.rule import Rule


def get_rules() -> list[type[Rule]]:
    return discover_pack_rules(sys.modules[__name__])
