"""Reachable sets: the fast path and the reference agree; refusals carry rule cases."""

from __future__ import annotations

import pytest

from conftest import FIXTURES
from model.bundle import load_bundle
from play import moves

DUEL = FIXTURES / "playtests" / "duel"


@pytest.fixture(scope="module")
def duel():
    bundle = load_bundle(DUEL).bundle
    assert bundle is not None
    return bundle


@pytest.mark.parametrize("start,mp,mclass", [("0202", 4, "foot"), ("0503", 3, "foot"), ("0201", 6, "wheel"),
                                             ("0805", 2.5, "foot")])
def test_fast_path_and_reference_agree(duel, start: str, mp: float, mclass: str) -> None:
    hmap, system = duel.default_map, duel.system
    s = hmap.parse(start)
    enemy = {hmap.parse("0702")}
    stop = {n for n in hmap.parse("0702").neighbors()}
    a = moves.reachable(hmap, system, s, mp, mclass, blocked=enemy, stop=stop)
    b = moves.reachable_reference(hmap, system, s, mp, mclass, blocked=enemy, stop=stop)
    assert a.cost == b.cost
    assert len(a.cost) > 1


@pytest.mark.parametrize("path", [moves.reachable, moves.reachable_reference])
def test_refusal_reasons(duel, path) -> None:
    hmap, system = duel.default_map, duel.system
    r = path(hmap, system, hmap.parse("0202"), 4, "foot")
    assert r.refused[hmap.parse("0102")] == ("prohibited terrain (Sea)", "DUEL 2.4")
    assert r.path_to(hmap.parse("0205"))[-1] == hmap.parse("0205")


def test_unknown_costs_are_not_invented(duel) -> None:
    data = duel.system.model_dump()
    for t in data["terrain"]:
        if t["id"] == "woods":
            t["move"] = {"foot": "unknown", "wheel": "unknown"}
    data["id"] = "duel-unknown-woods"  # model.movement caches step tables by system id
    system = type(duel.system).model_validate(data)
    hmap = duel.default_map
    woods = hmap.parse("0402")
    r = moves.reachable(hmap, system, hmap.parse("0302"), 4, "foot")
    assert woods not in r.cost and "unknown" in r.refused[woods][0]
    r = moves.reachable(hmap, system, hmap.parse("0302"), 4, "foot", costs={"woods": 2})
    assert r.cost[woods] == 2
