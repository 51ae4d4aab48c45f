"""GTS activation: the chit in play decides who acts [10.0.1, 13.1], the DivAct limits [7.1,
13.2], Second Actions [10.0.2], Direct Command [10.0.5], the last chit carried [10.0.6], the
mug after the first turn [9.0], the Command/Dispatch Point roll [10.0.3] within the 10.0.4
limits, and buying Formation chits [7.2].

The Utah sample's Division ratings are ``unknown`` (the scenario books are not in the rules
file); tests of the roll patch ILLUSTRATIVE ratings into one game in memory."""

from __future__ import annotations

from gts_helpers import game, in_play
from loaded_dice import LoadedDice
from play.gts.activation import dispatch_change, pre_night
from play.gts.params import gts_params
from play.gts.state import gts_state

DIV = "4th Infantry Division"
D101 = "101st Airborne Division"


def _playtest_game():  # type: ignore[no-untyped-def]
    """Night Drop with the playtest variant's ILLUSTRATIVE MAs and terrain costs."""
    return game("night-drop-playtest", free=False)  # strict: no unit acts before a chit is in play


def _refusals(g) -> list[dict]:  # type: ignore[no-untyped-def]
    return [e for e in g.log if e["type"] == "refused"]


# --- the 10.0.3 roll ------------------------------------------------------------------------


def test_dispatch_table_rows_stack_as_the_rules_example() -> None:
    """GTS 10.0.3: "Apply as many of these results as are applicable — they stack. Example:
    Dispatch Rating six, current Dispatch Points two. A roll of one gives two more Dispatch
    Points; a roll of zero gives three; a roll of two gives one." And "Nine: The Division loses
    one Dispatch Point"."""
    cfg = gts_params(game()).activation
    assert dispatch_change(1, 6, 2, cfg)[0] == 2
    assert dispatch_change(0, 6, 2, cfg)[0] == 3
    assert dispatch_change(2, 6, 2, cfg)[0] == 1
    assert dispatch_change(9, 6, 2, cfg)[0] == -1          # 9 > rating, 9 > points: only the Nine row
    assert dispatch_change(7, 6, 8, cfg)[0] == 1           # 7 < 8 current points
    assert dispatch_change(8, 6, 2, cfg)[0] == 0


def test_rolling_points_needs_the_divisions_divact_chit_and_known_ratings() -> None:
    """"Each time a Division Activation Chit is drawn, roll for that Division for both Command
    Points and Dispatch Points" [10.0.3]; the Utah sample's ratings are unknown."""
    g = game()
    r = g.apply({"do": "roll_points", "division": DIV})
    assert not r.ok and "Division Activation Chit" in r.message and r.rule == "GTS 10.0.3"
    in_play(g, "chit-divact-4")
    r = g.apply({"do": "roll_points", "division": DIV})
    assert not r.ok and "unknown" in r.message and "set_points" in r.message and r.rule == "GTS 10.0.3"


def test_command_and_dispatch_roll_by_the_table_within_the_limits() -> None:
    """Command Points: "Roll a die and add half the die roll (rounding down) to the Division's
    Command Rating"; "A Division may never have ... more than nineteen Command Points" [10.0.4]."""
    g = game()
    g.scenario.params["ratings"][DIV] = {"command": 8, "dispatch": 6}   # ILLUSTRATIVE ratings
    in_play(g, "chit-divact-4")
    LoadedDice.on(g, [7, 10])                  # CP die 7; DP die 10 reads 0
    r = g.apply({"do": "roll_points", "division": DIV})
    pts = gts_state(g).activation.points[DIV]
    assert r.ok and pts.command == 7 + 3 + 8 == 18
    assert pts.dispatch == 2                    # Zero +1, <= rating 6 +1, not < 0 points
    ev = [e for e in g.log if e["type"] == "points_roll"][-1]
    assert ev["command_die"] == 7 and ev["dispatch_die"] == 0 and len(ev["rows"]) == 2
    r = g.apply({"do": "roll_points", "division": DIV})
    assert not r.ok and "already" in r.message                      # once per draw
    in_play(g, "chit-divact-4")                                       # drawn again (a test shortcut)
    LoadedDice.on(g, [9, 9])
    assert g.apply({"do": "roll_points", "division": DIV}).ok
    assert pts.command == 19 and pts.dispatch == 1                  # 18 + 9 + 4 + 8 capped; Nine -1
    assert [e for e in g.log if e["type"] == "points_roll"][-1]["limited"] is True


def test_pre_night_bonus_on_the_turn_before_the_night_turn() -> None:
    """"On the turn before the night turn, a Division automatically adds two Dispatch Points to
    its total after performing the Dispatch Point die roll" [10.0.3]; the Night turn follows
    2100 [Excl 1.1]."""
    g = game()
    g.scenario.params["ratings"][DIV] = {"command": 5, "dispatch": 3}   # ILLUSTRATIVE ratings
    assert not pre_night(g)
    g.state.turn = next(t.n for t in g.system.calendar.all_turns if t.label == "2100 6 June")
    assert pre_night(g)
    in_play(g, "chit-divact-4")
    LoadedDice.on(g, [2, 8])                    # DP die 8: no row applies
    assert g.apply({"do": "roll_points", "division": DIV}).ok
    assert gts_state(g).activation.points[DIV].dispatch == 2
    assert [e for e in g.log if e["type"] == "points_roll"][-1]["pre_night_bonus"] == 2


def test_declared_points_stay_within_the_limits() -> None:
    """"A Division may never have fewer than zero or more than nineteen ... Points" [10.0.4]."""
    g = game()
    r = g.apply({"do": "set_points", "division": DIV, "command": 20})
    assert not r.ok and r.rule == "GTS 10.0.4"
    assert g.apply({"do": "set_points", "division": DIV, "command": 19, "dispatch": 0}).ok


# --- who may act ----------------------------------------------------------------------------


def test_a_formation_chit_activates_its_formation_only() -> None:
    """"If a Formation Activation Chit is drawn: All Units belonging to that Formation become
    Active and may perform Actions" [10.0.1]."""
    g = _playtest_game()
    g.apply({"do": "next_phase", "to": "activation"})               # GTS 4.0 H
    in_play(g, "chit-502nd")
    act = [e for e in g.log if e["type"] == "activation"][-1]
    assert "a-1-502" in act["units"] and "ldr-moseley" in act["units"] and "g-3-506" not in act["units"]
    r = g.apply({"do": "move", "unit": "g-3-506", "to": g.label(g.unit("g-3-506").hex.neighbors()[0])})
    assert not r.ok and r.rule == "GTS 10.0.1" and "506th" not in r.message and "502nd PIR" in r.message
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "31.027"}).ok


def test_one_action_per_unit_and_a_move_continues_only_at_once() -> None:
    """"Units can perform one of the following Actions (the exception is the Second Action,
    10.0.2)" [13.2]; consecutive moves of the same stack are one Movement Action (policy
    move-continues-action)."""
    g = _playtest_game()
    g.apply({"do": "next_phase", "to": "activation"})
    in_play(g, "chit-502nd")
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "31.027"}).ok
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "30.027"}).ok          # the same Action, continued
    assert g.apply({"do": "move", "unit": "b-1-502", "to": "37.029"}).ok
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "29.027"})
    assert not r.ok and r.rule == "GTS 13.2" and "already performed its Action" in r.message


def test_divact_first_actions_are_limited_and_second_actions_are_not() -> None:
    """7.1 table: "Move into enemy Fire Zone" is not allowed under Divisional Activation; "a Unit
    activated with a Division Activation Chit may not Assault" and "may not fire unless it has a
    purple Fire Rating" [13.2]. "A Second Action during a Division Activation is not subject to
    the Division Activation restrictions" [10.0.2]: "Pass as its Action, then pay one Command
    Point to have it fire as a Second Action" [13.2]."""
    g = _playtest_game()
    g.apply({"do": "next_phase", "to": "activation"})
    a, foe = g.unit("a-1-502"), g.unit("c6-ii-919")
    foe.hex = g.hex_of("30.025")                                        # ILLUSTRATIVE placement
    a.hex = g.hex_of("31.027")
    in_play(g, "chit-divact-101")
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "30.026"})      # next to the German: his Fire Zone
    assert not r.ok and r.rule == "GTS 7.1" and "c6-ii-919" in r.message
    assert r.policy and r.policy.startswith("divact-fire-zone-destination")
    r = g.apply({"do": "assault", "units": ["b-1-502"], "target": "30.025"})
    assert not r.ok and r.rule == "GTS 13.2" and "Assault" in r.message
    r = g.apply({"do": "attack", "attackers": ["b-1-502"], "target": "30.025"})
    assert not r.ok and r.rule == "GTS 13.2" and "purple" in r.message
    # Pass, then a Second Action (1 CP of its Division, In Command) that is not so limited.
    assert g.apply({"do": "pass", "units": ["a-1-502"]}).ok
    r = g.apply({"do": "second_action", "units": ["a-1-502"]})
    assert not r.ok and "0 Command Points" in r.message
    g.apply({"do": "set_points", "division": D101, "command": 2})
    r = g.apply({"do": "second_action", "units": ["a-1-502"]})
    assert r.ok and r.policy and r.policy.startswith("in-command-unless-marked")   # Command Range unknown
    assert gts_state(g).activation.points[D101].command == 2                      # paid when done
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "30.026"}).ok
    assert gts_state(g).activation.points[D101].command == 1
    assert [e for e in g.log if e["type"] == "second_action"][-1]["units"] == ["a-1-502"]
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "31.026"})
    assert not r.ok and "already performed" in r.message                           # no third Action


def test_a_second_action_differs_follows_at_once_and_needs_command() -> None:
    """Second Action [10.0.2]: "The Second Action is different from the Action just performed";
    "The decision ... is made before the next Unit or stack performs an Action"; "The Units are
    In Command" (an Out of Command marker: Out of Command, policy out-of-command-marker)."""
    g = _playtest_game()
    g.apply({"do": "next_phase", "to": "activation"})
    g.apply({"do": "set_points", "division": D101, "command": 5})
    in_play(g, "chit-502nd")
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "31.027"}).ok
    assert g.apply({"do": "second_action", "units": ["a-1-502"]}).ok
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "30.027"})
    assert not r.ok and r.rule == "GTS 10.0.2" and "differ" in r.message
    assert g.apply({"do": "move", "unit": "b-1-502", "to": "37.029"}).ok           # another stack acts
    assert any(e["type"] == "second_action_lapsed" for e in g.log)
    r = g.apply({"do": "second_action", "units": ["a-1-502"]})
    assert not r.ok and "did not just complete an Action" in r.message
    g.unit("b-1-502").markers.append("out_of_command")
    r = g.apply({"do": "second_action", "units": ["b-1-502"]})
    assert not r.ok and "not In Command" in r.message and r.rule == "GTS 10.0.2"


def test_direct_command_activates_only_paid_in_command_units_without_second_actions() -> None:
    """10.0.5: "You may activate any of your non-independent, In Command Units ... by spending
    one Command Point per Unit"; "Only one activation per Unit — no Second Actions"."""
    g = _playtest_game()
    g.apply({"do": "next_phase", "to": "activation"})
    r = g.apply({"do": "direct_command", "units": ["a-1-502"]})
    assert not r.ok and r.rule == "GTS 10.0.5" and "no Direct Command chit" in r.message
    in_play(g, "chit-dc-allied")
    g.apply({"do": "set_points", "division": D101, "command": 1})
    r = g.apply({"do": "direct_command", "units": ["c6-ii-919"]})
    assert not r.ok and "side" in r.message
    assert g.apply({"do": "direct_command", "units": ["a-1-502"]}).ok
    assert gts_state(g).activation.points[D101].command == 0
    r = g.apply({"do": "move", "unit": "b-1-502", "to": "37.029"})
    assert not r.ok and r.rule == "GTS 10.0.5" and "Command Point" in r.message
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "31.027"}).ok
    r = g.apply({"do": "second_action", "units": ["a-1-502"]})
    assert not r.ok and r.rule == "GTS 10.0.5" and "no Second Actions" in r.message


def test_units_act_only_while_a_chit_is_in_play_once_the_pull_began() -> None:
    """After ``end_activation`` nothing is in play until the next chit is drawn [10.0.1]; the
    Event! chit activates no unit (policy event-chit-activates-none)."""
    g = _playtest_game()
    g.apply({"do": "next_phase", "to": "activation"})
    in_play(g, "chit-502nd")
    assert g.apply({"do": "end_activation"}).ok
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "31.027"})
    assert not r.ok and "draw the next chit" in r.message
    in_play(g, "chit-event")
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "31.027"})
    assert not r.ok and r.policy and r.policy.startswith("event-chit-activates-none")


def test_the_last_chit_is_played_first_next_turn_and_direct_command_chits_join_the_mug() -> None:
    """10.0.6: "The last chit in the mug is not drawn this turn — it becomes the first chit
    played next turn." 10.0.1: "the player whose chit was the last one left in the mug on the
    previous turn must play that chit now as the first chit of this turn": now, in the
    Activation Phase. 9.0: "After the first turn, each player puts in ... His one Direct
    Command Chit"."""
    g = game("night-drop")
    r = g.apply({"do": "draw_chit"})
    assert r.ok and gts_state(g).activation.current.chit == r.data["chit"]
    last = gts_state(g).chits.mug[0]
    assert not g.apply({"do": "draw_chit"}).ok                          # the last one stays
    g.apply({"do": "end_turn"})
    assert gts_state(g).activation.current is None and gts_state(g).chits.drawn == [last]  # Step A
    assert g.apply({"do": "next_phase", "to": "activation"}).ok
    cur = gts_state(g).activation.current
    assert cur is not None and cur.chit == last and cur.carried
    assert [e for e in g.log if e["type"] == "activation"][-1]["carried"] is True
    assert {"chit-dc-allied", "chit-dc-german"} <= set(gts_state(g).chits.mug)


def test_buying_formation_chits_costs_dispatch_points() -> None:
    """7.2: "Formation Activation Chit in play this turn: 2 Dispatch Points; ... next turn:
    1 Dispatch Point", in "D. Dispatch Points. ... Then spend Dispatch Points to buy Formation
    Activation Chits" [4.0 D]."""
    g = game(at=None)
    g.apply({"do": "set_points", "division": DIV, "dispatch": 2})
    g.apply({"do": "next_phase", "to": "activation"})
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-8ir"})
    assert not r.ok and r.rule == "GTS 4.0 H" and "it is one of: GTS 4.0 D Dispatch Points" in r.message
    g = game(at=None)
    g.apply({"do": "next_phase", "to": "dispatch"})
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-8ir"})
    assert not r.ok and "ratings unknown" in r.message and r.rule == "GTS 7.2"
    assert g.apply({"do": "set_points", "division": DIV, "command": 2, "dispatch": 3}).ok
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-8ir", "when": "this"})
    assert r.ok and "chit-8ir" in gts_state(g).chits.mug
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-70tk", "when": "next"})
    assert r.ok and "chit-70tk" not in gts_state(g).chits.mug
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-12ir", "when": "this"})
    assert not r.ok and "0 Dispatch Points" in r.message          # 3 - 2 - 1 = 0
    g.apply({"do": "end_turn"})
    assert "chit-70tk" in gts_state(g).chits.mug
    assert any(e["type"] == "mug_add" for e in g.log)


# --- the strict gate: no chit, no Action; no Action outside 4.0 H ---------------------------

# One unit Action of each 13.2 type (the values the sample lacks declared; they are never reached).
_ACTIONS = [
    {"do": "move", "unit": "a-1-502", "to": "30.027"},
    {"do": "column", "unit": "a-1-502"},
    {"do": "fire", "unit": "a-1-502", "target": "c5-ii-919", "fire_rating": 4, "line": "yellow"},
    {"do": "attack", "attackers": ["a-1-502"], "target": "31.030"},
    {"do": "indirect_fire", "unit": "a-1-502", "target": "c5-ii-919", "line": "green", "fire_rating": 5, "range": 12},
    {"do": "assault", "units": ["a-1-502"], "target": "31.030"},
    {"do": "rally", "unit": "a-1-502"},
    {"do": "pass", "units": ["a-1-502"]},
]


def test_no_unit_acts_in_the_activation_phase_before_the_first_chit() -> None:
    """GTS 13.1: "During the Activation Phase you perform Actions with your Active Units"; 10.0.1:
    "If a Division Activation Chit (marked DivAct) is drawn: ... Then all Units of that Division
    become Active". No chit drawn: no Active Unit, so every Action is refused (no
    gate-from-first-chit loophole)."""
    g = _playtest_game()
    assert g.phase.id == "activation" and gts_state(g).activation.current is None
    for action in _ACTIONS:
        r = g.apply(dict(action))
        assert not r.ok and r.rule == "GTS 10.0.1, 13.1" and r.message.startswith("no chit is in play"), (action, r)
    assert not any(e["type"] in ("move", "fire", "assault", "rally", "pass", "indirect_fire") for e in g.log)
    assert g.unit("a-1-502").hex == g.hex_of("32.028")
    # Once the chit of its Division is drawn, the unit acts [10.0.1].
    in_play(g, "chit-divact-101")
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "30.027"}).ok


def test_unit_actions_are_refused_in_every_step_but_h() -> None:
    """GTS 4.0: "H. Activation Phase. Perform the Activation Phase"; the other steps (A Weather ...
    G The mug, I Cleanup, J Turn record) print no Action. A unit Action in them is refused by the
    step's allows: [play/sequence.py], located: which step, and where the action belongs."""
    g = game("night-drop-playtest", at=None, free=True)  # the opt-out too: the step gate is not the chit gate
    seen = []
    while True:
        ph = g.phase
        if ph.id != "activation":
            for action in _ACTIONS:
                r = g.apply(dict(action))
                assert not r.ok, (ph.id, action, r)
                if action["do"] != "move":  # a move in a step without allows: is the engine's own refusal
                    kind = g.action_kind(action["do"])
                    assert r.message.startswith(f"{action['do'] if kind == action['do'] else action['do'] + ' (' + kind + ')'}"
                                                f" is not an action of {ph.rule} {ph.name}"), r
                    assert "it is one of: GTS 4.0 H Activation Phase" in r.message and r.rule == ph.rule
            seen.append(ph.rule)
        if ph.id == "turn_record":
            break
        assert g.apply({"do": "next_phase"}).ok
    assert seen == [f"GTS 4.0 {s}" for s in "ABCDEFGIJ"]


def test_chit_and_step_actions_belong_to_their_steps() -> None:
    """GTS 4.0 D "buy Dispatch Points ... Then spend Dispatch Points to buy Formation Activation
    Chits"; E "Create/Disband Artillery Parks. Attempt Contact"; H: chits are drawn [10.0.1]."""
    g = game(at=None, free=False)
    r = g.apply({"do": "draw_chit"})
    assert not r.ok and r.message == ("draw_chit (chit) is not an action of GTS 4.0 A Weather; it is one of: "
                                      "GTS 4.0 H Activation Phase") and r.rule == "GTS 4.0 A"
    assert g.apply({"do": "next_phase", "to": "artillery_contact"}).ok
    r = g.apply({"do": "buy_chit", "division": DIV, "chit": "chit-8ir"})
    assert not r.ok and "it is one of: GTS 4.0 D Dispatch Points" in r.message
    assert g.apply({"do": "next_phase", "to": "activation"}).ok
    r = g.apply({"do": "artillery_park", "units": ["a-1-8"]})
    assert not r.ok and "it is one of: GTS 4.0 E Artillery and Contact" in r.message
    assert g.apply({"do": "draw_chit"}).ok


def test_the_named_opt_out_is_logged_every_turn() -> None:
    """The opt-out is no rule (ILLUSTRATIVE): a scenario's params ``activation_before_first_chit:
    free`` let units act in 4.0 H before the first chit, and the log says so on every turn."""
    g = game("night-drop-playtest", free=True)
    assert g.apply({"do": "move", "unit": "a-1-502", "to": "30.027"}).ok  # no chit drawn
    assert g.apply({"do": "end_turn"}).ok
    notes = [e for e in g.log if e["type"] == "activation_opt_out"]
    assert [e["turn"] for e in notes] == [1, 2]
    assert all(e["policy"].startswith("activation-before-first-chit-free: ILLUSTRATIVE") for e in notes)
    strict = game("night-drop-playtest", free=False)
    assert not [e for e in strict.log if e["type"] == "activation_opt_out"]
    g.scenario.params["activation_before_first_chit"] = "strict"  # any other value: strict
    assert g.apply({"do": "next_phase", "to": "activation"}).ok
    r = g.apply({"do": "move", "unit": "a-1-502", "to": "29.027"})
    assert not r.ok  # turn 2: the carried chit (or none) decides, never the opt-out
