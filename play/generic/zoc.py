"""Zones of control as data: the ``zoc`` section of the system file.

::

    zoc:
      rule: "EX 6.0"
      kind: stop                  # stop | cost | none
      enter_cost: 0               # extra MP to enter an enemy ZOC hex (kind cost; allowed with stop)
      leave_cost: 0               # extra MP to leave one
      zoc_to_zoc: true            # kind stop: a unit starting in an enemy ZOC may step into another
      exerted_by: {categories: [], tags: []}     # empty: every unit (but see no_zoc below)
      negated_by_hexsides: [river]               # hexside ids or tags: no ZOC across them
      not_into_terrain: [city]                   # terrain ids or tags: no ZOC into them
      retreat: prohibited         # may a unit retreat after combat into an enemy ZOC (play/generic/attack.py)

A unit on the map exerts a ZOC into its six neighbours unless its category is tagged ``no_zoc``
or its counter is flagged ``no_zoc`` (the convention of :func:`play.rules.exerts_zoc`), or
``exerted_by`` lists categories/tags it does not match. Several enemy ZOCs on a hex are one ZOC.

- **stop**: a unit entering an enemy ZOC hex ends its move there; one that starts in one may
  leave it (and, with ``zoc_to_zoc: true``, step straight into another). Policy
  **zoc-stop-ends-the-phase-move**: a unit that entered an enemy ZOC may not move again in the
  same phase (otherwise a second ``move`` action would start "in" the ZOC and leave freely).
- **cost**: no stop; ``enter_cost`` / ``leave_cost`` extra MP per step into / out of an enemy ZOC hex.
- **none**: no ZOC (the same as leaving the section out, but said).

A move refused only because of enemy ZOC says so, with the ZOC rule case. Ending a move in an
enemy ZOC (kind stop) logs a ``zoc_stop`` event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from model.base import hexside_between
from model.generic_rules import ZocRules
from model.hexes import Hex

from play.procedure import Procedure
from play.result import ActionResult

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.state import UnitState

STOP_POLICY = ("zoc-stop-ends-the-phase-move: a unit that entered an enemy ZOC has ended its move "
               "for this phase")


def exerts(game: "PlayContext", zoc: ZocRules, u: "UnitState") -> bool:
    c = game.counters.get(u.id)
    cat = game.system.category_by_id.get(c.category) if c is not None else None
    tags = set(cat.tags) if cat is not None else set()
    if "no_zoc" in tags or (c is not None and "no_zoc" in c.flags):
        return False
    only = zoc.exerted_by
    if not only.categories and not only.tags:
        return True
    return c is not None and (c.category in only.categories or bool(tags & set(only.tags)))


def enemy_zoc_hexes(game: "PlayContext", side: str, zoc: ZocRules) -> set[Hex]:
    """The hexes in the ZOC of ``side``'s enemies (not across negating hexsides, not into
    terrain that takes none)."""
    if zoc.kind == "none":
        return set()
    negate, no_terrain = set(zoc.negated_by_hexsides), set(zoc.not_into_terrain)
    out: set[Hex] = set()
    for u in game.state.units.values():
        if u.side == side or not u.on_map or u.hex is None or not exerts(game, zoc, u):
            continue
        for n in u.hex.neighbors():
            if n in out or not game.hmap.contains(n):
                continue
            t = game.system.terrain_by_id.get(game.hmap.terrain_at(n) or "")
            if t is not None and (t.id in no_terrain or no_terrain & set(t.tags)):
                continue
            key = hexside_between(u.hex, n)
            if key is not None and negate:
                crossed = set()
                for sid in game.hmap.hexside_features(key):
                    st = game.system.hexside_by_id.get(sid)
                    crossed |= {sid} | (set(st.tags) if st is not None else set())
                if crossed & negate:
                    continue
            out.add(n)
    return out


class GenericZoc(Procedure):
    """Applies :class:`ZocRules` to moves through the engine's ``move_extra`` hook."""

    def __init__(self, game: "PlayContext", zoc: ZocRules) -> None:
        self.zoc = zoc
        self.actions = {}
        self._off = False  # set while asking "would the move be legal without ZOC?"

    def move_extra(self, game: "PlayContext", units: list["UnitState"]) -> Callable[[Hex, Hex], float | None] | None:
        z = self.zoc
        if self._off or z.kind == "none" or not units or units[0].hex is None:
            return None
        start = units[0].hex
        ezoc = enemy_zoc_hexes(game, units[0].side, z)
        if not ezoc:
            return None

        def extra(a: Hex, b: Hex) -> float | None:
            if z.kind == "stop":
                if a in ezoc and a != start:
                    return None  # entered an enemy ZOC: the move ends there
                if a in ezoc and b in ezoc and not z.zoc_to_zoc:
                    return None
            return (z.enter_cost if b in ezoc else 0.0) + (z.leave_cost if a in ezoc else 0.0)

        return extra

    def _stopped(self, game: "PlayContext", units: list["UnitState"]) -> bool:
        if self.zoc.kind != "stop" or not units or any(not u.on_map for u in units):
            return False
        ezoc = enemy_zoc_hexes(game, units[0].side, self.zoc)
        return any(u.mp_spent > 0 and u.hex in ezoc for u in units)

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        if action.get("do") != "move" or self.zoc.kind == "none":
            return None
        units = game.stack(action)
        if self._stopped(game, units):
            return ActionResult(False, "the unit entered an enemy ZOC this phase: its move has ended",
                                self.zoc.rule, STOP_POLICY)
        to = str(action.get("to", ""))
        if to.startswith("box:") or any(not u.on_map for u in units):
            return None
        dest = game.hex_of(to)
        reach, problem = game.legal_moves(units, bool(action.get("column", False)))
        if problem is not None or reach is None or dest in reach.cost:
            return None
        self._off = True
        try:
            free, _ = game.legal_moves(units, bool(action.get("column", False)))
        finally:
            self._off = False
        if free is None or dest not in free.cost:
            return None  # refused for another reason: the engine says which
        how = "stop on entering" if self.zoc.kind == "stop" else \
            f"+{self.zoc.enter_cost:g} MP to enter, +{self.zoc.leave_cost:g} MP to leave"
        return ActionResult(False, f"cannot move to {game.label(dest)}: enemy zones of control ({how})", self.zoc.rule)

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") != "move" or not result.ok or self.zoc.kind != "stop":
            return
        units = game.stack(action)
        if units and units[0].hex is not None and units[0].hex in enemy_zoc_hexes(game, units[0].side, self.zoc):
            game.emit("zoc_stop", units=[u.id for u in units], hex=game.label(units[0].hex), zoc="enemy ZOC",
                      rule=self.zoc.rule)
