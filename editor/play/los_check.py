"""LOS check by click in Play mode: the engine's verdict from the selected unit to a hex, as data
the map layer draws (the sight line, its clear and blocked parts, the first blocker) and the
status bar shows (verdict, blocker, rule case, distance and range).

Qt-free on purpose: it only reads the engine. The verdict and its one-line message are the
engine's ``los`` query (a plug-in's procedure answers it); the first blocker's position along
the line (``t``, 0 at the firer's centre, 1 at the target's), where it is and its rule case come
from the same ``model.los.line_of_sight`` evaluation the query runs, with the same turn
conditions (night, storm: the plug-in's ``PlayUI.los_conditions``). Systems without LOS rules
get their reason instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from model.base import HexsideKey, hexside_key
from model.hexes import DIRECTION_NAMES, Hex

if TYPE_CHECKING:
    from play.game import ActionResult, Game
    from play.state import UnitState


@dataclass(frozen=True)
class LosCheck:
    """One LOS check's answer. ``visible`` is None when there is no verdict (no unit selected,
    no hex there, or the system has no LOS rules: then ``off_reason`` says why)."""

    target: Hex
    message: str
    firer: Hex | None = None
    visible: bool | None = None
    rule: str | None = None
    reason: str = ""                    # the engine's own reason ("blocked at … by … [case]", "out of range: … [case]")
    decided_by: str = ""                # what decided the verdict: range | blocker | crest | spotter | reciprocal | clear
    blocker_where: str | None = None    # printed label of the first blocker ("29.019", "30.021/N")
    blocker_kind: str | None = None     # hex | hexside | along | vertex
    blocker_feature: str | None = None
    blocker_rule: str | None = None
    blocker_t: float | None = None      # where along the line the first blocker is (0..1)
    blocker_hex: Hex | None = None      # the blocking hex (kind hex)
    blocker_side: HexsideKey | None = None  # the blocking hexside (kind hexside/along)
    distance: int | None = None
    range_limit: int | None = None
    condition: str = ""
    explain: str = ""                   # the engine's full explanation (every crossing)
    off_reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.visible is not None


def _parse_side(game: "Game", where: str) -> HexsideKey | None:
    """``"30.021/N"`` (a side label from model.los) → its canonical hexside key."""
    label, _, name = where.partition("/")
    names = DIRECTION_NAMES.get(game.hmap.grid.orientation, ())
    try:
        return hexside_key(game.hmap.parse(label), list(names).index(name))
    except (ValueError, KeyError):
        return None


def check(game: "Game", firer: "UnitState | None", target: Hex,
          query: Callable[[dict[str, Any]], "ActionResult"]) -> LosCheck:
    """The LOS check from ``firer`` to ``target``; ``query`` runs an engine query without
    recording it (``PlayController.query``)."""
    los = game.system.los
    if not los.enabled:
        why = los.disabled_reason or "this game system has no line-of-sight rules"
        rule = f" [{los.rule}]" if los.rule and los.rule not in why else ""
        return LosCheck(target, f"LOS is off: {why}{rule}", off_reason=why, rule=los.rule)
    if firer is None or not firer.on_map or firer.hex is None:
        return LosCheck(target, "select a unit on the map to check LOS from it")
    if not game.hmap.contains(target):
        return LosCheck(target, "no map hex there")
    a = firer.hex
    res = query({"do": "los", "from": game.label(a), "to": game.label(target)})
    if not res.ok:
        return LosCheck(target, res.message, firer=a, rule=res.rule)
    from model.los import line_of_sight

    lr = line_of_sight(game.hmap, game.system, a, target, **game.plugin.play_ui.los_conditions(game))
    visible = bool(res.data.get("visible", lr.visible))
    dec = lr.decided_by
    # Out of range decides over a blocker that lies beyond the range: no blocker is shown then
    # (model.los policy blocker-within-range); the whole line is drawn blocked.
    fb = lr.first_blocker if dec is None or dec.kind != "range" else None
    # The reason names the decisive rule case, visible or not; a plain clear line just its case.
    parts = [f"{res.message} [{dec.rule}]", ""] if dec is not None and dec.kind == "clear" else [res.message, lr.reason]
    if fb is not None and not visible and fb.where not in lr.reason:
        parts.append(f"first blocker {fb.feature} at {fb.where} [{fb.rule}]")
    rng = "unlimited" if lr.range_limit is None else str(lr.range_limit)
    parts.append(f"distance {lr.distance}, range {rng} ({lr.condition})")
    blocker_hex = blocker_side = None
    if fb is not None and not visible:
        if fb.kind == "hex":
            try:
                blocker_hex = game.hmap.parse(fb.where)
            except ValueError:
                blocker_hex = None
        elif fb.kind in ("hexside", "along"):
            blocker_side = _parse_side(game, fb.where)
    shown = fb if not visible else None
    return LosCheck(
        target, " · ".join(p for p in parts if p), firer=a, visible=visible,
        rule=(dec.rule if dec is not None else res.rule), reason=lr.reason, decided_by=dec.kind if dec else "",
        blocker_where=shown.where if shown else None, blocker_kind=shown.kind if shown else None,
        blocker_feature=shown.feature if shown else None, blocker_rule=shown.rule if shown else None,
        blocker_t=shown.t if shown else None, blocker_hex=blocker_hex, blocker_side=blocker_side,
        distance=lr.distance, range_limit=lr.range_limit, condition=lr.condition,
        explain=str(res.data.get("explain") or lr.explain()))
