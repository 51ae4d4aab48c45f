"""model/formats/vassal_check.py: a module built by build_vmod passes; each kind of damage
VASSAL would trip over is found and located (schema, images, board selection, positions,
numbering)."""

from __future__ import annotations

import importlib.util
import re
import zipfile
from pathlib import Path

import pytest

from conftest import REPO
from model.formats.vassal import build_vmod
from model.formats.vassal_check import check_vmod, lattice_labels
from model.formats.vassal_grid import VHexGrid, VNumbering, VZoneGrid, number_name

if importlib.util.find_spec("pywargame") is None:
    pytest.skip("pywargame not installed (the [test] extra)", allow_module_level=True)

from tests.model.test_vassal import spec_for  # noqa: E402  (needs pywargame)

UTAH = REPO / "scenarios" / "utah-beach"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[int, int], str]]:
    spec, bundle = spec_for(UTAH)
    out = tmp_path_factory.mktemp("check") / "utah.vmod"
    build_vmod(spec, out)
    return out, lattice_labels(bundle.default_map)


def rewrite(src: Path, dst: Path, member: str | None = None, edit=None, drop: str | None = None) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            if info.filename == drop:
                continue
            data = zin.read(info.filename)
            if info.filename == member and edit is not None:
                data = edit(data.decode("utf-8")).encode("utf-8")
            zout.writestr(info.filename, data)
    return dst


def test_a_built_module_passes(built: tuple[Path, dict[tuple[int, int], str]]) -> None:
    path, labels = built
    assert check_vmod(path, labels) == []


def test_wrong_numbering_offset_is_found(built: tuple[Path, dict[tuple[int, int], str]], tmp_path: Path) -> None:
    path, labels = built
    bad = rewrite(path, tmp_path / "b.vmod", "buildFile.xml", lambda t: t.replace('hOff="0"', 'hOff="1"', 1))
    found = [f.render() for f in check_vmod(bad, labels)]
    assert any("VASSAL names differently" in f and "01.000 (Hexproof 00.000)" in f for f in found), found


def test_schema_errors_are_found(built: tuple[Path, dict[tuple[int, int], str]], tmp_path: Path) -> None:
    path, _ = built
    bad = rewrite(path, tmp_path / "b.vmod", "buildFile.xml", lambda t: re.sub(r' dx="[^"]*"', ' dx="wide"', t, 1))
    found = [f.render() for f in check_vmod(bad)]
    assert any("HexGrid" in f and "dx='wide' is not a number" in f for f in found), found


def test_a_missing_image_is_found(built: tuple[Path, dict[tuple[int, int], str]], tmp_path: Path) -> None:
    path, _ = built
    bad = rewrite(path, tmp_path / "b.vmod", drop="images/a-1-502-back.png")
    found = [f.render() for f in check_vmod(bad)]
    assert found == ["buildFile.xml: PieceSlot 'a-1-502': image 'a-1-502-back.png' is not in the module"]


def test_setup_pieces_off_their_hexes_are_found(tmp_path: Path) -> None:
    spec, _ = spec_for(UTAH)
    spec.hex_centres = {k: (x + 12, y) for k, (x, y) in spec.hex_centres.items()}
    build_vmod(spec, tmp_path / "off.vmod")
    found = [f.render() for f in check_vmod(tmp_path / "off.vmod")]
    assert found and all("px from the hex centre" in f for f in found), found[:3]
    assert any(f.startswith("night-drop.vsav: piece ") for f in found)


def test_saves_select_their_board(built: tuple[Path, dict[tuple[int, int], str]]) -> None:
    """VASSAL's BoardPicker.decode reads '<map>BoardPicker\\t<board>\\t<col>\\t<row>'; every
    exported setup names the board (the checker reports a save that selects none)."""
    from model.formats.vassal import read_vmod
    from model.formats.vassal_save import SavedPiece, saved_pieces

    path, _ = built
    info = read_vmod(path)
    assert info.setups and all(s.boards == ["utah"] for s in info.setups)
    assert saved_pieces(["+/1/piece;;;a.png;A/utah;10;20;5"]) == [SavedPiece("A", "utah", 10.0, 20.0, "5")]


def test_port_formulas_match_vassal_examples() -> None:
    """RegularGridNumbering.getName pads to leading+1 digits; HexGridNumbering counts a
    descending row from getMaxRows = floor(height / dx + 0.5) (VASSAL divides by getHexWidth)."""
    assert [number_name(v, 1) for v in (5, 31, 107, -3)] == ["05", "31", "107", "-03"]
    assert number_name(31, 2) == "031"
    grid = VHexGrid(dx=48.0, dy=55.4, x0=0, y0=0)
    zone = VZoneGrid(grid, VNumbering(v_descend=True, v_off=0), (0, 0, 480, 480))
    assert zone.max_rows() == 10  # 480 / 48
    assert zone.row(*grid.raw_centre(0, 0)) == 10 and zone.row(*grid.raw_centre(0, 3)) == 7
    assert grid.raw_row(*grid.raw_centre(1, 3)) == 3 and grid.raw_column(*grid.raw_centre(5, 2)) == 5


@pytest.mark.parametrize("edit, message", [
    (lambda t: re.sub(r'path="[^"]*"', 'path="0,0;9000000,0;9000000,9000000;0,9000000"', t, 1), "limit is 1,000 a side"),
    (lambda t: t.replace('vLeading="2"', 'vLeading="999999"', 1), "leading zeros; the limit is 9"),
    (lambda t: re.sub(r'path="[^"]*"', 'path="0,0;inf,0;inf,9"', t, 1), "is not 'x,y'"),
])
def test_hostile_zones_are_refused_before_the_scan(built: tuple[Path, dict[tuple[int, int], str]], tmp_path: Path,
                                                   edit, message: str) -> None:
    """A zone is scanned hex by hex on import and in the checker: its size, its leading zeros
    (VASSAL's getName builds 10**leading) and its path are checked first."""
    from model.formats.vassal import VmodError, bundle_from_module, read_vmod

    path, _ = built
    bad = rewrite(path, tmp_path / "b.vmod", "buildFile.xml", edit)
    with pytest.raises(VmodError, match=re.escape(message)):
        bundle_from_module(read_vmod(bad))
    assert isinstance(check_vmod(bad), list)  # the checker reports, never hangs or raises
