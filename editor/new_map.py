"""An in-memory, one-map bundle for tests and benchmarks (no Qt here). The editor's File ▸
New Bundle… wizard builds real bundles through model/new_bundle.py instead."""

from __future__ import annotations

from pathlib import Path

from model.bundle import Bundle, GameFile, load_system
from model.diagnostics import Diagnostic
from model.labels import GridModel, LabelScheme, Sheet
from model.mapdata import HexMap, TerrainLayer


def new_bundle(root: Path, system_ref: str, cols: int, rows: int, orientation: str = "flat",
               stagger: str = "odd", col_digits: int = 2, row_digits: int = 2, separator: str = "",
               map_id: str = "map") -> tuple[Bundle | None, list[Diagnostic]]:
    """An in-memory bundle with one map filled with the system's first terrain type."""
    diags: list[Diagnostic] = []
    system = load_system(system_ref, None, diags, {})
    if system is None:
        return None, diags
    first = system.terrain[0]
    grid = GridModel(orientation=orientation, stagger=stagger, sheets=[Sheet(
        id="main", cols=cols, rows=rows,
        labels=LabelScheme(col_digits=col_digits, row_digits=row_digits, separator=separator))])
    hmap = HexMap(id=map_id, name="New map", grid=grid,
                  terrain=TerrainLayer(legend={first.char: first.id}, rows="\n".join([first.char * cols] * rows)))
    game = GameFile(id=root.name or "new", name="New game", system=system_ref, maps=[f"maps/{map_id}.yaml"])
    bundle = Bundle(root=root, game=game, system=system, maps={map_id: hmap})
    bundle.files[f"map:{map_id}"] = f"maps/{map_id}.yaml"
    return bundle, diags
