"""Barrage markers in GTS test play [GTS 16.6.2].

Indirect Fire places a Barrage marker in the target hex after the attack is resolved: light
when the firer's Fire Rating (with Company Bonus and marker modifiers) is 5 or less, heavy at 6
or more, none on a roll of 9; one marker per hex, a heavy one replaces a light one but not the
reverse [16.6.2.1]. All of them are removed at Cleanup, after the Activation Phase [4.0 I,
11.0]. Today only ship fire in NSoP step 2 places them (play/gts/naval/naval_gunfire.py): ships conduct
"normal Indirect Fire" [Excl 4.4.4, 4.7.1(b–c)]; LCRs never place one [Excl 4.4.5], LCSs fire
as Direct Fire units [Excl 4.7.1(e)] and NSoP Coastal Battery fire does not create one
[Excl 4.4.7(b)].

State: ``state.extra["gts"]["barrages"]`` = ``{hex label: "light" | "heavy"}`` (plain data, so
it saves and undoes with the game). Effects used by the engine: a Coastal Battery in a
barraged hex may not fire in NSoP step 3 [Excl 4.4.7], and a barraged hex blocks the LOS of
ship spotting [16.6.2.2, 15.4.1]. Parameters: ``gts-utah: barrage:`` in play/data/procedures.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

if TYPE_CHECKING:
    from play.game import Game

RANK = {"light": 1, "heavy": 2}


def _v(x: Any, default: Any = None) -> Any:
    v = x.get("value") if isinstance(x, dict) and "value" in x else x
    return default if v is None else v


def state(game: "Game") -> dict[str, str]:
    return game.state.extra.setdefault("gts", {}).setdefault("barrages", {})


def at(game: "Game", h: Hex | None) -> str | None:
    """The Barrage marker in ``h`` ("light" / "heavy"), or None."""
    return None if h is None else state(game).get(str(game.label(h)))


def hexes(game: "Game") -> list[Hex]:
    return [game.hex_of(label) for label in sorted(state(game))]


def kind_for(fr: int, die: int, cfg: dict[str, Any]) -> str | None:
    """The marker an Indirect Fire attack of Fire Rating ``fr`` places with roll ``die`` [16.6.2.1]."""
    if die == int(_v(cfg.get("no_barrage_roll"), 9)):
        return None
    return "heavy" if fr >= int(_v(cfg.get("heavy_from"), 6)) else "light"


def place(game: "Game", h: Hex, fr: int, die: int, cfg: dict[str, Any], by: str, rule: str | None = None,
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
    game.emit("barrage", hex=label, marker=kind, was=old, unit=by, fr=fr, rule=rule or cfg.get("rule"), policy=policy)
    return kind


def cleanup(game: "Game", cfg: dict[str, Any]) -> None:
    """Step I, Cleanup: every Barrage marker leaves the map [GTS 4.0 I, 11.0, 16.6.2.1]."""
    st = state(game)
    if st:
        game.emit("barrages_removed", hexes=sorted(st), rule=cfg.get("cleanup_rule"))
        st.clear()
