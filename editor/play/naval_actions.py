"""Engine actions for the Utah naval and Random Event buttons of the Play mode Actions dock
[Excl 4.4, 4.6, 6.0]: built from the selection and the target field (no Qt here)."""

from __future__ import annotations

from typing import Any

from play.game import Game, GameError


def naval_action(game: Game, name: str, sel: list[str], target: str) -> dict[str, Any] | str:
    """The action for button ``name``, or why it cannot be built yet."""
    if name == "naval_step":
        return {"do": "naval_next"}
    if name == "move_assault_force":
        if not target:
            return "type a target hex first"
        from play.gts import naval

        try:
            h = game.hex_of(target)
        except GameError as exc:
            return str(exc)
        markers = {f: naval.marker_hex(game, f) for f in naval.state(game)["markers"]}
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
        from play.gts import events

        pending = events.state(game).get("pending")
        if not pending:
            return {"do": "resolve_event"}  # the engine says nothing is waiting
        kind = pending.get("kind")
        if not target:
            return f"type the choice first: {pending.get('needs')}"
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
