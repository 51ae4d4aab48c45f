"""Pure, Qt-free model edits: each function mutates a map and returns what undoes it.

The editor's undo commands are thin wrappers over these, so the same edits are tested
without Qt. Every function leaves the map's indexes fresh (``hmap.invalidate()``), and every
"undo" value restores the *serialised* form exactly (list order, empty keys, legend), which
is what the undo-law tests check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.base import HexsideKey, Node
from model.hexes import Hex
from model.mapdata import VOID, Background, CalibrationPoint, Feature, HexMap, ImpassablePortion, MapPath
from model.system import GameSystem

# --- terrain --------------------------------------------------------------------------------


def _cell(hmap: HexMap, h: Hex) -> tuple[int, int]:
    x, y = hmap.spec.offset(h)
    x0, y0 = hmap.offset_origin()
    return y - y0, x - x0


def set_chars(hmap: HexMap, chars: dict[Hex, str]) -> dict[Hex, str]:
    """Write terrain characters; returns the previous character of each hex.

    Rows are strings, so only the affected rows are rebuilt (a 700-row map stays cheap).
    Hexes outside every sheet are skipped: terrain exists only on the grid.
    """
    lines = list(hmap.terrain.lines)
    by_row: dict[int, dict[int, str]] = {}
    old: dict[Hex, str] = {}
    for h, ch in chars.items():
        if hmap.spec.sheet_of(h) is None:
            continue
        row, col = _cell(hmap, h)
        if row < 0 or col < 0:
            continue
        by_row.setdefault(row, {})[col] = ch
        old[h] = hmap.terrain.char_at(*hmap.spec.offset(h), *hmap.offset_origin())
    for row, cols in by_row.items():
        while len(lines) <= row:
            lines.append("")
        line = list(lines[row])
        need = max(cols) + 1
        if len(line) < need:
            line.extend(VOID * (need - len(line)))
        for col, ch in cols.items():
            line[col] = ch
        lines[row] = "".join(line)
    if by_row:
        hmap.terrain.rows = "\n".join(lines)
        hmap.invalidate()
    return old


def char_for(hmap: HexMap, terrain_id: str, system: GameSystem | None = None) -> str:
    """The legend character for a terrain type, adding a legend entry if the map lacks one.

    The system's own character is preferred so files stay readable; a free character is
    used only when the map already spends that one on another terrain.
    """
    for ch, tid in hmap.terrain.legend.items():
        if tid == terrain_id:
            return ch
    preferred = None
    if system is not None and terrain_id in system.terrain_by_id:
        preferred = system.terrain_by_id[terrain_id].char
    used = set(hmap.terrain.legend)
    pool = ([preferred] if preferred else []) + list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    ch = next(c for c in pool if c not in used and c != VOID)
    hmap.terrain.legend = {**hmap.terrain.legend, ch: terrain_id}
    return ch


@dataclass(frozen=True)
class TerrainUndo:
    old_chars: dict[Hex, str]
    old_legend: dict[str, str]


def set_terrain(hmap: HexMap, changes: dict[Hex, str], system: GameSystem | None = None) -> TerrainUndo:
    """Paint terrain ids onto hexes that are on the map (``contains``); returns the undo."""
    legend = dict(hmap.terrain.legend)
    chars = {h: char_for(hmap, tid, system) for h, tid in changes.items() if hmap.contains(h)}
    old = set_chars(hmap, chars)
    return TerrainUndo(old, legend)


def restore_terrain(hmap: HexMap, undo: TerrainUndo) -> None:
    set_chars(hmap, undo.old_chars)
    hmap.terrain.legend = dict(undo.old_legend)
    hmap.invalidate()


# --- hexsides -------------------------------------------------------------------------------


@dataclass(frozen=True)
class HexsideUndo:
    kind: str
    key: HexsideKey
    index: int | None  # where it was (None = it was absent)
    had_kind: bool  # whether ``hexsides[kind]`` existed before


def set_hexside(hmap: HexMap, key: HexsideKey, kind: str) -> HexsideUndo:
    keys = hmap.hexsides.get(kind)
    had = keys is not None
    if keys is not None and key in keys:
        return HexsideUndo(kind, key, keys.index(key), had)
    hmap.hexsides = {**hmap.hexsides, kind: list(keys or []) + [key]}
    hmap.invalidate()
    return HexsideUndo(kind, key, None, had)


def clear_hexside(hmap: HexMap, key: HexsideKey, kind: str) -> HexsideUndo:
    keys = hmap.hexsides.get(kind)
    had = keys is not None
    if keys is None or key not in keys:
        return HexsideUndo(kind, key, None, had)
    index = keys.index(key)
    rest = keys[:index] + keys[index + 1:]
    new = dict(hmap.hexsides)
    new[kind] = rest
    hmap.hexsides = new
    hmap.invalidate()
    return HexsideUndo(kind, key, index, had)


def restore_hexside(hmap: HexMap, undo: HexsideUndo) -> None:
    new = dict(hmap.hexsides)
    keys = [k for k in new.get(undo.kind, []) if k != undo.key]
    if undo.index is not None:
        keys.insert(undo.index, undo.key)
    if keys or undo.had_kind:
        new[undo.kind] = keys
    else:
        new.pop(undo.kind, None)
    hmap.hexsides = new
    hmap.invalidate()


# --- list items: paths, features, portions -------------------------------------------------


def insert_item(hmap: HexMap, field: str, item: Node, index: int | None = None) -> int:
    items: list[Any] = getattr(hmap, field)
    index = len(items) if index is None else index
    items.insert(index, item)
    hmap.invalidate()
    return index


def remove_item(hmap: HexMap, field: str, index: int) -> Node:
    items: list[Any] = getattr(hmap, field)
    item = items.pop(index)
    hmap.invalidate()
    return item  # type: ignore[no-any-return]


def add_path(hmap: HexMap, path: MapPath, index: int | None = None) -> int:
    return insert_item(hmap, "paths", path, index)


def remove_path(hmap: HexMap, index: int) -> MapPath:
    return remove_item(hmap, "paths", index)  # type: ignore[return-value]


def place_feature(hmap: HexMap, feature: Feature, index: int | None = None) -> int:
    return insert_item(hmap, "features", feature, index)


def remove_feature(hmap: HexMap, index: int) -> Feature:
    return remove_item(hmap, "features", index)  # type: ignore[return-value]


@dataclass(frozen=True)
class PortionUndo:
    hex: Hex
    old: ImpassablePortion | None
    index: int | None


def set_portion(hmap: HexMap, portion: ImpassablePortion) -> PortionUndo:
    """One portion per hex: replaces the hex's portion in place, or appends."""
    for i, p in enumerate(hmap.portions):
        if p.hex == portion.hex:
            hmap.portions[i] = portion
            hmap.invalidate()
            return PortionUndo(portion.hex, p, i)
    hmap.portions.append(portion)
    hmap.invalidate()
    return PortionUndo(portion.hex, None, None)


def clear_portion(hmap: HexMap, h: Hex) -> PortionUndo:
    for i, p in enumerate(hmap.portions):
        if p.hex == h:
            hmap.portions.pop(i)
            hmap.invalidate()
            return PortionUndo(h, p, i)
    return PortionUndo(h, None, None)


def restore_portion(hmap: HexMap, undo: PortionUndo) -> None:
    current = [i for i, p in enumerate(hmap.portions) if p.hex == undo.hex]
    for i in reversed(current):
        hmap.portions.pop(i)
    if undo.old is not None:
        index = len(hmap.portions) if undo.index is None else min(undo.index, len(hmap.portions))
        hmap.portions.insert(index, undo.old)
    hmap.invalidate()


# --- background and generic properties ------------------------------------------------------


def set_background(hmap: HexMap, background: Background | None) -> Background | None:
    old = hmap.background
    hmap.background = background
    return old


def set_calibration(hmap: HexMap, points: list[CalibrationPoint]) -> list[CalibrationPoint]:
    if hmap.background is None:
        raise ValueError("load a background image before calibrating it")
    old = list(hmap.background.calibration)
    hmap.background.calibration = list(points)
    return old


_UNSET = object()


def set_property(node: Node, name: str, value: Any) -> Any:
    """Assign a field through pydantic validation; returns the old value.

    A field absent from ``model_fields_set`` is dropped from the set again on undo (see
    :func:`restore_property`) so defaults stay out of the saved file.
    """
    if name not in type(node).model_fields:
        raise AttributeError(f"{type(node).__name__} has no field {name!r}")
    old = getattr(node, name) if name in node.model_fields_set else _UNSET
    if old is _UNSET:
        old = (_UNSET, getattr(node, name))
    setattr(node, name, value)
    if isinstance(node, HexMap):
        node.invalidate()
    return old


def restore_property(node: Node, name: str, old: Any) -> None:
    if isinstance(old, tuple) and len(old) == 2 and old[0] is _UNSET:
        setattr(node, name, old[1])
        node.model_fields_set.discard(name)
    else:
        setattr(node, name, old)
    if isinstance(node, HexMap):
        node.invalidate()
