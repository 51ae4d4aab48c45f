"""Copies forget cached values (model/cached.py): pydantic's ``model_copy`` copies the instance
dict, where ``functools.cached_property`` keeps its value, so before this a copy with other
fields answered from the original's indexes."""

from __future__ import annotations

from functools import cached_property

from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO
from model.base import Node
from model.bundle import load_bundle
from model.cached import DropsCachedOnCopy, cached_names
from model.hexes import Hex
from model.labels import LabelScheme
from model.mapdata import HexMap

UTAH = REPO / "scenarios" / "utah-beach"


class _Base(DropsCachedOnCopy):
    n: int = 0

    @cached_property
    def double(self) -> int:
        return 2 * self.n


class _Child(_Base):
    @cached_property
    def square(self) -> int:
        return self.n * self.n


def test_cached_names_walk_the_bases() -> None:
    assert cached_names(_Child) == ("square", "double")
    assert set(cached_names(LabelScheme)) == {"pattern", "format_template"}
    assert {"terrain_index", "hexside_index", "spec"} <= set(cached_names(HexMap))
    assert issubclass(HexMap, Node) and issubclass(Node, DropsCachedOnCopy)


@given(st.integers(-1000, 1000), st.integers(-1000, 1000), st.booleans())
def test_a_copy_computes_its_cached_values_from_its_own_fields(a: int, b: int, deep: bool) -> None:
    one = _Child(n=a)
    assert (one.double, one.square) == (2 * a, a * a)  # both cached in the original
    other = one.model_copy(update={"n": b}, deep=deep)
    assert (other.double, other.square) == (2 * b, b * b)
    assert (one.double, one.square) == (2 * a, a * a)
    same = one.model_copy(deep=deep)  # no update: the same fields, the cached values kept
    assert same.__dict__.get("square") == a * a and same.double == 2 * a


def test_a_map_copy_with_other_rows_answers_from_them() -> None:
    """HexMap.model_copy(update={"terrain": ...}): the copy's terrain index is its own (before,
    the original's index was kept, so terrain_char read the old rows)."""
    bundle = load_bundle(UTAH).bundle
    assert bundle is not None
    hmap = next(iter(bundle.maps.values()))
    h = next(iter(hmap.hexes()))
    old = hmap.terrain_char(h)  # the index is built and cached now
    lines = hmap.terrain.lines
    x, y = next((x, y) for y, line in enumerate(lines) for x, ch in enumerate(line) if ch != "-")
    changed = next(c for c in hmap.terrain.legend if c != lines[y][x])
    rows = list(lines)
    rows[y] = rows[y][:x] + changed + rows[y][x + 1:]
    terrain = hmap.terrain.model_copy(update={"rows": "\n".join(rows)})
    copy = hmap.model_copy(update={"terrain": terrain})
    assert copy.terrain_index is not hmap.terrain_index
    assert copy.terrain.lines[y][x] == changed and hmap.terrain.lines[y][x] != changed
    assert hmap.terrain_char(h) == old
    changed_hexes = [k for k in copy.hexes() if copy.terrain_char(k) != hmap.terrain_char(k)]
    assert len(changed_hexes) == 1 and isinstance(changed_hexes[0], Hex)
