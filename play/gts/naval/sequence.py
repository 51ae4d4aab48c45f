"""The Naval Sequence of Play [Excl 4.6, 4.7]: its state, the steps in the order printed in 4.6
(policy ``nsop-step-order-as-printed-in-4.6``), the automatic steps 1, 5, 6 and 9, the
mandatory landing when step 4 is left [Err 4.5.1], ``naval_next`` / ``naval_step``, and the
check that an action belongs to the current step. Once the overlay is cleared steps 1, 4, 5
and 6 are skipped [4.6]."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from play.gts import beach
from play.gts.naval._common import LAST_STEP, _first_turn, _ok, _step_spec
from play.gts.naval.display_data import display, overlays_in_play, state
from play.gts.naval.landing_craft import load_craft
from play.gts.state import NsopState, gts_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BeachParams, NavalParams
    from play.result import ActionResult


def nsop(game: "PlayContext") -> NsopState:
    return state(game).nsop


def at_step(game: "PlayContext", step: int) -> bool:
    n = nsop(game)
    return n.active and n.step == step


def start(game: "PlayContext", cfg: "NavalParams", hooks: "Hooks") -> None:
    """The Naval chit came into play: run the NSoP up to its first step that needs a choice."""
    st = state(game)
    key = str(game.state.turn)
    plays = int(st.plays.get(key, 0))
    st.plays[key] = plays + 1
    st.nsop = NsopState(active=True, step=0, turn=game.state.turn, fired=[],
                        first_play=plays == 0 and game.state.turn == _first_turn(game, cfg))
    game.emit("nsop_start", first_play=st.nsop.first_play or None, rule=cfg.rule,
              policy=cfg.step_policy)
    _advance(game, cfg, hooks, stop_at_choice=True)


def _advance(game: "PlayContext", cfg: "NavalParams", hooks: "Hooks", stop_at_choice: bool, until: int | None = None) -> None:
    """Leave the current step and enter the next ones (running the automatic ones) until a
    choice step (``stop_at_choice``), step ``until``, or the end of the NSoP."""
    n = nsop(game)
    while n.active:
        _leave(game, cfg, hooks, n.step)
        n.step += 1
        spec = _step_spec(cfg, n.step)
        skipped = bool(spec.overlay_only) and not overlays_in_play(game)
        game.emit("nsop_step", step=n.step, name=spec.name, rule=spec.rule,
                  skipped=skipped or None, policy=cfg.overlay_removed_policy if skipped else None)
        if not skipped:
            _enter(game, cfg, hooks, n.step)
        if not n.active:
            return
        if until is not None and n.step >= until:
            return
        if stop_at_choice and not skipped and spec.kind in ("choice", "landing"):
            return


def _enter(game: "PlayContext", cfg: "NavalParams", hooks: "Hooks", step: int) -> None:
    if step == 1:
        beach.on_chit(game, str(hooks.beach.naval_chit), hooks.beach)
    elif step == 5:
        moved, dest = _transfer(game, cfg, str(display(game).get("loading_box") or ""), None,
                                _step_spec(cfg, 5).rule)
        if dest is not None and moved:
            load_craft(game, cfg, hooks.beach, dest, moved)
    elif step == 6:
        loading = str(display(game).get("loading_box") or "")
        _transfer(game, cfg, str(display(game).get("en_route_box") or ""), loading, _step_spec(cfg, 6).rule)
    elif step == LAST_STEP:
        _finish(game, cfg)


def _leave(game: "PlayContext", cfg: "NavalParams", hooks: "Hooks", step: int) -> None:
    if step == 4 and overlays_in_play(game):
        hooks.land_rest()  # landing is mandatory [Err 4.5.1]


def _transfer(game: "PlayContext", cfg: "NavalParams", src: str, dest: str | None,
              rule: str | None) -> tuple[list[str], str | None]:
    """Steps 5 and 6 [Excl 4.7.4]: every unit in ``src`` goes to ``dest`` (step 5: the first
    Landing Wave box the Loading box connects to — policy ``loading-to-first-connected-box``)."""
    box = game.bundle.box(src) if src else None
    if box is None:
        return [], None
    policy = None
    if dest is None:
        dest = next((b for b in box.connects if (game.bundle.box(b) or box).kind == "landing_wave"), None)
        policy = cfg.loading_policy
    if dest is None:
        return [], None
    moved = sorted(u.id for u in game.state.units.values() if u.where == "box" and u.box == src)
    for uid in moved:
        game.unit(uid).box = dest
    if moved:
        game.emit("naval_transfer", units=moved, box=src, to=dest, rule=rule, policy=policy)
    return moved, dest


def _finish(game: "PlayContext", cfg: "NavalParams") -> None:
    n = nsop(game)
    chit = cfg.naval_chit
    chits = gts_state(game).chits
    if n.first_play:
        chits.mug = sorted(chits.mug + [chit])
        if chit in chits.drawn:
            chits.drawn.remove(chit)
        game.emit("chit_returned", chit=chit, rule=cfg.return_rule,
                  message="first play at 0700 6 June: back in the mug")
    else:
        game.emit("chit_set_aside", chit=chit, rule=_step_spec(cfg, LAST_STEP).rule)
    n.active = False
    game.emit("nsop_end", rule=cfg.rule)


def close(game: "PlayContext", cfg: "NavalParams", hooks: "Hooks") -> None:
    """Finish an open NSoP (another chit is drawn or the phase ends): the remaining automatic
    steps run, the choice steps are skipped (policy ``nsop-closed-by-next-action``)."""
    if nsop(game).active:
        game.emit("nsop_closed", step=nsop(game).step, rule=cfg.rule, policy=cfg.close_policy)
        _advance(game, cfg, hooks, stop_at_choice=False)


def naval_next(game: "PlayContext", action: dict[str, Any], cfg: "NavalParams", hooks: "Hooks") -> "ActionResult":
    n = nsop(game)
    if not n.active:
        return _ok(False, "no Naval Sequence of Play is running: it starts when the Naval chit is drawn", cfg.rule)
    _advance(game, cfg, hooks, stop_at_choice=False, until=n.step + 1)
    return _status(game, cfg)


def naval_step(game: "PlayContext", action: dict[str, Any], cfg: "NavalParams", hooks: "Hooks") -> "ActionResult":
    n = nsop(game)
    if not n.active:
        return _ok(False, "no Naval Sequence of Play is running: it starts when the Naval chit is drawn", cfg.rule)
    try:
        target = int(str(action.get("step")))
    except ValueError:
        return _ok(False, "step: a number 1-9", cfg.rule)
    if not 1 <= target <= LAST_STEP:
        return _ok(False, "step: a number 1-9", cfg.rule)
    if target <= n.step:
        return _ok(False, f"the NSoP is at step {n.step}: its steps run in order, never back", cfg.rule,
                   cfg.step_policy)
    _advance(game, cfg, hooks, stop_at_choice=False, until=target)
    return _status(game, cfg)


def _status(game: "PlayContext", cfg: "NavalParams") -> "ActionResult":
    n = nsop(game)
    if not n.active:
        return _ok(True, "the Naval Sequence of Play is over", cfg.rule, step=LAST_STEP)
    spec = _step_spec(cfg, n.step)
    return _ok(True, f"NSoP step {n.step}: {spec.name}", spec.rule, cfg.step_policy,
               step=n.step)


def _need_step(game: "PlayContext", cfg: "NavalParams", step: int, rule: str | None) -> "ActionResult | None":
    if at_step(game, step):
        return None
    n = nsop(game)
    where = f"the NSoP is at step {n.step}" if n.active else "no NSoP is running (draw the Naval chit)"
    name = _step_spec(cfg, step).name
    return _ok(False, f"only during NSoP step {step} ({name}); {where}", rule, cfg.step_policy)


def _fired(game: "PlayContext", uid: str) -> bool:
    return uid in nsop(game).fired


class Hooks:
    """What the NSoP needs from the rest of the GTS procedure: the beach config and the
    mandatory landing of step 4 (both live in beach.py)."""

    def __init__(self, beach_cfg: "BeachParams", land_rest: Callable[[], None]) -> None:
        self.beach = beach_cfg
        self.land_rest = land_rest
