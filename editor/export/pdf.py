"""The publisher's proof PDF, written with Qt's own PDF writer (QPdfWriter + QPainter).

Sections, in order: a title page; every map tiled across pages at the chosen scale (tiles
overlap by one hex so they can be trimmed and joined); counter sheets with fronts and then
backs on the following page, mirrored left-right so they line up when printed duplex
(long-edge flip) — laid out by each counter's ``sheet``/``row``/``col`` where given; per scenario a setup card, the reinforcement schedule table and one map
page each for its drop zones and beach overlays; and the validation report.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen, QPolygonF

from editor.export.counter_art import draw_counter, fit_text
from editor.export.map_render import render_region, scene_for
from editor.map_view.scene import MapScene
from editor.qt_geometry import HEX_SIZE, hexside_line, scene_rect
from model.base import HexsideKey
from model.bundle import Bundle
from model.counter_sheets import layouts, positioned
from model.counters import Counter
from model.diagnostics import Diagnostic
from model.hexes import Hex
from model.layout import Layout
from model.label_layout import Rect as LayoutRect
from model.label_layout import flow
from model.mapdata import HexMap
from model.scenario import BeachOverlay, DropZone, Scenario, SetupEntry

Progress = Callable[[int, int, str], None]
MM_PER_INCH = 25.4
LEGEND_MM = 2.8  # legend type size (about 8 pt)
ZONE_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b", "#bcbd22")


@dataclass
class ProofOptions:
    hex_mm: float = 16.0  # map scale: a hex's width across flats on paper, in millimetres
    counter_mm: float = 15.875  # counter side (5/8 inch, the common size)
    page: str = "A4"  # or "Letter"
    margin_mm: float = 10.0
    dpi: int = 300
    raster_dpi: int = 150  # terrain image resolution under the vector labels and lines
    validate: bool = True
    # One LOS-coverage heatmap page per scenario and side with set-up units (issue #22;
    # play/analysis/coverage.py), after the scenario's pages.
    coverage: bool = False


@dataclass
class ProofSummary:
    path: Path
    pages: int = 0
    sections: list[tuple[str, int]] = field(default_factory=list)  # (title, first page, 1-based)


class PageWriter:
    """A cursor over PDF pages: headings, text lines and tables that flow onto new pages."""

    def __init__(self, writer: QPdfWriter, painter: QPainter, dpi: int) -> None:
        self.writer, self.painter, self.dpi = writer, painter, dpi
        self.page = 1
        self.y = 0.0
        self.started = False

    def mm(self, v: float) -> float:
        return v * self.dpi / MM_PER_INCH

    @property
    def width(self) -> float:
        return float(self.writer.width())

    @property
    def height(self) -> float:
        return float(self.writer.height())

    def new_page(self) -> None:
        if self.started:
            self.writer.newPage()
            self.page += 1
        self.started = True
        self.y = 0.0

    def font(self, pt: float, bold: bool = False, mono: bool = False) -> QFont:
        f = QFont("Monospace" if mono else "Sans Serif")
        if mono:
            f.setStyleHint(QFont.StyleHint.TypeWriter)
        f.setPointSizeF(pt)
        f.setBold(bold)
        return f

    def text(self, text: str, pt: float = 10, bold: bool = False, mono: bool = False, indent_mm: float = 0) -> None:
        """One paragraph, word-wrapped to the page width; new page when it does not fit."""
        f = self.font(pt, bold, mono)
        self.painter.setFont(f)
        rect = QRectF(self.mm(indent_mm), 0, self.width - self.mm(indent_mm), self.height)
        flags = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft)
        needed = self.painter.boundingRect(rect, flags, text).height()
        if self.y + needed > self.height and self.y > 0:
            self.new_page()
        self.painter.setPen(QColor("#000000"))
        self.painter.drawText(QRectF(rect.x(), self.y, rect.width(), needed + 1), flags, text)
        self.y += needed + self.mm(1)

    def heading(self, text: str, pt: float = 14) -> None:
        if self.y > self.height * 0.85:
            self.new_page()
        self.y += self.mm(2) if self.y > 0 else 0
        self.text(text, pt, bold=True)

    def table(self, headers: list[str], rows: list[list[str]], widths: list[float], pt: float = 8) -> None:
        """Rows with wrapped cells; the header repeats on each new page."""
        total = sum(widths)
        cols = [w / total * self.width for w in widths]
        flags = int(Qt.TextFlag.TextWordWrap) | int(Qt.AlignmentFlag.AlignLeft) | int(Qt.AlignmentFlag.AlignTop)
        pad = self.mm(0.8)

        def row_height(cells: list[str], f: QFont) -> float:
            self.painter.setFont(f)
            return max(self.painter.boundingRect(QRectF(0, 0, c - 2 * pad, self.height), flags, t).height()
                       for c, t in zip(cols, cells)) + 2 * pad

        def draw_row(cells: list[str], f: QFont, shade: QColor | None) -> None:
            h = row_height(cells, f)
            if self.y + h > self.height:
                self.new_page()
                draw_row(headers, bold, QColor("#dddddd"))
                h = row_height(cells, f)
            x = 0.0
            self.painter.setFont(f)
            for c, t in zip(cols, cells):
                cell = QRectF(x, self.y, c, h)
                if shade is not None:
                    self.painter.fillRect(cell, shade)
                self.painter.setPen(QPen(QColor("#888888"), self.mm(0.1)))
                self.painter.drawRect(cell)
                self.painter.setPen(QColor("#000000"))
                self.painter.drawText(cell.adjusted(pad, pad, -pad, -pad), flags, t)
                x += c
            self.y += h

        bold = self.font(pt, bold=True)
        normal = self.font(pt)
        draw_row(headers, bold, QColor("#dddddd"))
        for r in rows:
            draw_row(r, normal, None)
        self.y += self.mm(2)


class ProofBuilder:
    def __init__(self, bundle: Bundle, out: Path, options: ProofOptions, progress: Progress | None) -> None:
        self.bundle, self.out, self.opt = bundle, out, options
        self.progress = progress
        self.summary = ProofSummary(out)
        self._scenes: dict[str, MapScene] = {}
        self._tiles: dict[str, list[QRectF]] = {}  # map id → page tiles (map_tiles)

    # --- plumbing ----------------------------------------------------------------------------

    def scene(self, map_id: str) -> MapScene:
        if map_id not in self._scenes:
            self._scenes[map_id] = scene_for(self.bundle, map_id)
        return self._scenes[map_id]

    def mark(self, title: str) -> None:
        self.summary.sections.append((title, self.pw.page))

    def tasks(self) -> list[tuple[str, Callable[[], None]]]:
        out: list[tuple[str, Callable[[], None]]] = [("title page", self.title_page)]
        for map_id, hmap in self.bundle.maps.items():
            for i, tile in enumerate(self.map_tiles(hmap)):
                out.append((f"map {map_id} tile {i + 1}", lambda m=map_id, t=tile, n=i: self.map_tile(m, t, n)))
        out.append(("counter sheets", self.counter_sheets))
        for sid in self.bundle.scenario_ids():
            out.append((f"scenario {sid}", lambda s=sid: self.scenario_pages(s)))
            if self.opt.coverage and self.bundle.system.los.enabled:
                out.append((f"coverage {sid}", lambda s=sid: self.coverage_pages(s)))
        if self.opt.validate:
            out.append(("validation report", self.validation_report))
        return out

    def build(self) -> ProofSummary:
        writer = QPdfWriter(str(self.out))
        writer.setResolution(self.opt.dpi)
        writer.setTitle(f"Hexproof proof: {self.bundle.game.name}")
        writer.setCreator("Hexproof")
        size = QPageSize(QPageSize.PageSizeId.Letter if self.opt.page.lower() == "letter" else QPageSize.PageSizeId.A4)
        m = self.opt.margin_mm
        writer.setPageLayout(QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(m, m, m, m),
                                         QPageLayout.Unit.Millimeter))
        painter = QPainter()
        if not painter.begin(writer):
            raise OSError(f"cannot write PDF to {self.out}")
        self.pw = PageWriter(writer, painter, self.opt.dpi)
        try:
            work = self.tasks()
            for i, (name, fn) in enumerate(work):
                if self.progress:
                    self.progress(i, len(work), name)
                fn()
            if self.progress:
                self.progress(len(work), len(work), "done")
        finally:
            painter.end()
        self.summary.pages = self.pw.page
        return self.summary

    # --- sections ----------------------------------------------------------------------------

    def title_page(self) -> None:
        pw, b = self.pw, self.bundle
        pw.new_page()
        self.mark("Title")
        pw.text(f"Proof: {b.game.name}", 20, bold=True)
        pw.text(f"Game system: {b.system.name} ({b.system.id})")
        pw.text(f"Maps: {', '.join(f'{m.id} ({m.name})' for m in b.maps.values())}")
        pw.text(f"Counters: {len(b.counters)}   Scenarios: {', '.join(b.scenario_ids()) or 'none'}")
        pw.text(f"Map scale: hex {self.opt.hex_mm:g} mm across flats; counters {self.opt.counter_mm:g} mm. "
                "Map tiles overlap by one hex. Counter backs follow their fronts, mirrored left-right "
                "for duplex printing (flip on the long edge).")
        if b.game.provenance:
            pw.text(f"Provenance: {b.game.provenance}", 9)

    def scene_units_per_mm(self) -> float:
        size_mm = self.opt.hex_mm / math.sqrt(3.0)  # centre-to-corner size of a flat-top hex
        return HEX_SIZE / size_mm

    def map_tiles(self, hmap: HexMap) -> list[QRectF]:
        """Scene rectangles of the page tiles covering the map's used extent (its on-grid
        hexes, not the grid's bounding box: SFN's first ten columns are off the map), spread
        evenly so each tile is filled and neighbours overlap by at least one hex; each tile is
        trimmed to the hexes it holds, and a tile over no hex at all is left out."""
        from editor.qt_geometry import layout_for

        cached = self._tiles.get(hmap.id)
        if cached is not None:
            return cached
        lay = layout_for(hmap)
        full = used_extent(hmap, lay)
        per_mm = self.scene_units_per_mm()
        page_w, page_h = self.page_mm()
        tw, th = page_w * per_mm, (page_h - 10) * per_mm  # 10 mm for the tile caption
        ov = 2 * HEX_SIZE
        xs = _spread(full.x(), full.width(), tw, ov)
        ys = _spread(full.y(), full.height(), th, ov)
        w, h = min(tw, full.width()), min(th, full.height())
        import numpy as np

        centres = np.array([lay.center(c) for c in hmap.hexes()] or [(float("nan"), float("nan"))])
        tiles = []
        for y in ys:
            for x in xs:
                inside = ((centres[:, 0] >= x) & (centres[:, 0] <= x + w)
                          & (centres[:, 1] >= y) & (centres[:, 1] <= y + h))
                if not inside.any():
                    continue
                # Trimmed to the hexes it holds (a tile at the ragged edge of a multi-sheet
                # map would be mostly blank paper otherwise); neighbours still overlap there.
                m = lay.size * 1.2
                cx, cy = centres[inside, 0], centres[inside, 1]
                tile = QRectF(x, y, w, h).intersected(
                    QRectF(float(cx.min()) - m, float(cy.min()) - m,
                           float(cx.max() - cx.min()) + 2 * m, float(cy.max() - cy.min()) + 2 * m))
                tiles.append(tile)
        self._tiles[hmap.id] = tiles
        return tiles

    def page_mm(self) -> tuple[float, float]:
        letter = self.opt.page.lower() == "letter"
        w, h = (215.9, 279.4) if letter else (210.0, 297.0)
        return w - 2 * self.opt.margin_mm, h - 2 * self.opt.margin_mm

    def map_tile(self, map_id: str, source: QRectF, index: int) -> None:
        pw = self.pw
        pw.new_page()
        hmap = self.bundle.maps[map_id]
        tiles = self.map_tiles(hmap)
        if index == 0:
            self.mark(f"Map {map_id}")
        cols = sorted({round(t.x(), 3) for t in tiles})
        rows = sorted({round(t.y(), 3) for t in tiles})
        row, col = rows.index(round(source.y(), 3)) + 1, cols.index(round(source.x(), 3)) + 1
        pw.text(f"Map {hmap.name} — tile {index + 1} of {len(tiles)} (row {row}, column {col}); "
                f"hex {self.opt.hex_mm:g} mm", 8)
        top = pw.mm(10)
        per_mm = self.scene_units_per_mm()
        target = QRectF(0, top, pw.mm(source.width() / per_mm), pw.mm(source.height() / per_mm))
        render_region(self.scene(map_id), pw.painter, target, source, self.opt.raster_dpi / self.opt.dpi)

    def counter_sheets(self) -> None:
        """Counter sheets, front face then back face, sheet by sheet.

        Counters with a sheet position (model/counter_sheets.py) are laid out as printed: each
        sheet's front page puts the counter of row r, column c in that slot; the back page
        that follows puts each back in its back slot (the mirror slot, or the explicit one),
        so that printed duplex with a long-edge flip every back lands behind its front. The
        grid is centred on the page for the same reason. A sheet wider or taller than the
        page is scaled down, and its caption says by how much. Counters without a position
        follow on generated sheets, filled row by row and mirrored the same way."""
        pw = self.pw
        sheets = layouts(self.bundle.counters, self.bundle.game.counter_sheets)
        # Every copy of the unpositioned counters, as the printed sheets hold them.
        loose = [c for c in self.bundle.counters if not positioned(c) for _ in range(c.count)]
        if not sheets and not loose:
            return
        caption = pw.mm(10)
        marked = False

        def page(title: str) -> None:
            nonlocal marked
            pw.new_page()
            if not marked:
                self.mark("Counter sheets")
                marked = True
            pw.text(title, 8)

        for sheet in sheets.values():
            rows = max(1, sheet.used_rows)
            size = min(pw.mm(self.opt.counter_mm), pw.width / sheet.cols, (pw.height - caption) / rows)
            scale = size / pw.mm(self.opt.counter_mm)
            x0 = (pw.width - sheet.cols * size) / 2  # centred: the mirrored grid lands on the same paper
            shown = "" if scale > 0.999 else f", scaled to {scale:.0%} to fit the page"
            width = "declared" if sheet.declared else "the largest col used (policy sheet-width-from-max-col)"
            for back, placed in ((False, sheet.fronts), (True, sheet.backs)):
                face = "BACKS (mirrored for duplex)" if back else "fronts"
                page(f"Counter sheet {sheet.id} — {face}: {rows} rows × {sheet.cols} columns ({width}){shown}")
                self._slot_grid(x0, caption, size, rows, sheet.cols)
                for p in placed:
                    if not sheet.on_sheet(p.slot):
                        continue  # PROOF-SHEET-001 reports it; nothing to print it on
                    rect = QRectF(x0 + (p.slot.col - 1) * size, caption + (p.slot.row - 1) * size, size, size)
                    draw_counter(pw.painter, rect, p.counter, self.bundle.system, back)
        if not loose:
            return
        size = pw.mm(self.opt.counter_mm)
        cols = max(1, int(pw.width // size))
        rows = max(1, int((pw.height - caption) // size))
        per_sheet = cols * rows
        generated = [loose[i:i + per_sheet] for i in range(0, len(loose), per_sheet)]
        x0 = (pw.width - cols * size) / 2
        for n, chunk in enumerate(generated, 1):
            for back in (False, True):
                face = "BACKS (mirrored for duplex)" if back else "fronts"
                page(f"Counter sheet {n} of {len(generated)} — {face}" + (" (counters without a sheet position)"
                                                                          if sheets else ""))
                for i, c in enumerate(chunk):
                    r, col = divmod(i, cols)
                    if back:
                        col = cols - 1 - col
                    rect = QRectF(x0 + col * size, caption + r * size, size, size)
                    draw_counter(pw.painter, rect, c, self.bundle.system, back)

    def _slot_grid(self, x0: float, top: float, size: float, rows: int, cols: int) -> None:
        """Faint outlines of every slot, so an empty slot shows on the proof."""
        p = self.pw.painter
        p.save()
        p.setPen(QPen(QColor("#bbbbbb"), self.pw.mm(0.1), Qt.PenStyle.DashLine))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for r in range(rows):
            for c in range(cols):
                p.drawRect(QRectF(x0 + c * size, top + r * size, size, size))
        p.restore()

    def scenario_pages(self, sid: str) -> None:
        try:
            scen = self.bundle.resolved(sid)
        except (ValueError, KeyError) as exc:
            self.pw.new_page()
            self.mark(f"Scenario {sid}")
            self.pw.text(f"Scenario {sid} cannot be resolved: {exc}")
            return
        hmap = self.bundle.map_for(scen)
        self.setup_card(scen, hmap)
        self.schedule_table(scen, hmap)
        if scen.drop_zones:
            self.zone_map(scen, hmap, "Drop zones", [(z.name, self.zone_hexes(scen, z), []) for z in scen.drop_zones])
        for ov in scen.beach_overlays:
            self.zone_map(scen, hmap, f"Beach overlay {ov.name}", self.overlay_groups(ov))

    def coverage_pages(self, sid: str) -> None:
        """For each side with set-up units: the map around what they see, each hex coloured by
        how many of them have LOS to it, with the colour legend (play/analysis/coverage.py)."""
        from editor.analysis.heat import paint_heat, paint_legend
        from play.analysis.coverage import CoverageError, coverage

        try:
            scen = self.bundle.resolved(sid)
        except (ValueError, KeyError):
            return  # scenario_pages has said why
        index = self.bundle.counter_index()
        sides = sorted({index[e.unit].side for e in scen.setup if e.unit in index and index[e.unit].side})
        hmap = self.bundle.map_for(scen)
        for side in sides:
            try:
                cov = coverage(self.bundle, sid, side)
            except CoverageError:
                continue
            if not cov.counts:
                continue
            pw = self.pw
            scene = self.scene(hmap.id)
            lay = scene.layout
            pw.new_page()
            self.mark(f"LOS coverage {scen.id} {side}")
            pw.text(f"LOS coverage — {scen.name}: {self.side_name(side)} set-up units", 12, bold=True)
            pw.text(f"{sum(cov.observers.values())} units in {len(cov.observers)} hexes see {cov.covered} hexes "
                    f"(day, clear; at most {cov.max_count} on one hex). Policy {cov.policies[0]}", 8)
            pts = [pt for h in cov.counts for pt in lay.corners(h)]
            m = 2 * HEX_SIZE
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            src = QRectF(min(xs) - m, min(ys) - m, max(xs) - min(xs) + 2 * m, max(ys) - min(ys) + 2 * m)
            legend_h = pw.mm(22)
            target = QRectF(0, pw.y, pw.width, pw.height - pw.y - legend_h)
            shown = render_region(scene, pw.painter, target, src, self.opt.raster_dpi / self.opt.dpi)
            s = target.width() / shown.width()
            p = pw.painter
            p.save()
            p.setClipRect(target)
            p.translate(target.x() - shown.x() * s, target.y() - shown.y() * s)
            p.scale(s, s)
            paint_heat(p, lay, {h: float(v) for h, v in cov.counts.items()}, float(cov.max_count))
            p.restore()
            legend = QRectF(0, target.bottom() + pw.mm(2), pw.mm(70), pw.mm(18))
            p.save()
            p.translate(legend.topLeft())
            k = legend.width() / 240.0
            p.scale(k, k)
            paint_legend(p, QRectF(0, 0, 240, legend.height() / k), float(cov.max_count), "units with LOS")
            p.restore()
            pw.y = legend.bottom() + pw.mm(1)

    def setup_card(self, scen: Scenario, hmap: HexMap) -> None:
        pw = self.pw
        pw.new_page()
        self.mark(f"Setup card {scen.id}")
        pw.text(f"Setup card — {scen.name}", 16, bold=True)
        facts = []
        if scen.turns:
            facts.append(f"Turns {scen.turns.first} to {scen.turns.last}")
        if scen.first_player:
            facts.append(f"first player {scen.first_player}")
        if scen.weather:
            facts.append(f"weather {scen.weather}")
        if facts:
            pw.text("; ".join(facts))
        if scen.description:
            pw.text(scen.description, 9)
        index = self.bundle.counter_index()
        by_side: dict[str, list[SetupEntry]] = {}
        for e in scen.setup:
            c = index.get(e.unit)
            by_side.setdefault(c.side if c else "(unknown unit)", []).append(e)
        for side, entries in by_side.items():
            pw.heading(f"Set up: {self.side_name(side)}", 12)
            rows = [[e.unit, self.unit_name(index.get(e.unit)), self.place(e, hmap), ", ".join(e.state),
                     e.note or ""] for e in entries]
            pw.table(["unit", "name", "where", "state", "note"], rows, [2, 3, 2.5, 1.5, 3])
        if not scen.setup:
            pw.text("No units set up on the map.")
        if scen.special_rules:
            pw.heading("Special rules", 12)
            for r in scen.special_rules:
                pw.text(f"{r.id}: {r.text}" + (f" [{', '.join(r.refs)}]" if r.refs else ""), 9)
        if scen.victory:
            pw.heading("Victory", 12)
            for v in scen.victory:
                pw.text(f"{v.side or 'all'}: {v.text}" + (f" ({v.vp} VP)" if v.vp is not None else ""), 9)

    def schedule_table(self, scen: Scenario, hmap: HexMap) -> None:
        pw = self.pw
        if not scen.schedule:
            return
        pw.heading(f"Reinforcement schedule — {scen.name}", 13)
        self.mark(f"Schedule {scen.id}")
        rows = []
        for e in scen.schedule:
            entry = ""
            if e.entry is not None:
                parts = []
                for k in e.entry.kinds():
                    val = getattr(e.entry, k)
                    if k == "hex":
                        val = hmap.label(val)
                    elif k == "hexes":
                        val = ", ".join(hmap.label(h) for h in val)
                    parts.append(f"{k} {val}")
                entry = "; ".join(parts)
            if e.drop is not None:
                entry = (entry + "; " if entry else "") + f"drop {e.drop.drop_number or ''} into {e.drop.zone}".strip()
            text = " ".join(t for t in (e.condition, e.text, e.note) if t)
            rows.append([str(e.turn) + (" or later" if e.earliest else ""), e.kind, ", ".join(e.units), entry, text])
        pw.table(["turn", "kind", "units", "entry", "conditions / notes"], rows, [2, 1.5, 3.5, 3, 3])

    def zone_hexes(self, scen: Scenario, zone: DropZone) -> list[Hex]:
        return scen.zone_hexes(zone.id) or list(zone.hexes)  # LZ O = DZ O + 6 hexes [Excl 3.2]

    def overlay_groups(self, ov: BeachOverlay) -> list[tuple[str, list[Hex], list[HexsideKey]]]:
        groups: list[tuple[str, list[Hex], list[HexsideKey]]] = [(ov.name, list(ov.hexes), list(ov.gap_hexsides))]
        for sb in ov.sub_beaches:
            groups.append((sb.name, list(sb.hexes) + list(sb.landing.planned) + list(sb.landing.actual), []))
        if ov.reinforcement_hexes:
            groups.append(("reinforcement hexes", list(ov.reinforcement_hexes), []))
        return groups

    def zone_map(self, scen: Scenario, hmap: HexMap, title: str,
                 groups: list[tuple[str, list[Hex], list[HexsideKey]]]) -> None:
        """One page: the map around the groups' hexes, each group outlined in its colour."""
        pw = self.pw
        scene = self.scene(hmap.id)
        lay = scene.layout
        pts = [lay.center(h) for _, hexes, _ in groups for h in hexes]
        pts += [lay.center(k.hex) for _, _, keys in groups for k in keys]
        if not pts:
            return
        pw.new_page()
        self.mark(f"{title} ({scen.id})")
        pw.text(f"{title} — {scen.name}", 12, bold=True)
        m = 2.5 * HEX_SIZE
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        src = QRectF(min(xs) - m, min(ys) - m, max(xs) - min(xs) + 2 * m, max(ys) - min(ys) + 2 * m)
        legend = self.legend_items(groups)
        legend_h = (max((r.bottom for _, r in legend), default=0.0))
        target = QRectF(0, pw.y, pw.width, pw.height - pw.y - legend_h)
        # Grow the source to the target's aspect ratio so scene→page is one uniform scale.
        s = min(target.width() / src.width(), target.height() / src.height())
        src = QRectF(src.center().x() - target.width() / s / 2, src.center().y() - target.height() / s / 2,
                     target.width() / s, target.height() / s)
        render_region(scene, pw.painter, target, src, self.opt.raster_dpi / self.opt.dpi)
        p = pw.painter
        p.save()
        p.translate(target.x(), target.y())
        p.scale(s, s)
        p.translate(-src.x(), -src.y())
        p.setClipRect(src)
        for i, (name, hexes, keys) in enumerate(groups):
            colour = QColor(ZONE_COLOURS[i % len(ZONE_COLOURS)])
            fill = QColor(colour)
            fill.setAlpha(70)
            p.setPen(QPen(colour, HEX_SIZE * 0.08))
            p.setBrush(fill)
            for h in hexes:
                p.drawPolygon(QPolygonF([QPointF(x, y) for x, y in lay.corners(h)]))
            p.setPen(QPen(colour, HEX_SIZE * 0.25))
            for k in keys:
                p.drawLine(hexside_line(lay, k))
        p.restore()
        pw.y = target.bottom() + pw.mm(1)
        p.setPen(QColor("#000000"))
        for i, (text, r) in enumerate(legend):
            rect = QRectF(r.x, pw.y + r.y, r.w, r.h)
            p.fillRect(QRectF(rect.x(), rect.y() + pw.mm(1), pw.mm(4), pw.mm(4)), QColor(ZONE_COLOURS[i % len(ZONE_COLOURS)]))
            box = rect.adjusted(pw.mm(6), 0, -pw.mm(1), 0)
            fit = fit_text(text, box, round(pw.mm(LEGEND_MM)), floor=round(pw.mm(LEGEND_MM)), elide=True, wrap=False)
            p.setFont(fit.font)
            p.drawText(box, int(Qt.AlignmentFlag.AlignVCenter), fit.text)
        pw.y += legend_h

    def legend_items(self, groups: list[tuple[str, list[Hex], list[HexsideKey]]]) -> list[tuple[str, LayoutRect]]:
        """Each group's legend text and its rectangle (page units, from the legend's top-left):
        as wide as its swatch and text, flowed into rows across the page, so no two overlap."""
        pw = self.pw
        font = QFont()
        font.setPixelSize(round(pw.mm(LEGEND_MM)))
        fm = QFontMetricsF(font)
        texts = [legend_text(name, hexes, keys) for name, hexes, keys in groups]
        widths = [pw.mm(6) + fm.horizontalAdvance(t) + pw.mm(4) for t in texts]
        return list(zip(texts, flow(widths, pw.mm(6), pw.width)))

    def validation_report(self) -> None:
        from validators.engine import validate_bundle

        pw = self.pw
        pw.new_page()
        self.mark("Validation report")
        pw.text("Validation report", 16, bold=True)
        diags: list[Diagnostic] = validate_bundle(self.bundle)
        from validators.report import render_line, summary

        # The same count line as `validate` prints ("1 finding: 1 error, 0 warnings, 0 infos").
        pw.text(summary(diags) + ("" if diags else " — the bundle validates clean."))

        for d in diags:
            pw.text(render_line(d), 7.5, mono=True)  # as `validate` prints it: with the policy applied

    # --- helpers -----------------------------------------------------------------------------

    def side_name(self, side_id: str) -> str:
        s = self.bundle.system.side_by_id.get(side_id)
        return s.name if s else side_id

    @staticmethod
    def unit_name(c: Counter | None) -> str:
        return c.name if c else "(not in the counter manifest)"

    @staticmethod
    def place(e: SetupEntry, hmap: HexMap) -> str:
        if e.hex is not None:
            out = hmap.label(e.hex)
        elif e.adjacent_to is not None:
            out = f"in or adjacent to {hmap.label(e.adjacent_to)}"
        else:
            out = next(f"{k} {getattr(e, k)}" for k in ("area", "box", "location") if getattr(e, k) is not None)
        if e.alternatives:
            out += " or " + ", ".join(hmap.label(h) for h in e.alternatives)
        if e.attached_to:
            out += f" (attached to {e.attached_to})"
        return out


def used_extent(hmap: HexMap, lay: Layout) -> QRectF:
    """The scene rectangle of the map's on-grid hexes, with the scene's margin (1.2 hex sizes
    around the outermost centres, as :func:`editor.qt_geometry.scene_rect`)."""
    pts = [lay.center(h) for h in hmap.hexes()]
    if not pts:
        return scene_rect(hmap, lay)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    m = lay.size * 1.2
    return QRectF(min(xs) - m, min(ys) - m, max(xs) - min(xs) + 2 * m, max(ys) - min(ys) + 2 * m)


def _spread(start: float, length: float, tile: float, overlap: float) -> list[float]:
    """Starts of tiles of ``tile`` length covering ``length`` from ``start``, evenly spaced, each
    overlapping the next by at least ``overlap``; one tile when it covers the whole length."""
    if length <= tile:
        return [start]
    n = max(2, math.ceil((length - overlap) / (tile - overlap)))
    step = (length - tile) / (n - 1)
    return [start + i * step for i in range(n)]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 hex``, ``2 hexes``, ``0 gap hexsides``: a number with its noun agreeing."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def legend_text(name: str, hexes: list[Hex], keys: list[HexsideKey]) -> str:
    """A zone or overlay legend entry: its name and what it holds."""
    extra = f", {count(len(keys), 'gap hexside')}" if keys else ""
    return f"{name}: {count(len(hexes), 'hex', 'hexes')}{extra}"


def export_proof_pdf(bundle: Bundle, out: str | Path, options: ProofOptions | None = None,
                     progress: Progress | None = None) -> ProofSummary:
    """Write the proof PDF for ``bundle``; ``progress(done, total, what)`` is called per step."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return ProofBuilder(bundle, out, options or ProofOptions(), progress).build()


__all__ = ["ProofOptions", "ProofSummary", "export_proof_pdf"]
