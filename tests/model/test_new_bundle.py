"""A bundle from nothing (model/new_bundle.py, `hexproof new`): the label schemes come from
each system's grid and reproduce the samples' printed labels, the new bundle loads and
validates clean for every shipped system, and nothing is ever overwritten or half written."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from hexproof.cli import main
from model.bundle import load_bundle
from model.labels import LabelScheme
from model.new_bundle import (BundlePlan, NewBundleError, SheetPlan, bundle_files, build_bundle, corner_labels,
                              create_bundle, default_scheme, default_sheets, load_plan_system, plan_problems)
from model.safefile import SaveError
from model.system import available_systems
from validators.engine import validate_bundle
from validators.starter import rules_needing_content

SAMPLE_OF = {"sfn": "second-front-now", "gts-utah": "utah-beach", "tkg": "killing-ground"}


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# --- label schemes: from the system, checked against the samples and the rules -------------------------

@pytest.mark.parametrize("system_id", sorted(SAMPLE_OF))
def test_default_schemes_reproduce_every_sample_sheet(system_id: str) -> None:
    """The system's grid gives each sample sheet exactly the scheme its map file spells out."""
    system = load_plan_system(system_id)
    sample = load_bundle(REPO / "scenarios" / SAMPLE_OF[system_id]).bundle
    assert sample is not None
    for hmap in sample.maps.values():
        for sheet in hmap.grid.sheets:
            assert default_scheme(system, sheet.id, sheet.rows) == sheet.labels, (system_id, sheet.id)


def test_corner_labels_of_the_sample_sizes() -> None:
    sfn, gts, tkg = (load_plan_system(s) for s in ("sfn", "gts-utah", "tkg"))
    assert corner_labels(41, 29, default_scheme(sfn, "main", 29)) == {
        "NW": "0000", "NE": "4000", "SW": "0028", "SE": "4028"}
    assert corner_labels(108, 71, default_scheme(gts, "utah", 71)) == {
        "NW": "00.000", "NE": "107.000", "SW": "00.070", "SE": "107.070"}
    assert corner_labels(60, 56, default_scheme(tkg, "N", 56)) == {
        "NW": "N0101", "NE": "N0160", "SW": "N5601", "SE": "N5660"}
    # W and E number their hexrows northward: the south row is 01.
    assert corner_labels(40, 62, default_scheme(tkg, "W", 62)) == {
        "NW": "W6201", "NE": "W6240", "SW": "W0101", "SE": "W0140"}
    assert [s.id for s in default_sheets(tkg, 10, 10)] == ["N"]
    assert [s.id for s in default_sheets(sfn, 10, 10)] == ["main"]


def test_corner_labels_match_the_grid_of_the_map_made() -> None:
    """The preview is what the map will print: the same four labels from the saved grid."""
    system = load_plan_system("tkg")
    plan = BundlePlan(Path("/nowhere/x"), "X", "tkg", (SheetPlan("W", 7, 5, labels=default_scheme(system, "W", 5)),))
    hmap = build_bundle(plan, system).default_map
    spec = hmap.spec
    got = {k: spec.label(spec.hex_at_offset(x, y)) for k, (x, y) in
           {"NW": (0, 0), "NE": (6, 0), "SW": (0, 4), "SE": (6, 4)}.items()}
    assert got == corner_labels(7, 5, default_scheme(system, "W", 5)) == {
        "NW": "W0501", "NE": "W0507", "SW": "W0101", "SE": "W0107"}


def test_new_maps_obey_the_hex_relations_the_rules_give(tmp_path: Path) -> None:
    made = {}
    for system_id, sheets in (("sfn", "41x29"), ("gts-utah", "108x71")):
        assert main(["new", str(tmp_path / system_id), "--system", system_id, "--size", sheets]) == 0
        made[system_id] = load_bundle(tmp_path / system_id).bundle.default_map  # type: ignore[union-attr]
    sfn = made["sfn"]
    # SFN 3.4: 1414 "or 1313, 1314, 1413, 1415, 1513 or 1514" are its neighbours.
    assert sorted(sfn.label(n) for n in sfn.parse("1414").neighbors()) == ["1313", "1314", "1413", "1415", "1513", "1514"]
    assert sfn.parse("2009").distance(sfn.parse("1909")) == 1  # SFN 11.2
    gts = made["gts-utah"]
    assert gts.parse("30.027").distance(gts.parse("20.025")) == 10  # Utah Excl 4.4.7
    assert main(["new", str(tmp_path / "tkg"), "--system", "tkg", "--sheet", "N:60x56", "--sheet", "W:40x62@0,56",
                 "--sheet", "E:40x62@40,56"]) == 0
    tkg = load_bundle(tmp_path / "tkg").bundle.default_map  # type: ignore[union-attr]
    sample = load_bundle(REPO / "scenarios" / "killing-ground").bundle.default_map  # type: ignore[union-attr]
    for label in ("N1410", "N1511", "N2828", "N3551", "W6021", "W4731", "W2433", "E1422", "E0332"):
        assert tkg.label(tkg.parse(label)) == label
        assert tkg.spec.offset(tkg.parse(label)) == sample.spec.offset(sample.parse(label)), label
    assert tkg.parse("N3648").distance(tkg.parse("N3749")) == 1  # the Orne bridge pair


# --- the new bundle loads and validates clean ----------------------------------------------------------

# Rules of a system's pack that a blank map cannot pass (its game's own map content and
# scenario parameters). Listed here so that a new one failing is looked at, not parked blindly.
EXPECTED_PENDING = {
    "sfn": {"SFN-BEACH-001", "SFN-EDGE-001", "SFN-SETUP-001", "SFN-VP-001", "SFN-VP-002"},
    "gts-utah": set(),
    "tkg": {"TKG-DD-001", "TKG-MAP-005", "TKG-MAP-006", "TKG-SCH-003"},
    "example-hex": set(),  # the data-only format example: no pack, the core rules only
}


@pytest.mark.parametrize("system_id", available_systems())
def test_every_shipped_system_makes_a_bundle_that_loads_and_validates_clean(system_id: str, tmp_path: Path) -> None:
    system = load_plan_system(system_id)
    folder = tmp_path / "game"
    plan = BundlePlan(folder, "My Game", system_id, default_sheets(system, 12, 10))
    pending = rules_needing_content(build_bundle(plan, system))
    assert {p.code for p in pending} == EXPECTED_PENDING[system_id]
    made = create_bundle(BundlePlan(folder, "My Game", system_id, default_sheets(system, 12, 10),
                                    ignore_rules=tuple(p.code for p in pending)))
    assert sorted(str(p.relative_to(folder.resolve())) for p in made.written) == [
        "counters.yaml", "game.yaml", "maps/map.yaml", "scenarios/scenario-1.yaml"]
    result = load_bundle(folder)
    assert result.ok, [d.render() for d in result.diagnostics]
    bundle = result.bundle
    assert bundle is not None and bundle.counters == [] and list(bundle.scenarios) == ["scenario-1"]
    assert bundle.game.default_scenario == "scenario-1" and len(bundle.default_map.hexes()) == 120
    assert {bundle.default_map.terrain_at(h) for h in bundle.default_map.hexes()} == {system.terrain[0].id}
    errors = [d.render() for d in validate_bundle(bundle) if d.severity >= d.severity.ERROR]
    assert errors == []
    # The starter scenario spans the system calendar (turns are the system's data).
    turns = system.calendar.all_turns
    scen_turns = bundle.scenarios["scenario-1"].turns
    assert scen_turns is not None and {scen_turns.first, scen_turns.last} & {turns[0].n, turns[0].label}


def test_hexproof_new_then_validate_by_subprocess(tmp_path: Path) -> None:
    folder = tmp_path / "calais-2"
    run = [sys.executable, "-m", "hexproof"]
    made = subprocess.run(run + ["new", str(folder), "--system", "sfn", "--size", "41x29", "--name", "Calais again"],
                          cwd=REPO, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert "corners NW 0000, NE 4000, SW 0028, SE 4028" in made.stdout and "SFN-VP-002" in made.stdout
    checked = subprocess.run(run + ["validate", str(folder)], cwd=REPO, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "0 errors" in checked.stdout
    text = (folder / "game.yaml").read_text()
    assert text.startswith("# validate.ignore:") and "name: Calais again" in text and "id: calais-again" in text


def test_a_system_file_is_copied_into_the_bundle(tmp_path: Path) -> None:
    source = FIXTURES / "bundles" / "mini" / "system.yaml"
    folder = tmp_path / "mine"
    system = load_plan_system(str(source))
    create_bundle(BundlePlan(folder, "Mine", str(source), default_sheets(system, 4, 3), terrain="woods"))
    assert (folder / "system.yaml").read_bytes() == source.read_bytes()
    result = load_bundle(folder)
    assert result.ok and result.bundle is not None and result.bundle.game.system == "system.yaml"
    assert {result.bundle.default_map.terrain_at(h) for h in result.bundle.default_map.hexes()} == {"woods"}


# --- never overwrite, never half write -----------------------------------------------------------------

def test_an_existing_bundle_or_a_non_empty_folder_is_never_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "mini"
    shutil.copytree(FIXTURES / "bundles" / "mini", existing)
    before = _files(existing)
    assert main(["new", str(existing), "--system", "sfn", "--size", "5x5"]) == 2
    assert "already holds a bundle" in capsys.readouterr().err
    assert _files(existing) == before
    other = tmp_path / "notes"
    other.mkdir()
    (other / ".keep").write_text("mine")
    system = load_plan_system("sfn")
    with pytest.raises(NewBundleError, match=r"is not empty \(\.keep\)"):
        create_bundle(BundlePlan(other, "X", "sfn", default_sheets(system, 5, 5)))
    assert _files(other) == {".keep": b"mine"}
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(NewBundleError, match="not a folder"):
        create_bundle(BundlePlan(a_file, "X", "sfn", default_sheets(system, 5, 5)))
    with pytest.raises(NewBundleError, match="does not exist"):
        create_bundle(BundlePlan(tmp_path / "no" / "deeper", "X", "sfn", default_sheets(system, 5, 5)))
    assert not (tmp_path / "no").exists()


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    system = load_plan_system("gts-utah")
    folder = tmp_path / "new"
    real = os.replace
    calls = {"n": 0}

    def third_fails(src: Any, dst: Any) -> None:  # 1st: the journal; 2nd, 3rd …: the files
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(src, dst)

    monkeypatch.setattr(os, "replace", third_fails)
    with pytest.raises(SaveError, match="nothing was saved"):
        create_bundle(BundlePlan(folder, "X", "gts-utah", default_sheets(system, 5, 5)))
    assert not folder.exists()


def test_bad_plans_say_every_problem() -> None:
    system = load_plan_system("sfn")
    plan = BundlePlan(Path("/x/y"), " ", "sfn", (SheetPlan("main", 120, 10, labels=default_scheme(system, "main", 10)),
                                               SheetPlan("b@d", 0, 3)), terrain="lava")
    problems = plan_problems(plan, system)
    assert problems == ["the bundle needs a name",
                        "terrain 'lava' is not a terrain type of Second Front Now "
                        "(clear, forest, hill, marsh, town, city, fortress, sea)",
                        "sheet id 'b@d': use letters, digits, '-' and '_' (at most 32)",
                        "sheet b@d: 0 × 3 hexes; each side is 1 to 5000"]
    wide = BundlePlan(Path("/x/y"), "W", "sfn", (SheetPlan("main", 120, 10, labels=default_scheme(system, "main", 10)),))
    assert plan_problems(wide, system) == ["sheet main: column numbers reach 119, more than 2 digits hold without a "
                                           "separator; add digits or a separator"]
    with pytest.raises(NewBundleError):
        bundle_files(wide, system)
    twins = BundlePlan(Path("/x/y"), "T", "sfn", (SheetPlan("a", 5, 5, 0, 0, LabelScheme()),
                                                  SheetPlan("b", 5, 5, 5, 0, LabelScheme())))
    assert plan_problems(twins, system) == ["sheet b: label '0101' does not read back as its own hex (another sheet "
                                            "prints it too, or it is too wide for its digits)"]
    with pytest.raises(NewBundleError, match="no shipped system 'nope'"):
        load_plan_system("nope")


# --- any plan it accepts labels every hex once ---------------------------------------------------------

schemes = st.builds(LabelScheme, prefix=st.sampled_from(["", "A", "B"]), axis_order=st.sampled_from(["col_row", "row_col"]),
                    col_digits=st.integers(1, 3), row_digits=st.integers(1, 3), separator=st.sampled_from(["", "."]),
                    first_col=st.integers(0, 12), first_row=st.integers(0, 12), col_step=st.sampled_from([1, -1]),
                    row_step=st.sampled_from([1, -1]))
sheets = st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2), st.integers(0, 3), schemes),
                  min_size=1, max_size=3)


@given(sheets, st.sampled_from(["flat", "pointy"]), st.sampled_from(["odd", "even"]))
def test_an_accepted_plan_labels_every_hex_once_and_reads_it_back(specs: list[Any], orientation: str, stagger: str) -> None:
    system = load_plan_system("sfn")
    placed, x = [], 0
    for i, (c, r, gap, y, sch) in enumerate(specs):  # side by side, a gap apart, rows offset
        placed.append(SheetPlan(f"s{i}", c, r, x + gap, y, sch))
        x += gap + c
    plan = BundlePlan(Path("/nowhere/p"), "P", "sfn", tuple(placed), orientation=orientation, stagger=stagger)
    if plan_problems(plan, system):
        return
    hmap = build_bundle(plan, system).default_map
    hexes = hmap.hexes()
    labels = [hmap.label(h) for h in hexes]
    assert len(hexes) == sum(c * r for c, r, *_ in specs)
    assert len(set(labels)) == len(labels)
    assert all(hmap.parse(lab) == h for lab, h in zip(labels, hexes))
