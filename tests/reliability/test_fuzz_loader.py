"""Loader fuzzing: whatever bytes sit in a bundle's files, ``load_bundle`` must not raise.

Properties checked for every generated case (see :func:`load_checked`):

* ``load_bundle`` returns a :class:`LoadResult` and never raises;
* every diagnostic has a well-formed code, a non-empty message and a file; when the
  problem is *inside* a file (anything but "cannot open/read this file at all") it has a line;
* each load finishes within safety caps (:data:`TIME_CAP_S`, :data:`MEMORY_CAP_BYTES`),
  measured per case with ``time.perf_counter`` and ``tracemalloc``. These are caps against
  hangs and memory blow-ups, not performance assertions (those live in ``bench/``).

Inputs: random bytes, byte/line/key/value mutations of the real sample files (the mini
fixture bundle and every ``scenarios/*/`` bundle present), deep nesting, huge numbers,
alias bombs, wrong types, odd unicode (NUL, BOM, lone surrogates, RTL marks) and huge files.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from model.bundle import LoadResult, load_bundle
from model.formats.yamlio import MAX_BYTES

TIME_CAP_S = 5.0
MEMORY_CAP_BYTES = 512 * 1024 * 1024
CODE_RE = re.compile(r"^[A-Z]+(-[A-Z]+)+-\d{3}$")
# Problems with a file as a whole (cannot be opened, too big): there is no line to point at.
WHOLE_FILE_CODES = {"LOAD-FILE-001", "LOAD-FILE-002"}
WHOLE_FILE_MESSAGES = ("the limit is",)

MINI = FIXTURES / "bundles" / "mini"
SAMPLE_BUNDLES = [MINI] + sorted(p.parent for p in (REPO / "scenarios").glob("*/game.yaml"))

# Loads measured by this module, for docs/reliability.md (printed at the end with -s).
STATS = {"cases": 0, "max_s": 0.0, "max_peak": 0}


def _files(bundle: Path) -> list[str]:
    return sorted(str(p.relative_to(bundle)) for p in bundle.rglob("*.yaml") if p.is_file())


@contextmanager
def bundle_copy(src: Path = MINI) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="hexfuzz-") as tmp:
        dest = Path(tmp) / "b"
        shutil.copytree(src, dest)
        yield dest


def check_diagnostics(result: LoadResult) -> None:
    for d in result.diagnostics:
        assert CODE_RE.match(d.code), f"bad code {d.code!r}: {d.render()}"
        assert d.message and d.message.strip(), f"empty message: {d!r}"
        assert d.location.file, f"no file: {d.render()}"
        whole_file = d.code in WHOLE_FILE_CODES or any(m in d.message for m in WHOLE_FILE_MESSAGES)
        if not whole_file:
            assert d.location.line is not None and d.location.line >= 1, f"no line: {d.render()}"
        d.render()  # must not raise either (e.g. on odd unicode)
        d.to_dict()


def load_checked(root: Path) -> LoadResult:
    """Load ``root`` twice: once timed (plain), once under tracemalloc for the peak.

    tracemalloc slows allocation-heavy loads 5-7x, so timing a traced load would measure
    the tracer; the time cap applies to the plain load, the memory cap to the traced one.
    """
    t0 = time.perf_counter()
    result = load_bundle(root)
    elapsed = time.perf_counter() - t0
    tracemalloc.start()
    try:
        traced = load_bundle(root)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [d.render() for d in traced.diagnostics] == [d.render() for d in result.diagnostics]
    assert isinstance(result, LoadResult)
    assert elapsed < TIME_CAP_S, f"load took {elapsed:.2f} s"
    assert peak < MEMORY_CAP_BYTES, f"load peaked at {peak / 2**20:.0f} MiB"
    STATS["cases"] += 1
    STATS["max_s"] = max(STATS["max_s"], elapsed)
    STATS["max_peak"] = max(STATS["max_peak"], peak)
    check_diagnostics(result)
    if result.bundle is not None:
        # Whatever loaded can be written out again without raising (nothing half-built).
        result.bundle.dump_files()
    return result


# --- mutations of the real sample files ---------------------------------------------------

ODD_TEXT = [
    "\x00", "\ufeff", "\u202e", "\u200f", "\ud800", "\U0001f4a3", "é", "\u0085", "\u2028",
    "\t", "\r", "\r\n", "'", '"', "\\", "{", "}", "[", "]", ":", "- ", "&a", "*a", "!!python/object:os.system",
    "!!binary", "%YAML 1.1\n---", "---", "...", "? ", "|", ">", "#", "@", "`", "<<: *a",
]
ODD_VALUES = [
    "9" * 5000, "-1", "0", "1e999", "-1e999", ".nan", ".inf", "0x1F", "0o17", "1_000", "2**64",
    "18446744073709551617", "[]", "{}", "null", "~", "true", "yes", "''", "'\\0'", '"\\ud800"',
    '"\\0\\x00"', '"\\u202eevil"', "\ufeffid", "[[[[[[[[]]]]]]]]", "{a: {b: {c: []}}}", "2026-02-30",
    "*undefined", "&x [*x]", "!!python/name:os.system", "!!set {a, b}", "!!omap [a: 1]",
    "'99.099'", "'0000'", "'9999/S'", "'0303/Q'", "'0303'", "'(1,2)'", "'(a,b)'", "'(1,2,3)'",
]


def _mutate_bytes(data: bytes, ops: list[tuple[int, int, int]]) -> bytes:
    buf = bytearray(data)
    for kind, pos, byte in ops:
        if not buf:
            buf.append(byte)
            continue
        i = pos % len(buf)
        if kind == 0:
            buf[i] = byte
        elif kind == 1:
            buf.insert(i, byte)
        else:
            del buf[i]
    return bytes(buf)


def _mutate_lines(text: str, ops: list[tuple[int, int, int]]) -> str:
    lines = text.split("\n")
    for kind, a, b in ops:
        if not lines:
            break
        i, j = a % len(lines), b % len(lines)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(j, lines[i])
        elif kind == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:
            lines[i] = " " * (b % 5) + lines[i]
        elif kind == 4:
            lines[i] = lines[i].lstrip()
        else:
            lines[i] = lines[i][: b % (len(lines[i]) + 1)]
    return "\n".join(lines)


_KEY_RE = re.compile(r"(?P<key>[A-Za-z_][A-Za-z_0-9]*)(?P<sep>:\s)(?P<value>[^,}\n]*)")


def _mutate_keys_values(text: str, ops: list[tuple[int, int, int]]) -> str:
    for kind, which, pick in ops:
        matches = list(_KEY_RE.finditer(text))
        if not matches:
            break
        m = matches[which % len(matches)]
        key, value = m.group("key"), m.group("value")
        if kind == 0:  # typo in the key
            key = key[:-1] if len(key) > 1 else key + "x"
        elif kind == 1:  # swap in an odd value
            value = ODD_VALUES[pick % len(ODD_VALUES)]
        elif kind == 2:  # odd text inside the value
            cut = pick % (len(value) + 1)
            value = value[:cut] + ODD_TEXT[pick % len(ODD_TEXT)] + value[cut:]
        elif kind == 3:  # drop the key entirely
            text = text[: m.start()] + text[m.end():]
            continue
        else:  # wrong type: a mapping or a list where a scalar was
            value = "{x: 1}" if pick % 2 else "[1, 2]"
        text = text[: m.start()] + key + m.group("sep") + value + text[m.end():]
    return text


ops = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=8)
bundles = st.sampled_from(SAMPLE_BUNDLES)
# HEXPROOF_FUZZ_EXAMPLES=1000 for a longer run (the figures in docs/reliability.md);
# otherwise the active hypothesis profile decides (dev: 50, CI: 100 per test).
_EXAMPLES = int(os.environ.get("HEXPROOF_FUZZ_EXAMPLES", "0")) or settings().max_examples
FUZZ = settings(deadline=None, max_examples=_EXAMPLES,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(bundle=bundles, data=st.data(), ops=ops)
def test_byte_mutations(bundle: Path, data: st.DataObject, ops: list[tuple[int, int, int]]) -> None:
    rel = data.draw(st.sampled_from(_files(bundle)))
    with bundle_copy(bundle) as root:
        path = root / rel
        path.write_bytes(_mutate_bytes(path.read_bytes(), [(k % 3, p, b) for k, p, b in ops]))
        load_checked(root)


@FUZZ
@given(bundle=bundles, data=st.data(), ops=ops)
def test_line_mutations(bundle: Path, data: st.DataObject, ops: list[tuple[int, int, int]]) -> None:
    rel = data.draw(st.sampled_from(_files(bundle)))
    with bundle_copy(bundle) as root:
        path = root / rel
        path.write_text(_mutate_lines(path.read_text(encoding="utf-8"), ops), encoding="utf-8", errors="surrogatepass")
        load_checked(root)


@FUZZ
@given(bundle=bundles, data=st.data(), ops=ops)
def test_key_and_value_mutations(bundle: Path, data: st.DataObject, ops: list[tuple[int, int, int]]) -> None:
    rel = data.draw(st.sampled_from(_files(bundle)))
    with bundle_copy(bundle) as root:
        path = root / rel
        text = _mutate_keys_values(path.read_text(encoding="utf-8"), ops)
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        load_checked(root)


@FUZZ
@given(data=st.data(), raw=st.binary(max_size=4096))
def test_random_bytes(data: st.DataObject, raw: bytes) -> None:
    rel = data.draw(st.sampled_from(_files(MINI)))
    with bundle_copy() as root:
        (root / rel).write_bytes(raw)
        load_checked(root)


@FUZZ
@given(data=st.data(), text=st.text(max_size=2000))
def test_random_text(data: st.DataObject, text: str) -> None:
    rel = data.draw(st.sampled_from(_files(MINI)))
    with bundle_copy() as root:
        (root / rel).write_bytes(text.encode("utf-8", errors="surrogatepass"))
        load_checked(root)


yaml_scalars = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40).map(str), st.floats().map(repr),
    st.sampled_from(ODD_VALUES), st.text(max_size=30).map(lambda s: repr(s)),
)
yaml_values = st.recursive(
    yaml_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.dictionaries(st.sampled_from(["id", "name", "hex", "unit", "grid", "rows", "x", "schema_version"]),
                        inner, max_size=4).map(lambda d: "{" + ", ".join(f"{k}: {v}" for k, v in d.items()) + "}"),
    ),
    max_leaves=20,
)


@FUZZ
@given(data=st.data(), value=yaml_values)
def test_wrong_types_at_top_level_keys(data: st.DataObject, value: str) -> None:
    """Replace the value of one top-level key of one file with an arbitrary YAML value."""
    rel = data.draw(st.sampled_from(_files(MINI)))
    with bundle_copy() as root:
        path = root / rel
        lines = path.read_text(encoding="utf-8").split("\n")
        tops = [i for i, line in enumerate(lines) if re.match(r"^[a-z_]+:", line)]
        i = data.draw(st.sampled_from(tops))
        key = lines[i].split(":", 1)[0]
        # Drop the key's block (the indented lines under it) and put the new value inline.
        j = i + 1
        while j < len(lines) and (lines[j].startswith((" ", "-")) and not re.match(r"^[a-z_]+:", lines[j])):
            j += 1
        lines[i:j] = [f"{key}: {value}"]
        path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))
        load_checked(root)


# --- hand-picked hostile inputs ------------------------------------------------------------

HOSTILE: dict[str, bytes] = {
    "deep-flow-list": b"x: " + b"[" * 10_000 + b"]" * 10_000,
    "deep-flow-map": b"x: " + b"{a: " * 5_000 + b"1" + b"}" * 5_000,
    "deep-block": "".join(f"{'  ' * i}k{i}:\n" for i in range(300)).encode(),
    "deep-list-unclosed": b"[" * 200_000,
    "huge-int": b"schema_version: " + b"9" * 100_000,
    "huge-float": b"schema_version: 1e99999",
    "negative-version": b"schema_version: -99999999999999999999999",
    "billion-laughs": (
        b"a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + b"".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n".encode() for i in range(8))
    ),
    "quadratic-aliases": b"a: &a [" + b"x, " * 2000 + b"x]\nb: [" + b"*a, " * 3000 + b"*a]\n",
    "python-object": b"!!python/object/apply:os.system ['echo pwned > /tmp/hexproof-pwned']\n",
    "python-name": b"id: !!python/name:os.system\n",
    "nul-bytes": b"id: mini\x00\nname: x\n",
    "bom": b"\xef\xbb\xbfschema_version: 1\nid: mini\n",
    "utf16": "schema_version: 1\nid: mini\n".encode("utf-16"),
    "latin1": "name: Sainte-Mère-Église\n".encode("latin-1"),
    "surrogate-escape": b'id: "\\ud800"\nname: "\\udfff\\u202e"\n',
    "encoded-surrogate": b"id: \xed\xa0\x80\n",
    "rtl": "id: \u202emini\u202c\nname: \u05e9\u05dc\u05d5\u05dd\n".encode(),
    "only-comment": b"# nothing here\n",
    "empty": b"",
    "whitespace": b"   \n\n\t\n",
    "multi-doc": b"id: a\n---\nid: b\n",
    "scalar": b"just text\n",
    "list": b"- 1\n- 2\n",
    "long-line": b"name: " + b"x" * 5_000_000 + b"\n",
    "many-keys": b"".join(f"k{i}: {i}\n".encode() for i in range(30_000)),
    "tab-indent": b"id: mini\ngrid:\n\torientation: flat\n",
    "control-chars": b"id: \x07\x1b[31mred\n",
    "non-string-key": b"? [a, b]\n: 1\n",
    "merge-key": b"a: &a {x: 1}\nb: {<<: *a}\n",
    "undefined-alias": b"a: *nope\n",
    "cr-only": b"schema_version: 1\rid: mini\rname: x\r",
}


# The slow-to-build inputs go into two files (the first and a referenced one); the rest
# into every file of the bundle. This keeps the module's run time reasonable.
HEAVY = {"deep-flow-list", "deep-flow-map", "deep-list-unclosed", "long-line", "many-keys",
         "quadratic-aliases", "billion-laughs", "huge-int"}
HOSTILE_CASES = [(name, rel) for name in sorted(HOSTILE) for rel in _files(MINI)
                 if name not in HEAVY or rel in ("game.yaml", "maps/mini.yaml")]


@pytest.mark.parametrize(("name", "rel"), HOSTILE_CASES)
def test_hostile_content_in_every_file(name: str, rel: str) -> None:
    with bundle_copy() as root:
        (root / rel).write_bytes(HOSTILE[name])
        load_checked(root)
    assert not Path("/tmp/hexproof-pwned").exists(), "a YAML tag ran code"


def test_file_over_the_size_cap_is_refused_without_reading(tmp_path: Path) -> None:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    big = root / "maps" / "mini.yaml"
    with big.open("r+b") as fh:  # sparse: no 64 MB written to disk or read into memory
        fh.truncate(MAX_BYTES + 1)
    result = load_checked(root)
    assert result.bundle is None
    assert any("the limit is" in d.message and d.location.file.endswith("mini.yaml") for d in result.diagnostics)


def test_large_map_within_caps(tmp_path: Path) -> None:
    """A 4 MB terrain block (2000×2000 characters, MAX_MAP_HEXES exactly) loads within the safety caps."""
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    path = root / "maps" / "mini.yaml"
    text = path.read_text(encoding="utf-8")
    rows = "\n".join("    " + ".W~." * 500 for _ in range(2000))
    text = re.sub(r"cols: 6", "cols: 2000", text)
    text = re.sub(r"rows: 4", "rows: 2000", text)
    text = re.sub(r"rows: \|-\n(    .*\n)+", "rows: |-\n" + rows + "\n", text)
    path.write_text(text, encoding="utf-8")
    result = load_checked(root)
    assert result.bundle is not None


@pytest.mark.parametrize("rel", ["game.yaml", "maps/mini.yaml", "counters.yaml", "scenarios/base.yaml", "system.yaml"])
def test_folder_in_place_of_a_file(rel: str, tmp_path: Path) -> None:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    (root / rel).unlink()
    (root / rel).mkdir()
    result = load_checked(root)
    assert any(d.location.file and d.location.file.endswith(rel) for d in result.diagnostics)


def test_unreadable_file(tmp_path: Path) -> None:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    path = root / "counters.yaml"
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: chmod 0 does not stop reads")
        result = load_checked(root)
        assert any(d.code == "LOAD-FILE-001" and "counters.yaml" in (d.location.file or "") for d in result.diagnostics)
    finally:
        path.chmod(0o644)


def test_print_stats(capsys: pytest.CaptureFixture[str]) -> None:
    """Runs last in this module (pytest keeps file order): report the measured worst case."""
    with capsys.disabled():
        print(f"\n[fuzz] loads={STATS['cases']} max_time={STATS['max_s']:.3f}s "
              f"max_peak={STATS['max_peak'] / 2**20:.1f}MiB")
