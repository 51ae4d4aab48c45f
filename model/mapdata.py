"""A hex map: grid and sheets, terrain rows, hexside features, paths, point features,
impassable portions, named locations and areas, and the scanned-map background.

Terrain is stored compactly and readably as a legend plus rows of characters, one row per
offset row of the global grid, one character per column (``-`` = no hex there). Hexside
features are sparse lists of ``HEX/DIR`` keyed by feature type; paths are hex sequences.
A 700×700 map is 700 short lines a person can diff.
"""

from __future__ import annotations

import math

from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator, model_validator

from model.cached import drop_cached
from model.base import HexField, HexsideField, HexsideKey, Node
from model.hexes import Hex
from model.labels import GridModel, GridSpec

if TYPE_CHECKING:
    from model.terrain_index import TerrainIndex

VOID = "-"


class TerrainLayer(Node):
    legend: dict[str, str] = Field(..., description="character → terrain type id")
    rows: str = Field(..., description="one line per offset row; one character per column")

    @field_validator("legend")
    @classmethod
    def _one_char(cls, value: dict[str, str]) -> dict[str, str]:
        bad = [k for k in value if len(k) != 1 or k == VOID]
        if bad:
            raise ValueError(f"legend keys must be single characters other than '{VOID}': {bad}")
        return value

    @field_validator("rows")
    @classmethod
    def _hex_count(cls, value: str) -> str:
        # One character per hex: the text is the map's size (sheets may be far larger and
        # cost nothing). Counted in C, before anything is indexed (model/limits.py).
        from model.limits import MAX_MAP_HEXES

        hexes = len(value) - value.count("\n") - value.count(VOID)
        if hexes > MAX_MAP_HEXES:
            raise ValueError(f"{hexes:,} hexes; the limit is {MAX_MAP_HEXES:,} per map")
        return value

    @cached_property
    def lines(self) -> list[str]:
        return self.rows.split("\n") if self.rows else []

    def char_at(self, x: int, y: int, x_min: int, y_min: int) -> str:
        row = y - y_min
        col = x - x_min
        lines = self.lines
        if 0 <= row < len(lines) and 0 <= col < len(lines[row]):
            return lines[row][col]
        return VOID


class Feature(Node):
    type: str
    hex: HexField
    name: str | None = None
    value: int | str | None = None
    illustrative: bool = False
    rule: str | None = None


class MapPath(Node):
    type: str
    hexes: list[HexField] = Field(..., min_length=2)
    name: str | None = None
    illustrative: bool = False
    rule: str | None = None


class ImpassablePortion(Node):
    """Grey, impassable part of a hex [Utah Excl 2.1, 2.1.14], in hex-local coordinates.

    ``polygon`` points are in units of the hex size, centred on the hex centre, y down, so
    the shape survives rescaling. ``preset`` names the side the grey area lies against
    (``S``) and ``depth`` how far from that side toward the centre dot it reaches (0–1,
    as a fraction of the centre-to-side distance).
    """

    hex: HexField
    polygon: list[tuple[float, float]] | None = None
    preset: str | None = None
    depth: float = Field(0.5, gt=0.0, lt=1.0)
    rule: str | None = None
    illustrative: bool = False

    @model_validator(mode="after")
    def _one_form(self) -> "ImpassablePortion":
        if (self.polygon is None) == (self.preset is None):
            raise ValueError("give either polygon or preset (a side such as S), not both or neither")
        if self.polygon is not None and len(self.polygon) < 3:
            raise ValueError("a portion polygon needs at least 3 points")
        return self


class NamedLocation(Node):
    """A named hex: reinforcement hex, supply source, town, rally point, key hex."""

    id: str
    name: str
    hex: HexField | None = None
    hexes: list[HexField] = Field(default_factory=list)
    kind: str = "location"
    side: str | None = None
    owner: str | None = None
    label: str | None = None
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None

    def all_hexes(self) -> list[Hex]:
        return ([self.hex] if self.hex is not None else []) + list(self.hexes)


class Area(Node):
    """A named set of hexes: assembly area, sector, zone, boundary, breakout line."""

    id: str
    name: str
    kind: str = "area"
    hexes: list[HexField] = Field(default_factory=list)
    side: str | None = None
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None


class CalibrationPoint(Node):
    label: HexField
    x: float
    y: float

    @field_validator("x", "y")
    @classmethod
    def _finite(cls, value: float) -> float:
        # 1e300 or .inf as a pixel raised OverflowError in proof-art (model/limits.py).
        from model.limits import MAX_CALIBRATION_COORD

        if not math.isfinite(value) or abs(value) > MAX_CALIBRATION_COORD:
            raise ValueError(f"pixel coordinate {value:g} is not a finite number within ±{MAX_CALIBRATION_COORD:g}; "
                             f"the limit is {MAX_CALIBRATION_COORD:g}")
        return value


class Background(Node):
    """A scanned map image under the grid, calibrated by hex centres with known labels."""

    image: str
    opacity: float = Field(0.5, ge=0.0, le=1.0)
    calibration: list[CalibrationPoint] = Field(default_factory=list)
    visible: bool = True


class HexMap(Node):
    schema_version: int = 1
    id: str
    name: str
    grid: GridModel
    terrain: TerrainLayer
    hexsides: dict[str, list[HexsideField]] = Field(default_factory=dict, description="feature type → hexsides")
    paths: list[MapPath] = Field(default_factory=list)
    features: list[Feature] = Field(default_factory=list)
    portions: list[ImpassablePortion] = Field(default_factory=list)
    locations: list[NamedLocation] = Field(default_factory=list)
    areas: list[Area] = Field(default_factory=list)
    background: Background | None = None
    provenance: str | None = None
    illustrative_terrain: bool = False

    @cached_property
    def spec(self) -> GridSpec:
        return self.grid.spec()

    # --- hex membership and terrain -----------------------------------------------------

    def offset_origin(self) -> tuple[int, int]:
        x0, y0, _, _ = self.spec.bounds()
        return x0, y0

    def size(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.spec.bounds()
        return x1 - x0, y1 - y0

    @cached_property
    def terrain_index(self) -> TerrainIndex:
        """The dense terrain index of the current rows (built on first use; dropped by
        :meth:`invalidate`). ``terrain_char``/``contains``/``terrain_at``/``hexes`` read it."""
        # Imported here: it needs numpy, which a process that only loads or saves files
        # should not pay for (about 14 MB of RSS and its import time).
        from model.terrain_index import TerrainIndex

        return TerrainIndex(self.spec, self.terrain.lines)

    def terrain_char(self, h: Hex) -> str:
        """The terrain character of a hex, ``-`` when it is not on the grid."""
        return self.terrain_index.char(h)

    def contains(self, h: Hex) -> bool:
        """On the grid: inside a sheet and not marked ``-`` in the terrain rows."""
        return self.terrain_index.char(h) != VOID

    def terrain_at(self, h: Hex) -> str | None:
        ch = self.terrain_index.char(h)
        if ch == VOID:
            return None
        return self.terrain.legend.get(ch)

    def hexes(self) -> list[Hex]:
        """Every hex on the grid, in row-major offset order."""
        return self.terrain_index.hexes()

    def label(self, h: Hex) -> str:
        return self.spec.label(h)

    def parse(self, label: str) -> Hex:
        return self.spec.parse(label)

    def context(self) -> dict[str, Any]:
        return {"grid": self.spec}

    # --- indexes (rebuild with invalidate() after edits) --------------------------------

    def invalidate(self) -> None:
        """Forget every index built from the fields (after an edit in place): all of this map's
        cached properties and its terrain layer's."""
        drop_cached(self)
        drop_cached(self.terrain)

    @cached_property
    def hexside_index(self) -> dict[HexsideKey, tuple[str, ...]]:
        index: dict[HexsideKey, list[str]] = {}
        for kind, keys in self.hexsides.items():
            for key in keys:
                index.setdefault(key, []).append(kind)
        return {k: tuple(v) for k, v in index.items()}

    @cached_property
    def features_by_hex(self) -> dict[Hex, tuple[Feature, ...]]:
        index: dict[Hex, list[Feature]] = {}
        for f in self.features:
            index.setdefault(f.hex, []).append(f)
        return {k: tuple(v) for k, v in index.items()}

    @cached_property
    def paths_by_hex(self) -> dict[Hex, tuple[MapPath, ...]]:
        index: dict[Hex, list[MapPath]] = {}
        for p in self.paths:
            for h in p.hexes:
                lst = index.setdefault(h, [])
                if p not in lst:
                    lst.append(p)
        return {k: tuple(v) for k, v in index.items()}

    @cached_property
    def portion_by_hex(self) -> dict[Hex, ImpassablePortion]:
        return {p.hex: p for p in self.portions}

    def hexside_features(self, key: HexsideKey) -> tuple[str, ...]:
        return self.hexside_index.get(key, ())

    def location(self, loc_id: str) -> NamedLocation | None:
        for loc in self.locations:
            if loc.id == loc_id:
                return loc
        return None

    def area(self, area_id: str) -> Area | None:
        for a in self.areas:
            if a.id == area_id:
                return a
        return None
