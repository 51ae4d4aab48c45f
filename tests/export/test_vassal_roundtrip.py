"""Export → import → ``hexproof diff`` for each sample: no differences in what a VASSAL module
carries (maps and their hexes, every hex label, terrain by colour, counters with both sides,
setups on hexes); what it cannot carry is exactly the documented list (docs/vassal.md,
"What VASSAL cannot hold"). The exported module also passes Hexproof's own VASSAL checker."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conftest import REPO
from hexproof.cli import main
from model.bundle import Bundle, load_bundle
from model.diff import Change, diff_bundles

if importlib.util.find_spec("pywargame") is None:
    pytest.skip("pywargame not installed (the [test] extra)", allow_module_level=True)

pytestmark = pytest.mark.usefixtures("qapp")

SAMPLES = {"utah-beach": "gts-utah", "second-front-now": "sfn", "killing-ground": "tkg"}

# Change kinds for what a module cannot carry (docs/vassal.md lists each with its reason).
NOT_CARRIED_PREFIXES = ("hexside.", "path.", "feature.", "portion.", "location.", "area.", "schedule.",
                        "drop_zone.", "overlay.", "special_rule.", "params.")
NOT_CARRIED_KINDS = {"scenario.turns", "scenario.optional_rules", "scenario.vp"}
NOT_CARRIED_SCENARIO_FIELDS = ("weather:", "first_player:")


@pytest.fixture(scope="module", params=sorted(SAMPLES))
def round_trip(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Bundle, Bundle]:
    sample = request.param
    work = tmp_path_factory.mktemp(f"rt-{sample}")
    vmod = work / f"{sample}.vmod"
    assert main(["export-vassal", str(REPO / "scenarios" / sample), "--out", str(vmod)]) == 0
    assert main(["import-vassal", str(vmod), "--out", str(work / "imported"), "--system", SAMPLES[sample]]) == 0
    original = load_bundle(REPO / "scenarios" / sample).bundle
    imported = load_bundle(work / "imported").bundle
    assert original is not None and imported is not None
    return sample, vmod, original, imported


def test_export_passes_the_vassal_checker(round_trip: tuple[str, Path, Bundle, Bundle]) -> None:
    """Schema, images, setup positions on hexes, and every label VASSAL's numbering formulas
    give equal to Hexproof's (model/formats/vassal_check.py)."""
    from model.formats.vassal_check import check_vmod, lattice_labels

    sample, vmod, original, _ = round_trip
    assert [f.render() for f in check_vmod(vmod, lattice_labels(original.default_map))] == []


def _bare_hex(original: Bundle, sid: str, unit: str) -> list[str]:
    scen = original.resolved(sid)
    hmap = original.map_for(scen)
    return [hmap.label(e.hex if e.hex is not None else e.adjacent_to) for e in scen.setup
            if e.unit == unit and (e.hex is not None or e.adjacent_to is not None)]


def _carried(change: Change, original: Bundle) -> bool:
    """True when the change is in something the module carries (so it must not happen)."""
    if change.kind.startswith(NOT_CARRIED_PREFIXES) or change.kind in NOT_CARRIED_KINDS:
        return False
    if change.kind == "scenario.changed" and change.text.startswith(NOT_CARRIED_SCENARIO_FIELDS):
        return False
    sid = change.where.removeprefix("scenario ")
    if change.kind == "setup.removed":
        # only units that set up off the board (box, area, named location)
        return bool(_bare_hex(original, sid, change.data["unit"]))
    if change.kind == "setup.moved":
        # "in or adjacent to", alternatives and state markers fall away; the hex must stay
        return change.data["new"] != _bare_hex(original, sid, change.data["unit"])
    return True


def test_round_trip_changes_only_what_vassal_cannot_carry(round_trip: tuple[str, Path, Bundle, Bundle]) -> None:
    sample, _, original, imported = round_trip
    changes = diff_bundles(original, imported)
    carried = [c.text for c in changes if _carried(c, original)]
    assert carried == [], f"{sample}: {carried[:10]}"


def test_round_trip_keeps_every_label_and_sheet(round_trip: tuple[str, Path, Bundle, Bundle]) -> None:
    """Labels are compared hex by hex (the diff only shows them through setups)."""
    sample, _, original, imported = round_trip
    a, b = original.default_map, imported.default_map
    assert b.id == a.id
    assert [s.id for s in b.spec.sheets] == [s.id for s in a.spec.sheets]
    assert [(s.x0, s.y0, s.cols, s.rows, s.labels) for s in b.spec.sheets] == \
           [(s.x0, s.y0, s.cols, s.rows, s.labels) for s in a.spec.sheets]
    assert {h: b.label(h) for h in b.hexes()} == {h: a.label(h) for h in a.hexes()}


def test_round_trip_keeps_counters_scenarios_and_terrain(round_trip: tuple[str, Path, Bundle, Bundle]) -> None:
    sample, _, original, imported = round_trip
    changes = diff_bundles(original, imported)
    assert [c.text for c in changes if c.kind.startswith(("counter.", "terrain.", "map.", "scenario.added",
                                                          "scenario.removed"))] == []
    two_sided = [c for c in original.counters if c.back is not None]
    assert two_sided and all(imported.counter_index()[c.id].back == c.back for c in two_sided)
