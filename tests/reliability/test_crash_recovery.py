"""Autosave and crash recovery, end to end, with a real editor process.

1. ``python -m hexproof edit <copy of mini> --debug-paint …`` starts offscreen with a 1 s
   autosave interval and an isolated recovery folder (``HEXPROOF_RECOVERY_DIR``); the
   ``--debug-paint`` edits are unsaved undo steps, as if painted with the brush.
2. The test polls the filesystem (no fixed sleeps) until the autosaved map holds the edits,
   then kills the process with SIGKILL — no close event, no chance to clean up.
3. A fresh editor window (in-process, pytest-qt) opens the same bundle: recovery must be
   offered, and the recovered document must serialise exactly like the edited one
   (``dump()`` = ``Bundle.dump_files()`` of every file), be marked unsaved, and keep its
   original path; the user's files on disk are byte-for-byte untouched throughout.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from PySide6.QtWidgets import QMessageBox

from conftest import FIXTURES, REPO
from editor.commands import PaintTerrain
from editor.document import MapDocument
from editor.main_window import MainWindow

MINI = FIXTURES / "bundles" / "mini"
EDITS = ["0502=woods", "0303=sea", "0601=woods"]  # three separate undo steps
START_TIMEOUT = 60.0  # seconds to start Qt, load, and autosave once (a loaded 2-core machine)

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def expected_dump(root: Path, edits: list[str] = EDITS) -> dict[str, str]:
    """What the edited document serialises to: the same edits applied in-process."""
    doc, diags = MapDocument.open(root)
    assert doc is not None, diags
    for spec in edits:
        label, terrain = spec.split("=")
        doc.push(PaintTerrain(doc, {doc.hmap.parse(label): terrain}))
    return doc.dump()


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen[bytes], timeout: float, what: str) -> None:
    """Poll ``condition`` every 50 ms; fail early if the editor process died on its own."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"editor exited with {proc.returncode} before {what}:\n{out.decode()}\n{err.decode()}")
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


def editor_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "QT_QPA_PLATFORM": "offscreen",
        "HEXPROOF_RECOVERY_DIR": str(tmp_path / "recovery"),
        "HEXPROOF_AUTOSAVE_SECONDS": "1",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # QSettings (recent files) stay in tmp
        "PYTHONPATH": os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]),
    })
    return env


def start_editor(bundle: Path, env: dict[str, str], *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "hexproof", "edit", str(bundle), *extra], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def kill(proc: subprocess.Popen[bytes]) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout and proc.stdout.close()  # type: ignore[func-returns-value]
    proc.stderr and proc.stderr.close()  # type: ignore[func-returns-value]
    return proc.returncode


@pytest.fixture
def recovery_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    env = editor_env(tmp_path)
    monkeypatch.setenv("HEXPROOF_RECOVERY_DIR", env["HEXPROOF_RECOVERY_DIR"])
    monkeypatch.setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
    # The in-process window must never block on a modal question.
    monkeypatch.setattr(MainWindow, "ask_save", lambda self: QMessageBox.StandardButton.Discard)
    return env


def test_killed_editor_recovers_unsaved_edits(qtbot: Any, tmp_path: Path, recovery_env: dict[str, str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = tmp_path / "mini"
    shutil.copytree(MINI, bundle)
    on_disk = snapshot(bundle)
    expected = expected_dump(bundle)
    original = MapDocument.open(bundle)[0].dump()  # type: ignore[union-attr]
    assert expected != original  # the edits change the files
    from editor import recovery

    rmap = recovery.recovery_dir(bundle) / "maps" / "mini.yaml"

    def autosaved() -> bool:
        try:
            return rmap.read_text(encoding="utf-8") == expected["maps/mini.yaml"]
        except OSError:  # not there yet (writes are atomic: never half a file)
            return False

    proc = start_editor(bundle, recovery_env, *(f"--debug-paint={e}" for e in EDITS))
    t0 = time.monotonic()
    try:
        wait_for(autosaved, proc, START_TIMEOUT, "the autosave file")
        autosave_after = time.monotonic() - t0
    finally:
        code = kill(proc)
    assert code == -signal.SIGKILL, f"the editor was not killed but exited with {code}"
    assert snapshot(bundle) == on_disk, "the user's files changed although nothing was saved"

    window = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(window)
    offered: list[Path] = []
    monkeypatch.setattr(window, "ask_recover", lambda p: offered.append(Path(p)) or True)
    assert window.open_path(bundle)
    assert offered == [bundle], "recovery was not offered after the crash"
    doc = window.doc
    assert doc is not None
    assert doc.dump() == expected  # every file, serialised: the recovered document is the edited one
    assert doc.is_modified, "recovered edits must stay unsaved until the user saves"
    assert doc.path == bundle  # saving goes to the user's bundle, not the recovery folder
    assert snapshot(bundle) == on_disk
    # Saving the recovered document writes the edits home and drops the recovery copy.
    assert window.save()
    reloaded = MapDocument.open(bundle)[0]
    assert reloaded is not None and reloaded.dump() == expected
    assert not recovery.recovery_dir(bundle).exists()
    print(f"\n[crash-recovery] autosave seen {autosave_after:.1f} s after start; SIGKILL; recovered "
          f"{len(expected)} files equal")


def test_declining_recovery_opens_the_saved_files(qtbot: Any, tmp_path: Path, recovery_env: dict[str, str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """"No" to the offer loads the files on disk, clean; the recovery copy is still offered next time."""
    bundle = tmp_path / "mini"
    shutil.copytree(MINI, bundle)
    original = MapDocument.open(bundle)[0].dump()  # type: ignore[union-attr]
    expected = expected_dump(bundle, EDITS[:1])
    from editor import recovery

    rmap = recovery.recovery_dir(bundle) / "maps" / "mini.yaml"
    proc = start_editor(bundle, recovery_env, f"--debug-paint={EDITS[0]}")
    try:
        wait_for(lambda: rmap.is_file() and rmap.read_text(encoding="utf-8") == expected["maps/mini.yaml"],
                 proc, START_TIMEOUT, "the autosave file")
    finally:
        kill(proc)
    window = MainWindow(autosave_seconds=3600)
    qtbot.addWidget(window)
    monkeypatch.setattr(window, "ask_recover", lambda p: False)
    assert window.open_path(bundle)
    assert window.doc is not None and window.doc.dump() == original and not window.doc.is_modified
    assert recovery.has_newer_recovery(bundle)
    assert expected != original


def test_debug_paint_refuses_bad_input(tmp_path: Path, recovery_env: dict[str, str]) -> None:
    """The test hook is checked like user input: an unknown terrain or hex exits 2 with a message."""
    bundle = tmp_path / "mini"
    shutil.copytree(MINI, bundle)
    for spec, message in (("0502=lava", b"unknown terrain 'lava'"), ("0909=woods", b"not on the map"),
                          ("0502", b"wants HEX=TERRAIN")):
        proc = start_editor(bundle, recovery_env, f"--debug-paint={spec}")
        _out, err = proc.communicate(timeout=START_TIMEOUT)
        assert proc.returncode == 2 and message in err, err.decode()


LONG_SESSION = """
import sys
from editor.app import application
from editor.main_window import MainWindow
from editor.commands import PaintTerrain
app = application()
w = MainWindow(autosave_seconds=3600)
w.show()
assert w.open_path(sys.argv[1])
doc = w.doc
h = doc.hmap.parse("0502")
for i in range(int(sys.argv[2])):
    doc.push(PaintTerrain(doc, {h: "woods" if i % 2 else "sea"}))
    app.processEvents()
    doc.undo_stack.undo()
    app.processEvents()
assert not doc.is_modified
print("survived", flush=True)
"""


def test_long_session_does_not_abort(tmp_path: Path, recovery_env: dict[str, str]) -> None:
    """3 000 edit + undo pairs in a real window: each emits bool signals (clean/modified),
    which on PySide6 6.12 / Python 3.11 drop a reference to ``True``; before the workaround in
    ``editor/_pyside_workaround.py`` covered ``True``/``False`` the editor aborted near 1 600
    pairs ("Fatal Python error: bool_dealloc"), losing unsaved work. Run in a subprocess: a
    fatal error would kill pytest itself."""
    proc = subprocess.run([sys.executable, "-c", LONG_SESSION, str(MINI), "3000"], cwd=REPO, env=recovery_env,
                          capture_output=True, timeout=600)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 0 and b"survived" in proc.stdout, err[-2000:]
