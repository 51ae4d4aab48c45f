"""Small maps and the geometry test system, built in code for the geometry tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from model.hexes import Hex
from model.labels import GridModel, LabelScheme, Sheet
from model.mapdata import HexMap
from model.system import GameSystem

GEOM = Path(__file__).resolve().parents[1] / "fixtures" / "geometry"
GTS_LABELS = LabelScheme(separator=".", col_digits=2, row_digits=3, first_col=0, first_row=0)


def system(**los: Any) -> GameSystem:
    data = yaml.safe_load((GEOM / "system.yaml").read_text())
    data["los"].update(los)
    return GameSystem.model_validate(data)


def grid(cols: int, rows: int) -> GridModel:
    return GridModel(orientation="flat", stagger="odd",
                     sheets=[Sheet(id="main", cols=cols, rows=rows, labels=GTS_LABELS)])


def make_map(cols: int = 40, rows: int = 60, terrain: dict[str, str] | None = None,
             hexsides: dict[str, list[str]] | None = None, paths: list[tuple[str, list[str]]] | None = None,
             features: list[tuple[str, str]] | None = None, portions: list[dict[str, Any]] | None = None,
             fill: str = ".") -> HexMap:
    g = grid(cols, rows)
    spec = g.spec()
    lines = [[fill] * cols for _ in range(rows)]
    for label, ch in (terrain or {}).items():
        x, y = spec.offset(spec.parse(label))
        lines[y][x] = ch
    data = {
        "id": "t", "name": "test", "grid": g.model_dump(),
        "terrain": {"legend": {".": "clear", "W": "woods", "T": "town", "H": "hill", "M": "marsh",
                               "F": "flooded", "X": "impassable"},
                    "rows": "\n".join("".join(r) for r in lines)},
        "hexsides": hexsides or {},
        "paths": [{"type": t, "hexes": hs} for t, hs in (paths or [])],
        "features": [{"type": t, "hex": h} for t, h in (features or [])],
        "portions": portions or [],
    }
    return HexMap.model_validate(data, context={"grid": spec})


def H(hmap: HexMap, label: str) -> Hex:
    return hmap.parse(label)
