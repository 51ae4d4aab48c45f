"""Generic rules as data: shared procedures for what many hex-and-counter games have in common,
declared in the system file (schemas: :mod:`model.generic_rules`) and played with no Python per
game. One module per rule kind, each documenting its data in its docstring:

================  ===========================  ==============================================
module            system-file section          played how
================  ===========================  ==============================================
stacking          ``stacking.by_type``         in :func:`play.rules.stacking_problem`, with the
                                               whole-hex limits (every move, arrival, retreat)
zoc               ``zoc``                      :class:`~play.generic.zoc.GenericZoc` (moves)
crt               ``combat.crt``               pure table lookups (odds, differential, fire)
terrain_combat    ``combat.terrain_effects``   terrain / hexside ``fire`` maps → shifts or
                                               modifiers, for the CRT and for fire tables
attack, retreat   ``combat.crt`` (odds,        :class:`~play.generic.attack.GenericAttack`
                  differential)                (the ``attack`` action, results applied)
================  ===========================  ==============================================

The sequence of play (``sequence_of_play``) is read by :func:`play.sequence.build_sequence`.

:func:`generic_procedures` returns procedures only for the sections the system declares, and
never one whose action another procedure of the same game already handles (``taken``): a
system's own code (a plug-in's battle procedure offering ``attack``) always wins over the generic form.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.procedure import Procedure


def generic_procedures(game: "PlayContext", taken: Collection[str] = ()) -> list["Procedure"]:
    """The generic procedures the system data asks for, minus any whose action is ``taken``."""
    from play.generic.attack import GenericAttack
    from play.generic.zoc import GenericZoc

    system = game.system
    out: list["Procedure"] = []
    if system.zoc is not None and system.zoc.kind != "none":
        out.append(GenericZoc(game, system.zoc))
    combat = system.combat
    if combat is not None and combat.crt is not None and combat.crt.kind in ("odds", "differential"):
        out.append(GenericAttack(game, combat))
    return [p for p in out if not set(p.actions) & set(taken)]
