"""The Naval section of the Play-mode Actions dock (Utah [Excl 4.4, 4.6, 6.0]): the builders of
the naval and Random Event buttons, the Naval combo's rows and the read-only Naval Display
(moved here from the editor, which draws them as a generic :class:`play.plugin_ui.Panel`).

- Ship Fire (NSoP step 2 [Excl 4.7.1]): the firing ship is the selected one (pick it in the
  Unit dock's off-map list) or the one chosen in the dock's Naval combo; the target is the
  first German unit in the target hex (``track:obstacles`` etc.: an LCS at the beach defences).
- Battery Fire (NSoP step 3 [Excl 4.7.2]): the Coastal Battery is the selected unit, or the
  battery in the target hex; its target is the ship or Landing Wave craft chosen in the combo.
- :func:`naval_view`: ships per force and range box, Landing Wave boxes with their Landing
  Craft loads, Assault Force marker hexes, Barrage markers and the current NSoP step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from play.errors import GameError
from play.gts import barrage, events, naval

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BeachParams, NavalParams


def _cfgs(game: "PlayContext") -> "tuple[NavalParams | None, BeachParams]":
    """The naval parameters of the game's GTS procedure (None when the system has no naval
    section, or the game no GTS procedure) and its beach parameters. Imported here: the GTS
    modules load on first use, as the plug-in's procedures do."""
    from play.gts.params import BeachParams, gts_params
    from play.gts.procedure import GtsProcedure

    if any(isinstance(p, GtsProcedure) for p in game.procedures):
        params = gts_params(game)
        return params.naval, params.beach
    return None, BeachParams()


def _naval_cfg(game: "PlayContext") -> "NavalParams":
    """The naval parameters, or their defaults when the system has none."""
    from play.gts.params import NavalParams

    return _cfgs(game)[0] or NavalParams()


def _is_ship(game: "PlayContext", uid: str) -> bool:
    u = game.state.units.get(uid)
    return u is not None and u.where == "box" and naval.force_of_box(game, u.box) is not None \
        and naval._kind(game, uid, _naval_cfg(game)) is not None


def _is_battery(game: "PlayContext", uid: str) -> bool:
    u = game.state.units.get(uid)
    return u is not None and u.on_map and naval._is_battery(game, u, _naval_cfg(game))


def naval_choices(game: "PlayContext") -> list[tuple[str, str]]:
    """(text, unit id) for the Naval combo: the ships on the Naval Display, then the Landing
    Craft and DD tanks in Landing Wave boxes (Coastal Battery targets [Excl 4.4.7])."""
    cfg, beach_cfg = _cfgs(game)
    if not cfg or not naval.forces(game):
        return []
    out: list[tuple[str, str]] = []
    for force, boxes in naval.forces(game).items():
        for b in boxes:
            for u in sorted((x for x in game.state.units.values() if x.where == "box" and x.box == b), key=lambda x: x.id):
                if naval._kind(game, u.id, cfg) is not None:
                    out.append((f"{u.id} · {force} {b}", u.id))
    craft = (beach_cfg.lc_category, beach_cfg.dd_category)
    for box in game.bundle.game.boxes:
        if box.kind != "landing_wave":
            continue
        for u in sorted((x for x in game.state.units.values() if x.where == "box" and x.box == box.id), key=lambda x: x.id):
            if getattr(game.counters.get(u.id), "category", None) in craft:
                out.append((f"{u.id} · {box.name}", u.id))
    return out


def _foe_in(game: "PlayContext", target: str, side: str) -> str:
    try:
        h = game.hex_of(target)
    except GameError as exc:
        return str(exc)
    cfg = _naval_cfg(game)
    # A unit the ship self-spots (Coastal Battery, Wn/Stp) first [Excl 4.4.4(b)], then by id.
    foes = sorted((naval.self_spots(game, u, cfg) is None, u.id) for u in game.state.at(h) if u.side != side)
    return foes[0][1] if foes else f"no enemy unit in {target}"


def naval_action(game: "PlayContext", name: str, sel: list[str], target: str, chosen: str | None = None
                 ) -> dict[str, Any] | str:
    """The action for button ``name``, or why it cannot be built yet (``chosen``: the unit of the
    dock's Naval combo)."""
    if name == "naval_step":
        return {"do": "naval_next"}
    if name == "ship_fire":
        ship = next((u for u in sel if _is_ship(game, u)), None) or (chosen if chosen and _is_ship(game, chosen) else None)
        if ship is None:
            return "select a ship on the Naval Display (Unit dock) or choose one in the Naval box"
        if target.startswith("track:"):
            return {"do": "ship_fire", "ship": ship, "track": target.removeprefix("track:"), "by": 1}
        if not target:
            return "type a target hex first (or track:obstacles for an LCS)"
        foe = _foe_in(game, target, game.unit(ship).side)
        return {"do": "ship_fire", "ship": ship, "target": foe} if foe in game.state.units else foe
    if name == "battery_fire":
        bty = next((u for u in sel if _is_battery(game, u)), None)
        if bty is None and target:
            try:
                h = game.hex_of(target)
            except GameError as exc:
                return str(exc)
            bty = next((u.id for u in sorted(game.state.at(h), key=lambda x: x.id) if _is_battery(game, u.id)), None)
        if bty is None:
            return "select a Coastal Battery (or type its hex)"
        if not chosen:
            return "choose the target ship or Landing Craft in the Naval box"
        return {"do": "battery_fire", "unit": bty, "target": chosen}
    if name == "move_assault_force":
        if not target:
            return "type a target hex first"
        try:
            h = game.hex_of(target)
        except GameError as exc:
            return str(exc)
        markers = {f: naval.marker_hex(game, f) for f in naval.markers(game)}
        near = sorted((m.distance(h), f) for f, m in markers.items() if m is not None)
        # The nearest marker: the sectors do not overlap, so it is the one the player means.
        return {"do": "move_assault_force", "force": near[0][1], "hex": target} if near else "no Assault Force markers"
    if name == "move_ship":
        if not sel:
            return "select a ship first"
        if not target:
            return "type a range box first (box:ID)"
        return {"do": "move_ship", "ship": sel[0], "box": target.removeprefix("box:")}
    if name == "resolve_event":
        pending = events.state(game).pending
        if not pending:
            return {"do": "resolve_event"}  # the engine says nothing is waiting
        kind = pending.kind
        if not target:
            return f"type the choice first: {pending.needs}"
        if kind == "naval_support":
            try:
                h = game.hex_of(target)
            except GameError as exc:
                return str(exc)
            foes = [u.id for u in game.state.at(h) if u.side != "allied"]
            if len(sel) != 2 or not foes:
                return "select two ships and type the target hex"
            return {"do": "resolve_event", "ships": sel[:2], "targets": [foes[0], foes[0]]}
        if kind == "minefield":
            return {"do": "resolve_event", "hex": target}
        if kind == "formation_leader":
            return {"do": "resolve_event", "formation": target}
        return {"do": "resolve_event", "division": target}
    return f"no action {name!r}"


# --- the Naval Display, read-only -----------------------------------------------------------------


@dataclass
class NavalView:
    """What the Play mode shows of the Naval Display [Excl 4.4.1] and the NSoP [Excl 4.6]."""

    step: int = 0
    step_name: str | None = None
    active: bool = False
    markers: dict[str, str | None] = field(default_factory=dict)         # force → marker hex label
    boxes: list[tuple[str, str, int | None, list[str]]] = field(default_factory=list)  # force, box, number, units
    waves: list[tuple[str, list[str], dict[str, list[str]]]] = field(default_factory=list)  # box, units, loads
    barrages: dict[str, str] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [f"NSoP step {self.step}: {self.step_name}" if self.active else "NSoP: not running (draw the Naval chit)"]
        for force, label in self.markers.items():
            rows = [(box, number, units) for f, box, number, units in self.boxes if f == force and units]
            out.append(f"{force} marker {label or '?'}" + ("" if rows else ": no ships"))
            for box, number, units in rows:  # empty range boxes are left out: the view stays compact
                rng = f" +{number}" if number is not None else ""
                out.append(f"  {box}{rng}: {', '.join(units)}")
        for box, units, loads in self.waves:
            aboard = "; ".join(f"{lc}: {', '.join(us)}" for lc, us in loads.items())
            out.append(f"{box}: {', '.join(units) or '—'}" + (f" [{aboard}]" if aboard else ""))
        if self.barrages:
            out.append("Barrages: " + ", ".join(f"{h} {k}" for h, k in sorted(self.barrages.items())))
        return out

    def text(self) -> str:
        return "\n".join(self.lines())


def naval_view(game: "PlayContext") -> NavalView | None:
    """The Naval Display of the game, or None when the scenario has none."""
    cfg, _ = _cfgs(game)
    if not cfg or not naval.forces(game):
        return None
    n = naval.nsop(game)
    v = NavalView(step=n.step, step_name=naval._step_spec(cfg, n.step).name if n.active else None, active=n.active,
                  markers=dict(naval.markers(game)), barrages=dict(barrage.state(game)))
    for force, boxes in naval.forces(game).items():
        v.markers.setdefault(force, None)
        for b in boxes:
            units = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == b)
            v.boxes.append((force, b, naval.box_number(game, b), units))
    loads = naval.craft_loads(game)
    for box in game.bundle.game.boxes:
        if box.kind == "landing_wave":
            units = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == box.id)
            v.waves.append((box.id, units, {lc: list(us) for lc, us in loads.items() if lc in units}))
    return v
