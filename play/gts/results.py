"""Applying GTS combat results [19.1–19.2]: S? (a Troop Quality check: the sample's TQ is
unknown, so it is logged for the players; play/gts/assault.py rolls it when a TQ is declared),
S (Suppressed marker; a second one is a Cohesion Hit [19.2.2]), C (Cohesion Hit marker; a
Zero-Step Unit is eliminated, a third hit is a Step Loss [19.2.3]), 1 (a step loss), E
(eliminated)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import ResultsParams


def apply(game: "PlayContext", unit_ids: list[str], result: str | None, cfg: "ResultsParams", cause: str) -> None:
    if not result:
        return
    rule = cfg.rule
    for uid in unit_ids:
        u = game.unit(uid)
        if u.where in ("eliminated", "withdrawn"):
            continue
        if result == "E":
            u.steps, u.where, u.hex, u.box = 0, "eliminated", None, None
            game.emit("eliminated", unit=uid, cause=cause, rule=rule)
        elif result == "1":
            game.lose_step(uid)
        elif result == "S" and cfg.suppressed_marker in u.markers:
            # "If a Suppressed Unit receives another Suppression, it takes a Cohesion Hit and remains
            # Suppressed" [19.2.2]
            cohesion_hit(game, u, cfg, cause, "GTS 19.2.2")
        elif result == "S":
            u.markers.append(cfg.suppressed_marker)
            game.emit("result", unit=uid, result="S", cause=cause, markers=list(u.markers), rule=rule)
        elif result == "C":
            cohesion_hit(game, u, cfg, cause, rule)
        elif result == "S?":
            game.emit("result", unit=uid, result="S?", cause=cause, rule=rule,
                      message="possible suppression: a Troop Quality check decides (TQ not in the counter data)")


def _zero_step(game: "PlayContext", u: Any) -> bool:
    c = game.counters.get(u.id)
    return u.steps == 0 or (c is not None and str(c.front.values.get("steps")) == "0")


def cohesion_hit(game: "PlayContext", u: Any, cfg: "ResultsParams", cause: str, rule: Any) -> None:
    """A new Cohesion Hit [19.2.3]: a Zero-Step Unit is eliminated; with two Cohesion Hits already
    the Unit takes a Step Loss and keeps its markers; otherwise one more marker."""
    marker = cfg.cohesion_marker
    if _zero_step(game, u):
        u.steps, u.where, u.hex, u.box = 0, "eliminated", None, None
        game.emit("eliminated", unit=u.id, cause=f"{cause}: Cohesion Hit on a Zero-Step Unit", rule="GTS 19.2.3")
    elif u.markers.count(marker) >= 2:
        game.emit("result", unit=u.id, result="C", cause=cause, markers=list(u.markers), rule="GTS 19.2.3",
                  message="a third Cohesion Hit is a Step Loss (the two Cohesion Hits stay)")
        game.lose_step(u.id)
    else:
        u.markers.append(marker)
        game.emit("result", unit=u.id, result="C", cause=cause, markers=list(u.markers), rule=rule)
