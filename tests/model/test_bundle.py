"""Bundle loading, variants, located structural errors and canonical saving."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES
from model.bundle import load_bundle

MINI = FIXTURES / "bundles" / "mini"


def test_mini_loads_clean() -> None:
    result = load_bundle(MINI)
    assert result.ok, [d.render() for d in result.diagnostics]
    b = result.bundle
    assert b is not None
    hmap = b.maps["mini"]
    assert len(hmap.hexes()) == 24
    assert hmap.terrain_at(hmap.parse("0402")) == "woods"
    assert hmap.terrain_at(hmap.parse("0101")) == "sea"
    assert "river" in hmap.hexside_features(next(iter(hmap.hexside_index)))


def test_variant_applies_overrides() -> None:
    b = load_bundle(MINI).bundle
    assert b is not None
    v = b.resolved("variant")
    assert sorted(e.unit for e in v.setup) == ["a1", "x1"]
    assert v.schedule == []
    assert v.turns == b.scenarios["base"].turns
    # the base scenario is untouched
    assert [e.unit for e in b.scenarios["base"].setup] == ["x1"]


def test_locate_points_into_the_file() -> None:
    b = load_bundle(MINI).bundle
    assert b is not None
    entry = b.resolved("variant").setup[-1]
    loc = b.locate(entry, "hex")
    assert loc.file is not None and loc.file.endswith("variant.yaml")
    assert loc.line == 7 and loc.column == 16


def test_save_load_save_is_byte_identical(tmp_path: Path) -> None:
    b = load_bundle(MINI).bundle
    assert b is not None
    first = tmp_path / "a"
    shutil.copytree(MINI, first)
    b1 = load_bundle(first).bundle
    assert b1 is not None
    b1.save()
    texts1 = {p.relative_to(first): p.read_text() for p in first.rglob("*.yaml")}
    b2 = load_bundle(first).bundle
    assert b2 is not None
    assert b2.save() == []  # nothing changed, nothing written
    texts2 = {p.relative_to(first): p.read_text() for p in first.rglob("*.yaml")}
    assert texts1 == texts2
    # and the models are equal after the round trip
    assert b2.scenarios["base"] == b1.scenarios["base"]
    assert b2.maps["mini"].hexsides == b1.maps["mini"].hexsides


def _broken(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    p = root / rel
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new))
    return root


def test_all_errors_reported_with_locations(tmp_path: Path) -> None:
    root = _broken(tmp_path, "scenarios/base.yaml", "- {unit: x1, hex: '0402'}",
                   "- {unit: x1, hex: '99-99'}\n- {unit: a1, hex: '0101', colour: red}\n- {unit: x1}")
    result = load_bundle(root)
    assert result.bundle is not None  # the rest of the bundle still loads
    rendered = [d.render() for d in result.diagnostics]
    assert any("base.yaml:6:" in r and "not a hex label" in r for r in rendered), rendered
    assert any("base.yaml:7:" in r and "unknown key 'colour'" in r for r in rendered), rendered
    assert any("base.yaml:8:" in r and "exactly one of hex" in r for r in rendered), rendered


def test_malformed_yaml_is_unreadable_not_a_traceback(tmp_path: Path) -> None:
    root = _broken(tmp_path, "game.yaml", "maps: [maps/mini.yaml]", "maps: [maps/mini.yaml")
    result = load_bundle(root)
    assert result.bundle is None
    assert result.diagnostics[0].location.file.endswith("game.yaml")
    assert result.diagnostics[0].location.line is not None


def test_missing_referenced_file(tmp_path: Path) -> None:
    root = _broken(tmp_path, "game.yaml", "counters: counters.yaml", "counters: nowhere.yaml")
    result = load_bundle(root)
    msgs = [d.render() for d in result.diagnostics]
    assert any("nowhere.yaml" in m and "file not found" in m for m in msgs), msgs


def test_game_rule_breach_still_loads(tmp_path: Path) -> None:
    # Unit placed in the sea and listed twice: structurally fine; validators report it.
    root = _broken(tmp_path, "scenarios/base.yaml", "- {unit: x1, hex: '0402'}",
                   "- {unit: x1, hex: '0101'}\n- {unit: x1, hex: '0101'}")
    result = load_bundle(root)
    assert result.ok


def test_extends_cycle_reported(tmp_path: Path) -> None:
    root = _broken(tmp_path, "scenarios/base.yaml", "name: Base scenario", "name: Base scenario\nextends: variant")
    result = load_bundle(root)
    assert any(d.code == "LOAD-REF-003" for d in result.diagnostics)
