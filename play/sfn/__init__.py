"""Second Front Now procedures for the test-play engine.

Switched on by ``play.procedures.procedures_for`` for the SFN system, after the command points
[6.0] and supply [9.0] procedures of ``play/procedures.py``:

- ``combat`` — battle-board fire [13.1-13.8] with fire modifiers [14.0-14.3] (``attack``);
- ``movement`` — box-to-map entry by box and nationality [7.3, 6.2] and strategic movement
  [12.5] (``strategic_move``);
- ``airdrop`` — plotted Allied airdrops [15.6] (``plot_drop``, ``cancel_drop``, ``airdrop``);
- ``victory`` — VP hex control and the German VP total [4.0, 11.6];
- ``replacements`` — RP, rebuilding, OOS dead pile, blooding, French limits [8.1-8.6]
  (``replace``, ``set_rp``, ``blood``);
- ``transfers`` — Italy [7.4, 7.5] and Riga-Odessa [7.6] transfers, army HQ CP [6.6]
  (``italy_transfer``, ``schedule_italy``, ``declare_riga_odessa``, ``hq_to_cp``).

Numbers and lists are in ``play/data/procedures.yaml`` under ``sfn:`` (cited) unless the
system file's params carry them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from play.game import Game
    from play.procedures import Procedure


def sfn_procedures(game: "Game") -> list["Procedure"]:
    from play.sfn.airdrop import Airdrops
    from play.sfn.movement import SfnMovement
    from play.sfn.optional import optional_procedures  # 15.1-15.5, 15.7-15.9
    from play.sfn.procedure import SfnCombatProcedure
    from play.sfn.replacements import Replacements  # 8.1-8.6
    from play.sfn.transfers import GermanTransfers  # 6.6, 7.1, 7.4-7.6
    from play.sfn.victory import VictoryPoints

    return [SfnCombatProcedure(game), SfnMovement(game), Airdrops(game), VictoryPoints(game), Replacements(game),
            GermanTransfers(game),
            *optional_procedures(game)]
