"""Stacking by type as data (stacking.by_type, play/generic/stacking.py), through the engine's
one stacking check (play.rules.stacking_problem), on the format example (illustrative)."""

from __future__ import annotations

from generic_helpers import example_bundle, example_game, place, to_phase, variant


def test_one_armour_a_hex_and_two_units_in_all() -> None:
    g = example_game(empty=True)
    place(g, {"b-arm-1": "0403", "b-arm-2": "0404", "b-inf-1": "0303", "b-inf-2": "0304"})
    to_phase(g, "blue", "movement")
    r = g.apply({"do": "move", "unit": "b-arm-2", "to": "0403"})
    assert not r.ok and "2 units of armor (limit 1)" in r.message and r.rule == "EX 4.1"
    assert g.apply({"do": "move", "unit": "b-inf-2", "to": "0403"}).ok  # armour and infantry: two units
    r = g.apply({"do": "move", "unit": "b-inf-1", "to": "0403"})  # three units: the hex limit
    assert not r.ok and "3 units (limit 2)" in r.message and r.rule == "EX 4.0"


def test_the_hq_is_free_and_steps_can_be_counted() -> None:
    st = example_bundle().system.stacking.model_dump(exclude_none=True)
    st["by_type"] = [{"tags": ["infantry"], "max": 3, "count": "steps", "rule": "EX 4.2"}]
    g = example_game(system=variant(stacking=st), empty=True)
    place(g, {"b-inf-1": "0403", "b-hq": "0403", "b-inf-2": "0404"})
    to_phase(g, "blue", "movement")
    r = g.apply({"do": "move", "unit": "b-inf-2", "to": "0403"})  # 2 + 2 infantry steps > 3
    assert not r.ok and "4 steps of infantry (limit 3)" in r.message and r.rule == "EX 4.2"
    g.apply({"do": "step_loss", "unit": "b-inf-2"})
    assert g.apply({"do": "move", "unit": "b-inf-2", "to": "0403"}).ok  # 2 + 1, and the HQ counts for nothing
