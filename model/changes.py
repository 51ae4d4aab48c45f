"""Change events: small, frozen, Qt-free descriptions of what an edit touched.

The editor's document emits one of these after every model mutation (do, undo or redo),
so views redraw only what changed (a terrain event names its hexes; a view repaints only
the tiles holding them). Being plain dataclasses they are testable without Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.base import HexsideKey
from model.hexes import Hex


@dataclass(frozen=True)
class Change:
    """Base class: ``map_id`` names the map that changed (None = bundle-wide)."""

    map_id: str | None = None


@dataclass(frozen=True)
class TerrainChanged(Change):
    hexes: frozenset[Hex] = field(default_factory=frozenset)


@dataclass(frozen=True)
class HexsidesChanged(Change):
    keys: frozenset[HexsideKey] = field(default_factory=frozenset)


@dataclass(frozen=True)
class PathsChanged(Change):
    hexes: frozenset[Hex] = field(default_factory=frozenset)


@dataclass(frozen=True)
class FeaturesChanged(Change):
    hexes: frozenset[Hex] = field(default_factory=frozenset)


@dataclass(frozen=True)
class PortionsChanged(Change):
    hexes: frozenset[Hex] = field(default_factory=frozenset)


@dataclass(frozen=True)
class BackgroundChanged(Change):
    pass


@dataclass(frozen=True)
class PropertyChanged(Change):
    """A generic property of some node changed (``owner`` is a readable description)."""

    owner: str = ""
    name: str = ""


@dataclass(frozen=True)
class ScenarioChanged(Change):
    scenario_id: str | None = None


@dataclass(frozen=True)
class ScenarioListChanged(ScenarioChanged):
    """Scenarios were added, removed or renamed (the bundle's scenario table and game.yaml's
    list changed): everything is re-validated (``scenario_id`` stays None) and the scenario
    chooser follows ``current``, the scenario to show now (None: keep the one shown, if any)."""

    current: str | None = None


@dataclass(frozen=True)
class DocumentReplaced(Change):
    """The whole bundle was replaced (open, revert, new): views rebuild everything."""
