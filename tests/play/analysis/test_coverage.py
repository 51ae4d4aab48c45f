"""LOS coverage (play/analysis/coverage.py): each hex's count is the number of observers the
LOS engine says see it, plus their own hexes (policy own-hex-covered)."""

from __future__ import annotations

import pytest

from conftest import REPO
from model.bundle import load_bundle
from model.los_fast import FastLos
from model.viewshed import viewshed
from play.analysis.coverage import CoverageError, coverage, observers_for

UTAH = REPO / "scenarios" / "utah-beach"


@pytest.fixture(scope="module")
def bundle():  # type: ignore[no-untyped-def]
    return load_bundle(UTAH).bundle


@pytest.mark.parametrize("night", [False, True])
def test_counts_are_the_viewsheds_summed(bundle, night: bool) -> None:  # type: ignore[no-untyped-def]
    cov = coverage(bundle, "beach-landing", "german", night=night)
    hmap = bundle.map_for(bundle.resolved("beach-landing"))
    fl = FastLos(hmap, bundle.system)
    expected: dict = {}  # type: ignore[type-arg]
    for origin, n in cov.observers.items():
        for h in viewshed(hmap, bundle.system, origin, night=night, engine=fl) | {origin}:
            expected[h] = expected.get(h, 0) + n
    assert cov.counts == expected
    assert sum(cov.observers.values()) == 13  # the sample's German set-up
    assert cov.seconds > 0


def test_night_sees_less(bundle) -> None:  # type: ignore[no-untyped-def]
    """"Night turn LOS is 3 hexes" (the night-drop's special rule, Excl 1.1)."""
    day = coverage(bundle, "night-drop", "german")
    night = coverage(bundle, "night-drop", "german", night=True)
    assert night.covered < day.covered
    assert set(night.counts) <= set(day.counts)


def test_features_as_observers(bundle) -> None:  # type: ignore[no-untyped-def]
    ops = observers_for(bundle, "night-drop", None, "op")
    assert sum(ops.values()) == 2  # the sample map's two OP features
    with pytest.raises(CoverageError, match="no 'bunker' feature"):
        observers_for(bundle, "night-drop", None, "bunker")
    with pytest.raises(CoverageError, match="no unit of side 'martian'"):
        observers_for(bundle, "night-drop", "martian")
