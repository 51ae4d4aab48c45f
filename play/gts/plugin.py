"""The GTS plug-in (GTS v2.0c series rules with the Utah Beach exclusive rules): its
procedures in play order, its data in this folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from play.gts.state import GtsState
from play.plugin import SystemPlugin

if TYPE_CHECKING:
    from play.analysis.plan import NotAnalysed, RandomStep
    from play.context import PlayContext
    from play.plugin_ui import PlayUI
    from play.procedure import Procedure


def procedures(game: "PlayContext") -> list["Procedure"]:
    # Imported on first use, so loading the plug-in table stays cheap for the editor's start.
    from play.gts.chit_pull import ChitPull
    from play.gts.drop_table import DropTable
    from play.gts.opportunity import OpportunityFire  # Opportunity Fire [GTS 17.0]
    from play.gts.optional_leader_losses import optional_procedures  # the Excl 18.x the scenario selects
    from play.gts.procedure import GtsProcedure

    # The chit pull first (activation decides who may act), GtsProcedure last: its ``before``
    # on a move commits barrage effects [16.6.2.2] only once every other refusal is known.
    return [ChitPull(game), DropTable(game), *optional_procedures(game), OpportunityFire(game), GtsProcedure(game)]


def analysis(game: "PlayContext") -> list["RandomStep"]:
    from play.gts.analysis import random_steps  # on first use: only `hexproof analyze` needs it

    return random_steps(game)


def analysis_levels(game: "PlayContext") -> dict[str, float | None]:
    from play.gts.analysis import levels

    return levels(game)


def analysis_gaps(game: "PlayContext") -> list["NotAnalysed"]:
    from play.gts.analysis import gaps

    return gaps(game)


def ui() -> "PlayUI":
    from play.gts.ui import UI  # on first use, like the procedures: the editor starts without it

    return UI


PLUGIN = SystemPlugin(id="gts", title="Grand Tactical Series", folder=Path(__file__).parent, build=procedures,
                      validator_pack="gts", state=GtsState, ui=ui,
                      analysis=analysis, analysis_levels=analysis_levels, analysis_gaps=analysis_gaps)
