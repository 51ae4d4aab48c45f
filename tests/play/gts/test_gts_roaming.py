"""Roaming Units [Excl 18.6] with the errata clarification, on the command ranges [GTS 21.4]
(ILLUSTRATIVE Command Range and MAs patched in memory: the sample prints none)."""

from __future__ import annotations

from gts_helpers import game, to_phase
from play.gts.optional_leader_losses import optional_procedures
from play.gts.optional_roaming import RoamingUnits
from loaded_dice import LoadedDice


def _g(rng: int | None = 1, on: bool = True):
    g = game("night-drop", ma=8)
    if rng is not None:
        g.counters["ldr-moseley"].front.values["command_range"] = rng
    if on:
        g.scenario.optional_rules["Excl 18.6"] = True
        procs = optional_procedures(g)
        g.procedures.insert(-1, next(p for p in procs if isinstance(p, RoamingUnits)))
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    g.apply({"do": "place", "unit": "ldr-moseley", "to": "49.020"})
    to_phase(g, "movement", "allied")
    return g


def test_only_when_selected_and_within_twice_the_range_no_check() -> None:
    g = _g(on=False)
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "49.024"}).ok       # no rule, no check
    g = _g()
    assert any(isinstance(p, RoamingUnits) for p in g.procedures)
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "49.022"}).ok       # 2 = twice range 1
    assert not any(e["type"] == "roaming_check" for e in g.log)


def test_beyond_twice_the_range_needs_a_declared_tq_check() -> None:
    g = _g()
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.023"})
    assert not r.ok and r.rule == "Excl 18.6" and "declare 'tq'" in r.message
    LoadedDice.on(g, [3])
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.023", "tq": 5})  # In Command the instant before [21.4]
    assert r.ok
    e = next(e for e in g.log if e["type"] == "roaming_check")
    assert e["passed"] is True and e["need"] == 5 and e["limit"] == 2 and e["rule"] == "Err 18.6"
    assert "declared-tq" in e["policy"] and "roaming-check-at-destination" in e["policy"]
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.024"})           # passed: free for the activation
    assert r.ok and sum(e["type"] == "roaming_check" for e in g.log) == 1


def test_failed_check_refuses_and_the_unit_must_end_closer() -> None:
    g = _g()
    g.unit("ldr-moseley").hex = g.hex_of("49.017")                            # the unit is 3 hexes away
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.021", "roaming_check": "failed"})
    assert not r.ok and r.rule == "Err 18.6" and "closer" in r.message
    assert g.label(g.unit("a-1-502").hex) == "49.020"
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.021"})           # still not closer
    assert not r.ok and "closer" in r.message and "roaming-each-move-closer" in r.policy
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "49.019"}).ok     # 2 < 3


def test_out_of_command_unit_checks_at_tq_minus_one_and_nine_fails() -> None:
    g = _g()
    g.unit("ldr-moseley").hex = g.hex_of("49.017")                            # 3 hexes: Out of Command
    LoadedDice.on(g, [9])
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "49.021", "tq": 20})
    e = next(e for e in g.log if e["type"] == "roaming_check")
    assert not r.ok and e["need"] == 19 and e["modifiers"] == {"out_of_command": -1} and e["passed"] is False


def test_unknown_range_gives_no_check() -> None:
    g = _g(rng=None)
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "49.026"}).ok
    assert not any(e["type"] == "roaming_check" for e in g.log)
