"""The Utah Beach sample bundle: loads clean, the 16 zones equal the printed lists of
Excl 3.2, the rules' worked distance, the 28.049 portion, and ``hexproof info --json``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import REPO, rulebook_text
from model.bundle import Bundle, load_bundle
from model.diagnostics import Severity

BUNDLE = REPO / "scenarios" / "utah-beach"

# Excl 3.2, typed from the rules (the test below also re-reads them from the rules text).
PRINTED = {
    "DZ A": "32.028 33.027 33.028 34.027 34.028 34.029 35.027 35.028 36.028",
    "DZ B": "38.038 39.037 39.038 40.037 40.038 40.039 41.037 41.038 42.038",
    "DZ C": "27.036 28.036 28.037 29.035 29.036 29.037 30.036 30.037 31.036",
    "DZ D": "24.045 25.044 25.045 26.044 26.045 26.046 27.044 27.045 28.045",
    "Alt DZ D": "31.041 32.041 32.042 33.040 33.041 33.042 34.041 34.042",
    "LZ E": "29.037 30.037 30.038 31.037 31.038 31.039 32.037 32.038 32.039",
    "LZ W": ("33.036 33.037 33.038 34.036 34.037 34.038 34.039 35.035 35.036 35.037 35.038 35.039 36.035 36.036 "
             "36.037 36.038 36.039 37.034 37.035 37.036 37.037 37.038 37.039 38.035 38.036 38.037 38.038 38.039 "
             "39.035 39.036 39.037 39.038"),
    "DZ O": "43.030 44.030 44.031 45.029 45.030 46.030 46.031 47.030",
    "LZ O": "42.030 43.029 44.029 45.028 46.029 47.029 43.030 44.030 44.031 45.029 45.030 46.030 46.031 47.030",
    "DZ N": "52.037 52.038 53.036 53.037 54.036 54.037 55.036 55.037",
    "DZ T": "49.031 50.031 50.032 51.030 51.031 51.032 52.031 52.032 53.031",
    "DZ 1": "77.041 77.042 78.041 78.042 78.043 79.041 79.042",
    "DZ 2": "85.044 85.045 86.044 86.045 86.046 87.044 87.045 88.045",
    "DZ 3": "84.039 84.040 84.041 85.038 85.039 85.040 86.040",
    "LZ 4": "87.042 88.042 88.043 89.041 89.042",
    "LZ 5": "81.040 81.041 82.041 82.042",
}


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    result = load_bundle(BUNDLE)
    errors = [d.render() for d in result.diagnostics if d.severity >= Severity.ERROR]
    assert result.bundle is not None and not errors, errors
    return result.bundle


def _zone_labels(bundle: Bundle, name: str) -> set[str]:
    from validators.context import RuleContext
    from validators.packs.gts._gts import zone_hexes

    scen = bundle.resolved("night-drop")
    ctx = RuleContext(bundle, scen, "night-drop")
    zone = next(z for z in scen.drop_zones if z.name == name)
    hexes = zone_hexes(ctx, zone.id)
    assert hexes is not None
    return {ctx.label(h) for h in hexes}


def test_loads_structurally_clean(bundle: Bundle) -> None:
    assert bundle.system.id == "gts-utah" and bundle.system.short == "GTS"
    assert set(bundle.scenarios) == {"night-drop", "beach-landing", "night-drop-leader-losses", "night-drop-playtest"}
    variant = bundle.resolved("night-drop-leader-losses")
    assert variant.optional_rules == {"Excl 18.7": True}
    assert len(variant.drop_zones) == 16
    assert bundle.default_map.illustrative_terrain is True


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_zone_hexes_equal_the_printed_lists(bundle: Bundle, name: str) -> None:
    assert _zone_labels(bundle, name) == set(PRINTED[name].split())


def test_zone_lists_match_the_rules_text(bundle: Bundle) -> None:
    """Read Excl 3.2 itself: every zone line's hexes equal the bundle's zone."""
    text = rulebook_text("gts-utah-beach.txt")
    section = text[text.index("3.2 Where to Drop"):text.index("3.3 How to Drop")]
    lines = re.findall(r"^((?:Alt )?(?:DZ|LZ) \w+): should (?:be in hexes|add the following hexes to DZ O –) (.+)$",
                       section, re.MULTILINE)
    assert len(lines) == 16
    for name, rest in lines:
        printed = set(re.findall(r"\d{2,3}\.\d{3}", rest))
        if name == "LZ O":
            printed |= set(PRINTED["DZ O"].split())
        assert _zone_labels(bundle, name) == printed, name


def test_zone_hexes_are_playable_clear_terrain(bundle: Bundle) -> None:
    hmap = bundle.default_map
    for z in bundle.resolved("night-drop").drop_zones:
        for h in z.hexes:
            assert hmap.terrain_at(h) == "clear", (z.name, hmap.label(h))


def test_worked_distance_example(bundle: Bundle) -> None:
    hmap = bundle.default_map
    assert hmap.parse("30.027").distance(hmap.parse("20.025")) == 10  # Excl 4.4.7


def test_off_map_marker_hexes_exist_but_are_impassable(bundle: Bundle) -> None:
    hmap = bundle.default_map
    for label in ("17.029", "18.027", "16.032", "28.018", "29.017", "44.002"):
        h = hmap.parse(label)
        assert hmap.contains(h) and hmap.terrain_at(h) == "impassable", label


def test_landing_hexes_are_beach(bundle: Bundle) -> None:
    hmap = bundle.default_map
    overlay = bundle.resolved("beach-landing").beach_overlays[0]
    got = {sb.name: ({hmap.label(h) for h in sb.landing.planned}, {hmap.label(h) for h in sb.landing.actual})
           for sb in overlay.sub_beaches}
    assert got == {"Tare Green": ({"22.023", "23.022"}, {"18.026", "19.025"}),
                   "Uncle Red": ({"21.023", "21.024"}, {"17.026", "17.027"})}
    for sb in overlay.sub_beaches:
        for h in sb.landing.planned + sb.landing.actual:
            assert hmap.terrain_at(h) == "beach"


def test_impassable_portion_of_28_049(bundle: Bundle) -> None:
    hmap = bundle.default_map
    portion = hmap.portion_by_hex[hmap.parse("28.049")]
    assert portion.preset == "S"  # the 28.050 side [Excl 2.1]
    assert hmap.spec.offset(hmap.parse("28.050")) == (28, 50)


def test_reinforcement_hexes(bundle: Bundle) -> None:
    hmap = bundle.default_map
    reg = {(loc.side, loc.owner, loc.label): hmap.label(loc.hex) for loc in hmap.locations if loc.kind == "reinforcement_hex"}
    assert reg[("allied", "US", "1")] == "29.030"
    assert reg[("german", "German", "F")] == "52.063"
    assert reg[("german", "265.ID", "A")] == "52.067"


def test_validates_without_errors(bundle: Bundle) -> None:
    from validators.engine import validate_bundle
    from validators.config import Config

    diags = validate_bundle(bundle, Config(preview=True))
    assert [d.render() for d in diags if d.severity >= Severity.WARNING] == []


def test_info_json_prints_labels() -> None:
    out = subprocess.run([sys.executable, "-m", "hexproof", "info", str(BUNDLE), "--json"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    info = json.loads(out)
    scen = {s["id"]: s for s in info["scenarios"]}
    zones = {z["name"]: z for z in scen["night-drop"]["drop_zones"]}
    assert len(zones) == 16
    assert zones["DZ A"]["hexes"][0] == "32.028"
    assert zones["LZ O"]["extends"] == "dz-o"
    overlay = scen["beach-landing"]["beach_overlays"][0]
    assert {sb["name"]: sb["actual"] for sb in overlay["sub_beaches"]}["Uncle Red"] == ["17.026", "17.027"]
    locs = {loc["name"]: loc["hexes"] for m in info["maps"] for loc in m["locations"]}
    assert locs["American Reinforcement Hex 1"] == ["29.030"]
    assert locs["German Reinforcement F"] == ["52.063"]
    assert all(re.fullmatch(r"\d{2,3}\.\d{3}", h) for z in zones.values() for h in z["hexes"])
