"""The TKG plug-in's part of the game state (``GameState.system``).

TKG keeps one record: how many units landed at each beach in each game turn, for the
two-per-beach limit of the Build-Up landings [18.1.1]. Saved with the game (turn keys as JSON
text), restored by undo. Saves written before this state was typed kept it as
``extra["tkg"]["landed"]`` (``"<turn>:<beach>" -> n``); :meth:`TkgState.from_extra` reads that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from play.context import PlayContext


@dataclass
class TkgState:
    landed: dict[int, dict[str, int]] = field(default_factory=dict)  # game turn -> beach -> units landed

    def landed_at(self, turn: int, beach: str) -> int:
        return self.landed.get(turn, {}).get(beach, 0)

    def to_dict(self) -> dict[str, Any]:
        return _adapter().dump_python(self, mode="json")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TkgState":
        from play.typed_data import load_saved_state

        state: TkgState = load_saved_state(_adapter(), d, "TKG")
        return state

    @classmethod
    def from_extra(cls, extra: dict[str, Any]) -> "TkgState":
        """The state of a save written before TKG state was typed (``extra["tkg"]``)."""
        landed: dict[str, dict[str, Any]] = {}
        for key, n in ((extra.get("tkg") or {}).get("landed") or {}).items():
            turn, _, beach = str(key).partition(":")
            landed.setdefault(turn, {})[beach] = n
        return cls.from_dict({"landed": landed})


@cache
def _adapter() -> "TypeAdapter[TkgState]":
    from pydantic import TypeAdapter

    return TypeAdapter(TkgState)


def tkg_state(game: "PlayContext") -> TkgState:
    """This game's TKG state (``GameState.system``, made by ``Game`` from ``PLUGIN.state``)."""
    st = game.state.system
    if not isinstance(st, TkgState):
        raise TypeError(f"TKG procedures need the game state of the tkg plug-in, not {type(st).__name__}")
    return st
