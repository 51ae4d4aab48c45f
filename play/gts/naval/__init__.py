"""Utah Beach naval forces [Excl 4.4] and the Naval Sequence of Play (NSoP) [Excl 4.6, 4.7].

Data: the scenario's ``params.naval_display`` (which range boxes belong to which Assault Force,
the Landing Wave force, the En Route and Loading boxes) and ``params.af_markers`` (start hexes
of the Assault Force markers); each range box's number is the ``number`` of its game.yaml box;
ships are counters of category ``ship`` set up in those boxes (the sample's are ILLUSTRATIVE);
parameters: ``gts-utah: naval:`` in play/data/procedures.yaml (each with its case).

The NSoP starts when the Naval chit is drawn (on the 0700 6 June turn it is always the first
chit [4.1.8]) and stops at every step that needs the Allied or German player's choice; the
playtester acts, then steps on with ``{do: naval_next}`` or ``{do: naval_step, step: N}``:

1. Gaps [4.2.4(e)]: ``beach.on_chit`` (automatic).
2. ``{do: ship_fire, ship, target, spotter?, fire_rating?, modifiers?}`` — range = hexes from the
   target to the ship's own Assault Force marker + its range box number [4.4.4(a)]; self-spot of a
   Wn/Stp in LOS of a Beach hex of an overlay in play, or of a Coastal Battery [4.4.4(b)];
   otherwise an In Command spotter (not US airborne divisional [Err 4.4.4(c)]) with LOS and a
   contact roll ≤ 6, every time [4.4.4(c)]. LCR: 0700 6 June, first Naval chit only, self-spot,
   no negative modifiers, then removed [4.4.5]; LCS: self-spot, or ``track``/``by`` at the beach
   defences as a Landing Craft [4.4.6, 4.2.6].
3. ``{do: battery_fire, unit, target, passengers?, s_check?}`` — a black-FR Coastal Battery not
   under a Barrage marker nor adjacent to an enemy fires at an in-range ship (range to its force
   marker + box) or a Landing Craft / DD tank in a Landing Wave box (range to the UtS marker)
   [4.4.7, 4.7.2]; Black line, ships Armored with only their defensive modifier; any effective
   result (failed S?, S, C, 1, E) eliminates the ship, or the craft with its passengers; no
   Barrage marker.
4. Landing: ``land_craft`` in the order the playtester likes; leaving the step lands the rest
   (mandatory [Err 4.5.1]) with ``beach.mandatory_landings``.
5. Loading box → Landing Wave box, then a Landing Craft marker on each new stack: one
   Independent unit or all units of one battalion per craft, leaders with a battalion of their
   command [4.5.4(2), 4.5.6(1)] (``load_craft``; the loads are what ``land_craft`` and
   ``battery_fire`` carry); 6. En Route box → Loading box [4.7.4] (automatic).
7. ``{do: move_assault_force, force, hex}`` [4.4.3]; 8. ``{do: move_ship, ship, box}`` [4.4.2, 4.6(8)].
9. On the first play at 0700 6 June the chit goes back in the mug, else it is set aside [4.6, 4.1.8].

Ship fire (not LCR, not LCS) is normal Indirect Fire [4.4.4]: it leaves a Barrage marker in the
target hex (play/gts/barrage.py [GTS 16.6.2.1]), removed at Cleanup; a battery in a barraged hex
does not fire in step 3 [4.4.7]. Step G of every daylight turn after 0700 6 June puts the Naval
chit in the mug (``step_g`` [4.1.8]), also after the beach is cleared (policy
``naval-chit-after-overlay``); a night turn never has it.

Once the overlay is gone (cleared) steps 1, 4, 5 and 6 are skipped [4.6]. Step numbers follow
the list in 4.6 (policy ``nsop-step-order-as-printed-in-4.6``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from model.calendar import resolve_turn
from model.hexes import Hex

from play.gts import barrage, beach, results
from play.gts import crt as crt_mod
from play.gts.fire import _num, _value, conditions

if TYPE_CHECKING:
    from play.game import ActionResult, Game
    from play.state import UnitState

LAST_STEP = 9


def _ok(ok: bool, msg: str, rule: str | None = None, policy: str | None = None, **data: Any) -> "ActionResult":
    from play.game import ActionResult

    return ActionResult(ok, msg, rule, policy, data=data)


def _v(x: Any) -> Any:
    return x.get("value") if isinstance(x, dict) and "value" in x else x


# --- the Naval Display as data ------------------------------------------------------------------


def display(game: "Game") -> dict[str, Any]:
    d = game.scenario.params.get("naval_display")
    return d if isinstance(d, dict) else {}


def forces(game: "Game") -> dict[str, list[str]]:
    f = display(game).get("forces") or {}
    return {str(k): [str(b) for b in v] for k, v in f.items()} if isinstance(f, dict) else {}


def force_of_box(game: "Game", box_id: str | None) -> str | None:
    return next((f for f, boxes in forces(game).items() if box_id in boxes), None)


def box_number(game: "Game", box_id: str) -> int | None:
    b = game.bundle.box(box_id)
    return b.number if b is not None else None


def state(game: "Game") -> dict[str, Any]:
    st = game.state.extra.setdefault("gts", {}).setdefault("naval", {})
    if "markers" not in st:
        af = game.scenario.params.get("af_markers") or {}
        st["markers"] = {str(f): str(spec.get("hex")) for f, spec in af.items()
                         if isinstance(spec, dict) and spec.get("hex") is not None}
        st["nsop"] = {"active": False, "step": 0, "turn": None, "fired": [], "first_play": False}
        st["plays"] = {}
    return st


def marker_hex(game: "Game", force: str) -> Hex | None:
    label = state(game)["markers"].get(force)
    return game.hex_of(label) if label else None


def ship_range(game: "Game", force: str, box_id: str, target: Hex) -> int | None:
    """Hexes from ``target`` to ``force``'s marker + the range box number [Excl 4.4.4(a), 4.4.7(a)];
    None when the marker or the box number is not in the data."""
    m, n = marker_hex(game, force), box_number(game, box_id)
    return None if m is None or n is None else target.distance(m) + n


def landing_wave_range(game: "Game", source: Hex) -> int | None:
    """Range from ``source`` to any craft in a Landing Wave box: hexes to the Landing Wave
    force's marker (Utah South) [Excl 4.4.7(a), 4.7.2]."""
    m = marker_hex(game, str(_v(display(game).get("landing_wave_force")) or "UtS"))
    return None if m is None else source.distance(m)


def has_center_dot(game: "Game", h: Hex) -> bool:
    """Playable in the sense of [Excl 4.4.3, 2.1.14] (the same test as GTS-NAV-001)."""
    tid = game.hmap.terrain_at(h)
    if tid is None:
        return False
    t = game.system.terrain_by_id.get(tid)
    if t is None:
        return True
    if {"impassable", "no_center_dot"} & set(t.tags):
        return False
    return not (t.move and all(v == "prohibited" for v in t.move.values()))


def overlays_in_play(game: "Game") -> list[Any]:
    return [ov for ov in beach.overlays(game) if not beach.state(game, ov)["cleared"]]


def _kind(game: "Game", uid: str, cfg: dict[str, Any]) -> str | None:
    c = game.counters.get(uid)
    if c is None or c.category != cfg.get("ship_category", "ship"):
        return None
    flags = set(c.flags)
    return "lcr" if cfg.get("lcr_flag", "lcr") in flags else "lcs" if cfg.get("lcs_flag", "lcs") in flags else "ship"


def _is_battery(game: "Game", u: "UnitState", cfg: dict[str, Any]) -> bool:
    return str(_value(game, u, "fr_colour")) == str(_v(cfg.get("battery_fr_colour")) or "black")


def _los(game: "Game", a: Hex, b: Hex) -> bool:
    """LOS with the turn's conditions; a barraged hex blocks it like Blocking Terrain [GTS 16.6.2.2]."""
    from model.los import line_of_sight

    return a == b or line_of_sight(game.hmap, game.system, a, b, barrage=barrage.hexes(game),
                                   **conditions(game)).visible


def _first_turn(game: "Game", cfg: dict[str, Any]) -> int | None:
    ref = _v(cfg.get("first_chit_turn"))
    return resolve_turn(ref, game.system.calendar.all_turns) if ref else None


# --- the NSoP ------------------------------------------------------------------------------------


def nsop(game: "Game") -> dict[str, Any]:
    return state(game)["nsop"]


def at_step(game: "Game", step: int) -> bool:
    n = nsop(game)
    return bool(n["active"]) and n["step"] == step


def first_chit(game: "Game", cfg: dict[str, Any]) -> "ActionResult | None":
    """On the 0700 6 June turn the Naval chit is always the first chit in play [Excl 4.1.8]."""
    chits = game.state.extra.get("chits") or {}
    chit = str(cfg.get("naval_chit", "chit-naval"))
    if game.state.turn != _first_turn(game, cfg) or chits.get("drawn") or chit not in chits.get("mug", []) \
            or state(game)["plays"].get(str(game.state.turn)):
        return None
    chits["mug"].remove(chit)
    chits["drawn"].append(chit)
    rule = (cfg.get("first_chit_turn") or {}).get("rule")
    game.emit("chit", chit=chit, left=len(chits["mug"]), rule=rule, first=True)
    return _ok(True, f"drew {chit} (always the first chit at {game.turn_label()})", rule, chit=chit)


def start(game: "Game", cfg: dict[str, Any], hooks: "Hooks") -> None:
    """The Naval chit came into play: run the NSoP up to its first step that needs a choice."""
    st = state(game)
    key = str(game.state.turn)
    plays = int(st["plays"].get(key, 0))
    st["plays"][key] = plays + 1
    st["nsop"] = {"active": True, "step": 0, "turn": game.state.turn, "fired": [],
                  "first_play": plays == 0 and game.state.turn == _first_turn(game, cfg)}
    game.emit("nsop_start", first_play=st["nsop"]["first_play"] or None, rule=cfg.get("rule"),
              policy=cfg.get("step_policy"))
    _advance(game, cfg, hooks, stop_at_choice=True)


def _step_spec(cfg: dict[str, Any], n: int) -> dict[str, Any]:
    steps = cfg.get("steps") or {}
    return steps.get(n) or steps.get(str(n)) or {}


def _advance(game: "Game", cfg: dict[str, Any], hooks: "Hooks", stop_at_choice: bool, until: int | None = None) -> None:
    """Leave the current step and enter the next ones (running the automatic ones) until a
    choice step (``stop_at_choice``), step ``until``, or the end of the NSoP."""
    n = nsop(game)
    while n["active"]:
        _leave(game, cfg, hooks, n["step"])
        n["step"] += 1
        spec = _step_spec(cfg, n["step"])
        skipped = bool(spec.get("overlay_only")) and not overlays_in_play(game)
        game.emit("nsop_step", step=n["step"], name=spec.get("name"), rule=spec.get("rule"),
                  skipped=skipped or None, policy=cfg.get("overlay_removed_policy") if skipped else None)
        if not skipped:
            _enter(game, cfg, hooks, n["step"])
        if not n["active"]:
            return
        if until is not None and n["step"] >= until:
            return
        if stop_at_choice and not skipped and spec.get("kind") in ("choice", "landing"):
            return


def _enter(game: "Game", cfg: dict[str, Any], hooks: "Hooks", step: int) -> None:
    if step == 1:
        beach.on_chit(game, str(hooks.beach.get("naval_chit")), hooks.beach)
    elif step == 5:
        moved, dest = _transfer(game, cfg, str(display(game).get("loading_box") or ""), None,
                                _step_spec(cfg, 5).get("rule"))
        if dest is not None and moved:
            load_craft(game, cfg, hooks.beach, dest, moved)
    elif step == 6:
        loading = str(display(game).get("loading_box") or "")
        _transfer(game, cfg, str(display(game).get("en_route_box") or ""), loading, _step_spec(cfg, 6).get("rule"))
    elif step == LAST_STEP:
        _finish(game, cfg)


def _leave(game: "Game", cfg: dict[str, Any], hooks: "Hooks", step: int) -> None:
    if step == 4 and overlays_in_play(game):
        hooks.land_rest()  # landing is mandatory [Err 4.5.1]


def _transfer(game: "Game", cfg: dict[str, Any], src: str, dest: str | None,
              rule: str | None) -> tuple[list[str], str | None]:
    """Steps 5 and 6 [Excl 4.7.4]: every unit in ``src`` goes to ``dest`` (step 5: the first
    Landing Wave box the Loading box connects to — policy ``loading-to-first-connected-box``)."""
    box = game.bundle.box(src) if src else None
    if box is None:
        return [], None
    policy = None
    if dest is None:
        dest = next((b for b in box.connects if (game.bundle.box(b) or box).kind == "landing_wave"), None)
        policy = cfg.get("loading_policy")
    if dest is None:
        return [], None
    moved = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == src)
    for uid in moved:
        game.unit(uid).box = dest
    if moved:
        game.emit("naval_transfer", units=moved, box=src, to=dest, rule=rule, policy=policy)
    return moved, dest


# --- step 5: Landing Craft markers [Excl 4.5.4(2), 4.5.6(1), 4.7.4] ---------------------------------


def craft_loads(game: "Game") -> dict[str, list[str]]:
    """Which units each Landing Craft marker carries (``{lc id: [unit ids]}``), as loaded in step 5."""
    return state(game).setdefault("craft", {})


def _free_craft(game: "Game", lc_category: str) -> list[str]:
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


def battalion_groups(game: "Game", units: list[str], cfg: dict[str, Any], beach_cfg: dict[str, Any]
                     ) -> list[tuple[str, list[str], str | None]]:
    """The loads of step 5: (what, units, policy) — one Independent unit, or all units of one
    battalion [Excl 4.5.4(2)]; leaders with a battalion of their command; DD tanks swim and
    craft are not passengers."""
    lc_cat, dd_cat = beach_cfg.get("lc_category", "landing_craft"), beach_cfg.get("dd_category", "dd_tank")
    leader_cat = beach_cfg.get("leader_category", "leader")
    spec = cfg.get("landing_craft") or {}
    flag = str(spec.get("independent_flag", "independent"))
    groups: dict[str, list[str]] = {}
    policies: dict[str, str | None] = {}
    leaders: list[str] = []
    for uid in sorted(units):
        c = game.counters.get(uid)
        cat = getattr(c, "category", None)
        if c is None or cat in (lc_cat, dd_cat, cfg.get("ship_category", "ship")):
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
            policies[f"unit {uid}"] = spec.get("no_battalion_policy")
    for lid in leaders:
        lc = game.counters[lid]
        command = lc.leader_of or lc.formation
        key = next((k for k, us in groups.items() if k.startswith("battalion ")
                    and any(getattr(game.counters.get(x), "formation", None) == command for x in us)), None)
        if key is None:
            groups[f"leader {lid}"] = [lid]
            policies[f"leader {lid}"] = spec.get("leader_policy")
        else:
            groups[key].append(lid)
            policies[key] = spec.get("leader_policy")
    return [(k, v, policies[k]) for k, v in groups.items()]


def load_craft(game: "Game", cfg: dict[str, Any], beach_cfg: dict[str, Any], box_id: str, moved: list[str]) -> None:
    """Put a Landing Craft marker on each stack newly placed in a Landing Wave box: one
    Independent unit or all units of one battalion per craft [Excl 4.5.4(2), 4.5.6(1)]; a reused
    marker is back at 2-step strength [Excl 4.1.7(c)]."""
    spec = cfg.get("landing_craft") or {}
    lc_cat = str(beach_cfg.get("lc_category", "landing_craft"))
    free = _free_craft(game, lc_cat)
    loads = craft_loads(game)
    for what, units, policy in battalion_groups(game, moved, cfg, beach_cfg):
        if not free:
            game.emit("lc_short", box=box_id, units=units, load=what, rule=spec.get("reuse_rule"),
                      policy=spec.get("short_policy"))
            continue
        lc = game.unit(free.pop(0))
        lc.where, lc.box, lc.hex = "box", box_id, None
        lc.steps, lc.reduced, lc.markers = lc.max_steps, False, []
        loads[lc.id] = list(units)
        game.emit("lc_loaded", craft=lc.id, units=units, load=what, box=box_id, rule=spec.get("step5_rule"),
                  policy=policy)


def unload(game: "Game", lc_id: str) -> list[str] | None:
    """Forget (and return) a craft's recorded load once it has landed or been sunk."""
    return craft_loads(game).pop(lc_id, None)


# --- Step G: the Naval chit goes in the mug every daylight turn [Excl 4.1.8] -----------------------


def step_g(game: "Game", cfg: dict[str, Any]) -> None:
    """After the June 6, 0700 turn the Naval chit goes into the mug at Step G of every turn
    except night turns [Excl 4.1.8], overlay or not (policy ``naval-chit-after-overlay``)."""
    spec = cfg.get("every_daylight_turn") or {}
    first = _first_turn(game, cfg)
    if not _v(spec) or first is None or game.state.turn <= first:
        return  # the 0700 6 June turn: the scenario's mug and the first-chit rule [4.1.8]
    chit = str(cfg.get("naval_chit", "chit-naval"))
    chits = game.state.extra.setdefault("chits", {"mug": [], "carry": None, "drawn": []})
    night = any(t.n == game.state.turn and t.night for t in game.system.calendar.all_turns)
    if night:
        if chit in chits["mug"]:  # listed by the scenario's mug data: not on a night turn
            chits["mug"].remove(chit)
            game.emit("mug_remove", chits=[chit], rule=spec.get("rule"), message="night turn: no Naval chit")
        return
    if chit not in chits["mug"] and chit not in chits["drawn"]:
        chits["mug"] = sorted(chits["mug"] + [chit])
        game.emit("mug_add", chits=[chit], rule=spec.get("rule"),
                  policy=None if overlays_in_play(game) else cfg.get("after_overlay_policy"))


def _finish(game: "Game", cfg: dict[str, Any]) -> None:
    n = nsop(game)
    chit = str(cfg.get("naval_chit", "chit-naval"))
    chits = game.state.extra.setdefault("chits", {"mug": [], "carry": None, "drawn": []})
    if n.get("first_play"):
        chits["mug"] = sorted(chits["mug"] + [chit])
        if chit in chits["drawn"]:
            chits["drawn"].remove(chit)
        game.emit("chit_returned", chit=chit, rule=cfg.get("return_rule"),
                  message="first play at 0700 6 June: back in the mug")
    else:
        game.emit("chit_set_aside", chit=chit, rule=_step_spec(cfg, LAST_STEP).get("rule"))
    n["active"] = False
    game.emit("nsop_end", rule=cfg.get("rule"))


def close(game: "Game", cfg: dict[str, Any], hooks: "Hooks") -> None:
    """Finish an open NSoP (another chit is drawn or the phase ends): the remaining automatic
    steps run, the choice steps are skipped (policy ``nsop-closed-by-next-action``)."""
    if nsop(game)["active"]:
        game.emit("nsop_closed", step=nsop(game)["step"], rule=cfg.get("rule"), policy=cfg.get("close_policy"))
        _advance(game, cfg, hooks, stop_at_choice=False)


def naval_next(game: "Game", action: dict[str, Any], cfg: dict[str, Any], hooks: "Hooks") -> "ActionResult":
    n = nsop(game)
    if not n["active"]:
        return _ok(False, "no Naval Sequence of Play is running: it starts when the Naval chit is drawn", cfg.get("rule"))
    _advance(game, cfg, hooks, stop_at_choice=False, until=n["step"] + 1)
    return _status(game, cfg)


def naval_step(game: "Game", action: dict[str, Any], cfg: dict[str, Any], hooks: "Hooks") -> "ActionResult":
    n = nsop(game)
    if not n["active"]:
        return _ok(False, "no Naval Sequence of Play is running: it starts when the Naval chit is drawn", cfg.get("rule"))
    try:
        target = int(str(action.get("step")))
    except ValueError:
        return _ok(False, "step: a number 1-9", cfg.get("rule"))
    if not 1 <= target <= LAST_STEP:
        return _ok(False, "step: a number 1-9", cfg.get("rule"))
    if target <= n["step"]:
        return _ok(False, f"the NSoP is at step {n['step']}: its steps run in order, never back", cfg.get("rule"),
                   cfg.get("step_policy"))
    _advance(game, cfg, hooks, stop_at_choice=False, until=target)
    return _status(game, cfg)


def _status(game: "Game", cfg: dict[str, Any]) -> "ActionResult":
    n = nsop(game)
    if not n["active"]:
        return _ok(True, "the Naval Sequence of Play is over", cfg.get("rule"), step=LAST_STEP)
    spec = _step_spec(cfg, n["step"])
    return _ok(True, f"NSoP step {n['step']}: {spec.get('name')}", spec.get("rule"), cfg.get("step_policy"),
               step=n["step"])


def _need_step(game: "Game", cfg: dict[str, Any], step: int, rule: str | None) -> "ActionResult | None":
    if at_step(game, step):
        return None
    n = nsop(game)
    where = f"the NSoP is at step {n['step']}" if n["active"] else "no NSoP is running (draw the Naval chit)"
    name = _step_spec(cfg, step).get("name")
    return _ok(False, f"only during NSoP step {step} ({name}); {where}", rule, cfg.get("step_policy"))


# --- step 2: ships fire at shore targets -------------------------------------------------------


def _fired(game: "Game", uid: str) -> bool:
    return uid in nsop(game)["fired"]


def self_spots(game: "Game", target: "UnitState", cfg: dict[str, Any]) -> str | None:
    """Why a ship self-spots ``target`` [Excl 4.4.4(b)], or None."""
    if _is_battery(game, target, cfg):
        return "Coastal Battery"
    c = game.counters.get(target.id)
    if c is None or c.category != cfg.get("strongpoint_category", "strongpoint_unit") or target.hex is None:
        return None
    for ov in overlays_in_play(game):
        for h in sorted(beach.beach_hexes(game, ov, {}), key=lambda x: (x.q, x.r)):
            if _los(game, h, target.hex):
                return f"Wn/Stp in LOS of Beach hex {game.label(h)}"
    return None


def _spotter_problem(game: "Game", sp: "UnitState", target: "UnitState", cfg: dict[str, Any],
                     airborne_only: list[str] | None = None) -> str | None:
    c = game.counters.get(sp.id)
    if sp.side != "allied" or not sp.on_map or sp.hex is None:
        return f"spotter {sp.id} is not an Allied unit on the map"
    if str(cfg.get("out_of_command_marker", "out_of_command")) in sp.markers:
        return f"spotter {sp.id} is Out of Command"
    div = getattr(c, "division", None)
    if airborne_only is not None:
        if div not in airborne_only:
            return f"spotter {sp.id} is not an Airborne unit"
    else:
        spec = cfg.get("no_spotter_divisions") or {}
        if div in (_v(spec) or []) and getattr(c, "nationality", None) == spec.get("nationality", "us"):
            return f"{sp.id} is an American airborne divisional unit: it never spots for ships (see Random Event 4)"
    if not _los(game, sp.hex, target.hex):  # type: ignore[arg-type]
        return f"spotter {sp.id} has no line of sight to {game.label(target.hex)}"
    return None


def ship_fire(game: "Game", action: dict[str, Any], cfg: dict[str, Any], fire_cfg: dict[str, Any],
              res_cfg: dict[str, Any], beach_cfg: dict[str, Any], *, event: dict[str, Any] | None = None,
              dry: bool = False) -> "ActionResult":
    """One ship, LCS or LCR fires (NSoP step 2, or Random Event 4 when ``event`` is given:
    automatically in contact through an In Command Airborne unit [Excl 6.0]). ``dry``: only
    check that it may (no roll, no change)."""
    rule = cfg.get("ship_fire_rule")
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
        return _ok(False, f"{ship.id} has already fired (or lost contact) this Naval chit", rule, cfg.get("one_fire_policy"))
    krule = {"lcr": cfg.get("lcr_rule"), "lcs": cfg.get("lcs_rule")}.get(kind, rule)
    if kind in ("lcr", "lcs") and event is not None:
        return _ok(False, "LCRs and LCSs fire only in NSoP step 2", krule)
    if kind == "lcr" and not nsop(game).get("first_play"):
        return _ok(False, "LCRs fire only on the June 6, 0700 turn, at the first play of the Naval chit", krule)
    if kind == "lcs" and not overlays_in_play(game):
        return _ok(False, "LCSs fire only while their Beach Overlay is in play", krule)
    if action.get("track"):
        if kind != "lcs":
            return _ok(False, "only an LCS (or a just-landed Landing Craft) fires at the German Beach Defenses", krule)
        r = beach.beach_fire(game, {"overlay": action.get("overlay"), "track": action.get("track"),
                                    "by": action.get("by", 1), "unit": ship.id}, beach_cfg)
        if r.ok:
            nsop(game)["fired"].append(ship.id)
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
            return _ok(False, f"the range of {ship.id} is unknown: no {force} marker or no number on its box", cfg.get("range_rule"))
        if reach is None:
            return _ok(False, f"{ship.id}'s range is unknown in the counter data", cfg.get("range_rule"))
        if rng > reach:
            return _ok(False, f"{target.id} is at range {rng} ({target.hex.distance(marker_hex(game, force))} hexes to the "
                              f"{force} marker + {box_number(game, str(ship.box))}), beyond {ship.id}'s {int(reach)}",
                       cfg.get("range_rule"))
    spot = self_spots(game, target, cfg)
    spotter: str | None = None
    policies: list[str] = []
    if spot is None or event is not None:  # Random Event 4: always through an Airborne unit's LOS [6.0]
        if kind != "ship":
            return _ok(False, f"{ship.id} must self-spot: {target.id} is neither a Coastal Battery nor a Wn/Stp in LOS of "
                              "a Beach hex of an overlay in play", krule)
        airborne = [str(d) for d in (_v((event or {}).get("airborne")) or [])] if event is not None else None
        sp = _find_spotter(game, action, target, cfg, airborne)
        if isinstance(sp, str):
            return _ok(False, sp, (event or {}).get("rule") or cfg.get("spotter_rule"))
        spotter = sp.id
        policies.append(str(cfg.get("in_command_policy")))
    table = crt_mod.crt_for(game)
    if table is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    fr = _num(_value(game, ship, "fr"))
    if fr is None:
        fr = _num(action.get("fire_rating"))
        if fr is None:
            return _ok(False, f"{ship.id}'s Fire Rating is unknown in the counter data; declare one with 'fire_rating'", rule)
        policies.append(str(fire_cfg.get("declared_policy")))
    line = str(action.get("line") or _value(game, ship, str(cfg.get("ship_line_field", "fr_colour"))) or "")
    if line not in table["lines"]:
        return _ok(False, f"Weapons Class line {line or 'unknown'!r}: give 'line' ({', '.join(table['lines'])})", rule)
    if dry:
        return _ok(True, f"{ship.id} may fire at {target.id}", krule)
    if spotter is not None:
        if event is None:
            need = int(_v(cfg.get("contact_number")) or 6)
            die = game.dice.roll(1, 10)[0] % 10
            made = die <= need
            game.emit("ship_contact", ship=ship.id, spotter=spotter, die=die, need=need, contact=made,
                      rule=cfg.get("contact_number", {}).get("rule"))
            if not made:
                nsop(game)["fired"].append(ship.id)
                return _ok(True, f"{ship.id}: no contact (rolled {die}, needs {need} or less): done for this Naval chit",
                           cfg.get("contact_number", {}).get("rule"))
    mods = {str(k): int(str(v)) for k, v in (action.get("modifiers") or {}).items()}
    if kind == "lcr":
        dropped = {k: v for k, v in mods.items() if v < 0}
        mods = {k: v for k, v in mods.items() if v >= 0}  # no negative modifiers [4.4.5]
        if dropped:
            game.emit("modifiers_dropped", ship=ship.id, dropped=dropped, rule=krule)
    tc = game.counters.get(target.id)
    armored = bool(tc is not None and tc.category in fire_cfg.get("armored_categories", []))
    r = crt_mod.roll(game, table, line, armored, int(fr) + sum(mods.values()))
    if kind == "ship" and ship.steps >= 2:
        policies.append(str(cfg.get("company_bonus_policy")))
    if kind == "ship":
        policies.append(str(cfg.get("indirect_target_policy")))
    policy = "; ".join(dict.fromkeys(policies)) or None
    game.emit("ship_fire", ship=ship.id, kind=kind, force=force, target=target.id, hex=game.label(target.hex),
              range=rng, spotted=spot or f"spotter {spotter}", modifiers=mods or None,
              rule=(event or {}).get("rule") or krule, policy=policy, **r.event())
    thex = target.hex  # the target hex, even if the result eliminates the unit
    results.apply(game, [target.id], r.result, res_cfg, cause="naval fire")
    marker = None
    if kind in (_v(cfg.get("barrage_kinds")) or []):
        # Ships conduct normal Indirect Fire [4.4.4]: a Barrage marker after the attack [GTS 16.6.2.1].
        marker = barrage.place(game, thex, int(fr), r.die, _barrage_cfg(game), ship.id,
                               policy=cfg.get("barrage_fr_policy"))
    if event is None:
        nsop(game)["fired"].append(ship.id)
    if kind == "lcr":
        ship.where, ship.box = "offmap", None
        game.emit("lcr_removed", ship=ship.id, rule=krule)
    return _ok(True, f"{ship.id} fires at {target.id}" + (f" (range {rng})" if rng is not None else "") + f": {r.text()}"
               + (f"; {marker} Barrage on {game.label(thex)}" if marker else ""),
               krule, policy, barrage=marker, **r.event())


def _barrage_cfg(game: "Game") -> dict[str, Any]:
    from play.procedures import _param

    return _param(game, "barrage") or {}


def _find_spotter(game: "Game", action: dict[str, Any], target: "UnitState", cfg: dict[str, Any],
                  airborne: list[str] | None) -> "UnitState | str":
    if action.get("spotter"):
        sp = game.unit(str(action["spotter"]))
        return _spotter_problem(game, sp, target, cfg, airborne) or sp
    for u in sorted(game.state.units.values(), key=lambda x: x.id):
        if u.side == "allied" and u.on_map and _spotter_problem(game, u, target, cfg, airborne) is None:
            return u
    kind = "an In Command Airborne unit" if airborne is not None else "an In Command spotter (not US airborne divisional)"
    return f"no spotter: {target.id} needs {kind} with a line of sight to {game.label(target.hex)}"


# --- step 3: Coastal Batteries fire at ships and Landing Craft --------------------------------------


def battery_fire(game: "Game", action: dict[str, Any], cfg: dict[str, Any], fire_cfg: dict[str, Any],
                 res_cfg: dict[str, Any], beach_cfg: dict[str, Any]) -> "ActionResult":
    rule = cfg.get("battery_rule")
    refused = _need_step(game, cfg, 3, rule)
    if refused:
        return refused
    bty = game.unit(str(action.get("unit")))
    if not bty.on_map or bty.hex is None or not _is_battery(game, bty, cfg):
        return _ok(False, f"{bty.id} is not a Coastal Battery (black Fire Rating) on the map", rule)
    if str(cfg.get("battery_barrage_marker", "barrage")) in bty.markers or barrage.at(game, bty.hex):
        return _ok(False, f"{bty.id} is under a Barrage marker", rule)
    if any(x.side != bty.side and x.on_map and x.hex is not None and x.hex.distance(bty.hex) == 1
           for x in game.state.units.values()):
        return _ok(False, f"{bty.id} is adjacent to an enemy unit", rule)
    if _fired(game, bty.id):
        return _ok(False, f"{bty.id} has already fired this Naval chit", rule, cfg.get("one_fire_policy"))
    t = game.unit(str(action.get("target")))
    tbox = game.bundle.box(t.box or "") if t.where == "box" else None
    tc = game.counters.get(t.id)
    kind = _kind(game, t.id, cfg)
    craft = tc is not None and tc.category in (beach_cfg.get("lc_category"), beach_cfg.get("dd_category"))
    passengers: list[str] = []
    if kind is not None and force_of_box(game, t.box) is not None:
        force = str(force_of_box(game, t.box))
        rng = ship_range(game, force, str(t.box), bty.hex)
        what = f"{bty.hex.distance(marker_hex(game, force)) if marker_hex(game, force) else '?'} hexes to the {force} marker + box {box_number(game, str(t.box))}"
    elif craft and tbox is not None and tbox.kind == "landing_wave":
        rng = landing_wave_range(game, bty.hex)
        what = "hexes to the Landing Wave force's marker"
        if tc is not None and tc.category == beach_cfg.get("lc_category"):
            loads = craft_loads(game)
            if action.get("passengers") is not None:
                passengers = [str(p) for p in action["passengers"]]
            elif t.id in loads:  # loaded in step 5 [4.5.4(2)]
                passengers = [p for p in loads[t.id] if game.unit(p).where == "box" and game.unit(p).box == tbox.id]
            else:
                lcs = [x.id for x in game.state.units.values() if x.where == "box" and x.box == tbox.id
                       and x.id not in loads
                       and getattr(game.counters.get(x.id), "category", None) == beach_cfg.get("lc_category")]
                if len(lcs) > 1:
                    return _ok(False, "several Landing Craft wait in the box: say which units it carries ('passengers')",
                               cfg.get("battery_resolve_rule"))
                aboard = {p for load in loads.values() for p in load}
                passengers = [x.id for x in game.state.units.values() if x.where == "box" and x.box == tbox.id
                              and x.id != t.id and x.id not in aboard and getattr(game.counters.get(x.id), "category", None)
                              not in (beach_cfg.get("lc_category"), beach_cfg.get("dd_category"))]
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
        return _ok(False, f"{t.id} is at range {rng} ({what}), beyond {bty.id}'s {int(reach)}", cfg.get("battery_rule"))
    table = crt_mod.crt_for(game)
    if table is None:
        return _ok(False, "combat not available: the rules provided have no CRT (GTS)", policy="no-crt-no-combat")
    fr = _num(_value(game, bty, "fr")) or _num(action.get("fire_rating"))
    if fr is None:
        return _ok(False, f"{bty.id}'s Fire Rating is unknown in the counter data; declare one with 'fire_rating'", rule)
    line = str(_value(game, bty, "fr_colour"))
    if line not in table["lines"]:
        return _ok(False, f"the CRT has no {line} line", cfg.get("battery_resolve_rule"))
    # Ships: Armored, only their defensive modifier [4.4.7(b)]; craft: Armored [4.2.1], no modifier.
    dmod = int(_num(_value(game, t, "dr")) or 0) if kind is not None else 0
    armored = bool(_v(cfg.get("ship_armored"))) if kind is not None else \
        bool(tc is not None and tc.category in fire_cfg.get("armored_categories", []))
    r = crt_mod.roll(game, table, line, armored, int(fr) + dmod)
    eff = cfg.get("effective_results") or {}
    policy = None
    effective = r.result in [str(x) for x in (_v(eff) or [])]
    if r.result == str(eff.get("failed_check", "S?")):
        check = str(action.get("s_check", "")).lower()
        effective = check == "failed"
        policy = str(cfg.get("sq_policy"))
    nsop(game)["fired"].append(bty.id)
    game.emit("battery_fire", unit=bty.id, target=t.id, range=rng, defensive_modifier=dmod or None,
              effective=effective, barrage=False, rule=cfg.get("battery_resolve_rule"), policy=policy, **r.event())
    if effective:
        if kind is not None or (tc is not None and tc.category == beach_cfg.get("dd_category")):
            # A ship [4.4.7(b)] or a DD tank (a unit, not a recycled craft marker) [4.7.2].
            t.where, t.box, t.hex = "eliminated", None, None
            game.emit("eliminated", unit=t.id, cause="coastal battery", rule=cfg.get("battery_rule"))
        else:
            t.where, t.box = "offmap", None
            unload(game, t.id)
            game.emit("lc_removed", unit=t.id, rule=cfg.get("battery_rule"), message="recycled")
            results.apply(game, passengers, "E", res_cfg, cause="landing craft sunk by a coastal battery")
    return _ok(True, f"{bty.id} fires at {t.id} (range {rng}): {r.text()}"
               + (" — effective: eliminated" if effective else " — no effect"), cfg.get("battery_resolve_rule"),
               policy, effective=effective, **r.event())


# --- steps 7 and 8: Assault Force markers and ships ------------------------------------------------


def af_problem(game: "Game", force: str, h: Hex, cfg: dict[str, Any]) -> str | None:
    """Why ``force``'s marker may not go on ``h`` [Excl 4.4.3], or None."""
    for ov in overlays_in_play(game):
        if h in beach.beach_hexes(game, ov, {}):
            return None  # policy af-beach-hex-any-sector
    sector = next((a for a in game.hmap.areas if a.kind == "af_sector" and a.id.lower().endswith(force.lower())), None)
    if sector is None:
        return f"no Assault Force sector for {force} in the map data"
    if not game.hmap.contains(h):
        return f"{game.label(h)} is not on the map"
    if has_center_dot(game, h):
        return f"{game.label(h)} is not an Impassable hex (nor a Beach hex of an overlay in play)"
    if h not in set(sector.hexes):
        return f"{game.label(h)} is outside the {force} sector ({sector.name})"
    if not any(game.hmap.contains(n) and has_center_dot(game, n) for n in h.neighbors()):
        return f"{game.label(h)} is not adjacent to a coastal hex with a centre dot"
    return None


def move_assault_force(game: "Game", action: dict[str, Any], cfg: dict[str, Any]) -> "ActionResult":
    rule = cfg.get("af_rule")
    refused = _need_step(game, cfg, 7, rule)
    if refused:
        return refused
    force = str(action.get("force"))
    if force not in state(game)["markers"]:
        return _ok(False, f"no Assault Force marker {force!r} in the scenario", rule)
    h = game.hex_of(action.get("hex") or action.get("to"))
    why = af_problem(game, force, h, cfg)
    if why:
        return _ok(False, f"{force} marker may not go to {game.label(h)}: {why}", rule)
    old = state(game)["markers"][force]
    state(game)["markers"][force] = str(game.label(h))
    on_beach = any(h in beach.beach_hexes(game, ov, {}) for ov in overlays_in_play(game))
    game.emit("af_marker", force=force, hex=game.label(h), was=old, rule=rule,
              policy=cfg.get("af_beach_policy") if on_beach else None)
    return _ok(True, f"{force} marker {old} → {game.label(h)}", rule)


def move_ship(game: "Game", action: dict[str, Any], cfg: dict[str, Any]) -> "ActionResult":
    rule = cfg.get("move_ship_rule")
    refused = _need_step(game, cfg, 8, rule)
    if refused:
        return refused
    ship = game.unit(str(action.get("ship") or action.get("unit")))
    kind = _kind(game, ship.id, cfg)
    here = force_of_box(game, ship.box) if ship.where == "box" else None
    dest = str(action.get("box") or action.get("to") or "").removeprefix("box:")
    there = force_of_box(game, dest)
    if kind is None or here is None:
        return _ok(False, f"{ship.id} is not a ship on the Naval Display", rule)
    if there is None:
        return _ok(False, f"{dest!r} is not a range box of an Assault Force", rule)
    if kind == "lcs":
        return _ok(False, "LCSs live in the Close Range box", cfg.get("lcs_rule"))
    letter = str(_value(game, ship, "ma") or "")
    if letter == "*":
        only = cfg.get("utah_only") or {}
        if _v(only) and there != here:
            return _ok(False, f"{ship.id} (*) stays with {here}: asterisk ships change Assault Group only when The "
                              "Greatest Day games are combined", only.get("rule"))
    elif letter != there:
        return _ok(False, f"{ship.id} ({letter or 'no letter'}) must stay with its Assault Force", rule)
    old = ship.box
    ship.box = dest
    game.emit("ship_moved", ship=ship.id, box=old, to=dest, force=there, rule=rule)
    return _ok(True, f"{ship.id}: {old} → {dest}", rule)


class Hooks:
    """What the NSoP needs from the rest of the GTS procedure: the beach config and the
    mandatory landing of step 4 (both live in beach.py)."""

    def __init__(self, beach_cfg: dict[str, Any], land_rest: Callable[[], None]) -> None:
        self.beach = beach_cfg
        self.land_rest = land_rest
