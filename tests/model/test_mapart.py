"""Map-art proofing core (Qt-free): a synthetic image with centre dots, some altered on purpose."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from conftest import FIXTURES, REPO
from model.bundle import load_bundle
from model.hexes import Hex
from model.layout import Layout
from model.system import GameSystem, system_path
from model.formats.mapart import (CODE_MISMATCH, CODE_OFF_IMAGE, CODE_UNKNOWN, art_diagnostics, classify, image_transform,
                          legend_for, parse_hex_colour, proof_map_art, solve_affine)

def load_system_file(system_id: str) -> GameSystem:
    return GameSystem.model_validate(yaml.safe_load(system_path(system_id).read_text(encoding="utf-8")))


PX = 40.0  # pixels per hex size in the synthetic image


def dotted_image(hmap, system, colours: dict[Hex, str] | None = None, margin: float = 40.0):  # type: ignore[no-untyped-def]
    """A plain grey image with a dot of each hex's terrain colour at its centre, and the
    calibration (three hexes ↔ pixels) that places it."""
    lay = Layout.for_orientation(hmap.grid.orientation, PX)
    hexes = hmap.hexes()
    pts = np.array([lay.center(h) for h in hexes])
    ox, oy = pts.min(axis=0) - margin
    w, h = (pts.max(axis=0) - (ox, oy) + margin).astype(int)
    img = np.full((h, w, 3), 128, dtype=np.uint8)
    yy, xx = np.mgrid[0:h, 0:w]
    for hx in hexes:
        cx, cy = lay.center(hx)
        cx, cy = cx - ox, cy - oy
        tid = hmap.terrain_at(hx)
        colour = (colours or {}).get(hx) or system.terrain_by_id[tid].color
        disc = (xx - cx) ** 2 + (yy - cy) ** 2 <= (0.25 * PX) ** 2
        img[disc] = parse_hex_colour(colour)
    cal = [(hx, lay.center(hx)[0] - ox, lay.center(hx)[1] - oy) for hx in (hexes[0], hexes[len(hexes) // 2], hexes[-1])]
    return img, cal


@pytest.fixture(scope="module")
def mini():  # type: ignore[no-untyped-def]
    b = load_bundle(FIXTURES / "bundles" / "mini").bundle
    assert b is not None
    return b


def test_clean_image_matches_everywhere(mini) -> None:  # type: ignore[no-untyped-def]
    hmap = mini.default_map
    img, cal = dotted_image(hmap, mini.system)
    report = proof_map_art(img, hmap, mini.system, cal)
    assert len(report.samples) == len(hmap.hexes())
    assert report.problems == []
    assert art_diagnostics(report, hmap, mini) == []


def test_altered_dots_are_reported_with_both_values(mini) -> None:  # type: ignore[no-untyped-def]
    hmap = mini.default_map
    woods = hmap.parse("0202")  # clear in the data
    sea = hmap.parse("0102")
    odd = hmap.parse("0603")
    woods_colour = mini.system.terrain_by_id["woods"].color
    img, cal = dotted_image(hmap, mini.system, {woods: woods_colour, sea: woods_colour, odd: "#ff00ff"})
    report = proof_map_art(img, hmap, mini.system, cal)
    bad = {s.label: s for s in report.problems}
    assert set(bad) == {"0202", "0102", "0603"}
    assert bad["0202"].status == "mismatch" and bad["0202"].expected == "clear" and bad["0202"].suggestion == "woods"
    assert bad["0603"].status == "unknown-colour" and bad["0603"].suggestion is None  # never a silent default
    diags = art_diagnostics(report, hmap, mini)
    by_hex = {d.location.hexes[0]: d for d in diags}
    assert by_hex["0202"].code == CODE_MISMATCH and "woods" in by_hex["0202"].message and "clear" in by_hex["0202"].message
    assert by_hex["0603"].code == CODE_UNKNOWN and "#ff00ff" in by_hex["0603"].message
    # The mini system declares no map-art case: none is cited, none invented. A system that
    # declares one (citations.cases.map_art) has it cited on every diagnostic.
    assert all(d.rule_case is None for d in diags)
    gts = load_system_file("gts-utah")
    assert gts.citations.cases.map_art == "Utah Excl 2.1"
    assert all(d.rule_case == "Utah Excl 2.1" for d in art_diagnostics(report, hmap, mini, system=gts))
    assert by_hex["0202"].location.file and by_hex["0202"].location.file.endswith("mini.yaml")
    assert by_hex["0202"].location.line is not None


def test_a_label_or_road_over_part_of_the_dot_does_not_decide(mini) -> None:  # type: ignore[no-untyped-def]
    hmap = mini.default_map
    img, cal = dotted_image(hmap, mini.system)
    to_img = image_transform(hmap, cal)
    h = hmap.parse("0302")
    lay = Layout.for_orientation(hmap.grid.orientation)
    x, y = np.array(lay.center(h)) @ to_img[:, :2].T + to_img[:, 2]
    img[int(y) - 1:int(y) + 2, :, :] = (0, 0, 0)  # a thin black line (a road) through the centre
    assert proof_map_art(img, hmap, mini.system, cal).problems == []


def test_off_image_hexes_are_reported_not_skipped(mini) -> None:  # type: ignore[no-untyped-def]
    hmap = mini.default_map
    img, cal = dotted_image(hmap, mini.system)
    cropped = img[:, : img.shape[1] // 2]
    report = proof_map_art(cropped, hmap, mini.system, cal)
    off = report.by_status("off-image")
    assert off and len(off) + len(report.by_status("match")) == len(report.samples)
    diags = art_diagnostics(report, hmap, mini)
    assert [d.code for d in diags] == [CODE_OFF_IMAGE]
    assert len(diags[0].location.hexes) == len(off)


def test_shared_dot_policy_city_and_fortified() -> None:
    """"Fortified terrain has the same center dot as a City hex" [Excl 2.1]."""
    b = load_bundle(REPO / "scenarios" / "utah-beach").bundle
    system = b.system.model_copy(deep=True)
    for t in system.terrain:
        if t.id == "fortified":
            t.dot_color = system.terrain_by_id["city"].color
    legend = legend_for(system)
    shared = [e for e in legend if "city" in e.terrain]
    assert shared[0].terrain == ("city", "fortified")
    cands, _ = classify(np.array([parse_hex_colour(system.terrain_by_id["city"].color)], dtype=np.uint8), legend)
    assert cands == [("city", "fortified")]


def test_calibration_solve_recovers_a_known_affine() -> None:
    m = np.array([[0.02, 0.003, -1.5], [-0.001, 0.021, 2.0]])
    img = np.array([(10, 10), (300, 40), (120, 400), (500, 500)], dtype=float)
    mp = img @ m[:, :2].T + m[:, 2]
    assert np.allclose(solve_affine(img, mp), m)
    two = solve_affine(img[:2], mp[:2])  # similarity from two points
    assert two.shape == (2, 3)


def test_needs_calibration(mini) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="calibration"):
        proof_map_art(np.zeros((10, 10, 3), np.uint8), mini.default_map, mini.system)
