"""``hexproof export-vassal`` / ``import-vassal`` on real renders: the module reopens with
pywargame with every counter (both sides) and every scenario setup, and importing it back
starts a bundle whose setups sit on the same printed hexes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conftest import REPO
from hexproof.cli import main
from model.bundle import load_bundle

if importlib.util.find_spec("pywargame") is None:
    pytest.skip("pywargame not installed (the [test] extra)", allow_module_level=True)

pytestmark = pytest.mark.usefixtures("qapp")
SFN = REPO / "scenarios" / "second-front-now"


@pytest.fixture(scope="module")
def sfn_vmod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vassal") / "sfn.vmod"
    assert main(["export-vassal", str(SFN), "--out", str(out)]) == 0
    return out


def test_export_reopens_with_pieces_and_setups(sfn_vmod: Path) -> None:
    from model.formats.vassal import read_vmod

    bundle = load_bundle(SFN).bundle
    info = read_vmod(sfn_vmod)
    board = info.boards[0]
    assert board.grid_kind == "hex" and board.image_bytes and board.image_bytes[:4] == b"\x89PNG"
    pieces = {p.name: p for p in info.pieces}
    assert set(pieces) == {c.name for c in bundle.counters}
    two_sided = [c for c in bundle.counters if c.back is not None]
    assert two_sided and all(len(pieces[c.name].image_bytes) == 2 for c in two_sided)
    assert {s.file for s in info.setups} == {f"{sid}.vsav" for sid in bundle.scenario_ids()}
    assert all(s.placements for s in info.setups)


def test_import_of_own_export_keeps_setup_hexes(sfn_vmod: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "imported"
    assert main(["import-vassal", str(sfn_vmod), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "warning: not mapped:" in text and "terrain" in text
    original = load_bundle(SFN).bundle
    imported = load_bundle(out).bundle
    assert imported is not None
    hmap = imported.default_map
    assert hmap.background is not None and (out / hmap.background.image).exists()
    names = {c.id: c.name for c in imported.counters}
    sides = {c.name: (c.side, c.category) for c in imported.counters}
    assert sides == {c.name: (c.side, c.category) for c in original.counters}  # via VASSAL marker properties
    scen = original.resolved("calais-landing")
    omap = original.map_for(scen)
    want = sorted((original.counter_index()[e.unit].name, omap.label(e.hex if e.hex is not None else e.adjacent_to))
                  for e in scen.setup if e.hex is not None or e.adjacent_to is not None)
    got_scen = imported.scenarios["calais-landing"]
    got = sorted((names[e.unit], hmap.label(e.hex)) for e in got_scen.setup)
    assert got == want


def test_import_refuses_a_non_empty_folder(sfn_vmod: Path, tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("keep me", encoding="utf-8")
    assert main(["import-vassal", str(sfn_vmod), "--out", str(tmp_path)]) == 2
    assert (tmp_path / "x.txt").read_text(encoding="utf-8") == "keep me"


def test_import_of_a_file_that_is_not_a_module(tmp_path: Path) -> None:
    bad = tmp_path / "bad.vmod"
    bad.write_bytes(b"not a zip")
    assert main(["import-vassal", str(bad), "--out", str(tmp_path / "o")]) == 2
