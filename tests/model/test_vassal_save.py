"""model/formats/vassal_save.py: the one parser of a VASSAL save's AddPiece and BoardPicker
commands, and the importer (model.formats.vassal) and the checker (model.formats.vassal_check)
reading the same save the same way through it."""

from __future__ import annotations

import importlib.util
import io
import re
import zipfile
from pathlib import Path

import pytest

from conftest import REPO
from model.formats.vassal_save import SavedPiece, picked_boards, saved_pieces

DECORATED = ("+/1/emb2;;130;A;Flip;;;;;;;;1;false;0;0;a.png,b.png;,+ flipped;true;Side\tpiece;;;a.png;"
             "5.\\/II.\\/Gren 919/1\tutah;{x};{y};58;0\\")


def test_a_decorated_piece_with_an_escaped_name() -> None:
    """The BasicPiece type is innermost (last), its state ``map;x;y;gpid`` last; '/' in a
    name is escaped by the command encoder."""
    assert saved_pieces([DECORATED.format(x=1526, y=1729)]) == [
        SavedPiece("5./II./Gren 919", "utah", 1526.0, 1729.0, "58")]


def test_stacks_are_not_pieces_and_unreadable_positions_are_kept_unplaced() -> None:
    lines = ["begin_save", "+/9/stack/utah;1526;1729;1;@@-1\\",
             "+/2/piece;;;b.png;A\\\\B/utah;10;20;59\x1b+/3/piece;;;c.png;C/utah;left;20;60", "UNMASK\tnull"]
    got = saved_pieces(lines)
    assert got == [SavedPiece("A\\B", "utah", 10.0, 20.0, "59"), SavedPiece("C", "utah", None, None, "60")]
    assert [p.placed for p in got] == [True, False]


def test_the_last_board_picker_command_of_a_map_wins() -> None:
    """VASSAL's BoardPicker.decode builds a SetBoards command whose execute replaces the map's
    boards (``target.currentBoards = boards``): a later command for the same map wins."""
    lines = ["utahBoardPicker\tnowhere\t0\t0", "otherBoardPicker\tb1/rev\t0\t0\tb2\t1\t0",
             "utahBoardPicker\tutah\t0\t0"]
    assert picked_boards(lines) == {"utah": ["utah"], "other": ["b1", "b2"]}


def _vcs(text: str) -> bytes:
    """A ``savedGame`` stream in VASSAL's legacy ``!VCS`` encoding (key 0: plain hex)."""
    return b"!VCSK00" + text.encode("latin-1").hex().encode("ascii")


def _with_save(src: Path, dst: Path, member: str, text: str) -> Path:
    """``src`` with the ``savedGame`` of its predefined setup ``member`` replaced by ``text``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == member:
                buf = io.BytesIO()
                with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(buf, "w") as new:
                    for name in old.namelist():
                        new.writestr(name, _vcs(text) if name == "savedGame" else old.read(name))
                data = buf.getvalue()
            zout.writestr(info, data)
    return dst


def test_importer_and_checker_read_the_same_save_the_same_way(tmp_path: Path) -> None:
    """One save with a decorated piece off its hex centre, an escaped backslash name off the
    board, a stack, a piece whose x is not a number, and two BoardPicker commands for the map
    (the first selects a board the module does not have): the importer's placements, slot ids
    and boards and the checker's findings name the same pieces at the same positions."""
    if importlib.util.find_spec("pywargame") is None:
        pytest.skip("pywargame not installed (the [test] extra)")
    from model.formats.vassal import build_vmod, read_vmod
    from model.formats.vassal_check import check_vmod
    from tests.model.test_vassal import spec_for

    spec, _ = spec_for(REPO / "scenarios" / "utah-beach")
    built = tmp_path / "utah.vmod"
    build_vmod(spec, built)
    x, y = 1526 + 12, 1729  # 12 px east of the hex centre the export puts 5./II./Gren 919 on
    save = "\x1b".join(["begin_save", "", "\\",
                        DECORATED.format(x=x, y=y),
                        "+/2/piece;;;b.png;A\\\\B/utah;-5;-5;59",
                        f"+/9/stack/utah;{x};{y};1;@@-1\\",
                        "+/3/piece;;;c.png;C/utah;left;20;60",
                        "UNMASK\tnull", "utahBoardPicker\tnowhere\t0\t0", "utahBoardPicker\tutah\t0\t0", "end_save"])
    module = _with_save(built, tmp_path / "edited.vmod", "night-drop.vsav", save)

    (setup,) = [s for s in read_vmod(module).setups if s.file == "night-drop.vsav"]
    assert setup.placements == [("5./II./Gren 919", float(x), float(y)), ("A\\B", -5.0, -5.0)]
    assert setup.gpids == ["58", "59"] and setup.boards == ["utah"]

    found = [f for f in check_vmod(module) if f.where.startswith("night-drop.vsav")]
    located = []
    for f in found:
        m = re.match(r"\((-?\d+), (-?\d+)\)", f.message)
        if m:
            located.append((f.where.removeprefix("night-drop.vsav: piece ")[1:-1].replace("\\\\", "\\"),
                            float(m.group(1)), float(m.group(2))))
    assert located == setup.placements, [f.render() for f in found]
    messages = [(f.where, f.message.split(" is ", 1)[-1]) for f in found]
    assert [w for w, _ in messages] == ["night-drop.vsav: piece '5./II./Gren 919'", "night-drop.vsav: piece 'A\\\\B'",
                                        "night-drop.vsav: piece 'C'"], messages
    # VASSAL's snap puts the centre within a pixel of the export's (integer rounding of dy)
    assert messages[0][1].startswith("12 px from the hex centre") and messages[1][1].startswith("off the board")
    assert messages[2][1] == "its position (map;x;y) cannot be read"
