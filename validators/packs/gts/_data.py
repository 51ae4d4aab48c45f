"""Game data a GTS rule reads from the system ``params``, overridable per scenario (private).

Tables printed in the rulebook (die tables, the straggler recovery table, chart notes,
rule-mandated events) live in ``resources/systems/gts-utah.yaml`` ``params``. A scenario may
carry its own copy under the same key in its ``params`` (scenario books do amend tables, e.g.
the straggler turn limits of Excl 3.4.3(4)); the scenario's copy then wins, and findings
point at it.
"""

from __future__ import annotations

from typing import Any

from model.base import Node
from validators.context import RuleContext
from validators.packs.gts._gts import unwrap


def data_param(ctx: RuleContext, name: str) -> tuple[Any, Node | None, tuple[str | int, ...]]:
    """(value, node, fields) of ``name``: the scenario's params first, then the system's."""
    scen = ctx.scenario
    if scen is not None and name in scen.params:
        return unwrap(scen.params[name]), scen, ("params", name)
    if name in ctx.system.params:
        return unwrap(ctx.system.params[name]), ctx.system, ("params", name)
    return None, None, ()


def roll_faces(spec: Any) -> list[int] | None:
    """Die faces of a row's ``roll``: ``3``, ``[0, 1]`` (inclusive range) or ``"0-1"``."""
    if isinstance(spec, bool):
        return None
    if isinstance(spec, int):
        return [spec]
    if isinstance(spec, str):
        text = spec.strip()
        if text.lstrip("-").isdigit():
            return [int(text)]
        lo, sep, hi = text.partition("-")
        if sep and lo.strip().isdigit() and hi.strip().isdigit():
            return list(range(int(lo), int(hi) + 1))
        return None
    if isinstance(spec, list) and len(spec) == 2:
        a, b = (roll_faces(x) for x in spec)
        if a and b and len(a) == 1 and len(b) == 1:
            return list(range(a[0], b[0] + 1))
    return None
