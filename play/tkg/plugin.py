"""The Killing Ground plug-in: its procedures in play order, its data in this folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from play.plugin import SystemPlugin
from play.tkg.state import TkgState

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.procedure import Procedure


def procedures(game: "PlayContext") -> list["Procedure"]:
    from play.tkg.procedure import procedures as tkg_procedures  # ZOC costs, stacking, OMM boxes

    return tkg_procedures(game)


PLUGIN = SystemPlugin(id="tkg", title="The Killing Ground", folder=Path(__file__).parent, build=procedures,
                      validator_pack="tkg", state=TkgState)
