"""A scenario's start lines and control areas: its own where it gives them, else the map's.

TKG [25.1.5]: "Each scenario will specify the front lines separating the opposing forces as
well as control of various map areas and terrain features." A map can carry them as areas
of kind ``start_line`` and ``control``; a scenario may give its own lists
(``start_lines:``, ``control_areas:``). This module is the one place that decides which
apply, so validators and play read the same ones.

Policy *scenario-areas-replace*: a scenario's list replaces the map's areas of that kind
whole (it does not merge by id), and an empty list means "none in this scenario". A
variant inherits its base's lists unless it gives its own (model/bundle.py resolve).
"""

from __future__ import annotations

from model.mapdata import Area, HexMap
from model.scenario import Scenario

START_LINE = "start_line"
CONTROL = "control"
POLICY = "scenario-areas-replace"


def start_lines(hmap: HexMap, scenario: Scenario | None = None) -> list[Area]:
    """The start lines in force: the scenario's ``start_lines`` if given, else the map's
    areas of kind ``start_line``."""
    if scenario is not None and scenario.start_lines is not None:
        return list(scenario.start_lines)
    return [a for a in hmap.areas if a.kind == START_LINE]


def control_areas(hmap: HexMap, scenario: Scenario | None = None) -> list[Area]:
    """The control areas in force: the scenario's ``control_areas`` if given, else the
    map's areas of kind ``control``."""
    if scenario is not None and scenario.control_areas is not None:
        return list(scenario.control_areas)
    return [a for a in hmap.areas if a.kind == CONTROL]


def from_scenario(scenario: Scenario | None, kind: str) -> bool:
    """Whether the scenario gives its own areas of ``kind`` (START_LINE or CONTROL)."""
    if scenario is None:
        return False
    own = scenario.start_lines if kind == START_LINE else scenario.control_areas
    return own is not None
