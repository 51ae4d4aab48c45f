"""Indirect Fire Scatter [Excl 18.3], an optional rule (scenario ``optional_rules: {Excl 18.3:
true}``).

"In addition to the normal effects, rolling a 9 during an indirect fire (orange, black, brown,
or green fire power) attack results in scatter. Place a Light Barrage one hex from the target
hex. Determine the direction by rolling 1D6. No fire attacks are made, just place the Light
Barrage marker."

After a ``fire``, ``indirect_fire`` (play/gts/indirect.py) or GTS ``attack`` on one of those
lines whose die is 9, one d6 picks the side (policy ``scatter-d6-as-drift``: 1 = north, then clockwise, as Airborne Drift [Excl 3.3.1])
and a Light Barrage marker goes in that neighbour (a heavy one already there stays: one marker
per hex [GTS 16.6.2.1]); off the map, nothing is placed. Naval fire does not scatter (policy
``scatter-on-fire-actions``). Event ``scatter``; the marker is an ordinary Barrage marker
(play/gts/barrage.py: cleaned up in Step I, blocks LOS). Data: ``play/gts/optional_rules.yaml``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import DIRECTION_NAMES
from play.gts import barrage
from play.gts.optional_data import optional_data
from play.gts.params import DIRECTIONS, gts_params
from play.procedure import Procedure

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult



class IndirectFireScatter(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        self.c = optional_data().indirect_fire_scatter
        self.rule = self.c.rule
        self.actions = {}

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if action.get("do") not in ("fire", "attack", "indirect_fire") or not result.ok:
            return
        data = result.data or {}
        if str(data.get("line")) not in self.c.lines.value or data.get("die") != self.c.scatter_roll.value:
            return
        fired = next((e for e in reversed(game.log) if e.get("type") in ("fire", "indirect_fire")), None)
        if fired is None or not fired.get("hex"):
            return
        target = game.hex_of(fired["hex"])
        names = gts_params(game).drift.directions or DIRECTIONS
        d6 = game.dice.roll(1, 6)[0]
        orient = game.hmap.grid.orientation
        try:
            direction = DIRECTION_NAMES[orient].index(str(names[d6 - 1]))
        except ValueError:
            direction = d6 % 6  # pointy maps have no N side (as the drift procedure)
        h = target
        for _ in range(self.c.distance.value):
            h = h.neighbor(direction)
        policy = "; ".join(p.strip() for p in (self.c.direction_policy, self.c.scope_policy)) or None
        if not game.hmap.contains(h):
            game.emit("scatter", target=fired["hex"], d6=d6, hex=None, marker=None, off_map=True, rule=self.rule,
                      policy=policy)
            return
        st = barrage.state(game)
        label = str(game.label(h))
        old = st.get(label)
        kind = self.c.marker.value
        if old is not None and barrage.RANK[old] >= barrage.RANK[kind]:
            kind = old  # one marker per hex; a light one never replaces a heavy one [GTS 16.6.2.1]
        st[label] = kind
        game.emit("scatter", target=fired["hex"], d6=d6, hex=label, marker=kind, was=old, rule=self.rule, policy=policy)
