"""NSoP step 5: Landing Craft markers [Excl 4.5.4(2), 4.5.6(1), 4.7.4]: one Independent unit or
all units of one battalion per craft, leaders with a battalion of their command; the loads are
what ``land_craft`` and ``battery_fire`` carry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.calendar import resolve_turn

from play.gts.naval.display_data import state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BeachParams, NavalParams


def craft_loads(game: "PlayContext") -> dict[str, list[str]]:
    """Which units each Landing Craft marker carries (``{lc id: [unit ids]}``), as loaded in step 5."""
    st = state(game)
    if st.craft is None:
        st.craft = {}
    return st.craft


def _free_craft(game: "PlayContext", lc_category: str) -> list[str]:
    """Landing Craft counters free for use (policy ``lc-free-when-off-map``): off the map (used or
    eliminated) and not waiting for a later scheduled arrival [Excl 4.1.7(c), 4.5.4(6)]."""
    turns = game.system.calendar.all_turns
    later = {uid for s in game.scenario.schedule if (resolve_turn(s.turn, turns) or 0) > game.state.turn
             for uid in s.units}
    free = []
    for cid, c in sorted(game.counters.items()):
        if c.category != lc_category:
            continue
        u = game.state.units.get(cid)
        # Used or eliminated craft are "removed from play and available for later use" [4.5.4(1), 4.5.4(3)].
        if (u is None or u.where in ("offmap", "eliminated")) and not (cid in later and (u is None or u.arrived is None)):
            free.append(cid)
    return free


def battalion_groups(game: "PlayContext", units: list[str], cfg: "NavalParams", beach_cfg: "BeachParams"
                     ) -> list[tuple[str, list[str], str | None]]:
    """The loads of step 5: (what, units, policy) — one Independent unit, or all units of one
    battalion [Excl 4.5.4(2)]; leaders with a battalion of their command; DD tanks swim and
    craft are not passengers."""
    lc_cat, dd_cat = beach_cfg.lc_category, beach_cfg.dd_category
    leader_cat = beach_cfg.leader_category
    spec = cfg.landing_craft
    flag = spec.independent_flag
    groups: dict[str, list[str]] = {}
    policies: dict[str, str | None] = {}
    leaders: list[str] = []
    for uid in sorted(units):
        c = game.counters.get(uid)
        cat = getattr(c, "category", None)
        if c is None or cat in (lc_cat, dd_cat, cfg.ship_category):
            continue
        if cat == leader_cat:
            leaders.append(uid)
        elif flag in c.flags:
            groups[f"independent {uid}"] = [uid]
            policies[f"independent {uid}"] = None
        elif c.battalion:
            groups.setdefault(f"battalion {c.battalion}", []).append(uid)
            policies.setdefault(f"battalion {c.battalion}", None)
        else:
            groups[f"unit {uid}"] = [uid]
            policies[f"unit {uid}"] = spec.no_battalion_policy
    for lid in leaders:
        lc = game.counters[lid]
        command = lc.leader_of or lc.formation
        key = next((k for k, us in groups.items() if k.startswith("battalion ")
                    and any(getattr(game.counters.get(x), "formation", None) == command for x in us)), None)
        if key is None:
            groups[f"leader {lid}"] = [lid]
            policies[f"leader {lid}"] = spec.leader_policy
        else:
            groups[key].append(lid)
            policies[key] = spec.leader_policy
    return [(k, v, policies[k]) for k, v in groups.items()]


def load_craft(game: "PlayContext", cfg: "NavalParams", beach_cfg: "BeachParams", box_id: str, moved: list[str]) -> None:
    """Put a Landing Craft marker on each stack newly placed in a Landing Wave box: one
    Independent unit or all units of one battalion per craft [Excl 4.5.4(2), 4.5.6(1)]; a reused
    marker is back at 2-step strength [Excl 4.1.7(c)]."""
    spec = cfg.landing_craft
    lc_cat = beach_cfg.lc_category
    free = _free_craft(game, lc_cat)
    loads = craft_loads(game)
    for what, units, policy in battalion_groups(game, moved, cfg, beach_cfg):
        if not free:
            game.emit("lc_short", box=box_id, units=units, load=what, rule=spec.reuse_rule,
                      policy=spec.short_policy)
            continue
        lc = game.unit(free.pop(0))
        lc.where, lc.box, lc.hex = "box", box_id, None
        lc.steps, lc.reduced, lc.markers = lc.max_steps, False, []
        loads[lc.id] = list(units)
        game.emit("lc_loaded", craft=lc.id, units=units, load=what, box=box_id, rule=spec.step5_rule,
                  policy=policy)


def unload(game: "PlayContext", lc_id: str) -> list[str] | None:
    """Forget (and return) a craft's recorded load once it has landed or been sunk."""
    return craft_loads(game).pop(lc_id, None)
