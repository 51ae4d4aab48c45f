"""docs/play.md's tables of each system's sequence of play (played / partly played / not played)
are what the code derives from the system data and the procedures' declarations
(:func:`play.sequence.coverage_table`), so they cannot go stale. After a deliberate change,
rewrite them with ``HEXPROOF_WRITE_DOCS=1 python -m pytest tests/play/test_sequence_docs.py``."""

from __future__ import annotations

import os
import re

import pytest

from conftest import REPO
from model.bundle import load_bundle
from play.game import Game
from play.sequence import coverage_table

DOC = REPO / "docs" / "play.md"
# system id -> (sample folder, scenario the table is derived from)
TABLES = {
    "sfn": ("second-front-now", "calais-optional-rules"),
    "gts-utah": ("utah-beach", "beach-landing"),
    "tkg": ("killing-ground", "operation-overlord"),
    "example-hex": ("format-example", "meeting"),
}
BLOCK = re.compile(r"(<!-- sequence-table:(?P<id>[\w-]+) -->\n)(?P<body>.*?)(<!-- /sequence-table -->)", re.S)


def derived(system_id: str) -> str:
    folder, scenario = TABLES[system_id]
    bundle = load_bundle(REPO / "scenarios" / folder).bundle
    assert bundle is not None and bundle.system.id == system_id
    g = Game(bundle, scenario, 1)
    return coverage_table(g.phases, g.procedures, g.engine_plays)


def test_every_sequence_table_in_the_docs_is_the_derived_one() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = {m.group("id"): m.group("body") for m in BLOCK.finditer(text)}
    assert set(found) == set(TABLES), "docs/play.md needs one sequence-table block per system"
    if os.environ.get("HEXPROOF_WRITE_DOCS") == "1":
        DOC.write_text(BLOCK.sub(lambda m: m.group(1) + derived(m.group("id")) + m.group(4), text), encoding="utf-8")
        pytest.skip("rewrote the sequence tables of docs/play.md")
    for system_id, body in found.items():
        assert body == derived(system_id), f"docs/play.md's {system_id} table is stale: rewrite it (see this module)"


def test_the_tables_say_what_is_not_played() -> None:
    """GTS 4.0 "A. Weather. Check Weather if it is the first daylight turn." — nothing plays it."""
    gts = derived("gts-utah")
    assert "| Weather | both | — | GTS 4.0 A | not played | — |" in gts
    assert "| Activation Phase | both | — | GTS 4.0 H | partly played (activation-gated) |" in gts
    assert "| not played | — |" not in derived("example-hex")
