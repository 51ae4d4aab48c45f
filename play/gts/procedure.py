"""The GTS procedure: Column [14.6], fire with a CRT from the data [15.5], Fire Zones and LOS
[17.3, 15.4], activation details [7.2, 10.0.3, 10.0.5] (who may act: the chit pull's gate,
play/gts/gate.py), the Utah Beach Overlay
[Excl 4.2–4.5], naval forces and the Naval Sequence of Play [Excl 4.4, 4.6] and the Event!
chit [Excl 6.0]. Parameters: play/gts/params.yaml (cited)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.procedure import Procedure
from play.gts import activation, barrage, beach, column, command, events, fire, indirect, naval, overstack, rally, stragglers
from play.gts.chit_pull import ACTIVATION_STEP
from play.gts.crt import crt_for
from play.gts.params import NavalParams, gts_params
from play.gts.state import gts_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult


class GtsProcedure(Procedure):
    replaces = frozenset({"attack"})  # with a CRT in the data, an attack is GTS fire [15.5]
    # GTS 4.0 D (buy_chit [7.2]), H (fire, assault, column, rally … [10.0]) and I (barrage markers
    # and Artillery Parks in on_turn_end [11.0, 16.7]); E [16.2, 16.3] with indirect fire data.
    plays = frozenset({"dispatch", ACTIVATION_STEP, "cleanup"})

    def __init__(self, game: "PlayContext") -> None:
        p = gts_params(game)
        self.fire, self.results, self.column, self.activation, self.beach = \
            p.fire, p.results, p.column, p.activation, p.beach
        marker = self.column.marker
        cohesion = self.results.cohesion_marker
        self.actions = {
            "fire": lambda g, a: fire.fire(g, a, self.fire, self.results),
            "fire_zone": lambda g, a: fire.fire_zone(g, a, self.fire),
            "los": lambda g, a: fire.los(g, a),
            "column": lambda g, a: column.column_action(g, a, self.column, cohesion),
            "roll_points": lambda g, a: activation.roll_points(g, a, self.activation),
            "set_points": lambda g, a: activation.set_points(g, a, self.activation),
            "buy_chit": lambda g, a: activation.buy_chit(g, a, self.activation),
            "direct_command": lambda g, a: activation.direct_command(g, a, self.activation),
            "land_craft": lambda g, a: beach.land_craft(g, a, self.beach, self.results, marker,
                                                        naval.at_step(g, 4)),
            "beach_fire": lambda g, a: beach.beach_fire(g, a, self.beach),
            "open_gap": lambda g, a: beach.open_gap(g, a, self.beach),
        }
        self.indirect, self.barrage = p.indirect, p.barrage
        self._cohesion = cohesion
        if self.indirect is not None:
            # Land Indirect Fire, Artillery Parks, radio contact, counter-battery [GTS 16.0-16.7].
            ind, bar = self.indirect, self.barrage
            self.plays = self.plays | {"artillery_contact"}  # Step E [GTS 4.0 E]
            self.actions.update({
                "indirect_fire": lambda g, a: indirect.indirect_fire(g, a, ind, self.fire, self.results, bar),
                "artillery_park": lambda g, a: indirect.artillery_park(g, a, ind),
                "disband_park": lambda g, a: indirect.disband_park(g, a, ind),
                "contact": lambda g, a: indirect.contact(g, a, ind, self.results),
                "drop_contact": lambda g, a: indirect.drop_contact(g, a, ind),
            })
        # Leaders and Command [GTS 21.0] and Rally [GTS 20.0] (play/gts/command.py, rally.py).
        self.command, self.rally = p.command, p.rally
        self.actions.update({
            "rally": lambda g, a: rally.rally(g, a, self.rally, self.fire),
            "command": lambda g, a: command.command_status(g, a, self.command),
            "transfer_leader": lambda g, a: command.transfer_leader(g, a, self.command),
            "check_leaders": lambda g, a: command.check_leaders(g, a, self.command),
        })
        # Assault [GTS 18.0-18.7] with Excl 18.8 / 18.9 when selected (play/gts/assault.py).
        from play.gts import assault as assault_mod

        self.assault = p.assault
        self.actions["assault"] = lambda g, a: assault_mod.assault(g, a, self.assault, self.fire, self.results)
        # Without a naval section its defaults stand in where the Random Events fire ships [Excl 6.0].
        self.naval: NavalParams = p.naval or NavalParams()
        self.events = p.events
        if p.naval is not None and naval.forces(game):
            # Naval forces and the NSoP [Excl 4.4, 4.6]: only for a scenario with a Naval Display.
            self.hooks = naval.Hooks(self.beach, lambda: beach.mandatory_landings(
                game, self.beach, self.results, marker, True, self.naval.landing_policy))
            n, h = self.naval, self.hooks
            self.actions.update({
                "naval_next": lambda g, a: naval.naval_next(g, a, n, h),
                "naval_step": lambda g, a: naval.naval_step(g, a, n, h),
                "ship_fire": lambda g, a: naval.ship_fire(g, a, n, self.fire, self.results, self.beach),
                "battery_fire": lambda g, a: naval.battery_fire(g, a, n, self.fire, self.results, self.beach),
                "move_assault_force": lambda g, a: naval.move_assault_force(g, a, n),
                "move_ship": lambda g, a: naval.move_ship(g, a, n),
            })
        if self.events is not None and self._has_event_chit(game):
            ev = self.events
            self.actions["resolve_event"] = lambda g, a: events.resolve_event(
                g, a, ev, self.naval, self.fire, self.results, self.beach)
        self.stragglers = stragglers.cfg_of(game)
        if self.stragglers is not None:
            sg = self.stragglers
            self.actions["recover_stragglers"] = lambda g, a: stragglers.recover(g, a, sg)
            self.actions["spend_srp"] = lambda g, a: stragglers.spend(g, a, sg)
        self.marker = marker
        self.exits = overstack.ExitWatch()
        if crt_for(game) is not None:
            # With a CRT in the data, ``attack`` is GTS fire (the Play mode then offers combat).
            self.actions["attack"] = lambda g, a: fire.attack_as_fire(g, a, self.fire, self.results)

    def _has_event_chit(self, game: "PlayContext") -> bool:
        assert self.events is not None
        chit = self.events.event_chit
        return any(isinstance(e, dict) and chit in [str(c) for c in e.get("chits", [])]
                   for e in game.scenario.params.get("mug") or [])

    def _naval_on(self) -> bool:
        return "naval_next" in self.actions

    def on_phase_start(self, game: "PlayContext") -> None:
        if game.state.phase == 0:  # Step G's chits with the chit pull's (policy mug-filled-at-turn-start)
            activation.start_of_turn(game)
            if self.events is not None and "resolve_event" in self.actions:
                events.on_phase_start(game, self.events)
            if self._naval_on():
                naval.step_g(game, self.naval)  # the Naval chit every daylight turn [Excl 4.1.8]
        if self._naval_on() and game.phase.id == ACTIVATION_STEP and not naval.nsop(game).active \
                and gts_state(game).chits.drawn == [self.naval.naval_chit]:
            naval.start(game, self.naval, self.hooks)  # carried: played first in 4.0 H [GTS 10.0.1, 10.0.6]
        for ov in beach.overlays(game):
            beach.state(game, ov)  # start levels recorded on the first phase

    def on_turn_end(self, game: "PlayContext") -> None:
        if self.events is not None and "resolve_event" in self.actions:
            events.on_turn_end(game, self.events)  # runs after the chit pull chose its carry [Excl 6.0]
        barrage.cleanup(game, self.barrage)  # I. Cleanup [GTS 4.0 I, 11.0]
        if self.indirect is not None:
            indirect.cleanup(game, self.indirect)  # Parks back to Non-Fired [GTS 4.0 I, 16.7]

    def before(self, game: "PlayContext", action: dict[str, Any]) -> "ActionResult | None":
        self.exits.before(game, action)  # where every Unit stands: 14.7 "by any method" [GTS 14.7]
        do = action.get("do")
        if do == "direct_command":
            refused = command.before_direct_command(game, action, self.command)  # [GTS 21.7, 21.4.1]
            if refused is not None:
                return refused
        if self._naval_on() and do in ("draw_chit", "next_phase", "end_turn"):
            naval.close(game, self.naval, self.hooks)
            if do == "draw_chit":
                first = naval.first_chit(game, self.naval)
                if first is not None:
                    return first
        if do == "buy_chit" and self.events is not None and "resolve_event" in self.actions:
            until = events.blocked_chit(game, str(action.get("chit")))
            turn = game.state.turn + (1 if str(action.get("when", "this")) == "next" else 0)
            if until is not None and turn <= until:
                return activation._ok(False, f"{action.get('chit')} cannot be bought before turn {until + 1} "
                                             "(its Formation Leader was hit by a Random Event)", self.events.rule)
        if self.indirect is not None and do == "move":
            blocked = indirect.before_move(game, action)  # Park units stay put [GTS 16.2.3]
            if blocked is not None:
                return blocked
        if do == "move":
            return overstack.before_move(game, action) or \
                column.before_move(game, action, self.column) or \
                beach.before_move(game, action, self.beach, self.marker) or \
                barrage.before_move(game, action, self.barrage, self._cohesion)  # last: it commits [16.6.2.2]
        if do in ("next_phase", "end_turn"):
            beach.mandatory_landings(game, self.beach, self.results, self.marker)
        return None

    def after_arrival(self, game: "PlayContext", unit: Any) -> None:
        overstack.after_arrival(game, unit)  # penalised, not refused [GTS 14.7]

    def after(self, game: "PlayContext", action: dict[str, Any], result: "ActionResult") -> None:
        if self.indirect is not None:
            indirect.after_direct_fire(game, action, result, self.indirect)  # [GTS 16.2.5, 16.3.1]
        if action.get("do") == "move":
            barrage.after_move(game, action, result, self.barrage, self._cohesion)  # [GTS 16.6.2.2]
            overstack.after_move(game, action, result, self.results)  # penalised, not refused [GTS 14.7]
        self.exits.after(game, action, result, self.results)  # leaving by other methods [GTS 14.7]
        if result.ok and action.get("do") in self.rally.other_actions.value:
            ids = [str(x) for x in (action.get("units") or [])] + [str(action[k]) for k in ("unit",) if action.get(k)]
            rally.clear_men_rallying(game, ids, self.rally)  # any Action other than Rally [GTS 20.0]
        if action.get("do") == "draw_chit" and result.ok:
            chit = str(result.data.get("chit"))
            if self._naval_on() and chit == self.naval.naval_chit:
                naval.start(game, self.naval, self.hooks)  # NSoP step 1 runs beach.on_chit [Excl 4.6]
            else:
                beach.on_chit(game, chit, self.beach)
            if self.events is not None and "resolve_event" in self.actions:
                events.on_chit(game, chit, self.events)
        if beach.overlays(game):
            beach.check_cleared(game, self.beach)
        if self.stragglers is not None:
            if action.get("do") == "drop_roll" and result.ok:
                stragglers.after_drop(game, action, result, self.stragglers)
            stragglers.check_rally_points(game, self.stragglers)

