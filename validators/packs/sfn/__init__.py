"""The ``sfn`` pack: Second Front Now set-up, edges, stacking, airdrops, VP and calendar rules.

Game facts (beachhead hexes, edge endpoints, limits) come from ``resources/systems/sfn.yaml``
``params``; the rules here compare a bundle's data against them.
"""

from __future__ import annotations

import sys

from validators.registry import discover_pack_rules
from validators.rule import Rule


def get_rules() -> list[type[Rule]]:
    return discover_pack_rules(sys.modules[__name__])
