"""GTS v2.0c + Utah Beach procedures for the test-play engine (see docs/play.md, "GTS")."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from play.game import Game
    from play.procedures import Procedure


def procedures(game: "Game") -> list["Procedure"]:
    from play.gts.procedure import procedures as _procedures

    return _procedures(game)
