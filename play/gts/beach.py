"""Utah Beach Overlay: defence tracks, the landing subroutine, gaps and clearing the beach
[Utah Excl 4.2–4.5, Err 4.5.1].

State (``GtsState.beach[overlay]``, play/gts/state.py): the four tracks (start levels from the
scenario's ``beach_overlays[].tracks``; a level that is not a number is ``None`` and every step
that needs it says it cannot run), the open gap hexsides, "all gaps open", "cleared".

- ``{do: land_craft, unit, to, passengers?, nests?: lc|passenger|none, nest_target?}``: a
  Landing Craft (or a DD tank) in a Landing Wave box lands on an eligible hex of its
  Sub-Beach [4.5.2]: Beach Obstacles attack the LC (White line, Armored, FR = track, no
  modifiers) [4.2.1]; a 9 drifts it by the Sub-Beach's drift for the overlay version (off the
  eligible hexes: back to the box, again at the next Naval chit) [4.2.1]; the Resistance Nests
  fire at the LC (Pink line) or, after unloading, at one passenger [4.2.2(1)]; an LC's result
  is copied to every passenger, an eliminated LC takes them with it [4.5.4(3)]; the LC is then
  removed [4.5.4(6)]. A DD tank rolls against the Sea State instead (Blue line, Armored, no
  modifiers; 9 = drift) and may not land in Column [4.2.5, 4.5.5]. Mass and Defense Rating
  modifiers of the nest attacks are not applied (not in the file; policy
  ``nest-modifiers-not-applied``). Opportunity Fire is left to ``fire``.
- Landing is mandatory [Err 4.5.1]: when the Activation Phase [GTS 4.0 H] ends, every craft still in
  a Landing Wave box (and not drifted back this turn) is landed by the engine on the first
  eligible hex (policy ``mandatory-landing-auto``: without a Naval Display there is no NSoP step 4).
  With a Naval Display in the scenario the NSoP (play/gts/naval/sequence.py) runs step 4 on the Naval
  chit: ``land_craft`` then works in any phase and leaving the step lands the rest.
- ``{do: beach_fire, overlay, track, by, unit?}``: the Firing at Beach Defenses table is on the
  Naval & Air Display, not in the file: the playtester declares the reduction (logged,
  policy ``beach-fire-table-not-in-file``) [4.2.6]. Gaps reaching 2, 1, 0 call for a Gap Open
  marker (``{do: open_gap, overlay, hexside}``) [4.2.4(b–c)]; the first Naval chit drawn with
  Gaps at 0 opens every gap [4.2.4(e)].
- Movement: with Gaps above 2 no Allied unit moves from a Beach hex to a non-Beach hex; below,
  only units in Column through an open gap hexside [4.2.4(a, d)]; 4th Infantry Division units
  may not leave the overlay before the beach is cleared [4.3.1]; no Allied unit enters a
  Beach hex of a cleared beach [4.3.3].
- Cleared [4.3.2]: checked after every action: Nests, Obstacles and Gaps at 0, no German unit
  within 3 hexes of an overlay reinforcement hex, no Allied unit on a Beach hex.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from model.base import hexside_between, hexside_key
from model.hexes import DIRECTION_NAMES, Hex
from model.scenario import BeachOverlay, SubBeach

from play.gts import crt as crt_mod
from play.gts import results
from play.gts.state import BeachOverlayState, gts_state
from play.result import result as _ok

if TYPE_CHECKING:
    from model.bundle import Box
    from play.context import PlayContext
    from play.gts.params import BeachLine, BeachParams, ResultsParams
    from play.result import ActionResult
    from play.state import UnitState

TRACKS = ("obstacles", "nests", "gaps", "sea_state")
MANDATORY_POLICY = ("mandatory-landing-auto: without the NSoP (no Naval Display), the engine lands every craft still "
                    "in a Landing Wave box when the phase in which the Allies move (the Activation Phase) ends, on "
                    "the first eligible hex")
LAND_PHASE_POLICY = ("landing-in-allied-phases: NSoP step 4 runs on the Naval chit; without it landings happen in "
                     "the Reinforcements step [GTS 4.0 C] or the Activation Phase [4.0 H]")
NEST_MOD_POLICY = "nest-modifiers-not-applied: mass and Defense Rating modifiers are on the CRT aid and counters, not in the file"
BEACH_FIRE_POLICY = "beach-fire-table-not-in-file: the Firing at Beach Defenses results are declared by the playtester"


def _level(v: Any) -> int | None:
    try:
        return int(str(v))
    except (TypeError, ValueError):
        return None


def state(game: "PlayContext", ov: BeachOverlay) -> BeachOverlayState:
    all_st = gts_state(game).beach
    if ov.id not in all_st:  # the start levels, read when the overlay is first met
        all_st[ov.id] = BeachOverlayState(tracks={t: _level(ov.tracks.get(t)) for t in TRACKS})
    return all_st[ov.id]


def overlays(game: "PlayContext") -> list[BeachOverlay]:
    return list(game.scenario.beach_overlays)


def overlay(game: "PlayContext", oid: Any) -> BeachOverlay | None:
    return next((o for o in overlays(game) if o.id == str(oid)), None) if oid else (overlays(game) or [None])[0]


def landing_hexes(ov: BeachOverlay, sb: SubBeach) -> list[Hex]:
    v = (ov.version or "actual").lower()
    return list(sb.landing.actual if v == "actual" else sb.landing.planned) or list(sb.hexes)


def sub_beach_of_box(game: "PlayContext", box: "Box") -> tuple[BeachOverlay, SubBeach] | None:
    entries = set(game.box_entry_hexes(box.id))
    for ov in overlays(game):
        for sb in ov.sub_beaches:
            if sb.id in box.id or entries & set(landing_hexes(ov, sb)):
                return ov, sb
    return None


def beach_hexes(game: "PlayContext", ov: BeachOverlay, cfg: "BeachParams | None" = None) -> set[Hex]:
    """The overlay's Beach hexes (terrain ``beach_terrain``; without the parameters: ``beach``)."""
    kinds = set(cfg.beach_terrain) if cfg is not None else {"beach"}
    return {h for h in ov.hexes if (game.hmap.terrain_at(h) or "") in kinds}


def _drift(game: "PlayContext", ov: BeachOverlay, sb: SubBeach, h: Hex, cfg: "BeachParams") -> Hex | None:
    """The drifted hex, or None when the craft leaves the eligible landing hexes [4.2.1]."""
    text = str(sb.drift.get((ov.version or "actual").lower(), "none"))
    m = re.match(r"\s*(\d+)\s*(left|right)", text, re.I)
    if not m:
        return h  # "none": no shift
    names = DIRECTION_NAMES[game.hmap.grid.orientation]
    d = names.index(cfg.left_direction)
    if m.group(2).lower() == "right":
        d = (d + 3) % 6
    for _ in range(int(m.group(1))):
        h = h.neighbor(d)
    return h if h in landing_hexes(ov, sb) else None


def _attack(game: "PlayContext", spec: "BeachLine", fr: int, armored: bool) -> crt_mod.FireRoll | None:
    table = crt_mod.crt_for(game)
    if table is None or spec.line is None or spec.line not in table.get("lines", {}):
        return None
    return crt_mod.roll(game, table, spec.line, armored, fr)


def land_craft(game: "PlayContext", action: dict[str, Any], cfg: "BeachParams", res_cfg: "ResultsParams",
               column_marker: str, in_nsop: bool = False) -> "ActionResult":
    u = game.unit(str(action.get("unit")))
    c = game.counters.get(u.id)
    box = game.bundle.box(u.box or "") if u.where == "box" else None
    rule = cfg.landing_rule
    if box is None or box.kind != "landing_wave":
        return _ok(False, f"{u.id} is not in a Landing Wave box", rule)
    found = sub_beach_of_box(game, box)
    if found is None:
        return _ok(False, f"{box.name} matches no Sub-Beach of the scenario's beach overlays", rule)
    ov, sb = found
    st = state(game, ov)
    ph = game.phase
    # In NSoP step 4 (play/gts/naval/sequence.py) landing happens whatever the phase [Excl 4.7.3].
    if not in_nsop and ((ph.kind != "reinforcement" and not ph.permits("move"))
                        or (ph.side is not None and ph.side != u.side)):
        return _ok(False, "landings happen in the Reinforcements step or a phase in which the Allies move",
                   rule, LAND_PHASE_POLICY)
    if st.cleared:
        return _ok(False, f"{ov.name} is cleared: no Allied unit may enter its Beach hexes", cfg.cleared_no_entry_rule)
    if st.drifted.get(u.id) == game.state.turn:
        return _ok(False, f"{u.id} drifted back this turn: it lands again at the next Naval chit", cfg.obstacles.rule)
    dest = game.hex_of(action.get("to"))
    eligible = landing_hexes(ov, sb)
    if dest not in eligible:
        return _ok(False, f"{game.label(dest)} is not an eligible landing hex of {sb.name} "
                          f"({', '.join(str(game.label(h)) for h in eligible)})", "Excl 4.5.2")
    is_dd = c is not None and c.category == cfg.dd_category
    is_lc = c is not None and c.category == cfg.lc_category
    if not (is_dd or is_lc):
        return _ok(False, f"{u.id} is neither a Landing Craft nor a DD tank: it lands aboard a Landing Craft", rule)
    if crt_mod.crt_for(game) is None:
        return _ok(False, "cannot run the landing: the defence attacks need a CRT and the rules provided have none",
                   rule, "no-crt-no-combat")
    track = "sea_state" if is_dd else "obstacles"
    level = st.tracks[track]
    if level is None:
        return _ok(False, f"cannot run this step: the {track.replace('_', ' ')} start level of {ov.name} is unknown "
                          f"in the scenario data", cfg.track(track).rule)
    passengers: list[str] = []
    if is_lc:
        # Loads recorded when NSoP step 5 put the craft markers on [Excl 4.5.4(2)] (play/gts/naval/landing_craft.py).
        recorded = gts_state(game).naval.craft
        loads = recorded if recorded is not None else {}
        if action.get("passengers"):
            passengers = [str(p) for p in action["passengers"]]
        elif u.id in loads:
            passengers = [p for p in loads[u.id] if game.unit(p).where == "box" and game.unit(p).box == box.id]
        else:
            lcs = [x.id for x in game.state.units.values() if x.where == "box" and x.box == box.id and x.id not in loads
                   and getattr(game.counters.get(x.id), "category", None) == cfg.lc_category]
            if len(lcs) > 1:
                return _ok(False, "several Landing Craft wait in the box: say which units it carries ('passengers')", rule)
            aboard = {p for load in loads.values() for p in load}
            passengers = [x.id for x in game.state.units.values() if x.where == "box" and x.box == box.id and
                          x.id != u.id and x.id not in aboard and getattr(game.counters.get(x.id), "category", None)
                          not in (cfg.lc_category, cfg.dd_category)]
        bad = [p for p in passengers if game.unit(p).where != "box" or game.unit(p).box != box.id]
        if bad:
            return _ok(False, f"{', '.join(bad)} not in {box.name}", rule)
        loads.pop(u.id, None)  # the craft lands: its load is spent (a drift back keeps them together below)
    elif action.get("leader"):
        passengers = [str(action["leader"])]  # a leader stacked with the DD tank goes along [4.5.5(2)]
    ov_illus = bool(ov.illustrative) or None
    group = [u.id] + passengers
    u.where, u.hex, u.box = "hex", dest, None
    if column_marker in u.markers and is_dd:
        u.markers.remove(column_marker)  # a DD tank may not land in Column [4.5.5(2)]
    game.emit("landing", unit=u.id, passengers=passengers or None, hex=game.label(dest), sub_beach=sb.id,
              rule=cfg.dd_rule if is_dd else rule, illustrative_tracks=ov_illus)
    # Obstacles (LC) or Sea State (DD) [4.2.1, 4.2.5]
    spec = cfg.track(track)
    if level > 0:
        r = _attack(game, spec, level, True)
        if r is None:
            return _ok(False, f"the CRT has no {spec.line} line", spec.rule)
        game.emit("beach_defence", track=track, target=u.id, rule=spec.rule, **r.event())
        results.apply(game, [u.id] + (passengers if is_lc else []), r.result, res_cfg, cause=track)
        if r.die == cfg.drift_on_roll.value:
            to = _drift(game, ov, sb, dest, cfg)
            if to is None:
                for uid in group:
                    x = game.unit(uid)
                    if x.where != "eliminated":
                        x.where, x.hex, x.box = "box", None, box.id
                        st.drifted[uid] = game.state.turn
                craft = gts_state(game).naval.craft
                if is_lc and craft is not None and u.where == "box":
                    craft[u.id] = [p for p in passengers if game.unit(p).where == "box"]  # still aboard
                game.emit("drift", unit=u.id, hex=game.label(dest), back_to=box.id, rule=cfg.left_rule)
                return _ok(True, f"{u.id} drifted off the landing hexes: back to {box.name}, again at the next "
                                 f"Naval chit ({r.text()})", cfg.left_rule, **r.event())
            if to != dest:
                game.emit("drift", unit=u.id, hex=game.label(dest), to=game.label(to), rule=cfg.left_rule)
                dest = to
                if u.where == "hex":
                    u.hex = dest
        if u.where == "eliminated":
            for p in passengers:
                results.apply(game, [p], "E", res_cfg, cause="landing craft eliminated")
            return _ok(True, f"{u.id} eliminated on landing with its passengers ({r.text()})", rule, **r.event())
    nests = st.tracks["nests"]
    choice = str(action.get("nests", "lc" if is_lc else "none"))
    nspec = cfg.nests
    if is_lc and choice == "lc" and nests:
        r = _attack(game, nspec, nests, True)
        if r is not None:
            game.emit("beach_defence", track="nests", target=u.id, rule=nspec.rule, policy=NEST_MOD_POLICY, **r.event())
            results.apply(game, group, r.result, res_cfg, cause="nests")
            if u.where == "eliminated":
                for p in passengers:
                    results.apply(game, [p], "E", res_cfg, cause="landing craft eliminated")
                return _ok(True, f"{u.id} eliminated by the Resistance Nests with its passengers", nspec.rule)
    for p in passengers:
        x = game.unit(p)
        if x.where == "box" and x.box == box.id:
            x.where, x.hex, x.box = "hex", dest, None
            if x.arrived is None:
                x.arrived = game.state.turn
    if is_lc and choice == "passenger" and nests and passengers:
        target = str(action.get("nest_target") or passengers[0])
        r = _attack(game, nspec, nests, False)
        if r is not None:
            game.emit("beach_defence", track="nests", target=target, rule=nspec.rule, policy=NEST_MOD_POLICY, **r.event())
            results.apply(game, [target], r.result, res_cfg, cause="nests")
    if is_lc and u.where == "hex":
        u.where, u.hex = "offmap", None
        game.emit("lc_removed", unit=u.id, rule="Excl 4.5.4(6)")
    return _ok(True, f"{u.id} landed at {game.label(dest)}" + (f" with {', '.join(passengers)}" if passengers else "")
               + (f" ({crt_mod.ILLUSTRATIVE})" if (crt_mod.crt_for(game) or {}).get("illustrative") else ""), rule)


def beach_fire(game: "PlayContext", action: dict[str, Any], cfg: "BeachParams") -> "ActionResult":
    ov = overlay(game, action.get("overlay"))
    rule = cfg.beach_fire_rule
    if ov is None:
        return _ok(False, "the scenario has no beach overlay", rule)
    track = str(action.get("track"))
    st = state(game, ov)
    if track not in ("obstacles", "nests", "gaps"):
        return _ok(False, "only Obstacles, Nests and Gaps can be reduced (the Sea State cannot) [4.2]", rule)
    old = st.tracks[track]
    if old is None:
        return _ok(False, f"cannot run this step: the {track} level of {ov.name} is unknown", rule)
    by = int(str(action.get("by", 1)))
    st.tracks[track] = new = max(0, old - by)  # results after 0 are lost [4.2.6(2)]
    game.emit("beach_track", overlay=ov.id, track=track, old=old, new=new, unit=action.get("unit"), rule=rule,
              policy=BEACH_FIRE_POLICY)
    if track == "gaps":
        for level in range(old - 1, new - 1, -1):
            if level <= 2:
                who = "german" if level == 2 else "allied"
                st.pending_gap.append(who)
                game.emit("gap_due", overlay=ov.id, level=level, chooser=who, rule=cfg.gap_open_rule)
    return _ok(True, f"{ov.name} {track} {old} → {new}", rule, BEACH_FIRE_POLICY)


def _parse_side(game: "PlayContext", text: str) -> Any:
    hex_text, _, d = str(text).partition("/")
    names = DIRECTION_NAMES[game.hmap.grid.orientation]
    return hexside_key(game.hex_of(hex_text), names.index(d))


def open_gap(game: "PlayContext", action: dict[str, Any], cfg: "BeachParams") -> "ActionResult":
    ov = overlay(game, action.get("overlay"))
    rule = cfg.gap_open_rule
    if ov is None:
        return _ok(False, "the scenario has no beach overlay", rule)
    st = state(game, ov)
    if not st.pending_gap:
        return _ok(False, "no Gap Open marker is due (the Gaps number must drop to 2, 1 or 0)", rule)
    try:
        key = _parse_side(game, str(action.get("hexside")))
    except (ValueError, IndexError):
        return _ok(False, f"cannot read hexside {action.get('hexside')!r} (write HEX/DIR)", rule)
    if key not in set(ov.gap_hexsides):
        return _ok(False, f"{action.get('hexside')} is not a Gap hexside of {ov.name}", rule)
    label = str(action.get("hexside"))
    if label in st.open_gaps:
        return _ok(False, "that gap is already open", rule)
    who = st.pending_gap.pop(0)
    st.open_gaps.append(label)
    game.emit("gap_open", overlay=ov.id, hexside=label, chooser=who, rule=rule)
    return _ok(True, f"gap {label} open (placed by the {who} player)", rule)


def on_chit(game: "PlayContext", chit: str, cfg: "BeachParams") -> None:
    if chit != cfg.naval_chit:
        return
    for ov in overlays(game):
        st = state(game, ov)
        if st.tracks["gaps"] == 0 and not st.all_gaps_open:
            st.all_gaps_open = True
            game.emit("all_gaps_open", overlay=ov.id, rule=cfg.all_gaps_open_rule)


def check_cleared(game: "PlayContext", cfg: "BeachParams") -> None:
    radius = cfg.clear_german_radius.value
    for ov in overlays(game):
        st = state(game, ov)
        if st.cleared or any(st.tracks[t] != 0 for t in ("nests", "obstacles", "gaps")):
            continue
        beach = beach_hexes(game, ov, cfg)
        german_near = any(x.on_map and x.side != "allied" and x.hex is not None and
                          any(x.hex.distance(r) <= radius for r in ov.reinforcement_hexes)
                          for x in game.state.units.values())
        allied_on_beach = any(x.on_map and x.side == "allied" and x.hex in beach for x in game.state.units.values())
        if not german_near and not allied_on_beach:
            st.cleared = True
            game.emit("beach_cleared", overlay=ov.id, rule=cfg.clear_rule)


def before_move(game: "PlayContext", action: dict[str, Any], cfg: "BeachParams", column_marker: str) -> "ActionResult | None":
    units = game.stack(action)
    if not units or units[0].side != "allied" or str(action.get("to", "")).startswith("box:"):
        return None
    dest = game.hex_of(action.get("to"))
    for ov in overlays(game):
        st = state(game, ov)
        beach = beach_hexes(game, ov, cfg)
        over = set(ov.hexes)
        if st.cleared:
            if dest in beach:
                return _ok(False, f"{ov.name} is cleared: no Allied unit may enter its Beach hexes",
                           cfg.cleared_no_entry_rule)
            continue
        start = units[0].hex
        if start is None or start not in over:
            continue
        div = cfg.uncleared_division
        if dest not in over and any(getattr(game.counters.get(u.id), "division", None) == div.value for u in units):
            return _ok(False, f"{div.value} units may not leave {ov.name} before the beach is cleared", div.rule)
        reach, problem = game.legal_moves(units, all(column_marker in u.markers for u in units))
        if problem is not None or reach is None or dest not in reach.cost:
            return None  # the move handler explains
        path = reach.path_to(dest)
        gaps = st.tracks["gaps"]
        for a, b in zip(path, path[1:]):
            if a in beach and b not in beach:
                if gaps is None:
                    return _ok(False, f"cannot run this step: the Gaps level of {ov.name} is unknown", cfg.gap_open_rule)
                if gaps > cfg.gaps_closed_above.value:
                    return _ok(False, f"Gaps {gaps}: no Allied unit may move from a Beach hex to a non-Beach hex",
                               cfg.gaps_closed_above.rule)
                key = hexside_between(a, b)
                open_keys = {_parse_side(game, s) for s in st.open_gaps}
                through_gap = key in (set(ov.gap_hexsides) if st.all_gaps_open else open_keys)
                if not through_gap or not all(column_marker in u.markers for u in units):
                    return _ok(False, "off the beach only through an open gap hexside, in Column",
                               cfg.gap_open_rule)
    return None


def mandatory_landings(game: "PlayContext", cfg: "BeachParams", res_cfg: "ResultsParams", column_marker: str,
                       in_nsop: bool = False, policy: str | None = None) -> None:
    """Landing is mandatory [Err 4.5.1]: when the Activation Phase ends, the engine lands
    every Landing Craft and DD tank still in a Landing Wave box on the first eligible hex
    (policy ``mandatory-landing-auto``); what cannot land is logged as ``landing_blocked``."""
    ph = game.phase
    if not in_nsop and (not ph.permits("move") or ph.side not in (None, "allied")):
        return
    kinds = (cfg.lc_category, cfg.dd_category)
    for b in game.bundle.game.boxes:
        if b.kind != "landing_wave" or sub_beach_of_box(game, b) is None:
            continue
        ov, sb = sub_beach_of_box(game, b)  # type: ignore[misc]
        st = state(game, ov)
        tried: set[str] = set()
        while True:
            craft = sorted(x.id for x in game.state.units.values() if x.where == "box" and x.box == b.id
                           and getattr(game.counters.get(x.id), "category", None) in kinds
                           and x.id not in tried and st.drifted.get(x.id) != game.state.turn)
            if not craft:
                break
            tried.add(craft[0])
            r = land_craft(game, {"unit": craft[0], "to": game.label(landing_hexes(ov, sb)[0])}, cfg, res_cfg,
                           column_marker, in_nsop)
            game.emit("mandatory_landing", unit=craft[0], ok=r.ok, message=r.message, rule=cfg.mandatory_rule,
                      policy=policy or MANDATORY_POLICY)
        left = sorted(x.id for x in game.state.units.values() if x.where == "box" and x.box == b.id
                      and st.drifted.get(x.id) != game.state.turn)
        if left and not st.cleared:
            game.emit("landing_blocked", box=b.id, units=left, rule=cfg.mandatory_rule,
                      message="no Landing Craft carried these units ashore")
