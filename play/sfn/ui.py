"""What Play mode shows of an SFN game besides its buttons (play/sfn/actions.yaml) and log lines
(play/sfn/events.yaml): the Drop turn box and the Naval Task Force check box
(:class:`play.plugin_ui.PlayUI`). Loaded only when an SFN game is shown (play/sfn/plugin.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from play.plugin_ui import AttackOption, PlayUI, TurnBox

if TYPE_CHECKING:
    from play.context import PlayContext


def ntf_offered(game: "PlayContext") -> bool:
    """The Naval Task Force [15.1] is an optional rule: offered only when the scenario selects it."""
    return any(getattr(p, "key", None) == "naval_task_force" and getattr(p, "offers", lambda g: True)(game)
               for p in game.procedures)


UI = PlayUI(
    # Plot Airdrop [15.6] and Plot SAF Strike [15.4] name the turn they are plotted for.
    fields=(TurnBox("turn", "Drop turn:"),),
    # SFN 15.1: the Allied player declares the Naval Task Force on an attack (his own, or a German
    # one on his coastal hexes); the box adds ``ntf: true`` to the next map attack.
    attack_options=(AttackOption("ntf", "NTF support on the next attack",
                                 "SFN 15.1: +1 to Allied attackers into a coastal hex, +2 to Allied defenders in one; "
                                 "once per game turn", ntf_offered),),
)
