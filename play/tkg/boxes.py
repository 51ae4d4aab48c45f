"""TKG off-map boxes: Off-Map Movement areas [7.5] and the Build-Up landing boxes [18.1].

- ``{do: omm_move, unit|units, to: BOX}``: from an entry hex of the box onto the box costs
  1 MP [7.5.2]; from a box to a connected box costs the whole movement allowance and only
  for a unit that has not moved yet this phase [7.5.2]. A German unit may not enter an
  Allied-controlled box [7.5.1] (Allied control: 3 non-artillery Allied units, one of them a
  regiment, L404); only British/Canadian units enter a box with the British flag (L404).
  Box → map is the generic ``move`` through the box's ``entry_hexes``.
- No combat in boxes [7.5.3]: an attack by a unit in a box is refused.
- ``{do: land, unit, to: HEX}``: a unit in a Landing Box lands on an entry hex of the beach
  the box ``connects`` to, in its side's Reinforcement phase; at most 2 units per beach per
  turn [18.1.1]; never on an enemy-occupied hex; the beach hex limit (3) is the terrain's
  stacking limit (L2243). The Beach Landing Table is not in the draft: no roll is made
  (policy ``tkg-landing-no-table``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play import rules
from play.result import result as _result
from play.tkg.state import tkg_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState
    from play.tkg.params import LandingParams, OmmParams

LAND_PHASE_POLICY = ("tkg-land-in-reinforcement-phase: the [4.0] outline prints no Sea Landing Segment (the "
                     "glossary's Build-Up segment, L201, L205); units land in their side's Army Support and "
                     "Replacement Phase, where reinforcements arrive")


def allied_controls(game: "PlayContext", box_id: str, cfg: "OmmParams") -> bool:
    """Garrison requirement (L404): at least 3 non-artillery Allied units, one a regiment."""
    c = cfg.allied_control
    ids = [u.id for u in game.state.units.values()
           if u.where == "box" and u.box == box_id and u.side == cfg.allied_side]
    cats = [game.counters[i].category for i in ids if i in game.counters]
    cats = [x for x in cats if x not in c.not_categories]
    tags = set(c.regiment_category_tags)
    regiment = any(tags & set(getattr(game.system.category_by_id.get(x), "tags", [])) for x in cats)
    return len(cats) >= c.min_units and regiment


def omm_move(game: "PlayContext", action: dict[str, Any], cfg: "OmmParams") -> "ActionResult":
    from play.rules import MOVE_PHASE_POLICY

    units = game.stack(action)
    target = str(action.get("to", ""))
    box = game.bundle.box(target)
    if box is None or box.kind not in cfg.kinds:
        return _result(False, f"{target!r} is not an Off-Map Movement box", cfg.edge_to_box.rule)
    ph = game.phase
    if not units or not ph.permits("move") or (ph.side is not None and any(u.side != ph.side for u in units)):
        return _result(False, f"not the movement phase of {units[0].side if units else '?'}", ph.rule, MOVE_PHASE_POLICY)
    side = units[0].side
    if side == cfg.german_side and allied_controls(game, box.id, cfg):
        return _result(False, f"{box.name} is Allied controlled: German units may not enter it", cfg.german_barred_rule)
    bf = cfg.british_flag
    if bf.flag in box.flags:
        bad = [u.id for u in units if getattr(game.counters.get(u.id), "nationality", None) not in bf.nationalities]
        if bad:
            return _result(False, f"only British/Canadian units may enter {box.name} ({', '.join(bad)})", bf.rule)
    mas = [game.movement_allowance(u) for u in units]
    if any(m is None for m in mas):
        return _result(False, "a unit has no printed movement allowance in the counter data",
                       policy="unknown-ma-cannot-move: use 'place' to reposition it")
    left = min(float(m) - u.mp_spent for m, u in zip(mas, units) if m is not None)
    starts = {u.box if u.where == "box" else None for u in units}
    if all(u.where == "box" for u in units) and len(starts) == 1:
        src = game.bundle.box(str(next(iter(starts))))
        rule = cfg.box_to_box.rule
        if src is None or (box.id not in src.connects and src.id not in box.connects):
            return _result(False, f"{box.name} is not adjacent to {src.name if src else '?'}", rule)
        if any(u.mp_spent > 0 for u in units):
            return _result(False, "box to box needs the whole movement allowance (the unit has moved)", rule)
        for u, m in zip(units, mas):
            u.box, u.mp_spent = box.id, float(m or 0)
        game.emit("omm_move", units=[u.id for u in units], box=box.id, source=src.id, cost="whole MA", rule=rule)
        return _result(True, f"moved to {box.name} for the whole movement allowance", rule)
    rule = cfg.edge_to_box.rule
    hexes = {u.hex for u in units if u.on_map}
    if len(hexes) != 1 or any(not u.on_map for u in units):
        return _result(False, "the units are not together in one map hex")
    h = next(iter(hexes))
    entries = game.box_entry_hexes(box.id)
    if h not in entries:
        names = ", ".join(str(game.label(e)) for e in entries) or "none"
        return _result(False, f"{game.label(h)} is not an entry hex of {box.name} (entry hexes: {names})", rule)
    cost = cfg.edge_to_box.value
    if left < cost:
        return _result(False, f"needs {cost:g} MP, has {left:g}", rule)
    for u in units:
        u.where, u.hex, u.box = "box", None, box.id
        u.mp_spent += cost
    game.emit("omm_move", units=[u.id for u in units], box=box.id, source=game.label(h), cost=cost, rule=rule)
    return _result(True, f"moved into {box.name} for {cost:g} MP", rule)


def land(game: "PlayContext", action: dict[str, Any], cfg: "LandingParams") -> "ActionResult":
    u = game.unit(str(action.get("unit")))
    box = game.bundle.box(u.box or "") if u.where == "box" else None
    if box is None or box.kind not in cfg.box_kinds:
        return _result(False, f"{u.id} is not in a Landing Box", cfg.box_capacity_rule)
    ph = game.phase
    if ph.kind != "reinforcement" or (ph.side is not None and ph.side != u.side):
        return _result(False, "units land in their side's Army Support and Replacement Phase", None, LAND_PHASE_POLICY)
    dest = game.hex_of(action.get("to"))
    beach_ids = list(box.connects)
    beach_hexes: list[Hex] = [h for b in beach_ids for h in game.box_entry_hexes(b)]
    if dest not in beach_hexes:
        return _result(False, f"{game.label(dest)} is not a hex of {', '.join(beach_ids) or 'its beach'}",
                       box.rule)
    if any(x.side != u.side for x in game.state.at(dest)):
        return _result(False, f"{game.label(dest)} is held by the enemy: no landing there", cfg.beach_hex_rule)
    per = cfg.per_beach_per_turn
    st = tkg_state(game)
    beach = beach_ids[0] if beach_ids else box.id
    landed = st.landed_at(game.state.turn, beach)
    if landed >= per.value:
        return _result(False, f"{per.value} units have already landed at {beach_ids[0]} this turn", per.rule)
    sp = rules.stacking_problem(game.hmap, game.system, dest, game.state.at(dest) + [u], game.counters)
    if sp is not None:
        return _result(False, f"cannot land in {game.label(dest)}: overstacked, {sp.message}", sp.rule or cfg.beach_hex_rule)
    u.where, u.hex, u.box = "hex", dest, None
    st.landed.setdefault(game.state.turn, {})[beach] = landed + 1
    game.emit("land", unit=u.id, box=box.id, hex=game.label(dest), rule=per.rule, policy=cfg.no_table_policy)
    return _result(True, f"{u.id} landed in {game.label(dest)}", per.rule, cfg.no_table_policy)


def box_capacity_events(game: "PlayContext", cfg: "LandingParams") -> None:
    """Log a ``box_over_capacity`` event for a Landing Box holding more than its capacity [18.1.2]."""
    for b in game.bundle.game.boxes:
        if b.kind in cfg.box_kinds and b.capacity is not None:
            ids = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == b.id)
            if len(ids) > b.capacity:
                game.emit("box_over_capacity", box=b.id, units=ids, capacity=b.capacity, rule=cfg.box_capacity_rule)
