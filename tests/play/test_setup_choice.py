"""Automatic set-up of ``adjacent_to`` ("in or adjacent to HEX") entries (play/setup_choice.py,
``Game._setup``): the hex or a neighbour, never an enemy-held hex, never off the map or into
prohibited terrain, within the system's stacking limit; policy setup-adjacent-centre-first.

Fixture: the duel bundle (DUEL 5.0 stacking ``max_units: 2``; column 01 is all sea, prohibited
to every class; every value illustrative). Its grid is flat odd-q: 0404's neighbours in
direction order are 0505, 0504, 0403, 0304, 0305, 0405; 0101's only map neighbours are 0201
and 0102 (sea).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from conftest import FIXTURES
from model.bundle import Bundle, load_bundle
from model.scenario import SetupEntry
from play.game import Game
from play.setup_choice import ADJACENT_POLICY

DUEL = FIXTURES / "playtests" / "duel"
HEX_KEYS = ("hex", "adjacent_to")


@pytest.fixture(scope="module")
def duel() -> Bundle:
    result = load_bundle(DUEL)
    assert result.bundle is not None
    return result.bundle


def _setup(duel: Bundle, setup: list[dict[str, Any]]) -> Game:
    b = copy.deepcopy(duel)
    hmap = Game(b, "meeting", 1).hmap
    b.scenarios["meeting"].setup = [SetupEntry(**{k: hmap.parse(str(v)) if k in HEX_KEYS else v
                                                  for k, v in e.items()}) for e in setup]  # type: ignore[arg-type]
    return Game(b, "meeting", 1)


def _at(g: Game, uid: str) -> str | None:
    return g.label(g.unit(uid).hex) if g.unit(uid).on_map else None


def _setup_event(g: Game, uid: str) -> dict[str, Any]:
    return next(e for e in g.log if e["type"] in ("setup", "setup_refused") and e["unit"] == uid)


def test_the_named_hex_first_when_it_is_free(duel: Bundle) -> None:
    g = _setup(duel, [{"unit": "b3", "adjacent_to": "0404"}])
    assert _at(g, "b3") == "0404"
    ev = _setup_event(g, "b3")
    assert ev["policy"].startswith("setup-adjacent-centre-first:") and ADJACENT_POLICY in ev["policy"]


def test_never_a_hex_the_enemy_holds(duel: Bundle) -> None:
    """The enemy in 0404 (a single-hex entry listed after b3's) sends b3 to the first neighbour;
    with 0505 held too, to the next one in direction order."""
    g = _setup(duel, [{"unit": "b3", "adjacent_to": "0404"}, {"unit": "r2", "hex": "0404"}])
    assert _at(g, "b3") == "0505"
    g = _setup(duel, [{"unit": "r3", "hex": "0505"}, {"unit": "b3", "adjacent_to": "0404"},
                      {"unit": "r2", "hex": "0404"}])
    assert _at(g, "b3") == "0504"
    assert g.hex_of("0504").distance(g.hex_of("0404")) == 1


def test_within_the_stacking_limit_the_system_states(duel: Bundle) -> None:
    """DUEL 5.0 ``max_units: 2``: 0404 already holds two units, b3 goes next door."""
    g = _setup(duel, [{"unit": "b4", "hex": "0404"}, {"unit": "b5", "hex": "0404"},
                      {"unit": "b3", "adjacent_to": "0404"}])
    assert _at(g, "b3") == "0505"
    assert len(g.state.at(g.hex_of("0404"))) == 2


def test_never_off_the_map_nor_into_prohibited_terrain(duel: Bundle) -> None:
    """0101 is sea in the map corner: four of its neighbours are off the map and 0102 is sea —
    only 0201 can take a unit; once it holds two, the third is refused with a logged reason."""
    g = _setup(duel, [{"unit": "b3", "adjacent_to": "0101"}, {"unit": "b4", "adjacent_to": "0101"},
                      {"unit": "b5", "adjacent_to": "0101"}])
    assert _at(g, "b3") == _at(g, "b4") == "0201"
    assert not g.unit("b5").on_map
    ev = _setup_event(g, "b5")
    assert ev["type"] == "setup_refused" and ev["place"] == "in or adjacent to 0101"
    assert "stacking limit" in ev["message"] and ev["policy"] == ADJACENT_POLICY


def test_every_candidate_held_by_the_enemy_is_a_refusal(duel: Bundle) -> None:
    g = _setup(duel, [{"unit": "r2", "hex": "0201"}, {"unit": "b3", "adjacent_to": "0101"}])
    assert not g.unit("b3").on_map
    ev = _setup_event(g, "b3")
    assert ev["type"] == "setup_refused" and "held by the enemy" in ev["message"]
