"""NSoP steps 7 and 8: the Assault Force markers [Excl 4.4.3] and the ships between range boxes
[Excl 4.4.2, 4.6(8)]. An Assault Force marker may always go on a Beach hex of an overlay in play
(policy ``af-beach-hex-any-sector``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.gts import beach
from play.gts.fire import _value
from play.gts.naval._common import _kind, _ok
from play.gts.naval.display_data import force_of_box, has_center_dot, markers, overlays_in_play
from play.gts.naval.sequence import _need_step

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import NavalParams
    from play.result import ActionResult


def af_problem(game: "PlayContext", force: str, h: Hex, cfg: "NavalParams") -> str | None:
    """Why ``force``'s marker may not go on ``h`` [Excl 4.4.3], or None."""
    for ov in overlays_in_play(game):
        if h in beach.beach_hexes(game, ov):
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


def move_assault_force(game: "PlayContext", action: dict[str, Any], cfg: "NavalParams") -> "ActionResult":
    rule = cfg.af_rule
    refused = _need_step(game, cfg, 7, rule)
    if refused:
        return refused
    force = str(action.get("force"))
    if force not in markers(game):
        return _ok(False, f"no Assault Force marker {force!r} in the scenario", rule)
    h = game.hex_of(action.get("hex") or action.get("to"))
    why = af_problem(game, force, h, cfg)
    if why:
        return _ok(False, f"{force} marker may not go to {game.label(h)}: {why}", rule)
    old = markers(game)[force]
    markers(game)[force] = str(game.label(h))
    on_beach = any(h in beach.beach_hexes(game, ov) for ov in overlays_in_play(game))
    game.emit("af_marker", force=force, hex=game.label(h), was=old, rule=rule,
              policy=cfg.af_beach_policy if on_beach else None)
    return _ok(True, f"{force} marker {old} → {game.label(h)}", rule)


def move_ship(game: "PlayContext", action: dict[str, Any], cfg: "NavalParams") -> "ActionResult":
    rule = cfg.move_ship_rule
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
        return _ok(False, "LCSs live in the Close Range box", cfg.lcs_rule)
    letter = str(_value(game, ship, "ma") or "")
    if letter == "*":
        only = cfg.utah_only
        if only.value and there != here:
            return _ok(False, f"{ship.id} (*) stays with {here}: asterisk ships change Assault Group only when The "
                              "Greatest Day games are combined", only.rule)
    elif letter != there:
        return _ok(False, f"{ship.id} ({letter or 'no letter'}) must stay with its Assault Force", rule)
    old = ship.box
    ship.box = dest
    game.emit("ship_moved", ship=ship.id, box=old, to=dest, force=there, rule=rule)
    return _ok(True, f"{ship.id}: {old} → {dest}", rule)
