"""NSoP step 2: ships fire at shore targets [Excl 4.4.4–4.4.6]. Range = hexes from the target to
the ship's own Assault Force marker + its range box number [4.4.4(a)]; self-spot of a Wn/Stp in
LOS of a Beach hex of an overlay in play, or of a Coastal Battery [4.4.4(b)]; otherwise an In
Command spotter (not US airborne divisional [Err 4.4.4(c)]) with LOS and a contact roll ≤ 6,
every time [4.4.4(c)]. LCR: 0700 6 June, first Naval chit only, self-spot, no negative
modifiers, then removed [4.4.5]; LCS: self-spot, or ``track``/``by`` at the beach defences as a
Landing Craft [4.4.6, 4.2.6]. Ship fire (not LCR, not LCS) is normal Indirect Fire [4.4.4]: it
leaves a Barrage marker in the target hex (play/gts/barrage.py [GTS 16.6.2.1]). Random Event 4
fires through here too [Excl 6.0]."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from play.gts import barrage, beach, results
from play.gts.command import in_command
from play.gts import crt as crt_mod
from play.gts.fire import _num, _value
from play.gts.naval._common import _is_battery, _kind, _los, _ok
from play.gts.naval.display_data import box_number, force_of_box, marker_hex, overlays_in_play, ship_range
from play.gts.naval.sequence import _fired, _need_step, nsop

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BarrageParams, BeachParams, FireParams, NavalParams, ResultsParams
    from play.result import ActionResult
    from play.state import UnitState


@dataclass(frozen=True)
class SupportFire:
    """Random Event 4 [Excl 6.0]: a ship fires automatically in contact through an In Command
    unit of one of ``airborne`` (Divisions)."""

    rule: str | None
    airborne: tuple[str, ...]


def self_spots(game: "PlayContext", target: "UnitState", cfg: "NavalParams") -> str | None:
    """Why a ship self-spots ``target`` [Excl 4.4.4(b)], or None."""
    if _is_battery(game, target, cfg):
        return "Coastal Battery"
    c = game.counters.get(target.id)
    if c is None or c.category != cfg.strongpoint_category or target.hex is None:
        return None
    for ov in overlays_in_play(game):
        for h in sorted(beach.beach_hexes(game, ov), key=lambda x: (x.q, x.r)):
            if _los(game, h, target.hex):
                return f"Wn/Stp in LOS of Beach hex {game.label(h)}"
    return None


def _spotter_problem(game: "PlayContext", sp: "UnitState", target: "UnitState", cfg: "NavalParams",
                     airborne_only: list[str] | None = None) -> str | None:
    c = game.counters.get(sp.id)
    if sp.side != "allied" or not sp.on_map or sp.hex is None:
        return f"spotter {sp.id} is not an Allied unit on the map"
    div = getattr(c, "division", None)
    if airborne_only is not None:
        if div not in airborne_only:
            return f"spotter {sp.id} is not an Airborne unit"
    else:
        spec = cfg.no_spotter_divisions
        if div in spec.value and getattr(c, "nationality", None) == spec.nationality:
            return f"{sp.id} is an American airborne divisional unit: it never spots for ships (see Random Event 4)"
    commanded, why = in_command(game, sp)  # Out of Command Units cannot spot [GTS 21.7]
    if commanded is False:
        return f"spotter {sp.id} is Out of Command ({why})"
    if not _los(game, sp.hex, target.hex):  # type: ignore[arg-type]
        from play.gts.fire import blocked_sight

        why = blocked_sight(game, sp.hex, target.hex).reason  # type: ignore[arg-type]  # names the deciding case
        return f"spotter {sp.id} has no line of sight to {game.label(target.hex)}: {why}"
    return None


def ship_fire(game: "PlayContext", action: dict[str, Any], cfg: "NavalParams", fire_cfg: "FireParams",
              res_cfg: "ResultsParams", beach_cfg: "BeachParams", *, event: SupportFire | None = None,
              dry: bool = False) -> "ActionResult":
    """One ship, LCS or LCR fires (NSoP step 2, or Random Event 4 when ``event`` is given:
    automatically in contact through an In Command Airborne unit [Excl 6.0]). ``dry``: only
    check that it may (no roll, no change)."""
    rule = cfg.ship_fire_rule
    if event is None:
        refused = _need_step(game, cfg, 2, rule)
        if refused:
            return refused
    ship = game.unit(str(action.get("ship") or action.get("unit")))
    kind = _kind(game, ship.id, cfg)
    force = force_of_box(game, ship.box) if ship.where == "box" else None
    if kind is None or force is None:
        return _ok(False, f"{ship.id} is not a ship in an Assault Force range box of the Naval Display", rule)
    if event is None and _fired(game, ship.id):
        return _ok(False, f"{ship.id} has already fired (or lost contact) this Naval chit", rule, cfg.one_fire_policy)
    krule = {"lcr": cfg.lcr_rule, "lcs": cfg.lcs_rule}.get(kind, rule)
    if kind in ("lcr", "lcs") and event is not None:
        return _ok(False, "LCRs and LCSs fire only in NSoP step 2", krule)
    if kind == "lcr" and not nsop(game).first_play:
        return _ok(False, "LCRs fire only on the June 6, 0700 turn, at the first play of the Naval chit", krule)
    if kind == "lcs" and not overlays_in_play(game):
        return _ok(False, "LCSs fire only while their Beach Overlay is in play", krule)
    if action.get("track"):
        if kind != "lcs":
            return _ok(False, "only an LCS (or a just-landed Landing Craft) fires at the German Beach Defenses", krule)
        r = beach.beach_fire(game, {"overlay": action.get("overlay"), "track": action.get("track"),
                                    "by": action.get("by", 1), "unit": ship.id}, beach_cfg)
        if r.ok:
            nsop(game).fired.append(ship.id)
            game.emit("ship_fire", ship=ship.id, kind=kind, track=str(action.get("track")), rule=krule,
                      message="fires at the Beach Defenses as a Landing Craft")
        return r
    target = game.unit(str(action.get("target")))
    if target.side == ship.side or not target.on_map or target.hex is None:
        return _ok(False, f"{target.id} is not an enemy unit on the map", rule)
    # Range [4.4.4(a)]: target → own force's marker + box number; LCR/LCS print '*' [4.4.5-6].
    rng: int | None = None
    if kind == "ship":
        reach = _num(_value(game, ship, "fire_range"))
        rng = ship_range(game, force, str(ship.box), target.hex)
        if rng is None:
            return _ok(False, f"the range of {ship.id} is unknown: no {force} marker or no number on its box", cfg.range_rule)
        if reach is None:
            return _ok(False, f"{ship.id}'s range is unknown in the counter data", cfg.range_rule)
        if rng > reach:
            return _ok(False, f"{target.id} is at range {rng} ({target.hex.distance(marker_hex(game, force))} hexes to the "
                              f"{force} marker + {box_number(game, str(ship.box))}), beyond {ship.id}'s {int(reach)}",
                       cfg.range_rule)
    spot = self_spots(game, target, cfg)
    spotter: str | None = None
    policies: list[str] = []
    if spot is None or event is not None:  # Random Event 4: always through an Airborne unit's LOS [6.0]
        if kind != "ship":
            return _ok(False, f"{ship.id} must self-spot: {target.id} is neither a Coastal Battery nor a Wn/Stp in LOS of "
                              "a Beach hex of an overlay in play", krule)
        airborne = list(event.airborne) if event is not None else None
        sp = _find_spotter(game, action, target, cfg, airborne)
        if isinstance(sp, str):
            return _ok(False, sp, (event.rule if event is not None else None) or cfg.spotter_rule)
        spotter = sp.id
        if in_command(game, sp)[0] is None:  # Command Range unknown [GTS 21.4]: the marker policy stays
            policies.append(str(cfg.in_command_policy))
    table = crt_mod.crt_for(game)
    if table is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    fr = _num(_value(game, ship, "fr"))
    if fr is None:
        fr = _num(action.get("fire_rating"))
        if fr is None:
            return _ok(False, f"{ship.id}'s Fire Rating is unknown in the counter data; declare one with 'fire_rating'", rule)
        policies.append(str(fire_cfg.declared_policy))
    line = str(action.get("line") or _value(game, ship, cfg.ship_line_field) or "")
    if line not in table["lines"]:
        return _ok(False, f"Weapons Class line {line or 'unknown'!r}: give 'line' ({', '.join(table['lines'])})", rule)
    if dry:
        return _ok(True, f"{ship.id} may fire at {target.id}", krule)
    if spotter is not None:
        if event is None:
            need = int(cfg.contact_number.value or 6)
            die = game.dice.roll(1, 10)[0] % 10
            made = die <= need
            game.emit("ship_contact", ship=ship.id, spotter=spotter, die=die, need=need, contact=made,
                      rule=cfg.contact_number.rule)
            if not made:
                nsop(game).fired.append(ship.id)
                return _ok(True, f"{ship.id}: no contact (rolled {die}, needs {need} or less): done for this Naval chit",
                           cfg.contact_number.rule)
    mods = {str(k): int(str(v)) for k, v in (action.get("modifiers") or {}).items()}
    if kind == "lcr":
        dropped = {k: v for k, v in mods.items() if v < 0}
        mods = {k: v for k, v in mods.items() if v >= 0}  # no negative modifiers [4.4.5]
        if dropped:
            game.emit("modifiers_dropped", ship=ship.id, dropped=dropped, rule=krule)
    tc = game.counters.get(target.id)
    armored = bool(tc is not None and tc.category in fire_cfg.armored_categories)
    r = crt_mod.roll(game, table, line, armored, int(fr) + sum(mods.values()))
    if kind == "ship" and ship.steps >= 2:
        policies.append(str(cfg.company_bonus_policy))
    if kind == "ship":
        policies.append(str(cfg.indirect_target_policy))
    policy = "; ".join(dict.fromkeys(policies)) or None
    game.emit("ship_fire", ship=ship.id, kind=kind, force=force, target=target.id, hex=game.label(target.hex),
              range=rng, spotted=spot or f"spotter {spotter}", modifiers=mods or None,
              rule=(event.rule if event is not None else None) or krule, policy=policy, **r.event())
    thex = target.hex  # the target hex, even if the result eliminates the unit
    results.apply(game, [target.id], r.result, res_cfg, cause="naval fire")
    marker = None
    if kind in cfg.barrage_kinds.value:
        # Ships conduct normal Indirect Fire [4.4.4]: a Barrage marker after the attack [GTS 16.6.2.1].
        marker = barrage.place(game, thex, int(fr), r.die, _barrage_cfg(game), ship.id,
                               policy=cfg.barrage_fr_policy)
    if event is None:
        nsop(game).fired.append(ship.id)
    if kind == "lcr":
        ship.where, ship.box = "offmap", None
        game.emit("lcr_removed", ship=ship.id, rule=krule)
    return _ok(True, f"{ship.id} fires at {target.id}" + (f" (range {rng})" if rng is not None else "") + f": {r.text()}"
               + (f"; {marker} Barrage on {game.label(thex)}" if marker else ""),
               krule, policy, barrage=marker, **r.event())


def _barrage_cfg(game: "PlayContext") -> "BarrageParams":
    from play.gts.params import gts_params

    return gts_params(game).barrage


def _find_spotter(game: "PlayContext", action: dict[str, Any], target: "UnitState", cfg: "NavalParams",
                  airborne: list[str] | None) -> "UnitState | str":
    if action.get("spotter"):
        sp = game.unit(str(action["spotter"]))
        return _spotter_problem(game, sp, target, cfg, airborne) or sp
    for u in sorted(game.state.units.values(), key=lambda x: x.id):
        if u.side == "allied" and u.on_map and _spotter_problem(game, u, target, cfg, airborne) is None:
            return u
    kind = "an In Command Airborne unit" if airborne is not None else "an In Command spotter (not US airborne divisional)"
    return f"no spotter: {target.id} needs {kind} with a line of sight to {game.label(target.hex)}"
