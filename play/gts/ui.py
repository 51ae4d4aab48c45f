"""What Play mode shows of a GTS game besides its buttons (play/gts/actions.yaml) and log lines
(play/gts/events.yaml): the Activation section (the chit in play, the units it activates, each
Division's CP/DP: play/gts/activation_ui.py), the Division combo, the Naval section, Barrage markers on the map and
the turn's LOS conditions (:class:`play.plugin_ui.PlayUI`). Loaded only when a GTS game is
shown (play/gts/plugin.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from play.gts import barrage
from play.gts.activation_ui import activation_text, roll_points_action
from play.gts.fire import conditions
from play.gts.naval_ui import naval_action, naval_choices, naval_view
from play.gts.opportunity import pending
from play.gts.state import GtsState
from play.gts.stragglers import cfg_of
from play.plugin_ui import Choice, DockInput, Overlay, Panel, PlayUI

if TYPE_CHECKING:
    from play.context import PlayContext

# Barrage markers [GTS 16.6.2.1]: light = sparse hatching, heavy = dense cross-hatching, and a
# badge ("LB" / "HB") on the hex's stack, so the two sizes differ in pattern, colour and text.
BARRAGE_LOOK = {"light": ("hatch", "LB"), "heavy": ("cross-hatch", "HB")}


def straggler_divisions(game: "PlayContext") -> list[tuple[str, str]]:
    """The airborne divisions with straggler rules in the data (the Division combo) [Excl 3.4]."""
    cfg = cfg_of(game)
    return [(str(d), str(d)) for d in (cfg.divact_chits.value if cfg is not None else {})]


def barrage_overlays(game: "PlayContext") -> list[Overlay]:
    """The Barrage markers on the map, one overlay per size: exactly the engine's state read
    through play/gts/barrage.py [GTS 16.6.2.1]."""
    # Guard before barrage.hexes(): it would make a GTS state, and painting must not write into
    # the game state of a game of another system.
    if not isinstance(game.state.system, GtsState):
        return []
    by_kind: dict[str, list[Any]] = {}
    for h in barrage.hexes(game):
        kind = barrage.at(game, h)
        if kind is not None:
            by_kind.setdefault(kind, []).append(h)
    out = []
    for kind, hexes in by_kind.items():
        style, label = BARRAGE_LOOK.get(kind, BARRAGE_LOOK["light"])
        out.append(Overlay(f"{kind} barrage", tuple(hexes), style, label))
    return out


def _column(game: "PlayContext", inp: DockInput) -> dict[str, Any] | str:
    """``column`` [GTS 14.6]: enter Column, or leave it when every selected unit is in Column."""
    if not inp.selection:
        return "select a unit first"
    # The Column marker of the game's GTS procedure's parameters [14.6] (typed ColumnParams).
    markers = [str(c.marker) for c in (getattr(p, "column", None) for p in game.procedures) if hasattr(c, "marker")]
    marker = markers[0] if markers else "column"
    units = [game.state.units[u] for u in inp.selection if u in game.state.units]
    return {"do": "column", "units": list(inp.selection), "enter": not all(marker in u.markers for u in units)}


def _indirect(game: "PlayContext", inp: DockInput) -> dict[str, Any] | str:
    """``indirect_fire`` [GTS 16.5]: the first selected unit fires, a second one spots; the
    target is the first enemy in the target hex, else the hex itself (a barrage-only mission)."""
    sel, target = list(inp.selection), inp.target
    if not sel or not target:
        return "select the firing unit (and a spotter) and type the target hex"
    firer = game.unit(sel[0])
    try:
        h = game.hex_of(target)
    except Exception:  # a typo in the target field is a message, not a crash
        return f"unknown hex {target!r}"
    enemies = [u.id for u in game.state.at(h) if u.side != firer.side]
    action: dict[str, Any] = {"do": "indirect_fire", "unit": sel[0]}
    action.update({"target": enemies[0]} if enemies else {"hex": target})
    if len(sel) > 1:
        action["spotter"] = sel[1]
    return action


def _opportunity(game: "PlayContext", inp: DockInput) -> dict[str, Any] | str:
    """``opportunity_fire`` for the selected firer: the target is the pending target now in the
    target hex, or the first pending one when no hex is typed [GTS 17.8]."""
    sel, target = list(inp.selection), inp.target
    if not sel:
        return "select a unit first"
    mine = [p for p in pending(game) if p.firer == sel[0]]
    if not mine:
        return f"no pending Opportunity Fire for {sel[0]} [GTS 17.2]"
    targets = [t for p in mine for t in p.targets]
    if target:
        try:
            h = game.hex_of(target)
        except Exception:  # an unreadable label: the engine's own message says why
            return f"cannot read hex {target!r}"
        targets = [t for t in targets if game.unit(t).hex == h]
        if not targets:
            return f"no pending Opportunity Fire target of {sel[0]} in {target}"
    return {"do": "opportunity_fire", "unit": sel[0], "target": targets[0]}


def _naval(name: str) -> Any:
    def build(game: "PlayContext", inp: DockInput) -> dict[str, Any] | str:
        chosen = inp.values.get("naval")
        return naval_action(game, name, list(inp.selection), inp.target, str(chosen) if chosen else None)

    return build


def _naval_text(game: "PlayContext") -> str | None:
    view = naval_view(game)
    return None if view is None else view.text()


UI = PlayUI(
    builders={"column": _column, "indirect_fire": _indirect, "opportunity_fire": _opportunity,
              "roll_points": roll_points_action,
              **{n: _naval(n) for n in ("ship_fire", "battery_fire", "move_assault_force", "move_ship",
                                        "resolve_event")}},
    fields=(Choice("division", "Division:", "Utah Excl 3.4.2: the airborne division whose stragglers Recover "
                   "Stragglers rolls for", straggler_divisions, enabled_by="recover_stragglers"),),
    panels=(Panel("activation", "GTS 10.0: the chit in play, the units it activates and each Division's Command and "
                  "Dispatch Points [10.0.3] (read-only)", activation_text),
            Panel("naval", "The Naval Display [Excl 4.4.1] and the Naval Sequence of Play [Excl 4.6] (read-only)",
                  _naval_text,
                  Choice("naval", "Naval:", "Utah Excl 4.7: the ship that fires (Ship Fire, when no ship is selected) "
                         "or the ship / Landing Wave craft a Coastal Battery fires at (Battery Fire)", naval_choices,
                         none_text="—")),),
    overlays=barrage_overlays,
    los_conditions=conditions,
)
