"""GTS Column [14.6–14.7]: costs, one per hex, roads and bridges only in Column (illustrative
MAs and terrain costs patched in memory; the sample prints none)."""

from __future__ import annotations

from gts_helpers import game, to_phase
from model.base import hexside_key


def test_enter_column_costs_one_mp_and_roads_need_column() -> None:
    g = game("night-drop", ma=6, at=None)
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    r = g.apply({"do": "column", "unit": "a-1-502"})
    assert not r.ok and "not an action of GTS 4.0 A" in r.message  # part of a move: in 4.0 H
    to_phase(g, "movement", "allied")
    u = g.unit("a-1-502")
    reach, _ = g.legal_moves([u])
    assert reach.cost[g.hex_of("49.021")] == 1.0                # not in Column: terrain cost
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.021", "column": True})
    assert not r.ok and "enter Column first" in r.message and r.rule == "GTS 14.6"
    r = g.apply({"do": "column", "unit": "a-1-502"})
    assert r.ok and r.rule == "GTS 14.6" and u.mp_spent == 1 and "column" in u.markers
    reach, _ = g.legal_moves([u], column=True)
    assert reach.cost[g.hex_of("49.021")] == 0.5                # road [Excl 2.3] needs Column
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.021"})   # moves as a Column by itself
    assert r.ok and r.data["cost"] == 0.5
    r = g.apply({"do": "column", "unit": "a-1-502", "enter": False, "by": "cohesion"})
    assert r.ok and "column" not in u.markers and "cohesion_hit" in u.markers and u.mp_spent == 1.5


def test_one_unit_in_column_per_hex() -> None:
    g = game("night-drop", ma=6)
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    g.apply({"do": "place", "unit": "b-1-502", "to": "49.020"})
    to_phase(g, "movement", "allied")
    assert g.apply({"do": "column", "unit": "a-1-502"}).ok
    r = g.apply({"do": "column", "unit": "b-1-502"})
    assert not r.ok and r.rule == "GTS 14.7"
    assert g.log[-1]["type"] == "refused" and g.log[-1]["rule"] == "GTS 14.7"


def test_bridge_crossing_only_in_column() -> None:
    g = game("night-drop", ma=6)
    key = next(iter(g.hmap.hexsides["bridge"]))
    a = key.hex if hasattr(key, "hex") else key[0]
    b = a.neighbor(key[1])
    assert hexside_key(a, key[1]) == key
    g.apply({"do": "place", "unit": "a-1-502", "to": g.label(a)})
    to_phase(g, "movement", "allied")
    u = g.unit("a-1-502")
    plain, _ = g.legal_moves([u])
    in_col, _ = g.legal_moves([u], column=True)
    step_plain = plain.parent.get(b) == a
    assert not step_plain, "crossing the bridge out of Column is not a direct step"
    assert in_col.parent.get(b) == a and in_col.cost[b] <= 1.0
