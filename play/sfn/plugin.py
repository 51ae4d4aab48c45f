"""The Second Front Now plug-in: its procedures in play order, its data in this folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from play.plugin import SystemPlugin
from play.sfn.state import SfnState

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.analysis.plan import RandomStep
    from play.plugin_ui import PlayUI
    from play.procedure import Procedure


def procedures(game: "PlayContext") -> list["Procedure"]:
    # Imported on first use, so loading the plug-in table stays cheap for the editor's start.
    from play.sfn.airdrop import Airdrops
    from play.sfn.command_points import CommandPoints
    from play.sfn.landing_casualties import LandingCasualties  # 3.5, at set-up
    from play.sfn.movement import SfnMovement
    from play.sfn.optional import optional_procedures  # 15.1-15.5, 15.7-15.9
    from play.sfn.params import sfn_params
    from play.sfn.procedure import SfnCombatProcedure
    from play.sfn.replacements import Replacements  # 8.1-8.6
    from play.sfn.supply_check import SupplyCheck
    from play.sfn.transfers import GermanTransfers  # 6.6, 7.1, 7.4-7.6
    from play.sfn.victory import VictoryPoints

    sfn_params(game)  # validated here, once: a bad value stops the game before it starts
    # Command points [6.0] and supply [9.0] first: CP refuse a command before anything moves,
    # and a side's supply is traced before its other phase-start procedures run.
    return [LandingCasualties(game), CommandPoints(game), SupplyCheck(game), SfnCombatProcedure(game), SfnMovement(game), Airdrops(game),
            VictoryPoints(game), Replacements(game), GermanTransfers(game), *optional_procedures(game)]


def analysis(game: "PlayContext") -> list["RandomStep"]:
    from play.sfn.analysis import random_steps  # on first use: only `hexproof analyze` needs it

    return random_steps(game)


def analysis_levels(game: "PlayContext") -> dict[str, float | None]:
    from play.sfn.analysis import levels

    return levels(game)


def ui() -> "PlayUI":
    from play.sfn.ui import UI  # on first use, like the procedures: the editor starts without it

    return UI


PLUGIN = SystemPlugin(id="sfn", title="Second Front Now", folder=Path(__file__).parent, build=procedures,
                      validator_pack="sfn", ui=ui, state=SfnState, analysis=analysis, analysis_levels=analysis_levels)
