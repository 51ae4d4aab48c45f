"""TKG Off-map Movement Transit Display for the single-map game [18.4.2] (= the note to [7.5]).

- **Arrival** (hook ``arrival_box``): in a single-map game (the scenario's ``playable.sheets``
  names one sheet, as TKG-SCH-009 reads "single map") a German reinforcement scheduled into
  an OMM box numbered *n* is placed in the Transit box numbered *n* instead: "German
  reinforcements are placed in the OMM Transit Boxes with the same entry numbers as indicated
  in the reinforcement schedule" [18.4.2]. No such Transit box, or an OMM box without a
  number: the arrival is refused (``no_transit``; ``hexproof smoke`` reports PLAY-SMOKE-011).
  Rail arrivals [17.4.3] name their Transit box directly and are not redirected.
- **Movement** (``{do: omm_move, unit|units, to: BOX}`` from a Transit box): "units in an OMM
  Transit Box may be moved from one Transit Box to another or if positioned to do so, move
  from the Transit Display to one of the OMM boxes at the edge of the map" [18.4.2]. The text
  gives no cost or box count; policy **tkg-transit-one-box-whole-ma**: as between adjacent OMM
  areas [7.5.2] (the "(see 4.5.2)" of [18.4.2] has no 4.5.2 in the draft; 7.5.2 is the only
  box-move rule), a unit that has not moved this phase moves one box — to a Transit box its
  box ``connects`` to — for its whole movement allowance. "Positioned to do so" is data:
  policy **tkg-transit-exit-connected-or-same-number**: the exit is to a map OMM box the
  Transit box ``connects`` to, or else the OMM box with the same number [18.4.2], also for
  the whole MA; from there the unit enters the map next phase through the box's entry hexes.
- Policy **tkg-transit-display-one-way**: only German units use the display ([18.4.2] speaks
  of German reinforcements only), and nothing moves onto it from the map or an OMM box.
- **Rail removals** [17.4.3] (``{do: rail_to_transit, unit, to: BOX}``): in the single-map
  game a German unit taken out of the German Rail Reinforcements box is placed in any Transit
  box numbered below 13 (the system's ``rail_stations.single_map_transit_box_below``), German
  player's choice. The generic sequence has no Rail Movement Segment: policy
  **tkg-rail-removal-in-german-turn** — any phase of the German player turn before he moves
  the unit (its mech supply check [26.11.2] is not modelled).
- The designer note L1228 ("KG: … they move at half MA or only move 1 OMM Transit Box")
  implies a unit may normally move more than one Transit box; it is a proposal, not rules
  text, so the engine does not apply it (docs/play.md names it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.bundle import Box

from play.rules import Problem
from play.result import result as _result

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState
    from play.tkg.params import TransitParams

ONE_BOX_POLICY = "tkg-transit-one-box-whole-ma"
EXIT_POLICY = "tkg-transit-exit-connected-or-same-number"
ONE_WAY_POLICY = "tkg-transit-display-one-way"
RAIL_POLICY = "tkg-rail-removal-in-german-turn"


def single_map(game: "PlayContext") -> bool:
    """The scenario is played on one map sheet (TKG-SCH-009's reading of "single map")."""
    p = game.scenario.playable
    return p is not None and len(p.sheets) == 1


def is_transit(box: Box | None, cfg: "TransitParams") -> bool:
    return box is not None and box.kind in cfg.kinds


def transit_for(game: "PlayContext", number: int | None, cfg: "TransitParams") -> Box | None:
    """The Transit box with this number (one marked ``reinforcements`` first)."""
    found = [b for b in game.bundle.game.boxes if is_transit(b, cfg) and b.number is not None and b.number == number]
    flag = cfg.reinforcement_flag
    return next((b for b in found if flag in b.flags), found[0] if found else None)


def arrival_box(game: "PlayContext", unit: "UnitState", box_id: str,
                cfg: "TransitParams | None") -> tuple[str, Problem | None]:
    """[18.4.2]: a German OMM-box arrival in a single-map game goes to the same-numbered Transit
    box (``cfg`` None: the system has no Transit Display)."""
    if cfg is None or unit.side != cfg.german_side or not single_map(game):
        return box_id, None
    rule = cfg.rule
    box = game.bundle.box(box_id)
    if box is None or box.kind not in cfg.omm_kinds:
        return box_id, None  # Transit, rail [17.4.3] and holding boxes are not redirected
    if box.number is None:
        return box_id, Problem("no_transit", f"{unit.id}: OMM box {box_id} has no number, so no Transit box "
                                             "matches it (single-map game)", rule)
    t = transit_for(game, box.number, cfg)
    if t is None:
        return box_id, Problem("no_transit", f"{unit.id}: no OMM Transit box numbered {box.number} for "
                                             f"scheduled box {box_id} (single-map game)", rule)
    return t.id, None


def _linked(a: Box, b: Box) -> bool:
    return b.id in a.connects or a.id in b.connects


def transit_move(game: "PlayContext", units: list["UnitState"], target: Box | None, target_id: str,
                 cfg: "TransitParams") -> "ActionResult":
    """A stack in one Transit box moves one box: to a connected Transit box or its exit OMM box."""
    from play.rules import MOVE_PHASE_POLICY

    rule = cfg.rule
    src = game.bundle.box(str(units[0].box)) if units and units[0].where == "box" else None
    if src is None or any(u.where != "box" or u.box != src.id for u in units):
        return _result(False, "the units are not together in one Transit box", rule)
    ph = game.phase
    if not ph.permits("move") or (ph.side is not None and any(u.side != ph.side for u in units)):
        return _result(False, f"not the movement phase of {units[0].side}", ph.rule, MOVE_PHASE_POLICY)
    if target is None:
        return _result(False, f"unknown box {target_id!r}", rule)
    if target.id == src.id:
        return _result(False, f"the units are already in {src.name}", rule)
    if any(u.mp_spent > 0 for u in units):
        return _result(False, "a Transit box move needs the whole movement allowance (the unit has moved)",
                       cfg.box_to_box_rule or rule, ONE_BOX_POLICY)
    mas = [game.movement_allowance(u) for u in units]
    if any(m is None for m in mas):
        return _result(False, "a unit has no printed movement allowance in the counter data",
                       policy="unknown-ma-cannot-move: use 'place' to reposition it")
    if is_transit(target, cfg):
        if not _linked(src, target):
            return _result(False, f"{target.name} is not next to {src.name} on the Transit Display", rule, ONE_BOX_POLICY)
        kind = "transit"
    elif target.kind in cfg.omm_kinds:
        exits = [b for b in game.bundle.game.boxes if b.kind in cfg.omm_kinds and _linked(src, b)]
        if not exits:
            exits = [b for b in game.bundle.game.boxes if b.kind in cfg.omm_kinds
                     and b.number is not None and b.number == src.number]
        if target.id not in {b.id for b in exits}:
            names = ", ".join(b.id for b in exits) or "none"
            return _result(False, f"{src.name} is not positioned to move to {target.name} (exits: {names})",
                           rule, EXIT_POLICY)
        kind = "exit"
    else:
        return _result(False, f"from the Transit Display units move only to a Transit box or an OMM box, "
                              f"not to {target.name}", rule, ONE_WAY_POLICY)
    for u, m in zip(units, mas):
        u.box, u.mp_spent = target.id, float(m or 0)
    game.emit("transit_move", units=[u.id for u in units], box=target.id, source=src.id, kind=kind,
              cost="whole MA", rule=rule, policy=ONE_BOX_POLICY if kind == "transit" else EXIT_POLICY)
    what = "Transit box" if kind == "transit" else "OMM box"
    return _result(True, f"moved to {what} {target.name} for the whole movement allowance", rule,
                   ONE_BOX_POLICY if kind == "transit" else EXIT_POLICY)


def refuse_entry(game: "PlayContext", units: list["UnitState"], target: Box, cfg: "TransitParams") -> "ActionResult | None":
    """Nothing enters the Transit Display except arriving German reinforcements [18.4.2]."""
    if not is_transit(target, cfg):
        return None
    src = game.bundle.box(str(units[0].box)) if units and units[0].where == "box" else None
    if src is not None and is_transit(src, cfg):
        return None
    return _result(False, f"{target.name} is on the Transit Display: only arriving German reinforcements are "
                          "placed there, nothing moves onto it", cfg.rule, ONE_WAY_POLICY)


def rail_to_transit(game: "PlayContext", action: dict[str, Any], cfg: "TransitParams") -> "ActionResult":
    """[17.4.3]: a unit removed from the Rail box goes to a Transit box numbered below 13."""
    rail = cfg.rail
    rule = rail.rule
    u = game.unit(str(action.get("unit")))
    target = game.bundle.box(str(action.get("to", "")).removeprefix("box:"))
    # System data (printed as given): the system's own number wins over the plug-in's.
    below = (game.system.params.get("rail_stations") or {}).get("single_map_transit_box_below", rail.below)
    if not single_map(game):
        return _result(False, "the Transit Display is used only in the single-map game; with three maps rail "
                              "removals go to Fougeres, Mayenne or Alencon", rule)
    if u.side != cfg.german_side or game.phase.side != u.side:
        return _result(False, "only German units, in the German player turn", rule, RAIL_POLICY)
    src = game.bundle.box(u.box or "") if u.where == "box" else None
    if src is None or src.kind not in rail.box_kinds:
        return _result(False, f"{u.id} is not in the German Rail Reinforcements box", rule)
    if not is_transit(target, cfg) or target is None or target.number is None or target.number >= int(str(below)):
        return _result(False, f"{action.get('to')!r} is not a Transit box numbered below {below}", rule)
    u.box, u.mp_spent = target.id, 0.0
    game.emit("rail_to_transit", unit=u.id, box=target.id, source=src.id, rule=rule, policy=RAIL_POLICY)
    return _result(True, f"{u.id} placed in {target.name} from the rail box", rule, RAIL_POLICY)
