"""GTS Rally [20.0]: ``{do: rally, unit, tq?, check?, in_fire_zone?}``.

A successful Rally removes the Suppressed marker, or — only when not Suppressed — one Cohesion
Hit [20.0]. In Command (play/gts/command.py ``in_command`` [21.4]) it succeeds automatically;
Out of Command the Unit must pass a Troop Quality Check on its TQ, -1 Out of Command [21.7], -1
Suppressed and -1 with two Cohesion Hits (policy ``tq-penalty-one``), +1 per Men Rallying marker
[20.0]. The sample prints no TQ: the playtester declares ``tq`` or ``check: passed|failed``
(policy ``declared-tq``). A failed check adds a ``men_rallying`` marker; they all go on a
successful Rally or when the Unit does any other Action [20.0] (``clear_men_rallying``). No
Cohesion Hit comes off in an enemy Fire Zone on a daylight turn [20.0] (policy
``fire-zone-from-known-ranges``). Parameters: ``rally:`` in play/gts/params.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts import command
from play.gts.fire import _num, _value, conditions, fire_range, sight

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import FireParams, RallyParams
    from play.result import ActionResult
    from play.state import UnitState

_ok = command._ok


def in_enemy_fire_zone(game: "PlayContext", u: "UnitState", fire_cfg: "FireParams") -> tuple[bool, list[str]]:
    """Whether an enemy with a known (printed or default) Fire Range sees ``u`` in range [17.3];
    also the enemies whose range is unknown (not counted: policy fire-zone-from-known-ranges)."""
    unknown: list[str] = []
    for e in sorted(game.state.units.values(), key=lambda x: x.id):
        if e.side == u.side or not e.on_map or e.hex is None or command.is_leader(game, e.id):
            continue
        rng, _ = fire_range(game, e, fire_cfg)
        if rng is None:
            unknown.append(e.id)
        elif e.hex.distance(u.hex) <= rng and sight(game, e.hex, u.hex) == (True, None):  # type: ignore[arg-type]
            # a line seen only because a Hill sees back projects no Fire Zone [Excl 2.1.10]
            return True, unknown
    return False, unknown


def clear_men_rallying(game: "PlayContext", uids: list[str], cfg: "RallyParams") -> None:
    """Men Rallying markers go when the Unit performs any Action other than Rally [20.0]."""
    mark = cfg.men_rallying_marker
    for uid in uids:
        u = game.state.units.get(uid)
        if u is not None and mark in u.markers:
            n = u.markers.count(mark)
            u.markers[:] = [m for m in u.markers if m != mark]
            game.emit("men_rallying_cleared", unit=uid, removed=n, rule=cfg.rule)


def rally(game: "PlayContext", action: dict[str, Any], cfg: "RallyParams", fire_cfg: "FireParams") -> "ActionResult":
    rule = cfg.rule
    u = game.unit(str(action.get("unit")))
    sup = cfg.suppressed_marker
    coh = cfg.cohesion_marker
    men = cfg.men_rallying_marker
    if not u.on_map:
        return _ok(False, f"{u.id} is not on the map", rule)
    if sup not in u.markers and coh not in u.markers:
        return _ok(False, f"{u.id} has no Suppressed or Cohesion Hit marker to rally from", rule)
    target = sup if sup in u.markers else coh  # Suppression first [20.0]
    policies: list[str] = []
    if target == coh:
        night = conditions(game)["night"]
        declared = action.get("in_fire_zone")
        if declared is not None:
            zone = str(declared).lower() in ("1", "true", "yes")
        else:
            zone, _unknown = in_enemy_fire_zone(game, u, fire_cfg)
            policies.append(str(cfg.fire_zone_policy))
        if zone and not night:
            return _ok(False, f"{u.id} is in an enemy Fire Zone on a daylight turn: it may not rally from a "
                              "Cohesion Hit", str(cfg.fire_zone_rule if cfg.fire_zone_rule is not None else rule),
                       "; ".join(policies) or None)
    ok, why, cpolicy = command.is_in_command(game, u)
    if cpolicy:
        policies.append(cpolicy)
    check: dict[str, Any] = {}
    if ok:
        passed = True
    else:
        tq = _num(_value(game, u, "tq"))
        mods = {"out_of_command": command.cfg_of(game).tq_penalty.value}
        if sup in u.markers:
            mods["suppressed"] = cfg.suppressed_penalty.value
        if u.markers.count(coh) >= cfg.two_hits.value:
            mods["two_cohesion_hits"] = cfg.two_hits_penalty.value
        if u.markers.count(men):
            mods["men_rallying"] = u.markers.count(men) * cfg.men_rallying_bonus.value
        if tq is None:
            tq = _num(action.get("tq"))
            if tq is not None:
                policies.append(str(cfg.tq_policy))
        tc = cfg.tq_check
        if tq is not None:
            need = int(tq) + sum(mods.values())
            die = game.dice.roll(1, tc.die)[0] % 10  # faces 1..10, the 10 reads 0
            passed = die != tc.always_fail and (die == tc.always_pass or die <= need)
            check = {"tq": int(tq), "modifiers": mods, "need": need, "die": die}
            policies.append(str(cfg.check_policy))
        elif action.get("check") is not None:
            passed = str(action.get("check")).lower() in ("passed", "pass", "true", "yes")
            check = {"declared": "passed" if passed else "failed", "modifiers": mods}
            policies.append(str(cfg.tq_policy))
        else:
            return _ok(False, f"{u.id} is Out of Command ({why}) and its Troop Quality is unknown in the counter data: "
                              "declare 'tq' or 'check: passed|failed'", rule)
    policy = "; ".join(dict.fromkeys(p for p in policies if p and p != "None")) or None
    if not passed:
        u.markers.append(men)
        game.emit("rally", unit=u.id, passed=False, command=why, men_rallying=u.markers.count(men), rule=rule,
                  policy=policy, **check)
        return _ok(True, f"{u.id} fails to rally: Men Rallying +1 (now {u.markers.count(men)})", rule, policy,
                   passed=False, **check)
    u.markers.remove(target)
    u.markers[:] = [m for m in u.markers if m != men]
    game.emit("rally", unit=u.id, passed=True, removed=target, command=why, in_command=bool(ok), markers=list(u.markers),
              rule=rule, policy=policy, **check)
    return _ok(True, f"{u.id} rallies: {target} removed" + ("" if ok else " (Troop Quality Check passed)"), rule, policy,
               passed=True, removed=target, **check)
