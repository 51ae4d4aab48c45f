"""Map-art proofing: read each hex's centre dot from a calibrated map image and compare the
terrain it says with the terrain data.

GTS defines in-hex terrain by the colour of the dot in the centre of the hex [Utah Excl 2.1]:
"if a hex has a green center dot, then it is a Woods hex". The diagnostics cite the case the
system file gives for that (``citations.cases.map_art``), or none. Given the image as a numpy RGB
array and the calibration (printed hex label ↔ image pixel, as the editor's background
layer stores it), every hex centre is sampled (the median of a small disc, so a label or an
anti-aliased edge pixel does not decide), classified against the system's colour legend
(``dot_color`` where the system gives one, else the terrain ``color``), and compared.

Policies (named in each diagnostic):

* ``unknown-colour``: a sample farther than ``tolerance`` from every legend colour is a
  mismatch of its own (PROOF-ART-002), never mapped to a nearest or default terrain.
* ``shared-dot``: several terrain types may print the same dot ("Fortified terrain has the
  same center dot as a City hex" [Excl 2.1]); a sample matching a shared colour agrees with
  the data when the data's terrain is any of the types sharing it.
* ``off-image``: a hex whose centre lies outside the image cannot be proofed; it is reported
  (PROOF-ART-003, info), not skipped silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from model.calibration import solve_affine
from model.diagnostics import Diagnostic, Location, Severity
from model.hexes import Hex
from model.layout import Layout
from model.mapdata import HexMap
from model.system import GameSystem

if TYPE_CHECKING:  # pragma: no cover - typing only
    from model.bundle import Bundle

CODE_MISMATCH = "PROOF-ART-001"
CODE_UNKNOWN = "PROOF-ART-002"
CODE_OFF_IMAGE = "PROOF-ART-003"
DEFAULT_TOLERANCE = 48.0  # RGB distance; legend colours of a system are usually > 60 apart
DOT_RADIUS = 0.12  # sampled disc radius, in hex sizes (centre to corner)


def parse_hex_colour(text: str) -> tuple[int, int, int]:
    t = text.lstrip("#")
    return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)


def hex_colour(rgb: np.ndarray | tuple[int, int, int]) -> str:
    r, g, b = (int(v) for v in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True)
class LegendEntry:
    colour: tuple[int, int, int]
    terrain: tuple[str, ...]  # every terrain type printing this colour (shared-dot policy)


def legend_for(system: GameSystem) -> list[LegendEntry]:
    """The colour legend: one entry per distinct dot colour."""
    by_colour: dict[tuple[int, int, int], list[str]] = {}
    for t in system.terrain:
        by_colour.setdefault(parse_hex_colour(t.dot_color or t.color), []).append(t.id)
    return [LegendEntry(c, tuple(ids)) for c, ids in by_colour.items()]


@dataclass(frozen=True)
class HexSample:
    hex: Hex
    label: str
    expected: str | None  # terrain in the data
    colour: tuple[int, int, int] | None  # None: centre off the image
    candidates: tuple[str, ...]  # terrain types whose dot matches; () = unknown colour
    distance: float

    @property
    def status(self) -> str:
        if self.colour is None:
            return "off-image"
        if not self.candidates:
            return "unknown-colour"
        return "match" if self.expected in self.candidates else "mismatch"

    @property
    def suggestion(self) -> str | None:
        """The terrain the art says, when it says exactly one and the data differ."""
        if self.status == "mismatch" and len(self.candidates) == 1:
            return self.candidates[0]
        return None


@dataclass
class ArtReport:
    map_id: str
    tolerance: float = DEFAULT_TOLERANCE
    samples: list[HexSample] = field(default_factory=list)

    def by_status(self, status: str) -> list[HexSample]:
        return [s for s in self.samples if s.status == status]

    @property
    def problems(self) -> list[HexSample]:
        return [s for s in self.samples if s.status != "match"]


def image_transform(hmap: HexMap, calibration: list[tuple[Hex, float, float]] | None = None) -> np.ndarray:
    """2×3 matrix: map units (hex size 1, :mod:`model.layout`) → image pixels."""
    if calibration is None:
        if hmap.background is None:
            raise ValueError(f"map {hmap.id!r} has no background calibration")
        calibration = [(p.label, p.x, p.y) for p in hmap.background.calibration]
    if len(calibration) < 2:
        raise ValueError(f"map {hmap.id!r} needs at least two calibration points (hex label ↔ pixel)")
    lay = Layout.for_orientation(hmap.grid.orientation)
    img = np.array([(x, y) for _, x, y in calibration], dtype=float)
    mp = np.array([lay.center(h) for h, _, _ in calibration], dtype=float)
    # image → map, as the editor solves it; a degenerate or absurd calibration (two labels
    # at one pixel, 1e300, a hex thousands of pixels wide) is a CalibrationError here.
    m = solve_affine(img, mp, hex_size=1.0, labels=[hmap.label(h) for h, _, _ in calibration])
    a, t = m[:, :2], m[:, 2]
    inv = np.linalg.inv(a)
    return np.column_stack([inv, -inv @ t])


def sample_centres(rgb: np.ndarray, hexes: list[Hex], to_image: np.ndarray, orientation: str,
                   radius: float = DOT_RADIUS) -> tuple[np.ndarray, np.ndarray]:
    """(colours N×3 uint8, inside N bool): median colour of a disc at each hex centre."""
    lay = Layout.for_orientation(orientation)
    centres = np.array([lay.center(h) for h in hexes], dtype=float).reshape(-1, 2)
    px = centres @ to_image[:, :2].T + to_image[:, 2]
    size_px = float(np.sqrt(abs(np.linalg.det(to_image[:, :2]))))  # pixels per hex size
    r = max(1, int(round(radius * size_px)))
    # A big scale must not mean a big sample: past radius 16 the disc is sampled on a
    # coarser lattice (at most 33×33 points), so time and memory no longer grow with the
    # scale (a ×2000 calibration took 21 s and 7.3 GB with every pixel of the disc).
    step = max(1, -(-r // 16))
    dy, dx = np.mgrid[-r:r + 1:step, -r:r + 1:step]
    disc = (dx * dx + dy * dy) <= r * r
    ox, oy = dx[disc], dy[disc]
    h, w = rgb.shape[:2]
    cx = np.rint(px[:, 0]).astype(np.int64)
    cy = np.rint(px[:, 1]).astype(np.int64)
    inside = (cx - r >= 0) & (cx + r < w) & (cy - r >= 0) & (cy + r < h)
    colours = np.zeros((len(hexes), 3), dtype=np.uint8)
    if inside.any():
        xs = cx[inside, None] + ox[None, :]
        ys = cy[inside, None] + oy[None, :]
        patch = rgb[ys, xs, :3].astype(np.float64)  # (n, k, 3)
        colours[inside] = np.rint(np.median(patch, axis=1)).astype(np.uint8)
    return colours, inside


def classify(colours: np.ndarray, legend: list[LegendEntry],
             tolerance: float = DEFAULT_TOLERANCE) -> tuple[list[tuple[str, ...]], np.ndarray]:
    """Per colour: the terrain types of the nearest legend colour within ``tolerance`` (or
    ``()``: unknown-colour policy) and the distance to it."""
    table = np.array([e.colour for e in legend], dtype=np.float64).reshape(-1, 3)
    d = np.linalg.norm(colours.astype(np.float64)[:, None, :] - table[None, :, :], axis=2)
    best = np.argmin(d, axis=1)
    dist = d[np.arange(len(colours)), best]
    out = [legend[int(b)].terrain if dd <= tolerance else () for b, dd in zip(best, dist)]
    return out, dist


def proof_map_art(rgb: np.ndarray, hmap: HexMap, system: GameSystem,
                  calibration: list[tuple[Hex, float, float]] | None = None,
                  tolerance: float = DEFAULT_TOLERANCE, radius: float = DOT_RADIUS) -> ArtReport:
    """Sample, classify and compare every hex of ``hmap`` (the pure, Qt-free core)."""
    if rgb.ndim != 3 or rgb.shape[2] < 3:
        raise ValueError("expected an H×W×3 (or ×4) RGB array")
    hexes = hmap.hexes()
    to_image = image_transform(hmap, calibration)
    colours, inside = sample_centres(rgb, hexes, to_image, hmap.grid.orientation, radius)
    cands, dist = classify(colours, legend_for(system), tolerance)
    report = ArtReport(hmap.id, tolerance)
    for i, h in enumerate(hexes):
        on = bool(inside[i])
        report.samples.append(HexSample(
            hex=h, label=hmap.label(h), expected=hmap.terrain_at(h),
            colour=tuple(int(v) for v in colours[i]) if on else None,  # type: ignore[arg-type]
            candidates=cands[i] if on else (), distance=float(dist[i]) if on else float("nan")))
    return report


def art_diagnostics(report: ArtReport, hmap: HexMap, bundle: "Bundle | None" = None,
                    system: GameSystem | None = None) -> list[Diagnostic]:
    """One diagnostic per hex that is not a match, at the map's terrain rows. Each cites the
    map-art case of ``system`` (default: the bundle's), or no case when it declares none."""
    base = bundle.locate(hmap.terrain) if bundle is not None else Location(file=hmap.source_file)
    if system is None and bundle is not None:
        system = bundle.system
    case = system.citations.cases.map_art if system is not None else None
    rule_case = system.cite(case) if system is not None and case else None
    out: list[Diagnostic] = []
    off = report.by_status("off-image")
    for s in report.samples:
        loc = Location(file=base.file, line=base.line, column=base.column, path=base.path, hexes=(s.label,))
        if s.status == "mismatch":
            art = "/".join(s.candidates)
            out.append(Diagnostic(
                CODE_MISMATCH, Severity.ERROR,
                f"hex {s.label}: the map art's centre dot {hex_colour(s.colour)} says {art}, "  # type: ignore[arg-type]
                f"the terrain data say {s.expected or 'no hex'}",
                loc, rule_case=rule_case, policy="shared-dot" if len(s.candidates) > 1 else None))
        elif s.status == "unknown-colour":
            out.append(Diagnostic(
                CODE_UNKNOWN, Severity.ERROR,
                f"hex {s.label}: centre dot colour {hex_colour(s.colour)} is not in the terrain legend "  # type: ignore[arg-type]
                f"(nearest is {s.distance:.0f} away, tolerance {report.tolerance:g}); the data say {s.expected}",
                loc, rule_case=rule_case, policy="unknown-colour"))
    if off:
        labels = tuple(s.label for s in off)
        out.append(Diagnostic(
            CODE_OFF_IMAGE, Severity.INFO,
            f"{len(off)} hexes have their centre outside the image and were not proofed"
            f" (first: {', '.join(labels[:5])})",
            Location(file=base.file, line=base.line, column=base.column, path=base.path, hexes=labels),
            rule_case=rule_case, policy="off-image"))
    return out
