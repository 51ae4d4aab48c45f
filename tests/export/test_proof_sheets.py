"""The proof PDF lays counters out by sheet, row and column: each sheet's fronts, then its
backs on the next page in the mirror slots, so a long-edge duplex print registers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pdftools import page_width, render_pages, text, words

from conftest import FIXTURES
from editor.export.pdf import export_proof_pdf
from model.bundle import load_bundle
from model.counters import CounterSheet

MINI = FIXTURES / "bundles" / "mini"
pytestmark = pytest.mark.usefixtures("qapp")


def _centre(word: tuple[str, float, float, float, float]) -> tuple[float, float]:
    return (word[1] + word[3]) / 2, (word[2] + word[4]) / 2


@pytest.fixture(scope="module")
def sheet_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """Sheet A, 3 × 4 declared: a1 twice from row 1 col 1 (copies along the row), x1 at row 2
    col 4 with an explicit back at its mirror slot (row 2 col 1)."""
    root = tmp_path_factory.mktemp("sheets") / "mini"
    shutil.copytree(MINI, root)
    bundle = load_bundle(root).bundle
    assert bundle is not None
    a1, x1 = bundle.counters
    a1.sheet, a1.row, a1.col, a1.count = "A", 1, 1, 2
    x1.sheet, x1.row, x1.col, x1.back_row, x1.back_col = "A", 2, 4, 2, 1
    bundle.game.counter_sheets = [CounterSheet(id="A", rows=3, cols=4)]
    out = root.parent / "sheets.pdf"
    return out, export_proof_pdf(bundle, out)


def test_sheet_pages_are_fronts_then_backs(sheet_pdf: tuple[Path, object]) -> None:
    pdf, summary = sheet_pdf
    first = next(p for t, p in summary.sections if t == "Counter sheets")  # type: ignore[attr-defined]
    assert "Counter sheet A — fronts: 3 rows × 4 columns (declared)" in text(pdf, first, first)
    assert "Counter sheet A — BACKS (mirrored for duplex)" in text(pdf, first + 1, first + 1)
    assert "Counter sheet" not in text(pdf, first + 2, first + 2)  # every counter has a position


def test_fronts_sit_in_their_slots_and_backs_in_the_mirror_slots(sheet_pdf: tuple[Path, object]) -> None:
    pdf, summary = sheet_pdf
    first = next(p for t, p in summary.sections if t == "Counter sheets")  # type: ignore[attr-defined]
    width = page_width(pdf, first)
    fronts = sorted(_centre(w) for w in words(pdf, first) if w[0] in ("3-4-3", "2-3-3"))
    a_front = [c for c in fronts if c[1] == min(y for _, y in fronts)]
    (x_front,) = [c for c in fronts if c not in a_front]
    assert len(a_front) == 2 and len(fronts) == 3
    slot = a_front[1][0] - a_front[0][0]  # the copies are side by side: one slot apart
    assert slot > 0
    # x1 (row 2 col 4) is one row down and three slots right of a1's first copy (col 1).
    assert abs(x_front[0] - a_front[0][0] - 3 * slot) < 2 and x_front[1] > a_front[0][1]
    backs = sorted(_centre(w) for w in words(pdf, first + 1) if w[0] in ("a1", "x1"))
    # A back at page position x registers behind the front at width - x.
    mirrored = sorted((width - x, y) for x, y in backs)
    by_row = sorted(mirrored, key=lambda c: (round(c[1]), c[0]))
    fronts_by_row = sorted(fronts, key=lambda c: (round(c[1]), c[0]))
    for (bx, _), (fx, _) in zip(by_row, fronts_by_row):
        assert abs(bx - fx) < 3.0
    assert sorted(round(y) for _, y in backs)[0] < sorted(round(y) for _, y in backs)[-1]  # two rows


def test_the_sheet_pages_render(sheet_pdf: tuple[Path, object], tmp_path: Path) -> None:
    pdf, _ = sheet_pdf
    images = render_pages(pdf, tmp_path)
    assert all(p.stat().st_size > 200 for p in images)
