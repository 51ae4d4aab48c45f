"""Regenerate every screenshot README.md and docs/*.md show, from the samples, deterministically:

    python docs/img/shots.py                 # all of them
    python docs/img/shots.py --only editor   # one (or several: --only editor --only play)
    python docs/img/shots.py --list          # the names

Each picture is made in a fresh process (one QApplication each, offscreen unless QT_QPA_PLATFORM
says otherwise) with its own empty settings folder (XDG_CONFIG_HOME), so no saved dock layout,
recent file or preference of yours changes a picture, at a fixed window size. The README three
and the counter-sheet proof are made here; the others by the scripts beside this one (play-shots.py, schedule-shots.py,
counter-editor-shot.py, new-bundle-shots.py, which still run on their own) and by the Scenario
Properties test's screenshot hook. Every game step goes through the engine, as a user's clicks do.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
IMG = REPO / "docs" / "img"
UTAH = REPO / "scenarios" / "utah-beach"
SIZE = (1600, 1000)  # every main-window picture made here


def _window(mode: str, scenario: str | None = None, bundle: Path = UTAH):  # type: ignore[no-untyped-def]
    from editor.app import application, make_window

    application()
    window, _ = make_window(str(bundle), SIZE)
    window.show()
    if mode == "scenario":
        assert window.scenario_mode.open_scenario(scenario), scenario
        window.diagnostics.wait_validated()
    elif mode == "play":
        assert window.play_mode.play(scenario), scenario
    return window


def editor_shot(out: Path) -> None:
    """Map mode on the Utah sample: the tools, the terrain legend, layers, properties."""
    from editor.app import place_view, screenshot

    w = _window("map")
    place_view(w, "22.040", 0.8)
    assert screenshot(w, out)


def scenario_shot(out: Path) -> None:
    """Scenario mode on Utah ``beach-landing``: order of battle, boxes, stacks, drop zones, and the
    diagnostics dock populated: a copy of the sample with Wn 5 moved onto the impassable hex 22.022
    (docs/scenario-editor.md), in a fixed-name temp folder (the title shows the path)."""
    import shutil

    from editor.app import place_view, screenshot

    copy = Path(tempfile.gettempdir()) / "utahshot"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(UTAH, copy)
    setup = copy / "scenarios" / "beach-landing.yaml"
    text = setup.read_text(encoding="utf-8")
    old = "{unit: wn-5, hex: '23.024'"
    assert text.count(old) == 1, "beach-landing.yaml no longer sets Wn 5 up in 23.024"
    setup.write_text(text.replace(old, "{unit: wn-5, hex: '22.022'"), encoding="utf-8")
    w = _window("scenario", "beach-landing", copy)
    place_view(w, "24.026", 0.9)
    assert screenshot(w, out)


def play_shot(out: Path) -> None:
    """Play mode on ``night-drop-playtest`` (ILLUSTRATIVE playtest costs and MAs), turn 1 played
    by the rules: on to the Activation Phase [GTS 4.0 H], the first chit drawn (the 101st's DivAct
    chit with the default seed [GTS 10.0.1, 13.1]), and B/1/502 of that division selected, so its
    reachable hexes and their MP costs show."""
    from editor.app import place_view, screenshot

    w = _window("play", "night-drop-playtest")
    ctl = w.play_mode.ctl
    assert ctl.apply({"do": "next_phase", "to": "activation"}).ok
    drawn = ctl.apply({"do": "draw_chit"})
    assert drawn.ok and "b-1-502" in ctl.game.log[-1].get("units", ()), \
        "the first chit no longer activates B/1/502: the picture would show no reachable hexes"
    ctl.select(["b-1-502"])
    place_view(w, "30.027", 1.6)
    assert screenshot(w, out)


def counter_sheet_proof_shot(out: Path) -> None:
    """docs/proofing/counter-sheets.md: pages 3 and 4 (sheet A fronts, mirrored backs) of
    ``hexproof proof scenarios/format-example``, rendered by ``pdftoppm -r 100``, the top of each
    page side by side with a grey gutter, scaled to 1600 px wide."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    from editor.app import application

    application()
    with tempfile.TemporaryDirectory(prefix="hexproof-proof-") as tmp:
        subprocess.run([sys.executable, "-m", "hexproof", "proof", str(REPO / "scenarios" / "format-example"),
                        "--out", tmp], check=True, stdout=subprocess.DEVNULL)
        [pdf] = Path(tmp).glob("*.pdf")
        subprocess.run(["pdftoppm", "-r", "100", "-f", "3", "-l", "4", "-png", str(pdf), f"{tmp}/page"], check=True)
        pages = [QImage(str(p)) for p in sorted(Path(tmp).glob("page-*.png"))]
    assert len(pages) == 2 and not any(p.isNull() for p in pages), "the proof has no pages 3 and 4"
    top, gutter = 240, 16  # px at 100 dpi: the sheet's title and its two rows
    sheet = QImage(pages[0].width() * 2 + gutter, top, QImage.Format.Format_RGB32)
    sheet.fill(QColor("#888888"))
    painter = QPainter(sheet)
    painter.drawImage(0, 0, pages[0], 0, 0, pages[0].width(), top)
    painter.drawImage(pages[0].width() + gutter, 0, pages[1], 0, 0, pages[1].width(), top)
    painter.end()
    assert sheet.scaledToWidth(1600, Qt.TransformationMode.SmoothTransformation).save(str(out))


OWN = {"editor": editor_shot, "scenario": scenario_shot, "play": play_shot,
       "counter-sheet-proof": counter_sheet_proof_shot}
# name → (command that makes it, the pictures it writes)
DELEGATED = {
    "play-extra": ([sys.executable, str(IMG / "play-shots.py")], ["play-los.png", "play-naval.png"]),
    "schedule": ([sys.executable, str(IMG / "schedule-shots.py")], ["schedule.png", "placement.png"]),
    "counter-editor": ([sys.executable, str(IMG / "counter-editor-shot.py")], ["counter-editor.png", "counter-import.png"]),
    "new-bundle": ([sys.executable, str(IMG / "new-bundle-shots.py")],
                   [f"new-bundle-{p}.png" for p in ("system", "folder", "folder-refused", "map", "terrain", "summary")]),
    "scenario-properties": ([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(REPO / "tests" / "editor" / "test_scenario_properties.py"), "-k", "screenshot"],
                            ["scenario-properties.png"]),
}
NAMES = [*OWN, *DELEGATED]


def _env(settings: str) -> dict[str, str]:
    env = dict(os.environ, XDG_CONFIG_HOME=settings, HEXPROOF_DOC_SHOTS=str(IMG), PYTHONPATH=str(REPO),
               HEXPROOF_STEADY_SHOTS="1")  # editor/app.py screenshot(): no validation time in the picture
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.setdefault("HEXPROOF_AUTOSAVE_SECONDS", "3600")
    return env


def run(name: str, out_dir: Path = IMG) -> list[Path]:
    """Make picture ``name`` in a fresh process; the paths written."""
    with tempfile.TemporaryDirectory(prefix="hexproof-shots-") as settings:
        if name in OWN:
            out = out_dir / f"{name}.png"
            cmd = [sys.executable, __file__, "--child", name, "--out", str(out)]
            subprocess.run(cmd, check=True, env=_env(settings), cwd=REPO)
            return [out]
        cmd, made = DELEGATED[name]
        subprocess.run(cmd, check=True, env=_env(settings), cwd=REPO)
        return [IMG / m for m in made]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", choices=NAMES, help="make only this picture (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the names and exit")
    ap.add_argument("--child", choices=list(OWN), help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(NAMES))
        return 0
    if args.child:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        sys.path.insert(0, str(REPO))
        OWN[args.child](args.out)
        return 0
    failed = []
    for name in args.only or NAMES:
        try:
            paths = run(name)
        except subprocess.CalledProcessError as exc:  # the others are still made
            print(f"shots: {name} failed (exit {exc.returncode}): {' '.join(map(str, exc.cmd))}", file=sys.stderr)
            failed.append(name)
            continue
        for path in paths:
            print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    if failed:
        print(f"shots: not made: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
