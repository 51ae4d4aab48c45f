"""Reading a scenario's plotted airdrops (``params.airdrops``) for the SFN-AIR rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from model.hexes import Hex
from validators.context import RuleContext
from validators.packs.sfn._sfn import as_int


@dataclass(frozen=True)
class Drop:
    unit: str
    hex: Hex | None
    turn: int | None
    plotted: int | None


def drops(ctx: RuleContext) -> Iterator[tuple[int, Drop]]:
    """(index, drop) for each plotted drop when optional rule ``airdrops`` is on."""
    if ctx.scenario is None or not ctx.optional_rule("airdrops"):
        return
    items = ctx.scenario.params.get("airdrops") or []
    for i, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        label = item.get("hex")
        h = ctx.hmap.spec.try_parse(str(label)) if label is not None else None
        yield i, Drop(str(item.get("unit")), h, as_int(item.get("turn")), as_int(item.get("plotted")))
