"""Hostile bundles: paths named by data that point outside the bundle, at FIFOs, devices,
symlink loops or folders (issue #15 parts 1 and 8; docs/reliability.md "Files named by data").

Every case is generated at test time: tests/fixtures/bundles/mini is copied into ``tmp_path``
and one thing is changed. Each runs ``python -m hexproof validate`` (and, for background
images, ``hexproof proof-art``) in a subprocess under a generous timeout — the hang guard: a
FIFO opened blocking would wait forever — and asserts

* the exit code: **2** in every case (unreadable input: a file the bundle names cannot be read
  or is refused — ``LOAD-FILE-*`` at error severity — even where the rest of the bundle loads);
* a located message (``file:line:col`` of the key that named the path, or the file itself when
  the refused file is the one named) with the expected words;
* no ``Traceback`` on either stream;
* nothing outside the bundle changed: a sentinel file beside it keeps its bytes and mtime, and
  no file appears or disappears beside the bundle.

That a bundle loaded with ``counters: ../notes.txt`` never writes ``../notes.txt`` on
``bundle.save()`` is proved in process by
tests/model/test_format_preserving_save.py::test_a_file_reference_outside_the_bundle_is_refused_and_never_written.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, REPO

MINI = FIXTURES / "bundles" / "mini"
HANG_GUARD_S = 60  # a FIFO read blocking would hit this; a refusal takes well under a second

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks (POSIX)")


def _set(root: Path, file: str, key: str, value: str) -> None:
    """Replace (or add) the top-level ``key:`` line of ``file``."""
    path = root / file
    lines = path.read_text(encoding="utf-8").splitlines()
    new = f"{key}: {value}"
    for i, line in enumerate(lines):
        if line.startswith(f"{key}:"):
            lines[i] = new
            break
    else:
        lines.append(new)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _background(root: Path, image: str) -> None:
    with open(root / "maps" / "mini.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"background:\n  image: {image}\n  calibration:\n"
                 "  - {label: '0101', x: 10, y: 10}\n  - {label: '0504', x: 200, y: 160}\n")


def _replace(path: Path, make: Callable[[Path], None]) -> None:
    path.unlink()
    make(path)


# name → (mutate(root), file the message is located in, regex of the message words)
CASES: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "counters-outside": (lambda r: _set(r, "game.yaml", "counters", "../notes.txt"),
                         r"game\.yaml:\d+:\d+", r"LOAD-FILE-003.*'\.\./notes\.txt' leads outside the folder"),
    "map-dev-zero": (lambda r: _set(r, "game.yaml", "maps", "[/dev/zero]"),
                     r"game\.yaml:\d+:\d+", r"LOAD-FILE-003.*'/dev/zero' is an absolute path"),
    "map-etc-passwd": (lambda r: _set(r, "game.yaml", "maps", "[/etc/passwd]"),
                       r"game\.yaml:\d+:\d+", r"LOAD-FILE-003.*'/etc/passwd' is an absolute path"),
    "scenario-fifo": (lambda r: _replace(r / "scenarios" / "base.yaml", os.mkfifo),
                      r"scenarios/base\.yaml", r"LOAD-FILE-001.*named pipe \(FIFO\), not a regular file"),
    "map-symlink-loop": (lambda r: (_set(r, "game.yaml", "maps", "[maps/a.yaml]"),
                                    os.symlink("b.yaml", r / "maps" / "a.yaml"),
                                    os.symlink("a.yaml", r / "maps" / "b.yaml")),
                         r"maps/a\.yaml", r"LOAD-FILE-001.*symbolic links"),
    "scenario-symlink-out": (lambda r: _replace(r / "scenarios" / "base.yaml",
                                                lambda p: os.symlink(r.parent / "outside.yaml", p)),
                             r"game\.yaml:\d+:\d+", r"LOAD-FILE-003.*'scenarios/base\.yaml' leads outside the folder"),
    "background-fifo": (lambda r: (os.mkfifo(r / "scan.png"), _background(r, "scan.png")),
                        r"maps/mini\.yaml:\d+:\d+", r"LOAD-FILE-004.*background image 'scan\.png' is a named pipe"),
    "background-outside": (lambda r: _background(r, "../../x.png"),
                           r"maps/mini\.yaml:\d+:\d+", r"LOAD-FILE-003.*background image '\.\./\.\./x\.png' leads outside"),
    "crt-dev-zero": (lambda r: _set(r, "game.yaml", "crt", "/dev/zero"),
                     r"game\.yaml:\d+:\d+", r"LOAD-FILE-003.*CRT file '/dev/zero' is an absolute path"),
    "crt-symlink-dev-zero": (lambda r: (os.symlink("/dev/zero", r / "crt.yaml"), _set(r, "game.yaml", "crt", "crt.yaml")),
                             r"game\.yaml:\d+:\d+", r"LOAD-FILE-003.*CRT file 'crt\.yaml' leads outside"),
    "crt-fifo": (lambda r: (os.mkfifo(r / "crt.yaml"), _set(r, "game.yaml", "crt", "crt.yaml")),
                 r"game\.yaml:\d+:\d+", r"LOAD-FILE-004.*CRT file 'crt\.yaml' is a named pipe"),
    "counters-folder": (lambda r: _replace(r / "counters.yaml", Path.mkdir),
                        r"counters\.yaml", r"LOAD-FILE-001.*is a folder"),
}


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every entry beside the bundle (not inside it): bytes and mtime of files."""
    out = {}
    for p in folder.iterdir():
        if p.name == "b":
            continue
        out[p.name] = (p.read_bytes(), p.stat().st_mtime_ns) if p.is_file() and not p.is_symlink() else (b"", 0)
    return out


def _hexproof(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "hexproof", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD_S)


def _make(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    (tmp_path / "notes.txt").write_text("my notes\n", encoding="utf-8")  # the sentinel
    (tmp_path / "outside.yaml").write_text("id: outside\nname: Outside\nmap: mini\n", encoding="utf-8")
    CASES[name][0](root)
    return root


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_refuses_a_hostile_bundle(tmp_path: Path, name: str) -> None:
    root = _make(tmp_path, name)
    before = _snapshot(tmp_path)
    proc = _hexproof("validate", str(root))
    out = proc.stdout + proc.stderr
    _, where, words = CASES[name]
    assert proc.returncode == 2, out
    assert "Traceback" not in out, out
    assert re.search(rf"{where}: error {words}", out), out
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("image", ["fifo", "outside"])
def test_proof_art_refuses_a_hostile_background_image(tmp_path: Path, image: str) -> None:
    """``hexproof proof-art`` takes the image from the map: the same refusal, at the image key."""
    root = _make(tmp_path, f"background-{image}")
    before = _snapshot(tmp_path)
    proc = _hexproof("proof-art", str(root))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert "Traceback" not in out, out
    reason = "named pipe" if image == "fifo" else "leads outside"
    assert re.search(rf"maps/mini\.yaml:\d+:\d+: hexproof proof-art: mini: .*{reason}", out), out
    assert _snapshot(tmp_path) == before


def test_proof_art_image_option_is_a_bounded_regular_file_read(tmp_path: Path) -> None:
    """``--image`` is the user's own path (outside the bundle is fine), but a FIFO is still refused."""
    root = _make(tmp_path, "background-outside")
    (root / "maps" / "mini.yaml").write_text((MINI / "maps" / "mini.yaml").read_text(encoding="utf-8")
                                             + "background:\n  image: scan.png\n  calibration:\n"
                                             "  - {label: '0101', x: 10, y: 10}\n  - {label: '0504', x: 200, y: 160}\n",
                                             encoding="utf-8")
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    proc = _hexproof("proof-art", str(root), "--image", str(fifo))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "Traceback" not in out, out
    assert "named pipe (FIFO), not a regular file" in out, out


def test_edit_screenshot_of_a_broken_bundle_exits_2_with_the_diagnostics(tmp_path: Path) -> None:
    root = tmp_path / "broken"
    root.mkdir()
    (root / "game.yaml").write_text("id: [\n", encoding="utf-8")
    shot = tmp_path / "out.png"
    proc = _hexproof("edit", str(root), "--screenshot", str(shot))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert re.search(r"game\.yaml:\d+:\d+: error LOAD-YAML-001", proc.stderr), proc.stderr
    assert not shot.exists()


def test_edit_screenshot_of_a_hostile_bundle_exits_2(tmp_path: Path) -> None:
    root = _make(tmp_path, "map-etc-passwd")
    proc = _hexproof("edit", str(root), "--screenshot", str(tmp_path / "out.png"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "'/etc/passwd' is an absolute path" in proc.stderr


# --- in process: the editor's readers -----------------------------------------------------


def test_editor_background_fifo_never_blocks_and_says_why(tmp_path: Path, qapp: Any) -> None:
    from editor.document import MapDocument
    from editor.export.autotrace import read_background
    from editor.map_view.scene import MapScene

    root = _make(tmp_path, "background-fifo")
    doc, diags = MapDocument.open(root)
    assert doc is not None and any(d.code == "LOAD-FILE-004" for d in diags)
    scene = MapScene(doc)  # BackgroundItem reads the image: refused at once, not a hang
    assert scene.background.pixmap().isNull()
    assert "named pipe (FIFO)" in (scene.background.image_error or "")
    with pytest.raises(OSError, match="named pipe"):
        read_background(doc)  # Auto-trace reads the same image the same way


def test_editor_background_outside_the_bundle_is_not_read(tmp_path: Path, qapp: Any) -> None:
    from PySide6.QtGui import QColor, QImage

    from editor.document import MapDocument
    from editor.map_view.scene import MapScene

    root = _make(tmp_path, "background-outside")
    img = QImage(40, 30, QImage.Format.Format_ARGB32)
    img.fill(QColor("#808080"))
    assert img.save(str(tmp_path.parent / "x.png"))  # ../../x.png exists, and is still not read
    try:
        doc, _ = MapDocument.open(root)
        assert doc is not None
        scene = MapScene(doc)
        assert scene.background.pixmap().isNull()
        assert "leads outside" in (scene.background.image_error or "")
    finally:
        (tmp_path.parent / "x.png").unlink()


def test_load_background_copies_an_outside_image_into_the_bundle(tmp_path: Path, qapp: Any) -> None:
    """The editor's own Load Background stores a name relative to the bundle: an image chosen
    from outside is copied into images/ first, so the map never names a path outside."""
    from PySide6.QtGui import QColor, QImage

    from editor.main_window import MainWindow

    root = _make(tmp_path, "counters-outside")
    shutil.rmtree(root)
    shutil.copytree(MINI, root)
    picked = tmp_path / "scan.png"
    img = QImage(40, 30, QImage.Format.Format_ARGB32)
    img.fill(QColor("#808080"))
    assert img.save(str(picked))
    window = MainWindow()
    try:
        assert window.open_path(str(root))
        window.load_background(str(picked))
        assert window.doc is not None and window.doc.hmap.background is not None
        assert window.doc.hmap.background.image == "images/scan.png"
        assert (root / "images" / "scan.png").read_bytes() == picked.read_bytes()
        window.load_background(str(root / "images" / "scan.png"))  # inside: stored relative, not copied
        assert window.doc.hmap.background.image == "images/scan.png"
        assert sorted(p.name for p in (root / "images").iterdir()) == ["scan.png"]
        fifo = tmp_path / "pipe.png"
        os.mkfifo(fifo)
        window.load_background(str(fifo))  # refused at once with a message; the background is unchanged
        assert window.doc.hmap.background.image == "images/scan.png"
        assert "named pipe" in (window.dialogs[-1].detailedText() or "")
    finally:
        window.doc.undo_stack.setClean() if window.doc is not None else None
        window.hide()
        window.deleteLater()


def test_play_crt_refuses_a_crt_outside_the_bundle(tmp_path: Path) -> None:
    """play/gts/crt.py reads the ``crt:`` file through model/safefile: outside → no CRT, no read."""
    from types import SimpleNamespace

    from play.gts.crt import crt_for

    root = tmp_path / "b"
    root.mkdir()
    (tmp_path / "crt.yaml").write_text("lines: {red: {armored: [], unarmored: []}}\n", encoding="utf-8")
    os.symlink(tmp_path / "crt.yaml", root / "crt.yaml")
    os.mkfifo(root / "pipe.yaml")
    (root / "ok.yaml").write_text("lines: {red: {armored: [], unarmored: []}}\n", encoding="utf-8")
    for ref, found in (("../crt.yaml", False), ("crt.yaml", False), ("/dev/zero", False), ("pipe.yaml", False),
                       ("ok.yaml", True)):
        game = SimpleNamespace(scenario=SimpleNamespace(params={}), bundle=SimpleNamespace(root=root, game=SimpleNamespace(crt=ref)))
        assert (crt_for(game) is not None) == found, ref  # type: ignore[arg-type]


def test_rulebook_names_outside_their_folders_are_not_read(tmp_path: Path) -> None:
    """editor/rule_reference.py: a rulebook name from data is never absolute and stays inside
    each folder it is looked for in; the text is a bounded regular-file read."""
    from types import SimpleNamespace

    from editor.rule_reference import read_rulebook, refused_rulebooks, rulebook_candidates

    root = tmp_path / "work" / "b"
    root.mkdir(parents=True)
    for source, refused in (("/etc/passwd", True), ("../../../../../../etc/passwd", True), ("etc/passwd", False)):
        bundle = SimpleNamespace(root=root, game=SimpleNamespace(rulebook=SimpleNamespace(source=source)),
                                 system=SimpleNamespace(rulebook=None))
        cands = rulebook_candidates(bundle)  # type: ignore[arg-type]
        assert all(str(p) != "/etc/passwd" for p in cands), cands
        assert bool(refused_rulebooks(bundle)) == refused  # type: ignore[arg-type]
    os.mkfifo(root / "rules.txt")
    text, why = read_rulebook(root / "rules.txt")
    assert text is None and why is not None and "named pipe" in why


# --- the primitives themselves (model/safefile.py) -----------------------------------------


def test_read_bytes_refuses_a_fifo_at_once_and_devices_and_folders(tmp_path: Path) -> None:
    import time

    from model.safefile import SafeFileError, read_bytes

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(SafeFileError, match=r"named pipe \(FIFO\)") as exc:
        read_bytes(fifo, 1 << 20)  # no writer: a blocking open would wait forever
    assert exc.value.code == "FILE-KIND-001" and time.monotonic() - start < 5
    with pytest.raises(SafeFileError, match="a device") as exc:
        read_bytes("/dev/zero", 1 << 20)  # stat() says 0 bytes; it never ends
    assert exc.value.code == "FILE-KIND-001"
    with pytest.raises(SafeFileError, match="a folder"):
        read_bytes(tmp_path, 1 << 20)


def test_read_bytes_is_bounded_by_the_bytes_read(tmp_path: Path) -> None:
    from model.safefile import SafeFileError, read_bytes

    big = tmp_path / "big"
    big.write_bytes(b"x" * 1001)
    assert read_bytes(big, 1001) == b"x" * 1001
    with pytest.raises(SafeFileError, match="larger than the limit of 1,000 bytes") as exc:
        read_bytes(big, 1000)
    assert exc.value.code == "FILE-SIZE-001"


def test_resolve_inside_follows_symlinks_and_refuses_absolute(tmp_path: Path) -> None:
    from model.safefile import SafeFileError, resolve_inside

    root = tmp_path / "b"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "secret").write_text("x", encoding="utf-8")
    os.symlink(tmp_path / "secret", root / "link")
    os.symlink(tmp_path, root / "sub" / "up")
    assert resolve_inside(root, "sub/../sub") == (root / "sub").resolve()
    for rel in ("../secret", "link", "sub/up/secret", "/etc/passwd", str(tmp_path / "secret"), "a\x00b"):
        with pytest.raises(SafeFileError) as exc:
            resolve_inside(root, rel)
        assert exc.value.code == "FILE-PATH-001", rel


def test_commit_files_writes_only_inside_the_root(tmp_path: Path) -> None:
    from model.safefile import SafeFileError, commit_files

    root = tmp_path / "b"
    root.mkdir()
    (root / "ok.yaml").write_text("old\n", encoding="utf-8")
    os.symlink(tmp_path, root / "out")
    for target in ("../notes.txt", "out/notes.txt", str(tmp_path / "notes.txt")):
        with pytest.raises(SafeFileError):
            # one refused path: nothing at all is written, not even the file inside
            commit_files(root, {Path("ok.yaml"): b"new\n", Path(target): b"evil\n"})
        assert (root / "ok.yaml").read_text(encoding="utf-8") == "old\n"
        assert not (tmp_path / "notes.txt").exists()
