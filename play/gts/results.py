"""Applying GTS combat results [19.1–19.2]: S? (a Troop Quality check: the sample's TQ is
unknown, so it is logged for the players), S (Suppressed marker), C (Cohesion Hit marker),
1 (a step loss), E (eliminated)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from play.game import Game


def apply(game: "Game", unit_ids: list[str], result: str | None, cfg: dict[str, Any], cause: str) -> None:
    if not result:
        return
    rule = cfg.get("rule")
    for uid in unit_ids:
        u = game.unit(uid)
        if u.where in ("eliminated", "withdrawn"):
            continue
        if result == "E":
            u.steps, u.where, u.hex, u.box = 0, "eliminated", None, None
            game.emit("eliminated", unit=uid, cause=cause, rule=rule)
        elif result == "1":
            game._do_step_loss({"unit": uid, "steps": 1})
        elif result == "S":
            u.markers.append(str(cfg.get("suppressed_marker", "suppressed")))
            game.emit("result", unit=uid, result="S", cause=cause, markers=list(u.markers), rule=rule)
        elif result == "C":
            u.markers.append(str(cfg.get("cohesion_marker", "cohesion_hit")))
            game.emit("result", unit=uid, result="C", cause=cause, markers=list(u.markers), rule=rule)
        elif result == "S?":
            game.emit("result", unit=uid, result="S?", cause=cause, rule=rule,
                      message="possible suppression: a Troop Quality check decides (TQ not in the counter data)")
