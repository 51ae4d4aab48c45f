"""GTS Leaders and Command [21.2–21.7]: the command check on printed (here patched, ILLUSTRATIVE)
Command Ranges, the unknown-range policy, Independent Units, leader transfer and relocation, and
the naval spotter check through ``in_command``."""

from __future__ import annotations

from gts_helpers import game, in_play
from play.gts.command import in_command, is_in_command, tq_modifier
from play.gts.state import gts_state


def _night(rng: int | None = None):
    g = game("night-drop")
    if rng is not None:
        g.counters["ldr-moseley"].front.values["command_range"] = rng  # ILLUSTRATIVE: not printed in the sample
    g.apply({"do": "place", "unit": "a-1-502", "to": "49.020"})
    g.apply({"do": "place", "unit": "ldr-moseley", "to": "49.022"})
    return g


def test_unknown_range_keeps_the_marker_policy_and_says_so() -> None:
    g = _night()
    ok, why = in_command(g, "a-1-502")
    assert ok is None and "unknown" in why and "ldr-moseley" in why
    ok2, _, policy = is_in_command(g, "a-1-502")
    assert ok2 is True and policy.startswith("in-command-unless-marked")
    g.unit("a-1-502").markers.append("out_of_command")
    assert in_command(g, "a-1-502")[0] is False                  # the marker still rules


def test_range_in_hexes_decides() -> None:
    g = _night(1)
    ok, why = in_command(g, "a-1-502")
    assert ok is False and "2 > 1" in why and "GTS 21.4" in why
    assert tq_modifier(g, "a-1-502") == (-1, None)                # Out of Command: TQ -1 [21.7]
    g.counters["ldr-moseley"].front.values["command_range"] = 2
    assert in_command(g, "a-1-502")[0] is True and tq_modifier(g, "a-1-502") == (0, None)
    r = g.apply({"do": "command", "unit": "a-1-502"})
    assert r.ok and r.data["command"] == "in" and g.log[-1]["type"] == "command_check"


def test_independent_unit_uses_any_leader_of_its_division() -> None:
    g = game("beach-landing")
    indep = next(c for c in g.counters.values() if "independent" in c.flags)
    from play.gts.command import commanders

    ids, case = commanders(g, indep.id)
    assert case == "GTS 21.4.1" and indep.division == "4th Infantry Division"
    assert ids == ["ldr-van-fleet"]                               # 8th IR's Leader, same Division


def test_leader_removed_from_play_commands_nobody() -> None:
    g = _night(5)
    g.unit("a-1-502").where, g.unit("a-1-502").hex = "eliminated", None
    for uid in ("b-1-502", "c-1-502", "d-2-502", "e-2-502", "f-2-502"):
        g.unit(uid).where, g.unit(uid).hex, g.unit(uid).box = "eliminated", None, None
    r = g.apply({"do": "check_leaders"})
    assert r.ok and "ldr-moseley" in r.data["leaders"]
    assert g.unit("ldr-moseley").where == "withdrawn" and g.log[-1]["type"] == "leader_removed"
    g.unit("b-1-502").where, g.unit("b-1-502").hex = "hex", g.hex_of("49.020")
    ok, why = in_command(g, "b-1-502")
    assert ok is False and "in play" in why
    r = g.apply({"do": "check_leaders"})                         # a Unit of his Formation is back [21.3]
    assert r.ok and g.log[-1]["type"] == "leader_returns" and g.label(g.unit("ldr-moseley").hex) == "49.020"
    assert in_command(g, "b-1-502")[0] is True


def test_transfer_needs_a_unit_of_his_formation_and_lone_leader_moves_to_nearest() -> None:
    g = _night(3)
    r = g.apply({"do": "transfer_leader", "leader": "ldr-moseley", "to": "49.021"})
    assert not r.ok and r.rule == "GTS 21.2" and "Formation" in r.message
    r = g.apply({"do": "transfer_leader", "leader": "ldr-moseley", "to": "49.020"})
    assert r.ok and g.label(g.unit("ldr-moseley").hex) == "49.020" and g.log[-1]["type"] == "leader_transfer"
    g.unit("ldr-moseley").hex = g.hex_of("49.024")               # alone two hexes away
    for uid in ("b-1-502", "c-1-502", "d-2-502", "e-2-502", "f-2-502"):
        g.unit(uid).where, g.unit(uid).hex, g.unit(uid).box = "offmap", None, None
    r = g.apply({"do": "check_leaders"})
    assert r.ok and r.rule == "GTS 21.3" and g.label(g.unit("ldr-moseley").hex) == "49.020"
    assert g.log[-1]["type"] == "leader_relocated" and g.log[-1]["distance"] == 4


def test_naval_spotter_check_uses_in_command() -> None:
    from play.gts.naval.naval_gunfire import _spotter_problem
    from play.gts.params import gts_params

    g = game("beach-landing")
    cfg = gts_params(g).naval
    assert cfg is not None
    g.apply({"do": "place", "unit": "a-1-8", "to": "29.026"})
    g.apply({"do": "place", "unit": "ldr-van-fleet", "to": "32.026"})
    g.counters["ldr-van-fleet"].front.values["command_range"] = 1  # ILLUSTRATIVE
    target = g.unit("c7-ii-919")
    msg = _spotter_problem(g, g.unit("a-1-8"), target, cfg)
    assert msg is not None and "Out of Command" in msg and "3 > 1" in msg
    g.counters["ldr-van-fleet"].front.values["command_range"] = 3
    msg = _spotter_problem(g, g.unit("a-1-8"), target, cfg)
    assert msg is None or "Out of Command" not in msg


def test_scripted_command_playtest() -> None:
    from conftest import FIXTURES
    from play.script import run_script

    r = run_script(FIXTURES / "playtests" / "gts-command.yaml")
    assert not r.failures, r.failures


def test_no_command_point_on_an_out_of_command_unit_and_no_direct_command_for_independents() -> None:
    g = game()                                                    # beach-landing: ldr-919 at 24.026
    in_play(g, "chit-dc-german")                                  # as if drawn
    div = g.counters["c5-ii-919"].division
    g.apply({"do": "set_points", "division": div, "command": 3})
    g.counters["ldr-919"].front.values["command_range"] = 0      # ILLUSTRATIVE
    g.unit("ldr-919").hex = g.hex_of("24.020")
    r = g.apply({"do": "direct_command", "units": ["c5-ii-919"]})
    assert not r.ok and r.rule == "GTS 21.7" and "Out of Command" in r.message
    g.counters["ldr-919"].front.values["command_range"] = 10
    assert g.apply({"do": "direct_command", "units": ["c5-ii-919"]}).ok
    indep = next(c.id for c in g.counters.values() if "independent" in c.flags)
    r = g.apply({"do": "direct_command", "units": [indep]})
    assert not r.ok and r.rule == "GTS 21.4.1"


def test_reinforcements_in_their_entry_hex_are_out_of_command_on_arrival() -> None:
    g = game("beach-landing")
    g.counters["ldr-919"].front.values["command_range"] = 99      # ILLUSTRATIVE: any range
    u = g.unit("c1-i-919")
    u.where, u.hex, u.box, u.arrived = "hex", g.hex_of("52.063"), None, g.state.turn  # German Reinforcement F
    ok, why = in_command(g, u)
    assert ok is False and "entry hex 52.063" in why
    u.arrived = g.state.turn - 1                                  # an earlier arrival: no longer a reinforcement
    assert in_command(g, u)[0] is True
    ldr = g.unit("ldr-919")
    ldr.hex, ldr.arrived = g.hex_of("52.063"), g.state.turn        # a Leader arriving there may not command
    ok, why = in_command(g, "c5-ii-919")
    assert ok is False and "may not command" in why
