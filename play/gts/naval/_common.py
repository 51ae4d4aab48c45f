"""Small helpers the naval modules share (kept here so the modules import in one direction):
the action result, what a counter is on the Naval Display, LOS with Barrage markers [GTS
16.6.2.2], the turn of the first Naval chit [Excl 4.1.8] and the NSoP step specs of
``gts-utah: naval: steps`` [Excl 4.6]."""

from __future__ import annotations

from typing import TYPE_CHECKING

from model.calendar import resolve_turn
from model.hexes import Hex

from play.gts import barrage
from play.gts.fire import _value, conditions
from play.result import result as _ok

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import NavalParams, NsopStep
    from play.result import ActionResult
    from play.state import UnitState

LAST_STEP = 9


def _kind(game: "PlayContext", uid: str, cfg: "NavalParams") -> str | None:
    c = game.counters.get(uid)
    if c is None or c.category != cfg.ship_category:
        return None
    flags = set(c.flags)
    return "lcr" if cfg.lcr_flag in flags else "lcs" if cfg.lcs_flag in flags else "ship"


def _is_battery(game: "PlayContext", u: "UnitState", cfg: "NavalParams") -> bool:
    return str(_value(game, u, "fr_colour")) == str(cfg.battery_fr_colour.value or "black")


def _los(game: "PlayContext", a: Hex, b: Hex) -> bool:
    """LOS with the turn's conditions; a barraged hex blocks it like Blocking Terrain [GTS 16.6.2.2]."""
    from model.los import line_of_sight

    return a == b or line_of_sight(game.hmap, game.system, a, b, barrage=barrage.hexes(game),
                                   **conditions(game)).visible


def _first_turn(game: "PlayContext", cfg: "NavalParams") -> int | None:
    ref = cfg.first_chit_turn.value
    return resolve_turn(ref, game.system.calendar.all_turns) if ref else None


def _step_spec(cfg: "NavalParams", n: int) -> "NsopStep":
    return cfg.step(n)
