"""model/los.py helpers that the LOS evaluator leans on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from model.base import HexsideKey, hexside_key
from model.geometry import hex_sides
from model.hexes import Hex
from model.los import SidesOf

_hex = st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4))


@given(_hex, _hex, _hex, st.integers(0, 5), st.booleans())
def test_sides_of_equals_the_set_of_both_hexes_sides(a: Hex, b: Hex, h: Hex, d: int, canonical: bool) -> None:
    """``key in SidesOf(F, T)`` is evaluate's firer/target-side test, e.g. for Utah Excl 2.2.2
    (errata): "A Ridge hexside blocks LOS unless the Ridge hexside is part of the firing Unit's
    hex or the target Unit's hex." It answers as the set of the twelve canonical keys did, for
    canonical keys and for raw (hex, 3..5) ones."""
    key = hexside_key(h, d) if canonical else HexsideKey(h, d)
    assert (key in SidesOf(a, b)) == (key in set(hex_sides(a)) | set(hex_sides(b)))
