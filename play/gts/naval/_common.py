"""Small helpers the naval modules share (kept here so the modules import in one direction):
the action result, plain values of cited data, what a counter is on the Naval Display, LOS with
Barrage markers [GTS 16.6.2.2], the turn of the first Naval chit [Excl 4.1.8] and the NSoP step
specs of ``gts-utah: naval: steps`` [Excl 4.6]."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.calendar import resolve_turn
from model.hexes import Hex

from play.gts import barrage
from play.gts.fire import _value, conditions
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult
    from play.state import UnitState

LAST_STEP = 9


def _v(x: Any) -> Any:
    return x.get("value") if isinstance(x, dict) and "value" in x else x


def _kind(game: "PlayContext", uid: str, cfg: dict[str, Any]) -> str | None:
    c = game.counters.get(uid)
    if c is None or c.category != cfg.get("ship_category", "ship"):
        return None
    flags = set(c.flags)
    return "lcr" if cfg.get("lcr_flag", "lcr") in flags else "lcs" if cfg.get("lcs_flag", "lcs") in flags else "ship"


def _is_battery(game: "PlayContext", u: "UnitState", cfg: dict[str, Any]) -> bool:
    return str(_value(game, u, "fr_colour")) == str(_v(cfg.get("battery_fr_colour")) or "black")


def _los(game: "PlayContext", a: Hex, b: Hex) -> bool:
    """LOS with the turn's conditions; a barraged hex blocks it like Blocking Terrain [GTS 16.6.2.2]."""
    from model.los import line_of_sight

    return a == b or line_of_sight(game.hmap, game.system, a, b, barrage=barrage.hexes(game),
                                   **conditions(game)).visible


def _first_turn(game: "PlayContext", cfg: dict[str, Any]) -> int | None:
    ref = _v(cfg.get("first_chit_turn"))
    return resolve_turn(ref, game.system.calendar.all_turns) if ref else None


def _step_spec(cfg: dict[str, Any], n: int) -> dict[str, Any]:
    steps = cfg.get("steps") or {}
    return steps.get(n) or steps.get(str(n)) or {}
