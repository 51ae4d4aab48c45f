"""GTS Direct Fire [15.5], Fire Zones [17.3] and LOS queries, for test play.

- ``{do: fire, unit, target, line?, armored?, fire_rating?, range?, modifiers?: {name: n}}``:
  one unit fires at one unit [15.5 1c]; the target must be within Fire Range and in LOS
  (model.los, with the turn's conditions: night from the calendar, storm from the scenario
  weather); the modified Fire Rating is the printed one plus the declared modifiers (the
  modifier tables are on the CRT player aid, not in the file); one d10 on the CRT; the result
  is applied [19.2]. Values the counter does not print (the sample prints none) may be
  declared in the action: policy ``declared-fire-value``.
- ``{do: fire_zone, unit, range?}``: the unit's Fire Zone = hexes in LOS within Fire Range
  [17.3]; range 1 when an enemy unit is adjacent [15.5 2d]. A query: the state is unchanged.
- ``{do: los, from, to}``: the LOS verdict with its explanation; the ``los`` event's ``rule`` is
  the case that decided it (``LosResult.decided_by``: range row, blocker, crest, spotter…), and
  the result's data carries ``reason`` and ``decided_by`` (the kind).
- ``attack`` with one attacker is fire at the first unit in the target hex; more attackers are
  refused (no combined fire [15.5 1c]).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.gts import crt as crt_mod
from play.gts import results
from play.result import result as _ok

if TYPE_CHECKING:
    from model.los import LosResult
    from play.context import PlayContext
    from play.gts.params import FireParams, ResultsParams
    from play.result import ActionResult
    from play.state import UnitState


def conditions(game: "PlayContext") -> dict[str, bool]:
    night = any(t.n == game.state.turn and t.night for t in game.system.calendar.all_turns)
    storm = "storm" in str(game.scenario.weather or "").lower()
    return {"night": night, "storm": storm}


def _num(v: Any) -> float | None:
    try:
        return float(str(v))
    except (TypeError, ValueError):
        return None


def _value(game: "PlayContext", u: "UnitState", field: str) -> Any:
    c = game.counters.get(u.id)
    if c is None:
        return None
    side = c.back if u.reduced and c.back is not None and field in c.back.values else c.front
    return side.values.get(field)


def fire_range(game: "PlayContext", u: "UnitState", cfg: "FireParams", declared: Any = None,
               barraged: bool = True) -> tuple[int | None, str | None]:
    """(range, policy) — range 1 next to an enemy [15.5 2d] or in a barraged hex [16.6.2.2, 17.3:
    "if a Unit has an enemy Unit adjacent to it, or is in a hex with a barrage marker, its Fire
    Range is reduced to one hex — so its Fire Zone is limited to the hexes adjacent to it"];
    None when unknown and not declared. ``barraged=False``: the caller applies the barrage cap
    itself (spotted Indirect Fire from a Park or Emplaced hex is exempt [16.6.2.2])."""
    rng, policy = _fire_range_unbarraged(game, u, cfg, declared)
    if barraged and rng is not None:
        from play.gts import barrage
        from play.gts.params import gts_params

        cap = barrage.fire_range_cap(game, u.hex, gts_params(game).barrage)
        if cap is not None:
            rng = min(rng, cap)
    return rng, policy


def _fire_range_unbarraged(game: "PlayContext", u: "UnitState", cfg: "FireParams",
                           declared: Any = None) -> tuple[int | None, str | None]:
    assert u.hex is not None
    if any(x.side != u.side and x.on_map and x.hex is not None and x.hex.distance(u.hex) == 1
           for x in game.state.units.values()):
        return cfg.adjacent_enemy_range.value, None
    raw = _value(game, u, cfg.range_field)
    if raw is None:
        return cfg.default_range.value, None
    n = _num(raw)
    if n is not None:
        return int(n), None
    d = _num(declared)
    return (int(d), str(cfg.declared_policy)) if d is not None else (None, None)


RECIPROCAL_POLICY = ("reciprocal-sight-barrage-only: a line visible only because the Hill sees back "
                     "[Excl 2.1.10] lets the enemy place a Barrage on the Hill by Indirect Fire, nothing else")


def sight(game: "PlayContext", a: Hex, b: Hex, *, purpose: str = "direct",
          barraged: bool = True) -> tuple[bool, str | None]:
    """(visible, reciprocal case). The case is set when ``b`` is seen only because a Hill in ``b``
    sees ``a`` [Utah Excl 2.1.10: "Visibility to the Hill is reciprocal. This means that a
    player whose Unit can be seen from a Hill, using the LOS exceptions above, can in turn see
    the Hill itself and place a Barrage on that Hill, using the Indirect Fire rules. However,
    the Barrage would be the same as firing on an empty hex, no damage will be caused to the
    Unit occupying the Hill."]: such a line serves a Barrage only — no Direct Fire, no Fire
    Zone, and an Indirect Fire mission on it does no damage."""
    from model.los import line_of_sight
    from play.gts import barrage

    if a == b:
        return True, None
    res = line_of_sight(game.hmap, game.system, a, b, purpose=purpose,
                        barrage=barrage.hexes(game) if barraged else (), **conditions(game))
    dec = res.decided_by
    if not res.visible or dec is None or dec.kind != "reciprocal":
        return res.visible, None
    return True, dec.rule


def blocked_sight(game: "PlayContext", a: Hex, b: Hex, *, purpose: str = "direct") -> "LosResult":
    """The full LOS answer behind a refused :func:`sight` (the same line, conditions and
    barrage): its ``reason`` and ``decided_by`` name the case that decided it."""
    from model.los import line_of_sight
    from play.gts import barrage

    return line_of_sight(game.hmap, game.system, a, b, purpose=purpose, barrage=barrage.hexes(game),
                         **conditions(game))


def fire_zone(game: "PlayContext", action: dict[str, Any], cfg: "FireParams") -> "ActionResult":
    from model.viewshed import viewshed

    u = game.unit(str(action.get("unit")))
    if not u.on_map or u.hex is None:
        return _ok(False, f"{u.id} is not on the map")
    rng, policy = fire_range(game, u, cfg, action.get("range"))
    if rng is None:
        return _ok(False, f"{u.id}'s Fire Range is unknown in the counter data; declare one with 'range'",
                   "GTS 17.3")
    cond = conditions(game)
    seen = viewshed(game.hmap, game.system, u.hex, rng, **cond)
    hexes = sorted((h for h in seen if h.distance(u.hex) <= rng), key=lambda h: (h.q, h.r))
    labels = [str(game.label(h)) for h in hexes]
    game.emit("fire_zone", unit=u.id, hex=game.label(u.hex), range=rng, hexes=len(labels),
              night=cond["night"] or None, storm=cond["storm"] or None, rule="GTS 17.3", policy=policy)
    return _ok(True, f"{u.id}: Fire Zone of {len(labels)} hexes (range {rng}{', night' if cond['night'] else ''})",
               "GTS 17.3", policy, hexes=labels, range=rng)


def los(game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
    from model.los import line_of_sight

    a, b = game.hex_of(action.get("from")), game.hex_of(action.get("to"))
    res = line_of_sight(game.hmap, game.system, a, b, **conditions(game))
    dec = res.decided_by
    rule = dec.rule if dec is not None else "GTS 15.4"
    # The event's rule is the deciding case; its keys stay those of logs saved before (a saved
    # game's log must load byte-identical: tests/play/gts/test_gts_state.py).
    game.emit("los", source=game.label(a), target=game.label(b), visible=res.visible, rule=rule,
              policy=dec.policy if dec is not None else None)
    return _ok(True, f"LOS {game.label(a)} → {game.label(b)}: {'clear' if res.visible else 'blocked'}", rule,
               visible=res.visible, explain=res.explain(), reason=res.reason,
               decided_by=dec.kind if dec is not None else None)


def fire(game: "PlayContext", action: dict[str, Any], cfg: "FireParams", res_cfg: "ResultsParams") -> "ActionResult":
    rule = cfg.rule
    table = crt_mod.crt_for(game)
    if table is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    u = game.unit(str(action.get("unit")))
    t = game.unit(str(action.get("target")))
    if not u.on_map or not t.on_map or u.hex is None or t.hex is None:
        return _ok(False, "firer and target must both be on the map", rule)
    if u.side == t.side:
        return _ok(False, "a unit fires at an enemy unit", rule)
    policies: list[str] = []
    rng, pol = fire_range(game, u, cfg, action.get("range"))
    if pol:
        policies.append(pol)
    if rng is None:
        return _ok(False, f"{u.id}'s Fire Range is unknown in the counter data; declare one with 'range'", rule)
    from play.gts import barrage
    from play.gts.params import gts_params

    bar_cfg = gts_params(game).barrage
    cap = barrage.fire_range_cap(game, u.hex, bar_cfg)  # a barraged firer's hex: range 1 [GTS 16.6.2.2]
    rng = rng if cap is None else min(rng, cap)
    dist = u.hex.distance(t.hex)
    if dist > rng:
        return _ok(False, f"{t.id} is {dist} hexes away, beyond Fire Range {rng}", rule)
    if dist > 1:
        seen, recip = sight(game, u.hex, t.hex)
        if not seen:
            why = blocked_sight(game, u.hex, t.hex)
            return _ok(False, f"no line of sight from {game.label(u.hex)} to {game.label(t.hex)}: {why.reason}",
                       why.decided_by.rule if why.decided_by is not None else "GTS 15.4",
                       why.decided_by.policy if why.decided_by is not None else None)
        if recip:
            return _ok(False, f"{game.label(t.hex)} is seen only because its Hill sees {game.label(u.hex)}: "
                              f"that reciprocal sight allows only a Barrage by Indirect Fire, not Direct Fire",
                       recip, RECIPROCAL_POLICY)
    fr = _num(_value(game, u, cfg.fr_field))
    if fr is None:
        fr = _num(action.get("fire_rating"))
        if fr is None:
            return _ok(False, f"{u.id}'s Fire Rating is unknown in the counter data; declare one with 'fire_rating'", rule)
        policies.append(str(cfg.declared_policy))
    mods = {str(k): int(str(v)) for k, v in (action.get("modifiers") or {}).items()}
    if barrage.fire_modifier(game, u.hex, bar_cfg):
        mods["barrage"] = barrage.fire_modifier(game, u.hex, bar_cfg)  # light -1, heavy -2 [GTS 16.6.2.2]
    line = str(action.get("line") or _value(game, u, cfg.line_field) or "")
    if line not in table["lines"]:
        return _ok(False, f"Weapons Class line {line or 'unknown'!r}: give 'line' ({', '.join(table['lines'])})", rule)
    tc = game.counters.get(t.id)
    armored = action.get("armored")
    armored = (str(armored).lower() in ("1", "true", "yes")) if armored is not None else \
        bool(tc is not None and tc.category in cfg.armored_categories)
    r = crt_mod.roll(game, table, line, armored, int(fr) + sum(mods.values()))
    policy = "; ".join(dict.fromkeys(policies)) or None
    game.emit("fire", unit=u.id, target=t.id, hex=game.label(t.hex), modifiers=mods or None, rule=rule,
              policy=policy, **r.event())
    if str(action.get("apply", "true")).lower() not in ("0", "false", "no"):
        results.apply(game, [t.id], r.result, res_cfg, cause="fire")
    return _ok(True, f"{u.id} fires at {t.id}: {r.text()}", r.rule or rule, policy, **r.event())


def attack_as_fire(game: "PlayContext", action: dict[str, Any], cfg: "FireParams", res_cfg: "ResultsParams") -> "ActionResult":
    if crt_mod.crt_for(game) is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    attackers = [str(a) for a in action.get("attackers", [])]
    if len(attackers) != 1:
        return _ok(False, "GTS fire: one unit fires at one unit; units may not combine fire", cfg.one_on_one_rule)
    h: Hex = game.hex_of(action.get("target"))
    targets = [x.id for x in game.state.at(h) if x.side != game.unit(attackers[0]).side]
    if not targets:
        return _ok(False, f"no enemy unit in {game.label(h)}", cfg.rule)
    return fire(game, {**action, "unit": attackers[0], "target": targets[0]}, cfg, res_cfg)
