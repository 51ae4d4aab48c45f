"""What a Monte-Carlo run plays: the random procedures a scenario uses, as engine actions.

A plug-in lists them (``SystemPlugin.analysis``, a function of the started game): one
:class:`RandomStep` per roll the rules call for, e.g. one Drop Table roll per stick. A step may
say on which turn (``turn``, the game's turn number) and in which phase (``phase``, an id of the
system's own sequence) it is played; the analysis then advances the game to it with the
engine's own ``next_phase`` actions, as a playtest script would (play/analysis/trial.py). A step
the engine plays by itself while setting the game up (``at_start``) is read, not applied. The
analysis plays the steps in that order on a fresh game per seed and counts what happened to
``units`` from the game's state and log; it never knows what the action means.
This module imports no engine module, so a plug-in may import it (tests/test_import_graph.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.hexes import Hex


@dataclass(frozen=True)
class RandomStep:
    """One random procedure: the engine ``action`` that plays it and what it aims at."""

    kind: str                       # what the report groups it under: "drop", "landing", "events", …
    action: dict[str, Any]          # the engine action, exactly as a playtest script writes it
    units: tuple[str, ...] = ()     # the units whose fate is counted (a stick's companies)
    zone: str | None = None         # the drop zone / beach the units aim for (scenario id)
    rule: str | None = None         # the rule case of the procedure
    title: str = ""                 # the report's heading for ``kind``
    # the hexes that count as "in the zone" when ``zone`` is not one of the scenario's drop
    # zones (a Sub-Beach); empty: the drop zone's hexes
    zone_hexes: tuple[Hex, ...] = ()
    policy: str | None = None       # a choice the plug-in made for the player (which hex to aim at)
    # event types the step may emit whose ``result`` is a table's row (a Random Events roll):
    # the report gives, per result, how many times a seed rolled it
    tally: tuple[str, ...] = ()
    # when it is played: the game's turn number (``GameState.turn``) and a phase id of the
    # sequence; None: the turn (phase) the game is in when the steps before it are played
    turn: int | None = None
    phase: str | None = None
    # played by the engine itself when the game was set up (a roll the rules make at set-up,
    # ``Procedure.on_setup``: SFN 3.5): ``action`` is not applied (nor written to a replay
    # script); the trial reads the step's events from the set-up's (``Game.set_up_mark``), its
    # units' losses against their set-up strength (``Game.set_up_steps``) and its result from
    # the first event of its ``tally`` types (that event's ``result``)
    at_start: bool = False



@dataclass(frozen=True)
class NotAnalysed:
    """A random procedure the scenario calls for that the analysis cannot play: its table is not
    in the rules file, or the engine does not play it. The report lists each one (text and
    JSON), so a distribution that is missing reads as unknown, never as "nothing random here"."""

    what: str       # the procedure ("the weather roll")
    rule: str       # its rule case
    why: str        # why it is not played, and what the report shows instead
