"""Semantic diff on known edits: each edit must appear as exactly the expected errata line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO
from hexproof.cli import main
from model.bundle import load_bundle
from model.diff import diff_bundles
from model.formats.yamlio import dump_yaml, parse_yaml

MINI = FIXTURES / "bundles" / "mini"


def _edit(root: Path, rel: str, fn) -> None:
    path = root / rel
    data, _, _ = parse_yaml(path.read_text(), rel)
    fn(data)
    path.write_text(dump_yaml(data))


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(MINI, old)
    shutil.copytree(MINI, new)
    return old, new


def _kinds(old: Path, new: Path) -> list[tuple[str, str]]:
    a, b = load_bundle(old).bundle, load_bundle(new).bundle
    assert a is not None and b is not None
    return [(c.kind, c.text) for c in diff_bundles(a, b)]


def test_identical_bundles_have_no_changes(pair) -> None:
    assert _kinds(*pair) == []


def test_unit_moved_and_added(pair) -> None:
    old, new = pair
    _edit(new, "scenarios/base.yaml", lambda d: d["setup"][0].update(hex="0502"))
    changes = _kinds(old, new)
    assert ("setup.moved", "setup: x1 0402 → 0502") in changes
    # the variant inherits the move
    assert sum(1 for k, _ in changes if k == "setup.moved") == 2


def test_schedule_moved_to_another_turn(pair) -> None:
    old, new = pair
    _edit(new, "scenarios/base.yaml", lambda d: d["schedule"][0].update(turn=3))
    assert ("schedule.moved", "schedule: reinforcement of a1 moved from turn 2 to 3") in _kinds(old, new)


def test_counter_value_changed(pair) -> None:
    old, new = pair
    _edit(new, "counters.yaml", lambda d: d["counters"][0]["front"]["values"].update(attack=4))
    assert ("counter.changed", "1st Inf (a1): front.attack 3 → 4") in _kinds(old, new)


def test_terrain_change_summarised_by_area(pair) -> None:
    old, new = pair

    def paint(d):
        rows = d["terrain"]["rows"].split("\n")
        rows[0] = "~...WW"
        d["terrain"]["rows"] = "\n".join(rows)

    _edit(new, "maps/mini.yaml", paint)
    changes = _kinds(old, new)
    assert ("terrain.changed", "terrain clear → woods in 2 hex(es): 0501, 0601") in changes


def test_hexside_added(pair) -> None:
    old, new = pair
    _edit(new, "maps/mini.yaml", lambda d: d["hexsides"]["river"].append("0101/S"))
    assert ("hexside.added", "river hexside added: 0101|0102") in _kinds(old, new)


def test_cli_json(pair, capsys) -> None:
    old, new = pair
    _edit(new, "scenarios/base.yaml", lambda d: d["setup"].append({"unit": "a1", "hex": "0203"}))
    assert main(["diff", str(old), str(new), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"kind": "setup.added", "where": "scenario base", "text": "setup: a1 added at 0203", "data": {"unit": "a1"}} in out["changes"]


@pytest.mark.parametrize("sample", sorted(p.parent.name for p in (REPO / "scenarios").glob("*/game.yaml")) or ["none"])
def test_sample_diff_with_itself_is_empty(sample: str) -> None:
    if sample == "none":
        pytest.skip("no samples yet")
    b = load_bundle(REPO / "scenarios" / sample).bundle
    assert b is not None
    assert diff_bundles(b, b) == []


def test_two_scenario_files_of_one_bundle_are_compared_with_each_other(capsys) -> None:
    """Issue #19: "`hexproof diff` given two scenario files compares the bundles and prints 'no
    differences'". Two scenario files name those two scenarios, even inside one bundle."""
    base, variant = MINI / "scenarios" / "base.yaml", MINI / "scenarios" / "variant.yaml"
    assert main(["diff", str(base), str(variant)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("scenario base → variant:") and "no differences" not in out
    assert main(["diff", str(base), str(base)]) == 0
    assert capsys.readouterr().out == "no differences\n"


def test_params_are_compared_key_by_key(pair) -> None:
    old, new = pair
    _edit(old, "scenarios/base.yaml", lambda d: d.setdefault("params", {}).update(play_ma={"infantry": 4}, gone=1))
    _edit(new, "scenarios/base.yaml", lambda d: d.setdefault("params", {}).update(play_ma={"infantry": 3}, mug=["a"]))
    changes = [(k, t) for k, t in _kinds(old, new) if k.startswith("params.")]
    assert ("params.changed", "params play_ma.infantry: 4 → 3") in changes
    assert ("params.added", "params mug added: ['a']") in changes
    assert ("params.removed", "params gone removed (was 1)") in changes
