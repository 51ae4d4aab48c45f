"""The hexes a set-up entry ``adjacent_to: HEX`` ("in or adjacent to HEX") lets the engine choose
from, in the order it tries them (used by ``Game._setup``; any system).

Policy **setup-adjacent-centre-first**: the named hex itself, then its six neighbours in the
grid's direction order (``model.hexes.DIRECTIONS``), then any listed ``alternatives``; a hex is
skipped when it is off the map or terrain the unit may not be placed in
(:func:`play.rules.terrain_entry_problem`), or when the unit would break the stacking limit the
system states there — a refused overstack (:func:`play.rules.stacking_problem`) always, a
penalised one (``limits.overstack: penalised``, e.g. GTS 14.7) unless no other hex remains, then
the first such hex. An unknown step count is no overstack (it is never counted as 1). The
caller drops the hexes the enemy holds (policy setup-first-hex-free-of-enemy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.hexes import Hex
from play import rules

if TYPE_CHECKING:
    from model.scenario import SetupEntry
    from play.context import PlayContext
    from play.state import UnitState

ADJACENT_POLICY = ("setup-adjacent-centre-first: 'in or adjacent to' takes the named hex, else its neighbours "
                   "in the grid's direction order, skipping off-map and prohibited hexes, enemy-held hexes and "
                   "hexes the unit would overstack")


def adjacent_candidates(game: "PlayContext", entry: "SetupEntry", unit: "UnitState") -> list[Hex]:
    """The hexes ``entry`` (with ``adjacent_to``) may set ``unit`` up in, best first; [] when none."""
    centre = entry.adjacent_to
    if centre is None:
        return []
    mclass = rules.movement_class(game.system, game.counters.get(unit.id))
    order = [centre, *centre.neighbors(), *entry.alternatives]
    fits: list[Hex] = []
    overstacking: list[Hex] = []
    for h in dict.fromkeys(order):  # unique, in order
        if rules.terrain_entry_problem(game.hmap, game.system, h, mclass) is not None:
            continue
        there = [x for x in game.state.at(h) if x is not unit] + [unit]
        if rules.stacking_problem(game.hmap, game.system, h, there, game.counters) is not None:
            continue
        p = rules.overstack_penalty(game.hmap, game.system, h, there, game.counters)
        (overstacking if p is not None and p.code == "overstack" else fits).append(h)
    return fits + overstacking
