"""The proof PDF: page count, sections, printed labels as text, mirrored counter backs."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdftools import page_count, page_width, render_pages, text, words

from conftest import FIXTURES, REPO
from editor.export.pdf import ProofOptions, export_proof_pdf
from hexproof.cli import main
from model.bundle import load_bundle

MINI = FIXTURES / "bundles" / "mini"
pytestmark = pytest.mark.usefixtures("qapp")


@pytest.fixture(scope="module")
def mini_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    bundle = load_bundle(MINI).bundle
    assert bundle is not None
    out = tmp_path_factory.mktemp("proof") / "mini.pdf"
    calls: list[tuple[int, int, str]] = []
    summary = export_proof_pdf(bundle, out, ProofOptions(), lambda d, t, w: calls.append((d, t, w)))
    assert calls[-1][0] == calls[-1][1] and [c[0] for c in calls] == sorted(c[0] for c in calls)
    return out, summary


def section_page(summary: object, title: str) -> int:
    return next(p for t, p in summary.sections if t.startswith(title))  # type: ignore[attr-defined]


def test_page_count_and_sections(mini_pdf: tuple[Path, object]) -> None:
    pdf, summary = mini_pdf
    assert page_count(pdf) == summary.pages  # type: ignore[attr-defined]
    titles = [t for t, _ in summary.sections]  # type: ignore[attr-defined]
    for want in ("Title", "Map mini", "Counter sheets", "Setup card base", "Schedule base", "Setup card variant",
                 "Validation report"):
        assert want in titles


def test_map_page_carries_every_printed_label(mini_pdf: tuple[Path, object]) -> None:
    pdf, summary = mini_pdf
    bundle = load_bundle(MINI).bundle
    hmap = bundle.default_map
    page = section_page(summary, "Map mini")
    found = text(pdf, page, page).split()
    for h in hmap.hexes():
        assert hmap.label(h) in found, hmap.label(h)


def test_setup_card_schedule_and_report(mini_pdf: tuple[Path, object]) -> None:
    pdf, summary = mini_pdf
    p = section_page(summary, "Setup card base")
    card = text(pdf, p, p)
    assert "91st Inf" in card and "0402" in card  # unit x1 set up in 0402
    assert "england" in card  # a1 arrives from the England box on turn 2
    report = text(pdf, section_page(summary, "Validation report"))
    assert "Validation report" in report and "0 findings" in report


def test_validation_report_lists_findings(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(MINI, tmp_path / "mini")
    scen = tmp_path / "mini" / "scenarios" / "base.yaml"
    scen.write_text(scen.read_text(encoding="utf-8").replace("hex: '0402'", "hex: '0909'"), encoding="utf-8")
    bundle = load_bundle(tmp_path / "mini").bundle
    summary = export_proof_pdf(bundle, tmp_path / "bad.pdf")
    report = text(tmp_path / "bad.pdf", section_page(summary, "Validation report"))
    # One finding: the variant inherits it from base (listed once, issue #19).
    assert "1 finding: 1 error" in report and "CORE-HEX-001" in report and "base.yaml:6" in report
    assert "inherited by variant" in report


def test_validation_report_names_the_policy_a_finding_applied(tmp_path: Path) -> None:
    """Each finding's line reads as ``validate`` text prints it, with ``(policy NAME)``."""
    import shutil

    shutil.copytree(MINI, tmp_path / "mini")
    scen = tmp_path / "mini" / "scenarios" / "base.yaml"
    scen.write_text(scen.read_text(encoding="utf-8").replace("hex: '0402'", "hex: '0402', attached_to: nobody"),
                    encoding="utf-8")
    bundle = load_bundle(tmp_path / "mini").bundle
    summary = export_proof_pdf(bundle, tmp_path / "policy.pdf")
    report = " ".join(text(tmp_path / "policy.pdf", section_page(summary, "Validation report")).split())
    assert "CORE-REF-001" in report and "(policy attach-to-formation)" in report


def test_counter_backs_are_mirrored_for_duplex(mini_pdf: tuple[Path, object]) -> None:
    pdf, summary = mini_pdf
    front = section_page(summary, "Counter sheets")
    width = page_width(pdf, front)
    f = next(w for w in words(pdf, front) if w[0] == "3-4-3")  # counter a1 values line, centred
    b = next(w for w in words(pdf, front + 1) if w[0] == "a1")  # its (blank) back carries its id
    assert "BACKS" in text(pdf, front + 1, front + 1)
    f_centre, b_centre = (f[1] + f[3]) / 2, (b[1] + b[3]) / 2
    assert f_centre < width / 2 < b_centre
    assert abs((f_centre + b_centre) - width) < 3.0  # mirrored about the page centre line
    assert abs(f[2] - b[2]) < 5  # same row (both on the counter's bottom line)


def test_pages_render_to_images(mini_pdf: tuple[Path, object], tmp_path: Path) -> None:
    pdf, summary = mini_pdf
    images = render_pages(pdf, tmp_path)
    assert len(images) == summary.pages  # type: ignore[attr-defined]
    assert all(p.stat().st_size > 200 for p in images)


def test_cli_proof_with_png_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proof", str(MINI), "--out", str(tmp_path), "--png", "--svg"]) == 0
    err = capsys.readouterr().err
    assert "proof: 100%" in err
    pdf = tmp_path / "mini-proof.pdf"
    assert page_count(pdf) >= 6
    from PySide6.QtGui import QImage

    img = QImage(str(tmp_path / "mini.png"))
    assert not img.isNull() and img.width() > 100
    svg = (tmp_path / "mini.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "0402" in svg


def test_utah_proof_has_zone_and_overlay_maps(tmp_path: Path) -> None:
    bundle = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    summary = export_proof_pdf(bundle, tmp_path / "utah.pdf", ProofOptions(hex_mm=10, validate=False))
    titles = [t for t, _ in summary.sections]
    assert any(t.startswith("Drop zones (night-drop)") for t in titles)
    assert any(t.startswith("Beach overlay") for t in titles)
    p = section_page(summary, "Drop zones (night-drop)")
    legend = text(tmp_path / "utah.pdf", p, p)
    assert "DZ A: 9 hexes" in legend  # the nine hexes of Excl 3.2
    assert "LZ O: 14 hexes" in legend  # DZ O (8) + 6 [Excl 3.2 "should add"]
