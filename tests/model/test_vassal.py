"""model/formats/vassal.py without Qt: grid numbering agrees with pywargame's port of VASSAL's
numbering, a module reopens with its pieces and setups, imports start a loadable bundle."""

from __future__ import annotations

import importlib.util
import struct
import zlib
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO
from model.bundle import load_bundle
from model.layout import Layout
from model.formats.vassal import (INSTALL_HINT, MissingPywargame, ModuleSpec, PieceSpec, SetupSpec,
                          bundle_from_module, build_vmod, grid_for, png_size, pywargame_vassal, read_vmod)

if importlib.util.find_spec("pywargame") is None:
    pytest.skip("pywargame not installed (the [test] extra)", allow_module_level=True)
PX = 32.0


def tiny_png(w: int = 4, h: int = 3) -> bytes:
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * w for _ in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def spec_for(path: Path) -> tuple[ModuleSpec, object]:
    bundle = load_bundle(path).bundle
    hmap = bundle.default_map
    lay = Layout.for_orientation(hmap.grid.orientation)
    xs = [lay.center(h) for h in hmap.hexes()]
    origin = (min(p[0] for p in xs) - 1.2, min(p[1] for p in xs) - 1.2)
    centres = {hmap.label(h): ((lay.center(h)[0] - origin[0]) * PX, (lay.center(h)[1] - origin[1]) * PX)
               for h in hmap.hexes()}
    width = int(max(c[0] for c in centres.values()) + 2 * PX)
    height = int(max(c[1] for c in centres.values()) + 2 * PX)
    pieces = [PieceSpec(c.id, c.name, tiny_png(), tiny_png() if c.back is not None else None, 60)
              for c in bundle.counters]
    setups = []
    for sid in bundle.scenario_ids():
        scen = bundle.resolved(sid)
        placements: dict[str, list[str]] = {}
        for e in scen.setup:
            if e.hex is not None:
                placements.setdefault(hmap.label(e.hex), []).append(e.unit)
        setups.append(SetupSpec(sid, scen.name, scen.name, placements))
    spec = ModuleSpec(bundle.game.name, "1.0", "test", hmap.id, tiny_png(width, height), width, height,
                      grid_for(hmap, PX, origin), pieces, setups, centres)
    return spec, bundle


@pytest.mark.parametrize("sample", ["utah-beach", "second-front-now"])
def test_vassal_numbering_reproduces_printed_labels(sample: str, tmp_path: Path) -> None:
    """pywargame resolves each printed label through the exported numbering to the same
    board pixel as Hexproof's own hex centre (within rounding of the integer origin)."""
    spec, bundle = spec_for(REPO / "scenarios" / sample)
    assert spec.grid.numbering is not None and not spec.grid.notes
    build_vmod(spec, tmp_path / "m.vmod")
    v = pywargame_vassal()
    with v.VMod(str(tmp_path / "m.vmod"), "r") as vm:
        game = v.BuildFile(vm.getDOM(v.VMod.BUILD_FILE)).getGame()
        board = game.getBoards(asdict=False)[0]
        grid = board.getZonedGrids(single=False)[0].getZones(asdict=False)[0].getHexGrids(single=False)[0]
        labels = list(spec.hex_centres)
        for label in labels[:: max(1, len(labels) // 60)] + [labels[-1]]:
            x, y = grid.getLocation(label)
            ex, ey = spec.hex_centres[label]
            assert abs(x - ex) <= 1.0 and abs(y - ey) <= 1.0, (label, (x, y), (ex, ey))


def test_multi_sheet_map_gets_one_numbered_zone_per_sheet(tmp_path: Path) -> None:
    """The Killing Ground's sheets N, W, E (W and E numbered with descending rows) become
    zones whose locationFormat carries the prefix; VASSAL's formulas (the port in
    model/formats/vassal_grid.py) name every hex of every sheet as Hexproof prints it."""
    from model.formats.vassal_check import check_vmod, lattice_labels

    spec, bundle = spec_for(REPO / "scenarios" / "killing-ground")
    zones = spec.grid.zones
    assert [(z.name, z.location_format) for z in zones] == [("N", "N$gridLocation$"), ("W", "W$gridLocation$"),
                                                           ("E", "E$gridLocation$")]
    assert zones[1].numbering.v_descend and not zones[0].numbering.v_descend
    build_vmod(spec, tmp_path / "tkg.vmod")
    hmap = bundle.default_map
    labels = lattice_labels(hmap)
    assert len(labels) == len(hmap.hexes()) and {lab[0] for lab in labels.values()} == {"N", "W", "E"}
    assert [f.render() for f in check_vmod(tmp_path / "tkg.vmod", labels)] == []


def test_module_reopens_with_pieces_sides_and_setups(tmp_path: Path) -> None:
    spec, bundle = spec_for(REPO / "scenarios" / "utah-beach")
    build_vmod(spec, tmp_path / "utah.vmod")
    info = read_vmod(tmp_path / "utah.vmod")
    assert info.name == bundle.game.name
    assert [b.grid_kind for b in info.boards] == ["hex"]
    assert info.boards[0].numbering["sep"] == "."
    names = {p.name: p for p in info.pieces}
    assert set(names) == {c.name for c in bundle.counters}  # "1/502"-style names survive escaping
    for c in bundle.counters:
        p = names[c.name]
        assert len(p.images) == (2 if c.back is not None else 1)
        assert set(p.image_bytes) == set(p.images)
    assert {s.name for s in info.setups} == {bundle.scenarios[s].name for s in bundle.scenario_ids()}
    night = next(s for s in info.setups if s.file == "night-drop.vsav")
    scen = bundle.resolved("night-drop")
    hmap = bundle.default_map
    want = sorted((bundle.counter_index()[e.unit].name, hmap.label(e.hex)) for e in scen.setup if e.hex is not None)

    def nearest(x: float, y: float) -> str:
        return min(spec.hex_centres, key=lambda lab: (spec.hex_centres[lab][0] - x) ** 2
                   + (spec.hex_centres[lab][1] - y) ** 2)

    got = sorted((name, nearest(x, y)) for name, x, y in night.placements)
    assert want and got == want


def test_import_starts_a_loadable_bundle_and_reports_what_it_cannot_map(tmp_path: Path) -> None:
    spec, bundle = spec_for(FIXTURES / "bundles" / "mini")
    build_vmod(spec, tmp_path / "mini.vmod")
    result = bundle_from_module(read_vmod(tmp_path / "mini.vmod"))
    out = tmp_path / "imported"
    for rel, content in result.files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    loaded = load_bundle(out)
    assert loaded.bundle is not None, [d.render() for d in loaded.diagnostics]
    b = loaded.bundle
    assert {c.name for c in b.counters} == {c.name for c in bundle.counters}
    hmap = b.default_map
    assert hmap.background is not None and len(hmap.background.calibration) >= 2
    assert "0402" in {hmap.label(h) for h in hmap.hexes()}  # the printed labels came through the numbering
    base = next(s for s in b.scenarios.values() if s.name == bundle.scenarios["base"].name)
    assert [(e.unit, hmap.label(e.hex)) for e in base.setup] == [("x1", "0402")]  # the slot's entryName
    assert any("terrain" in n for n in result.notes) and any("side, category" in n for n in result.notes)


def test_png_size() -> None:
    assert png_size(tiny_png(7, 5)) == (7, 5)
    assert png_size(b"GIF89a") is None


def test_missing_pywargame_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pywargame" else real(name, *a))
    with pytest.raises(MissingPywargame, match="pip install"):
        pywargame_vassal()
    from hexproof.cli import main

    assert main(["export-vassal", str(FIXTURES / "bundles" / "mini"), "--out", "/nonexistent/x.vmod"]) == 2
    assert "pywargame" in INSTALL_HINT


def test_traits_without_a_hexproof_counterpart_are_reported(tmp_path: Path) -> None:
    """A piece with more than a picture and sides (here a marker trait) imports, and the
    unmapped trait is named in the notes — never dropped silently."""
    spec, _ = spec_for(FIXTURES / "bundles" / "mini")
    spec.pieces[0].properties = {"Side": "allied", "Category": "inf", "Morale": "3"}
    build_vmod(spec, tmp_path / "m.vmod")
    info = read_vmod(tmp_path / "m.vmod")
    assert info.pieces[0].properties["Side"] == "allied"
    assert [n for n in info.unmapped if "Morale" in n] and not [n for n in info.unmapped if "Side" in n]
    result = bundle_from_module(info)
    assert any("Morale" in n for n in result.notes)
    assert "side: allied" in str(result.files["counters.yaml"]) and "category: inf" in str(result.files["counters.yaml"])


def test_image_headers_give_format_and_size_without_decoding() -> None:
    from model.formats.vassal_archive import VmodError, check_image, image_info

    assert image_info(tiny_png(7, 5)) == ("png", 7, 5)
    assert image_info(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\0" * 8) == ("gif", 640, 480)
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0" + b"\0" * 9
    sof = b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 1200, 1600) + b"\0" * 10
    assert image_info(b"\xff\xd8" + app0 + sof) == ("jpg", 1600, 1200)
    assert image_info(b"<svg/>") is None and image_info(b"") is None
    with pytest.raises(VmodError, match="megapixels"):
        check_image(b"\xff\xd8" + b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 60000, 60000), "images/b.jpg")


def test_archive_limits_are_parameters(tmp_path: Path) -> None:
    """The caps are a Limits value: a module over a lowered cap is refused with the member named."""
    from model.formats.vassal_archive import Limits, VmodError

    spec, _ = spec_for(FIXTURES / "bundles" / "mini")
    build_vmod(spec, tmp_path / "m.vmod")
    with pytest.raises(VmodError, match="more than 1 pieces") as err:
        read_vmod(tmp_path / "m.vmod", Limits(max_pieces=1))
    assert err.value.member == "buildFile.xml" and err.value.line is not None
    with pytest.raises(VmodError, match="limit is 3 "):
        read_vmod(tmp_path / "m.vmod", Limits(max_entries=3))
    with pytest.raises(VmodError, match="nested deeper than 2 levels"):
        read_vmod(tmp_path / "m.vmod", Limits(max_xml_depth=2))
    assert len(read_vmod(tmp_path / "m.vmod").pieces) == 2
