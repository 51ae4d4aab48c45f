"""The Naval chit and the mug [Excl 4.1.8]: always the first chit on the 0700 6 June turn, and
in the mug at Step G of every later daylight turn (also after the beach is cleared: policy
``naval-chit-after-overlay``); a night turn never has it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from play.gts.naval._common import _first_turn, _ok
from play.gts.naval.display_data import overlays_in_play, state
from play.gts.state import gts_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import NavalParams
    from play.result import ActionResult


def first_chit(game: "PlayContext", cfg: "NavalParams") -> "ActionResult | None":
    """On the 0700 6 June turn the Naval chit is always the first chit in play [Excl 4.1.8]."""
    chits = gts_state(game).chits
    chit = cfg.naval_chit
    if game.state.turn != _first_turn(game, cfg) or chits.drawn or chit not in chits.mug \
            or state(game).plays.get(str(game.state.turn)):
        return None
    chits.mug.remove(chit)
    chits.drawn.append(chit)
    rule = cfg.first_chit_turn.rule
    game.emit("chit", chit=chit, left=len(chits.mug), rule=rule, first=True)
    return _ok(True, f"drew {chit} (always the first chit at {game.turn_label()})", rule, chit=chit)


# --- Step G: the Naval chit goes in the mug every daylight turn [Excl 4.1.8] -----------------------


def step_g(game: "PlayContext", cfg: "NavalParams") -> None:
    """After the June 6, 0700 turn the Naval chit goes into the mug at Step G of every turn
    except night turns [Excl 4.1.8], overlay or not (policy ``naval-chit-after-overlay``)."""
    spec = cfg.every_daylight_turn
    first = _first_turn(game, cfg)
    if not spec.value or first is None or game.state.turn <= first:
        return  # the 0700 6 June turn: the scenario's mug and the first-chit rule [4.1.8]
    chit = cfg.naval_chit
    chits = gts_state(game).chits
    night = any(t.n == game.state.turn and t.night for t in game.system.calendar.all_turns)
    if night:
        if chit in chits.mug:  # listed by the scenario's mug data: not on a night turn
            chits.mug.remove(chit)
            game.emit("mug_remove", chits=[chit], rule=spec.rule, message="night turn: no Naval chit")
        return
    if chit not in chits.mug and chit not in chits.drawn:
        chits.mug = sorted(chits.mug + [chit])
        game.emit("mug_add", chits=[chit], rule=spec.rule,
                  policy=None if overlays_in_play(game) else cfg.after_overlay_policy)
