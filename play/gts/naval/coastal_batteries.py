"""NSoP step 3: Coastal Batteries fire at ships and Landing Craft [Excl 4.4.7, 4.7.2]. A black-FR
Coastal Battery not under a Barrage marker nor adjacent to an enemy fires at an in-range ship
(range to its force marker + box) or a Landing Craft / DD tank in a Landing Wave box (range to
the UtS marker); Black line, ships Armored with only their defensive modifier; any effective
result (failed S?, S, C, 1, E) eliminates the ship, or the craft with its passengers; no
Barrage marker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts import barrage, results
from play.gts import crt as crt_mod
from play.gts.fire import _num, _value
from play.gts.naval._common import _is_battery, _kind, _ok
from play.gts.naval.display_data import box_number, force_of_box, landing_wave_range, marker_hex, ship_range
from play.gts.naval.landing_craft import craft_loads, unload
from play.gts.naval.sequence import _fired, _need_step, nsop

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BeachParams, FireParams, NavalParams, ResultsParams
    from play.result import ActionResult


def battery_fire(game: "PlayContext", action: dict[str, Any], cfg: "NavalParams", fire_cfg: "FireParams",
                 res_cfg: "ResultsParams", beach_cfg: "BeachParams") -> "ActionResult":
    rule = cfg.battery_rule
    refused = _need_step(game, cfg, 3, rule)
    if refused:
        return refused
    bty = game.unit(str(action.get("unit")))
    if not bty.on_map or bty.hex is None or not _is_battery(game, bty, cfg):
        return _ok(False, f"{bty.id} is not a Coastal Battery (black Fire Rating) on the map", rule)
    if cfg.battery_barrage_marker in bty.markers or barrage.at(game, bty.hex):
        return _ok(False, f"{bty.id} is under a Barrage marker", rule)
    if any(x.side != bty.side and x.on_map and x.hex is not None and x.hex.distance(bty.hex) == 1
           for x in game.state.units.values()):
        return _ok(False, f"{bty.id} is adjacent to an enemy unit", rule)
    if _fired(game, bty.id):
        return _ok(False, f"{bty.id} has already fired this Naval chit", rule, cfg.one_fire_policy)
    t = game.unit(str(action.get("target")))
    tbox = game.bundle.box(t.box or "") if t.where == "box" else None
    tc = game.counters.get(t.id)
    kind = _kind(game, t.id, cfg)
    craft = tc is not None and tc.category in (beach_cfg.lc_category, beach_cfg.dd_category)
    passengers: list[str] = []
    if kind is not None and force_of_box(game, t.box) is not None:
        force = str(force_of_box(game, t.box))
        rng = ship_range(game, force, str(t.box), bty.hex)
        what = f"{bty.hex.distance(marker_hex(game, force)) if marker_hex(game, force) else '?'} hexes to the {force} marker + box {box_number(game, str(t.box))}"
    elif craft and tbox is not None and tbox.kind == "landing_wave":
        rng = landing_wave_range(game, bty.hex)
        what = "hexes to the Landing Wave force's marker"
        if tc is not None and tc.category == beach_cfg.lc_category:
            loads = craft_loads(game)
            if action.get("passengers") is not None:
                passengers = [str(p) for p in action["passengers"]]
            elif t.id in loads:  # loaded in step 5 [4.5.4(2)]
                passengers = [p for p in loads[t.id] if game.unit(p).where == "box" and game.unit(p).box == tbox.id]
            else:
                lcs = [x.id for x in game.state.units.values() if x.where == "box" and x.box == tbox.id
                       and x.id not in loads
                       and getattr(game.counters.get(x.id), "category", None) == beach_cfg.lc_category]
                if len(lcs) > 1:
                    return _ok(False, "several Landing Craft wait in the box: say which units it carries ('passengers')",
                               cfg.battery_resolve_rule)
                aboard = {p for load in loads.values() for p in load}
                passengers = [x.id for x in game.state.units.values() if x.where == "box" and x.box == tbox.id
                              and x.id != t.id and x.id not in aboard and getattr(game.counters.get(x.id), "category", None)
                              not in (beach_cfg.lc_category, beach_cfg.dd_category)]
    elif craft:
        return _ok(False, f"Coastal Batteries never fire at Landing Craft on the Naval Display ({t.id} is not in a "
                          "Landing Wave box)", rule)
    else:
        return _ok(False, f"{t.id} is neither a ship on the Naval Display nor a Landing Craft in a Landing Wave box", rule)
    if rng is None:
        return _ok(False, f"the range to {t.id} is unknown (no Assault Force marker or box number in the data)", rule)
    reach = _num(_value(game, bty, "fire_range")) or _num(action.get("range"))
    if reach is None:
        return _ok(False, f"{bty.id}'s range is unknown in the counter data; declare one with 'range'", rule)
    if rng > reach:
        return _ok(False, f"{t.id} is at range {rng} ({what}), beyond {bty.id}'s {int(reach)}", cfg.battery_rule)
    table = crt_mod.crt_for(game)
    if table is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    fr = _num(_value(game, bty, "fr")) or _num(action.get("fire_rating"))
    if fr is None:
        return _ok(False, f"{bty.id}'s Fire Rating is unknown in the counter data; declare one with 'fire_rating'", rule)
    line = str(_value(game, bty, "fr_colour"))
    if line not in table["lines"]:
        return _ok(False, f"the CRT has no {line} line", cfg.battery_resolve_rule)
    # Ships: Armored, only their defensive modifier [4.4.7(b)]; craft: Armored [4.2.1], no modifier.
    dmod = int(_num(_value(game, t, "dr")) or 0) if kind is not None else 0
    armored = bool(cfg.ship_armored.value) if kind is not None else \
        bool(tc is not None and tc.category in fire_cfg.armored_categories)
    r = crt_mod.roll(game, table, line, armored, int(fr) + dmod)
    eff = cfg.effective_results
    policy = None
    effective = r.result in eff.value
    if r.result == eff.failed_check:
        check = str(action.get("s_check", "")).lower()
        effective = check == "failed"
        policy = str(cfg.sq_policy)
    nsop(game).fired.append(bty.id)
    game.emit("battery_fire", unit=bty.id, target=t.id, range=rng, defensive_modifier=dmod or None,
              effective=effective, barrage=False, rule=cfg.battery_resolve_rule, policy=policy, **r.event())
    if effective:
        if kind is not None or (tc is not None and tc.category == beach_cfg.dd_category):
            # A ship [4.4.7(b)] or a DD tank (a unit, not a recycled craft marker) [4.7.2].
            t.where, t.box, t.hex = "eliminated", None, None
            game.emit("eliminated", unit=t.id, cause="coastal battery", rule=cfg.battery_rule)
        else:
            t.where, t.box = "offmap", None
            unload(game, t.id)
            game.emit("lc_removed", unit=t.id, rule=cfg.battery_rule, message="recycled")
            results.apply(game, passengers, "E", res_cfg, cause="landing craft sunk by a coastal battery")
    return _ok(True, f"{bty.id} fires at {t.id} (range {rng}): {r.text()}"
               + (" — effective: eliminated" if effective else " — no effect"), cfg.battery_resolve_rule,
               policy, effective=effective, **r.event())
