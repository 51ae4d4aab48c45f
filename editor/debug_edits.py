"""``hexproof edit --debug-paint HEX=TERRAIN``: unsaved edits made at start-up, for tests.

The crash-recovery test (tests/reliability/test_crash_recovery.py) starts a real editor
process, needs it to hold unsaved edits, then kills it. This hook is data only — hex labels
and terrain ids given on the command line, never read from a file and never code — and each
pair is pushed as its own ``PaintTerrain`` undo step, exactly as the brush would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from editor.main_window import MainWindow


def parse_paint(specs: list[str]) -> list[tuple[str, str]]:
    """``["0502=woods", …]`` → ``[("0502", "woods"), …]``; ValueError names a malformed one."""
    out: list[tuple[str, str]] = []
    for spec in specs:
        label, sep, terrain = spec.partition("=")
        if not sep or not label.strip() or not terrain.strip():
            raise ValueError(f"--debug-paint wants HEX=TERRAIN, e.g. 0502=woods, not {spec!r}")
        out.append((label.strip(), terrain.strip()))
    return out


def apply_paint(window: "MainWindow", specs: list[str]) -> str | None:
    """Push one paint command per pair on the open document; an error message or None."""
    from editor.commands import PaintTerrain

    doc = window.doc
    if doc is None:
        return "--debug-paint: no document is open"
    try:
        pairs = parse_paint(specs)
        known = {t.id for t in doc.system.terrain}
        for label, terrain in pairs:
            if terrain not in known:
                return f"--debug-paint: unknown terrain {terrain!r} (known: {', '.join(sorted(known))})"
            h = doc.hmap.parse(label)
            if not doc.hmap.contains(h):
                return f"--debug-paint: hex {label} is not on the map"
            doc.push(PaintTerrain(doc, {h: terrain}))
    except ValueError as exc:
        return str(exc)
    return None
