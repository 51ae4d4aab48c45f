"""SFN victory points [4.0] and hex control [11.6].

Only the German earns VP [4.1]; his total starts at the scenario's ``vp`` (50, or 49 after a
Dieppe landing [4.2]). Every VP hex (map features of type ``vp_hex``) starts German-controlled
[4.2] unless an Allied unit stands in it at set-up. A hex changes hands when a unit of the other
side occupies it, or projects a ZOC into it that no ZOC of the owner contests [4.2, 11.6];
control is re-evaluated after every successful action and at every phase start. Losing a VP hex
takes its points off the German total, regaining it gives them back [4.2]. **The rules do not
give the points per hex** (only "50 points of them, total" and Dieppe's one [4.2]): the points
are the map features' ``value``; events say ``illustrative: true`` when the map marks the value
so, and a VP hex without a numeric value changes hands with ``points: unknown`` and no VP change.

Beachheads of the active invasion area start Allied; the first German capture of each is worth
three VP, once per hex [4.3] (the scan shows that sentence struck through in pen; policy
**struck-text-applies**: transcribed as printed, so applied). A Commonwealth unit eliminated in
combat gives one VP [4.5] (in ``play.sfn.combat``). Zero or less ends the game with an Allied
win [4.8], 98 or more with a German win [4.9]; after the last turn the winner is the German with
at least the scenario's victory VP (11, or 31 with the Riga-Odessa option [4.6, 4.7]).
Commonwealth replacement VP [4.4] come from ``play.sfn.replacements``; the Luftwaffe's -1 [15.3]
and the SAF fiasco +1 [15.4] from ``play/sfn/optional``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.procedure import Procedure
from play.sfn.common import zoc_of
from play.sfn.params import sfn_params
from play.sfn.state import VictoryState, sfn_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult

STRUCK_POLICY = "struck-text-applies: 4.3 is transcribed as printed though struck through in the scan"


class VictoryPoints(Procedure):
    def __init__(self, game: "PlayContext") -> None:
        self.c = sfn_params(game).vp
        self.side = self.c.side
        self.rule = self.c.rule

    def _features(self, game: "PlayContext") -> dict[str, Any]:
        """VP hex label -> map feature. Kept until the map's features or grid change (the
        label of a hex and the feature list do not change while units move)."""
        key = (game.hmap, game.hmap.features_by_hex, game.hmap.spec)
        hit = getattr(self, "_feat_cache", None)
        if hit is not None and all(a is b for a, b in zip(hit[0], key)):
            return dict(hit[1])
        ftype = self.c.feature
        out = {str(game.label(f.hex)): f for f in game.hmap.features if f.type == ftype}
        self._feat_cache = (key, out)
        return dict(out)

    def _hex(self, game: "PlayContext", label: str) -> Hex:
        """``game.hex_of(label)``, kept per label while the map's grid is the same."""
        spec = game.hmap.spec
        cache = getattr(self, "_hex_cache", None)
        if cache is None or cache[0] is not spec:
            cache = self._hex_cache = (spec, {})
        h = cache[1].get(label)
        if h is None:
            h = cache[1][label] = game.hex_of(label)  # a bad label raises as before, uncached
        return h

    def _beachheads(self, game: "PlayContext") -> list[str]:
        areas = game.system.params.get("invasion_areas") or {}
        active = game.scenario.params.get("invasion_area")
        spec = areas.get(active) if isinstance(areas, dict) else None
        return [str(x) for x in (spec or {}).get("beachheads", [])]

    def _owner_now(self, game: "PlayContext", h: Hex, current: str, zocs: dict[str, set[Hex]],
                   sides_at: dict[Hex, set[str]] | None = None) -> str:
        # ``sides_at``: the sides of the units on each occupied hex, computed once per update
        # (the same as scanning ``game.state.at(h)`` for every VP hex).
        there = {u.side for u in game.state.at(h)} if sides_at is None else sides_at.get(h, set())
        if len(there) == 1:
            return next(iter(there))
        projecting = [s for s, z in zocs.items() if h in z]
        if len(projecting) == 1:
            return projecting[0]  # an uncontested ZOC captures an unoccupied hex [11.6]
        return current

    def _st(self, game: "PlayContext") -> VictoryState:
        st = sfn_state(game).victory
        if not st.started:
            other = next((s.id for s in game.system.sides if s.id != self.side), "allied")
            control: dict[str, str] = {}
            for label in self._features(game):
                occ = {u.side for u in game.state.at(game.hex_of(label))}
                control[label] = next(iter(occ)) if len(occ) == 1 else self.side
            st.started = True
            st.control = control
            st.beachheads = {b: other for b in self._beachheads(game)}
            st.beachheads_scored = []
            game.emit("vp_start", vp=dict(sorted(game.state.vp.items())), vp_hexes=len(control),
                      points=sum(int(f.value) for f in self._features(game).values() if _num(f.value)),
                      rule=self.rule)
        return st

    def on_phase_start(self, game: "PlayContext") -> None:
        self.update(game)

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if result.ok and action.get("do") not in ("roll", "vp"):
            self.update(game)

    def update(self, game: "PlayContext") -> None:
        if game.state.over:
            return
        st = self._st(game)
        zocs = {s.id: zoc_of(game, s.id) for s in game.system.sides}
        sides_at: dict[Hex, set[str]] = {}
        for u in game.state.units.values():
            if u.on_map:
                sides_at.setdefault(u.hex, set()).add(u.side)  # type: ignore[arg-type]
        feats = self._features(game)
        for label, owner in sorted(st.control.items()):
            h = self._hex(game, label)
            new = self._owner_now(game, h, owner, zocs, sides_at)
            if new == owner:
                continue
            st.control[label] = new
            f = feats.get(label)
            pts = f.value if f is not None else None
            if not _num(pts):
                game.emit("vp_control", hex=label, controller=new, points="unknown", rule=self.c.control_rule)
                continue
            delta = int(pts) if new == self.side else -int(pts)
            self._add(game, delta, "vp_control", hex=label, controller=new, points=int(pts),
                      illustrative=bool(getattr(f, "illustrative", False)) or None, rule=self.rule)
        bh = self.c.beachhead_capture
        for label, owner in sorted(st.beachheads.items()):
            new = self._owner_now(game, self._hex(game, label), owner, zocs, sides_at)
            if new == owner:
                continue
            st.beachheads[label] = new
            bh_rule = (bh.rule if bh is not None else None) or "SFN 4.3"
            game.emit("beachhead_control", hex=label, controller=new, rule=bh_rule)
            if new == self.side and bh is not None and (label not in st.beachheads_scored or not bh.once_per_hex):
                st.beachheads_scored.append(label)
                self._add(game, bh.value, "vp_beachhead", hex=label, rule=bh_rule, policy=STRUCK_POLICY)
        self._thresholds(game)

    def _add(self, game: "PlayContext", delta: int, kind: str, **data: Any) -> None:
        game.state.vp[self.side] = game.state.vp.get(self.side, 0) + delta
        game.emit(kind, vp_side=self.side, delta=delta, total=game.state.vp[self.side], **data)

    def _thresholds(self, game: "PlayContext") -> None:
        total = game.state.vp.get(self.side, 0)
        low, high = self.c.allied_win_at_or_below, self.c.german_win_at_or_above
        other = next((s.id for s in game.system.sides if s.id != self.side), "allied")
        winner, rule = None, None
        if low is not None and total <= low.value:
            winner, rule = other, low.rule
        elif high is not None and total >= high.value:
            winner, rule = self.side, high.rule
        if winner is not None:
            game.state.over = True
            game.emit("victory", winner=winner, vp=total, sudden=True, rule=rule)

    def on_turn_end(self, game: "PlayContext") -> None:
        if game.state.turn < game.last_turn or game.state.over:
            return
        need = next((v.vp for v in game.scenario.victory if v.vp is not None and v.side in (self.side, None)), None)
        total = game.state.vp.get(self.side, 0)
        if need is None:
            game.emit("victory", winner="unknown", vp=total, message="the scenario gives no victory VP", rule="SFN 4.6")
            return
        other = next((s.id for s in game.system.sides if s.id != self.side), "allied")
        refs = next((v.refs for v in game.scenario.victory if v.vp == need), [])
        game.emit("victory", winner=self.side if total >= need else other, vp=total, needed=need,
                  rule=", ".join(refs) or "SFN 4.6")

    def control(self, game: "PlayContext") -> dict[str, str]:
        """VP hex label -> controlling side, now."""
        return dict(self._st(game).control)


def _num(v: Any) -> bool:
    try:
        int(str(v))
        return True
    except (TypeError, ValueError):
        return False
