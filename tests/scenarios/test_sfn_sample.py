"""The Second Front Now sample bundle: loads clean, holds the hexes the rules name, its
grid reproduces rule 3.4's neighbour list, its SFN rules are quiet, and each broken
variant in tests/fixtures/broken/sfn-*.yaml raises exactly the codes it expects."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, REPO
from hexproof.commands.info import summarize
from model.bundle import Bundle, load_bundle
from model.diagnostics import Severity
from validators.engine import validate_bundle

sys.path.insert(0, str(REPO / "tests" / "validators"))
from fixture_edits import copy_and_edit  # noqa: E402

BUNDLE = REPO / "scenarios" / "second-front-now"
BROKEN = sorted((FIXTURES / "broken").glob("sfn-*.yaml"))


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    result = load_bundle(BUNDLE)
    assert result.bundle is not None, result.diagnostics
    return result.bundle


def test_loads_clean_structurally() -> None:
    result = load_bundle(BUNDLE)
    assert result.ok, [str(d) for d in result.diagnostics]
    assert result.diagnostics == []


@pytest.mark.parametrize("label,terrain", [
    ("2412", "city"), ("1414", "city"), ("1211", "town"), ("2005", "fortress"), ("1525", "city"),
    ("2210", "city"), ("1510", "town"), ("1511", "clear"), ("1012", "fortress"), ("1013", "clear"),
    ("1909", "clear"), ("2006", "clear"), ("2009", "clear"), ("1910", "clear"), ("1310", "clear"),
    ("1411", "clear"), ("1611", "clear"), ("1710", "clear"), ("3100", "clear"), ("2828", "clear"),
    ("4013", "clear"), ("3421", "clear"), ("1828", "clear"), ("2109", "clear"), ("2309", "clear"),
])
def test_named_hexes_present(bundle: Bundle, label: str, terrain: str) -> None:
    hmap = bundle.default_map
    assert hmap.terrain_at(hmap.parse(label)) == terrain


def test_neighbours_of_1414_match_rule_3_4(bundle: Bundle) -> None:
    hmap = bundle.default_map
    got = sorted(hmap.label(n) for n in hmap.parse("1414").neighbors())
    assert got == ["1313", "1314", "1413", "1415", "1513", "1514"]


def test_abbeville_neighbours_match_combat_example(bundle: Bundle) -> None:
    hmap = bundle.default_map
    got = {hmap.label(n) for n in hmap.parse("2210").neighbors()}
    assert {"2109", "2110", "2209", "2211", "2309", "2310"} == got


def test_hexsides_from_the_rules(bundle: Bundle) -> None:
    from model.base import hexside_between

    hmap = bundle.default_map
    p = hmap.parse
    assert "major_river" in hmap.hexside_features(hexside_between(p("1414"), p("1415")))  # 12.4
    assert "all_sea" in hmap.hexside_features(hexside_between(p("1012"), p("1013")))  # 12.3
    assert "all_sea" in hmap.hexside_features(hexside_between(p("2009"), p("1909")))  # 11.2


def test_breakout_line_examples(bundle: Bundle) -> None:
    hmap = bundle.default_map
    inside = set(hmap.area("breakout-perimeter").hexes)
    assert hmap.parse("1912") in inside and hmap.parse("2404") in inside
    assert hmap.parse("2013") not in inside
    assert not any(hmap.label(h).startswith("25") for h in inside)
    centres = {f.hex for f in hmap.features if f.type == "population_center"}
    assert len(centres & inside) == 7  # 6.1: "the seven population centers ... inside the breakout line"


def test_calendar(bundle: Bundle) -> None:
    turns = bundle.system.calendar.all_turns
    assert len(turns) == 80
    assert turns[0].label == "GT 1 (02 Sep 1943)"
    assert turns[59].label == "GT 60 (31 Oct 1943)"  # 7.1
    assert turns[79].label == "GT 80 (20 Nov 1943)"  # 4.1


def test_sfn_rules_quiet_on_sample(bundle: Bundle) -> None:
    diags = [d for d in validate_bundle(bundle) if d.code.startswith("SFN-") or d.severity >= Severity.ERROR]
    assert diags == []


def test_info_json_has_boxes_and_scenarios(bundle: Bundle) -> None:
    info = json.loads(json.dumps(summarize(bundle)))
    boxes = {b["id"] for b in info["boxes"]}
    assert {"england", "north", "south", "italy", "russia", "dead-allied", "dead-german"} <= boxes
    scen = {s["id"]: s for s in info["scenarios"]}
    assert set(scen) == {"calais-landing", "dieppe-landing", "calais-riga-odessa", "calais-landing-playtest",
                         "calais-optional-rules", "calais-airdrop-ezoc"}
    assert scen["calais-riga-odessa"]["extends"] == "calais-landing"
    assert scen["dieppe-landing"]["turns"]["last_label"] == "GT 80 (20 Nov 1943)"


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_variant(path: Path, tmp_path: Path) -> None:
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    root = copy_and_edit(spec["bundle"], spec.get("edits", []), tmp_path)
    result = load_bundle(root)
    assert result.bundle is not None, result.diagnostics
    from validators.config import Config

    cfg = Config(scenarios=(spec["scenario"],)) if spec.get("scenario") else Config()
    codes = {d.code for d in validate_bundle(result.bundle, cfg) if d.code.startswith("SFN-")}
    assert codes == set(spec["expect_codes"])
