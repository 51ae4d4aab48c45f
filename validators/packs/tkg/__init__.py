"""The ``tkg`` pack: The Killing Ground (draft) rules, one rule per module (digest §8 IDs in each docstring)."""

from __future__ import annotations

import sys

from validators.registry import discover_pack_rules
from validators.rule import Rule


def get_rules() -> list[type[Rule]]:
    return discover_pack_rules(sys.modules[__name__])
