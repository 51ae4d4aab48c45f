"""Narrow re-validation for scenario-only edits (Validator.invalidate(..., bundle=False)):
results equal a full run, bundle-scope rules are not rerun, and a change to a scenario field
bundle-scope rules read (params) still reruns them."""

from __future__ import annotations

from conftest import REPO
from model import scenario_edits as se
from model.bundle import load_bundle
from validators.engine import Validator, validate_bundle


def test_scenario_only_invalidation_keeps_bundle_scope() -> None:
    b = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    assert b is not None
    v = Validator(b)
    v.run()
    n_bundle = sum(1 for r in v.active_rules() if r.scope == "bundle")
    n_scen = sum(1 for r in v.active_rules() if r.scope == "scenario")
    s = b.scenarios["beach-landing"]
    bad = next(h for h in b.default_map.hexes() if b.default_map.terrain_at(h) == "impassable")
    se.place_unit(s, "wn-5", "hex", bad)
    runs = v.runs
    v.invalidate(["beach-landing"], bundle=False)
    got = v.run()
    assert v.runs - runs == n_scen  # one scenario, no bundle-scope rule
    assert [d.render() for d in got] == [d.render() for d in validate_bundle(b)]
    # params are read by bundle-scope rules: changing them reruns those rules
    s.params = {**s.params, "probe": "x"}
    runs = v.runs
    v.invalidate(["beach-landing"], bundle=False)
    v.run()
    assert v.runs - runs == n_scen + n_bundle
