"""The Killing Ground procedures for the test-play engine (see docs/play.md, "TKG")."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from play.game import Game
    from play.procedures import Procedure


def procedures(game: "Game") -> list["Procedure"]:
    from play.tkg.procedure import procedures as _procedures

    return _procedures(game)
