"""The ``proof`` pack: counter-manifest proofing for publishers (any system).

Rulebook *text* proofing lives in :mod:`validators.proofing.textlint` (``hexproof lint-rules``).
"""

from __future__ import annotations

import sys

from validators.registry import discover_pack_rules
from validators.rule import Rule


def get_rules() -> list[type[Rule]]:
    return discover_pack_rules(sys.modules[__name__])
