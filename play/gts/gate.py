"""Who may act: the chit in play [GTS 10.0.1, 13.1] gates every unit Action.

The chit in play is :class:`play.gts.state.Activation` (``GtsState.activation.current``), set when
a chit is drawn (``draw_chit``) or the carried last chit is played first [10.0.6]; the chit
counter's flag says its kind (``activation.chit_flags`` in params.yaml):

- **Formation chit**: "All Units belonging to that Formation become Active" [10.0.1], "plus
  independent Units within Command Range of the Formation's Leader, up to the Attachment Rating
  of that Leader" [13.1] (policy ``independent-in-command``: Attachment Ratings are unknown).
- **DivAct chit**: "all Units belonging to that Division — limited to non-combat Actions" [13.1]:
  the 7.1 table and 13.2 exceptions as data (``activation.divact_limits``): no move into an
  enemy Fire Zone, no fire unless purple Fire Rating, no Assault.
- **Direct Command chit**: "any In Command, non-independent Unit on which you spend a Command
  Point" [13.1, 10.0.5] (``direct_command`` in play/gts/activation.py), no Second Actions.
- **Naval chit**: its own Naval Sequence of Play (policy ``naval-chit-nsop``); **Event!**: no
  unit acts (policy ``event-chit-activates-none``).

Each unit performs one Action per activation [13.2] (its type: ``activation.action_types``);
``{do: second_action, units}`` declares a Second Action for the stack that has just acted
[10.0.2]: In Command, one Command Point per unit, a different type, paid when it is done.
``{do: end_activation}`` ends the activation; ``{do: pass, units}`` is the Pass Action [13.2].
No unit acts without a chit in play: "During the Activation Phase you perform Actions with your
Active Units" [13.1], and Units become Active when their chit is drawn [10.0.1]. So before the
turn's first chit, between ``end_activation`` and the next draw, and after the Activation Phase,
every unit Action (``activation.action_types``: move, Column, fire, indirect fire, Assault,
Rally, Pass) is refused. Outside the 4.0 H step the shared phase gate refuses them first
(``allows:`` of each step in resources/systems/gts-utah.yaml, play/gts/action_kinds.yaml;
:meth:`play.sequence.Phase.refusal`). The one opt-out is named: a scenario whose ``params`` say
``activation_before_first_chit: free`` lets units act in the Activation Phase before its first
chit is drawn, ungated (policy ``activation-before-first-chit-free``, ILLUSTRATIVE, logged
every turn): for scripts and tests that exercise one other rule without drawing chits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts.state import Activation, SecondAction, UnitActions, gts_state
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import ActivationParams
    from play.result import ActionResult

# The sequence-of-play id of GTS 4.0 H "Perform the Activation Phase" (resources/systems/gts-utah.yaml).
ACTIVATION_STEP = "activation"


def current(game: "PlayContext") -> Activation | None:
    return gts_state(game).activation.current


def free_before_first_chit(game: "PlayContext", cfg: "ActivationParams") -> bool:
    """Whether the scenario opts out of the strict gate before the turn's first chit: its
    ``params`` name ``activation_before_first_chit: free`` (policy ``activation-before-first-chit-free``)."""
    spec = cfg.before_first_chit
    return str(game.scenario.params.get(spec.param, spec.value)).strip().lower() == "free"


def acting_units(action: dict[str, Any]) -> list[str]:
    """The unit ids an action names as the ones acting (``units``, ``unit``, ``attackers``)."""
    ids: list[str] = []
    for key in ("units", "attackers"):
        v = action.get(key)
        if isinstance(v, list):
            ids += [str(x) for x in v if x is not None]
    if action.get("unit") is not None:
        ids.append(str(action["unit"]))
    return list(dict.fromkeys(ids))


def make_activation(game: "PlayContext", chit: str, cfg: "ActivationParams", carried: bool = False) -> Activation:
    """The Activation a chit starts: its kind from the chit counter's flags [7.1]."""
    c = game.counters.get(chit)
    flags = cfg.chit_flags.value
    kind = next((flags[f] for f in (c.flags if c is not None else []) if f in flags), "unknown")
    return Activation(chit=chit, kind=kind,  # type: ignore[arg-type]
                      side=getattr(c, "side", None), division=getattr(c, "division", None),
                      formation=getattr(c, "formation", None) if kind == "formation" else None, carried=carried)


def start(game: "PlayContext", chit: str, cfg: "ActivationParams", carried: bool = False) -> Activation:
    """Put ``chit`` in play: the previous activation ends [10.0.2: a Second Action is decided
    "before the next chit is drawn"], and the log names the units it activates."""
    act = make_activation(game, chit, cfg, carried)
    gts_state(game).activation.current = act
    units = activated_units(game, act, cfg)
    rule = {"formation": cfg.formation_rule, "divact": cfg.divact_rule, "direct": cfg.direct_command_rule}.get(
        act.kind, cfg.formation_rule)
    policy = {"naval": cfg.policies.naval_chit, "event": cfg.policies.event_chit}.get(act.kind)
    if act.kind == "formation" and any(_independent(game, u) for u in units):
        policy = cfg.policies.independents
    game.emit("activation", chit=chit, kind=act.kind, side=act.side, division=act.division,
              formation=act.formation, units=units, count=len(units), carried=carried or None, rule=rule,
              policy=policy)
    return act


def _independent(game: "PlayContext", uid: str) -> bool:
    from play.gts.command import cfg_of

    c = game.counters.get(uid)
    return c is not None and cfg_of(game).independent_flag in c.flags


def _belongs(game: "PlayContext", uid: str, act: Activation) -> bool:
    c = game.counters.get(uid)
    if c is None or any(str(f).endswith("_chit") for f in c.flags):
        return False
    if act.kind == "divact":
        return act.division is not None and c.division == act.division
    if act.kind == "formation":
        return act.formation is not None and (c.formation == act.formation
                                              or getattr(c, "leader_of", None) == act.formation)
    return False


def activated_units(game: "PlayContext", act: Activation, cfg: "ActivationParams") -> list[str]:
    """The units on the map or in a box that the chit in play lets act (for the log and Play mode)."""
    out = []
    for uid in sorted(game.state.units):
        u = game.state.units[uid]
        if u.where in ("eliminated", "withdrawn"):
            continue
        if is_active(game, uid, act, cfg)[0]:
            out.append(uid)
    return out


def is_active(game: "PlayContext", uid: str, act: Activation, cfg: "ActivationParams") -> tuple[bool, str]:
    """(active, why not) for one unit under the chit in play [13.1]."""
    if act.kind == "direct":
        if uid in act.direct_units:
            return True, ""
        return False, (f"{uid} has not been activated by a Command Point under the Direct Command chit "
                       f"(direct_command) [GTS 10.0.5]")
    if act.kind in ("naval", "event", "unknown"):
        return False, f"{act.chit} activates no unit"
    if _belongs(game, uid, act):
        return True, ""
    if act.kind == "formation" and _independent(game, uid):
        from play.gts.command import is_in_command

        c = game.counters.get(uid)
        if c is not None and c.division == act.division and is_in_command(game, uid)[0]:
            return True, ""
    what = f"Division {act.division}" if act.kind == "divact" else f"Formation {act.formation}"
    return False, f"{uid} does not belong to {what}"


def before(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult | None":
    """Refuse a unit Action the chit in play does not allow [10.0.1, 13.1, 13.2, 10.0.2]."""
    kind = cfg.action_types.value.get(str(action.get("do")))
    if kind is None:
        return None
    act = current(game)
    if act is None:
        if gts_state(game).chits.drawn:
            return _ok(False, "no chit is in play (the last activation ended): draw the next chit", cfg.formation_rule)
        if free_before_first_chit(game, cfg):
            return None  # the named opt-out (policy no_chit, logged every turn: chit_pull.ChitPull)
        return _ok(False, f"no chit is in play: only the Units of the chit drawn may act; draw a chit "
                          f"(draw_chit) in the Activation Phase first", cfg.before_first_chit.rule)
    if act.kind == "naval":
        return None  # policy naval-chit-nsop
    if act.kind == "event":
        return _ok(False, f"{act.chit} is not an activation: no unit acts under it", "Excl 6.0",
                   cfg.policies.event_chit)
    ids = [u for u in acting_units(action) if u in game.state.units]
    if not ids:
        return None
    if act.second is not None and sorted(ids) == sorted(act.second.units):
        return _check_second(game, act, ids, kind, cfg)
    for uid in ids:
        ok, why = is_active(game, uid, act, cfg)
        if not ok:
            rule = {"divact": cfg.divact_rule, "direct": cfg.direct_command_rule}.get(act.kind, cfg.formation_rule)
            return _ok(False, f"{why}: {act.chit} is in play", rule)
    for uid in ids:
        done = act.acted.get(uid)
        if done is None:
            continue
        if done.second is None and done.first == kind == "movement" and uid in act.last_stack:
            continue  # policy move-continues-action
        return _ok(False, f"{uid} has already performed its Action in this activation ({done.first}"
                          f"{', then ' + done.second if done.second else ''}); a Second Action is declared with "
                          f"second_action right after the first", cfg.one_action_rule)
    if act.kind == "divact":
        return _divact_limits(game, action, act, ids, kind, cfg)
    return None


def _check_second(game: "PlayContext", act: Activation, ids: list[str], kind: str,
                  cfg: "ActivationParams") -> "ActionResult | None":
    same = [u for u in ids if (d := act.acted.get(u)) is not None and d.first == kind]
    if same:
        return _ok(False, f"a Second Action must differ from the Action just performed ({', '.join(same)}: {kind})",
                   cfg.second_rule)
    assert act.second is not None
    for div, n in act.second.cost.items():
        have = p.command if (p := gts_state(game).activation.points.get(div)) is not None else 0
        if have < n:
            return _ok(False, f"{div} has {have} Command Points; the Second Action costs {n}", cfg.second_rule)
    return None  # "not subject to the Division Activation restrictions" [10.0.2]


def _divact_limits(game: "PlayContext", action: dict[str, Any], act: Activation, ids: list[str], kind: str,
                   cfg: "ActivationParams") -> "ActionResult | None":
    """The Division Activation's first-Action limits [7.1, 13.2]."""
    lim = cfg.divact_limits
    if kind == "assault" and not lim.assault.value:
        return _ok(False, "a Unit activated with a Division Activation Chit may not Assault (a Second Action may)",
                   lim.assault.rule)
    if kind == "fire":
        from play.gts.fire import _value
        from play.gts.params import gts_params

        field = gts_params(game).fire.line_field
        for uid in ids:
            colour = str(_value(game, game.unit(uid), field) or "").lower()
            if colour not in lim.fire_colours.value:
                return _ok(False, f"{uid} may not fire under a Division Activation Chit: its Fire Rating is not "
                                  f"{' or '.join(lim.fire_colours.value)} (Fire Rating colour "
                                  f"{colour or 'unknown'}; a Second Action may)", lim.fire_colours.rule)
    if str(action.get("do")) == "move" and not lim.fire_zone_move.value and action.get("to") is not None:
        from play.gts.opportunity import enemy_zones_at

        try:
            dest = game.hex_of(action.get("to"))
        except Exception:  # a box or an unreadable label: the move's own checks say so
            return None
        firers = enemy_zones_at(game, ids, dest)
        if firers:
            return _ok(False, f"a Unit activated with a Division Activation Chit may not move into an enemy Fire "
                              f"Zone ({game.label(dest)} is in the Fire Zone of {', '.join(firers)}; a Second "
                              f"Action may)", lim.fire_zone_move.rule, cfg.policies.fire_zone_destination)
    return None


def after(game: "PlayContext", action: dict[str, Any], result: "ActionResult", cfg: "ActivationParams") -> None:
    """Record a successful unit Action of the activation: its first Action, or the Second
    Action declared for it, paid now [10.0.2]."""
    kind = cfg.action_types.value.get(str(action.get("do")))
    act = current(game)
    if kind is None or act is None or not result.ok or act.kind in ("naval", "event"):
        return
    ids = [u for u in acting_units(action) if u in game.state.units]
    if not ids:
        return
    if act.second is not None and sorted(ids) == sorted(act.second.units):
        pts = gts_state(game).activation.points
        for div, n in act.second.cost.items():
            pts[div].command -= n
        for uid in ids:
            act.acted[uid].second = kind
        game.emit("second_action", units=ids, action=kind, spent=dict(act.second.cost), chit=act.chit,
                  rule=cfg.second_rule)
        act.second, act.last_stack = None, []
        return
    if act.second is not None:
        game.emit("second_action_lapsed", units=act.second.units, chit=act.chit, rule=cfg.second_rule)
        act.second = None
    for uid in ids:
        act.acted.setdefault(uid, UnitActions(first=kind))
    act.last_stack = ids


def second_action(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    """``{do: second_action, units}``: the stack that has just acted performs a Second Action
    next [10.0.2], for one Command Point per unit of its Division, if In Command."""
    from play.gts.command import is_in_command

    rule = cfg.second_rule
    act = current(game)
    if act is None:
        return _ok(False, "no chit is in play", rule)
    if act.kind == "direct":
        return _ok(False, "Only one activation per Unit — no Second Actions (Direct Command chit)",
                   cfg.direct_command_rule)
    if act.kind not in ("formation", "divact"):
        return _ok(False, f"a Second Action follows an Action under a Formation or Division Activation Chit, "
                          f"not {act.chit}", rule)
    ids = acting_units(action)
    if not ids:
        return _ok(False, "name the units (the stack that has just acted)", rule)
    late = [u for u in ids if u not in act.last_stack]
    if late:
        return _ok(False, f"{', '.join(late)} did not just complete an Action: the decision is made before the next "
                          f"Unit or stack performs an Action", rule)
    cost: dict[str, int] = {}
    policy = None
    for uid in ids:
        ok, why, pol = is_in_command(game, uid)
        if not ok:
            return _ok(False, f"{uid} is not In Command ({why})", rule)
        policy = policy or pol
        div = game.counters[uid].division if uid in game.counters else None
        if not div:
            return _ok(False, f"{uid} has no Division to pay its Command Point", rule)
        cost[div] = cost.get(div, 0) + 1
    pts = gts_state(game).activation.points
    for div, n in cost.items():
        have = pts[div].command if div in pts else 0
        if have < n:
            return _ok(False, f"{div} has {have} Command Points; a Second Action of {n} unit(s) costs {n}", rule)
    act.second = SecondAction(units=ids, cost=cost)
    game.emit("second_action_declared", units=ids, cost=cost, chit=act.chit, rule=rule, policy=policy or None)
    return _ok(True, f"{', '.join(ids)} may perform a Second Action ({sum(cost.values())} CP when done)", rule, policy)


def end_activation(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    """``{do: end_activation}``: the chit in play has finished; the next chit is drawn next."""
    act = current(game)
    if act is None:
        return _ok(False, "no chit is in play", cfg.formation_rule)
    gts_state(game).activation.current = None
    game.emit("activation_end", chit=act.chit, acted=sorted(act.acted), rule=cfg.formation_rule)
    return _ok(True, f"{act.chit} finished ({len(act.acted)} unit(s) acted)", cfg.formation_rule)


def pass_action(game: "PlayContext", action: dict[str, Any], cfg: "ActivationParams") -> "ActionResult":
    """``{do: pass, units}``: the Pass Action [13.2] ("Pass as its Action, then pay one Command
    Point to have it fire as a Second Action")."""
    ids = acting_units(action)
    if not ids:
        return _ok(False, "name the units that pass", cfg.one_action_rule)
    game.emit("pass", units=ids, rule=cfg.one_action_rule)
    return _ok(True, f"{', '.join(ids)} pass", cfg.one_action_rule)
