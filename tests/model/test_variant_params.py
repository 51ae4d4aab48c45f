"""A variant's ``params`` deep-merge over its base's (model.scenario.merge_params, applied by
model.bundle.resolve_variant): variant keys win, nested mappings merge, ``null`` deletes."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from model.bundle import Bundle, load_bundle
from model.scenario import merge_params

BASE_PARAMS = """\
params:
  invasion_area: calais
  ratings:
    blue: {command: 3, dispatch: 2, rule: '10.0.3'}
    red: {command: 2, dispatch: 2}
  mug: [chit-a, chit-b]
  obsolete: {value: 1}
"""

VARIANT_PARAMS = """\
params:
  play_ma: {illustrative: true, infantry: 4}
  ratings:
    blue: {command: 4}
    red: ~
  mug: [chit-c]
  obsolete: null
"""


def make_bundle(tmp_path: Path, base: str = BASE_PARAMS, variant: str = VARIANT_PARAMS) -> Path:
    root = tmp_path / "mini"
    shutil.copytree(FIXTURES / "bundles" / "mini", root)
    with (root / "scenarios" / "base.yaml").open("a", encoding="utf-8") as f:
        f.write(base)
    with (root / "scenarios" / "variant.yaml").open("a", encoding="utf-8") as f:
        f.write(variant)
    return root


def load(root: Path) -> Bundle:
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    return result.bundle


EXPECTED = {
    "invasion_area": "calais",  # kept from the base
    "ratings": {"blue": {"command": "4", "dispatch": "2", "rule": "10.0.3"}},  # merged; red deleted
    "mug": ["chit-c"],  # lists replace
    "play_ma": {"illustrative": True, "infantry": "4"},  # added (numbers stay text, model.formats.yamlio)
}


def test_variant_params_deep_merge_over_the_base(tmp_path: Path) -> None:
    b = load(make_bundle(tmp_path))
    assert b.resolved("variant").params == EXPECTED
    # The base and the variant as written are untouched by resolving.
    assert set(b.scenarios["base"].params) == {"invasion_area", "ratings", "mug", "obsolete"}
    assert b.scenarios["variant"].params["ratings"]["red"] is None
    assert b.resolved("base").params == b.scenarios["base"].params


def test_variant_of_a_variant_merges_at_each_level(tmp_path: Path) -> None:
    root = make_bundle(tmp_path)
    (root / "scenarios" / "grandchild.yaml").write_text(
        "schema_version: 1\nid: grandchild\nname: Grandchild\nextends: variant\n"
        "params:\n  ratings: {red: {command: 1}}\n  play_ma: {infantry: 5}\n", encoding="utf-8")
    game = root / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        "scenarios/variant.yaml]", "scenarios/variant.yaml, scenarios/grandchild.yaml]"), encoding="utf-8")
    b = load(root)
    got = b.resolved("grandchild").params
    assert got["ratings"] == {"blue": {"command": "4", "dispatch": "2", "rule": "10.0.3"}, "red": {"command": "1"}}
    assert got["play_ma"] == {"illustrative": True, "infantry": "5"}
    assert got["invasion_area"] == "calais" and "obsolete" not in got


def test_a_variant_without_params_keeps_the_base_params(tmp_path: Path) -> None:
    b = load(make_bundle(tmp_path, variant=""))
    assert b.resolved("variant").params == b.scenarios["base"].params


def test_save_round_trip_is_stable(tmp_path: Path) -> None:
    root = make_bundle(tmp_path)
    load(root).save()  # canonical form, in place (the system file is not the bundle's to write)
    first = {p: p.read_bytes() for p in sorted(root.rglob("*.yaml"))}
    again = load(root)
    assert again.resolved("variant").params == EXPECTED
    # The variant file still states only what it adds or deletes (nulls included) ...
    written = yaml.safe_load((root / "scenarios" / "variant.yaml").read_text(encoding="utf-8"))
    assert set(written["params"]) == {"play_ma", "ratings", "mug", "obsolete"}
    assert written["params"]["obsolete"] is None and written["params"]["ratings"]["red"] is None
    # ... and saving the reloaded bundle writes nothing new.
    assert again.save() == []
    assert {p: p.read_bytes() for p in sorted(root.rglob("*.yaml"))} == first


def test_playtest_samples_state_only_what_they_add() -> None:
    for bundle_dir, variant, own, inherited in [
        ("utah-beach", "night-drop-playtest", {"play_costs", "play_ma"}, {"victory_tasks", "mug", "ratings"}),
        ("second-front-now", "calais-landing-playtest", {"play_ma"}, {"invasion_area"}),
        ("killing-ground", "operation-overlord-playtest", {"play_costs", "play_ma"}, {"dday_turn"}),
    ]:
        b = load(REPO / "scenarios" / bundle_dir)
        scen = b.scenarios[variant]
        assert set(scen.params) == own, variant
        resolved = b.resolved(variant).params
        base = b.resolved(scen.extends or "").params
        assert inherited <= set(resolved), variant
        for key, value in base.items():
            if key not in own:
                assert resolved[key] == value, (variant, key)


# --- merge_params as a function ----------------------------------------------------------------

leaves = st.one_of(st.integers(), st.text(max_size=3), st.booleans(), st.lists(st.integers(), max_size=2))
keys = st.sampled_from(list("abcd"))
trees = st.recursive(leaves, lambda inner: st.dictionaries(keys, inner, max_size=3), max_leaves=8)
params = st.dictionaries(keys, trees, max_size=4)
variant_trees = st.recursive(st.one_of(leaves, st.none()),
                             lambda inner: st.dictionaries(keys, inner, max_size=3), max_leaves=8)
variant_params = st.dictionaries(keys, variant_trees, max_size=4)


def has_none(value: object) -> bool:
    if value is None:
        return True
    return isinstance(value, dict) and any(has_none(v) for v in value.values())


@settings(max_examples=300, deadline=None)
@given(params, variant_params)
def test_merge_laws(base: dict, variant: dict) -> None:
    b0, v0 = copy.deepcopy(base), copy.deepcopy(variant)
    out = merge_params(base, variant)
    assert base == b0 and variant == v0  # inputs untouched
    assert not has_none(out)  # nulls only delete
    for key, value in variant.items():
        if value is None:
            assert key not in out
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            assert out[key] == merge_params(base[key], value)
        else:
            assert out[key] == merge_params({}, {key: value})[key]
            if not isinstance(value, dict):
                assert out[key] == value  # scalars and lists replace whole
    for key, value in base.items():
        if key not in variant:
            assert out[key] == value  # base keys the variant leaves alone are kept
    assert merge_params(base, {}) == base
    assert merge_params(out, variant) == out  # applying the same variant again changes nothing


def test_merge_result_shares_nothing_mutable() -> None:
    base = {"a": {"x": [1]}, "b": [1]}
    variant = {"c": {"y": [2]}}
    out = merge_params(base, variant)
    out["a"]["x"].append(9)
    out["b"].append(9)
    out["c"]["y"].append(9)
    assert base == {"a": {"x": [1]}, "b": [1]} and variant == {"c": {"y": [2]}}
