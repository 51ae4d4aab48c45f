"""Barrage markers in GTS test play [GTS 16.6.2].

Indirect Fire places a Barrage marker in the target hex after the attack is resolved: light
when the firer's Fire Rating (with Company Bonus and marker modifiers) is 5 or less, heavy at 6
or more, none on a roll of 9; one marker per hex, a heavy one replaces a light one but not the
reverse [16.6.2.1]. All of them are removed at Cleanup, after the Activation Phase [4.0 I,
11.0]. Today only ship fire in NSoP step 2 places them (play/gts/naval/naval_gunfire.py): ships conduct
"normal Indirect Fire" [Excl 4.4.4, 4.7.1(b–c)]; LCRs never place one [Excl 4.4.5], LCSs fire
as Direct Fire units [Excl 4.7.1(e)] and NSoP Coastal Battery fire does not create one
[Excl 4.4.7(b)].

State: ``GtsState.barrages`` = ``{hex label: "light" | "heavy"}`` (play/gts/state.py: it saves
and undoes with the game). Effects used by the engine: a Coastal Battery in a
barraged hex may not fire in NSoP step 3 [Excl 4.4.7], and a barraged hex blocks the LOS of
ship spotting [16.6.2.2, 15.4.1]. Land Indirect Fire (play/gts/indirect.py) places them too,
and the effects on units in the hex [16.6.2.2] are here: Fire Range 1 and Fire Rating -1/-2
for ``fire`` and ``indirect_fire`` (``fire_range_cap``, ``fire_modifier``), +2 MP to leave and,
out of a Heavy Barrage, a Cohesion Hit and a TQ Check first (``before_move``/``after_move``). Parameters: ``barrage:`` in play/gts/params.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex
from play.gts import results
from play.gts.params import gts_params
from play.gts.state import BarrageExit, BarrageKind, UnitBefore, gts_state

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.gts.params import BarrageParams

RANK = {"light": 1, "heavy": 2}


def state(game: "PlayContext") -> dict[str, BarrageKind]:
    return gts_state(game).barrages


def at(game: "PlayContext", h: Hex | None) -> BarrageKind | None:
    """The Barrage marker in ``h`` ("light" / "heavy"), or None."""
    return None if h is None else state(game).get(str(game.label(h)))


def hexes(game: "PlayContext") -> list[Hex]:
    return [game.hex_of(label) for label in sorted(state(game))]


def kind_for(fr: int, die: int, cfg: "BarrageParams") -> BarrageKind | None:
    """The marker an Indirect Fire attack of Fire Rating ``fr`` places with roll ``die`` [16.6.2.1]."""
    if die == cfg.no_barrage_roll.value:
        return None
    return "heavy" if fr >= cfg.heavy_from.value else "light"


def place(game: "PlayContext", h: Hex, fr: int, die: int, cfg: "BarrageParams", by: str, rule: str | None = None,
          policy: str | None = None) -> str | None:
    """Place the marker an Indirect Fire attack leaves in ``h``; returns the marker now there
    (None: a 9 places nothing)."""
    kind = kind_for(fr, die, cfg)
    if kind is None:
        return None
    st = state(game)
    label = str(game.label(h))
    old = st.get(label)
    if old is not None and RANK[old] >= RANK[kind]:
        kind = old  # only one marker per hex; a light one never replaces a heavy one [16.6.2.1]
    st[label] = kind
    game.emit("barrage", hex=label, marker=kind, was=old, unit=by, fr=fr, rule=rule or cfg.rule, policy=policy)
    return kind


def cleanup(game: "PlayContext", cfg: "BarrageParams") -> None:
    """Step I, Cleanup: every Barrage marker leaves the map [GTS 4.0 I, 11.0, 16.6.2.1]."""
    st = state(game)
    if st:
        game.emit("barrages_removed", hexes=sorted(st), rule=cfg.cleanup_rule)
        st.clear()


def fire_modifier(game: "PlayContext", h: Hex | None, cfg: "BarrageParams") -> int:
    """Fire Rating modifier of a unit in a barraged hex: light -1, heavy -2 [GTS 16.6.2.2]."""
    kind = at(game, h)
    return cfg.fire_modifier.value.get(kind, 0) if kind else 0


def fire_range_cap(game: "PlayContext", h: Hex | None, cfg: "BarrageParams") -> int | None:
    """Fire Range of a unit in a barraged hex (1), or None when the hex has no marker [16.6.2.2]."""
    return cfg.fire_range.value if at(game, h) else None


def tq_modifier(game: "PlayContext", h: Hex | None, cfg: "BarrageParams") -> int:
    """Troop Quality modifier of a unit in a barraged hex: light -1, heavy -2 [GTS 16.6.2.2]."""
    kind = at(game, h)
    return cfg.tq_modifier.value.get(kind, 0) if kind else 0


def before_move(game: "PlayContext", action: dict[str, Any], cfg: "BarrageParams", cohesion: str) -> Any:
    """Leaving a barraged hex [GTS 16.6.2.2]: +2 MP (added to the units' spent MP before the
    move; ``after_move`` takes them back when the move is refused). Out of a Heavy Barrage,
    first a Cohesion Hit and a Troop Quality Check for each announced unit, one at a time; the
    ones that pass leave as a stack, the others stay (with the hit). The counters print no TQ:
    the move declares ``tq`` (policy ``declared-tq-barrage``); the barrage's -2 is applied
    here, other TQ modifiers are the playtester's."""
    from play.result import ActionResult

    units = game.stack(action)
    if not units or units[0].hex is None or str(action.get("to", "")).startswith("box:"):
        return None
    kind = at(game, units[0].hex)
    if kind is None:
        return None
    rule = cfg.effects_rule
    policy = None
    stay: list[str] = []
    hits: list[str] = []
    origin = units[0].hex
    before: dict[str, UnitBefore] = {}
    if kind == "heavy":
        tq = action.get("tq")
        if tq is None or not str(tq).lstrip("-").isdigit():
            return ActionResult(False, f"leaving a Heavy Barrage hex needs a Troop Quality Check: declare 'tq' "
                                       f"(the counters print none)", rule, str(cfg.tq_policy))
        policy = str(cfg.tq_policy)
        need = int(str(tq)) + tq_modifier(game, units[0].hex, cfg)
        rolls = {}
        res_cfg = gts_params(game).results
        for u in units:
            before[u.id] = UnitBefore(where=u.where, hex=None if u.hex is None else str(game.label(u.hex)),
                                      box=u.box, steps=u.steps, reduced=u.reduced, markers=list(u.markers))
        gone: list[str] = []
        for u in units:  # announced first, then each unit rolls in turn; no change of mind [16.6.2.2]
            # the Cohesion Hit goes through 19.2.3: "a third hit is a Step Loss", a Zero-Step Unit
            # is eliminated (play/gts/results.py), like every other Cohesion Hit in the engine
            results.cohesion_hit(game, u, res_cfg, "leaving a Heavy Barrage", rule)
            hits.append(u.id)
            if not u.on_map:
                gone.append(u.id)  # eliminated by the hit: no check, nothing left to move
                continue
            d = game.dice.roll(1, 10)[0] % 10
            rolls[u.id] = d
            if d == 9 or (d != 0 and d > need):
                stay.append(u.id)
        game.emit("barrage_exit_check", hex=game.label(origin), units=[u.id for u in units], need=need,
                  rolls=rolls, stay=stay or None, eliminated=gone or None, cohesion=cohesion, rule=rule,
                  policy=policy)
        if len(stay) + len(gone) == len(units):
            return ActionResult(True, f"no unit passed its Troop Quality Check: all stay in "
                                      f"{game.label(origin)} with a Cohesion Hit [GTS 19.2.3]", rule, policy)
        stay += gone
        action["units"] = [u.id for u in units if u.id not in stay]
        action.pop("unit", None)
    leave_mp = float(cfg.leave_mp.value)
    movers = [u for u in units if u.id not in stay]
    for u in movers:
        u.mp_spent += leave_mp
    gts_state(game).barrage_exit = BarrageExit(units=[u.id for u in movers], mp=leave_mp, hits=hits,
                                               hex=str(game.label(origin)), kind=kind,
                                               before=before)
    return None


def after_move(game: "PlayContext", action: dict[str, Any], result: Any, cfg: "BarrageParams", cohesion: str) -> None:
    """Log the barrage exit of an accepted move; a refused move gets its extra MP and Cohesion
    Hits back (a refusal changes nothing but the dice)."""
    st = gts_state(game)
    pending, st.barrage_exit = st.barrage_exit, None
    if not pending or action.get("do") != "move":
        return
    if not result.ok:
        for uid in pending.units:
            game.unit(uid).mp_spent -= pending.mp
        for uid, b in pending.before.items():  # the 19.2.3 results (marker, Step Loss, elimination) undone
            u = game.unit(uid)
            u.where, u.box, u.steps, u.reduced, u.markers = b.where, b.box, b.steps, b.reduced, list(b.markers)
            u.hex = None if b.hex is None else game.hex_of(b.hex)
        return
    game.emit("barrage_exit", hex=pending.hex, marker=pending.kind, units=pending.units, mp=pending.mp,
              rule=cfg.effects_rule)
