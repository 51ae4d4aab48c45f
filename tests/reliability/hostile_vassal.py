"""Hostile VASSAL modules, generated (never stored): the corpus for ``hexproof import-vassal``.

Each :class:`Case` writes its module into a work folder (bombs are built from a few compressed
bytes, a hand-written zip directory and header-only images, so every case is small on disk and
fast to make) and says what must happen: the exit code and the words the refusal must contain
(the member it names). ``tests/reliability/test_hostile_vassal.py`` runs them all.

Run ``python tests/reliability/hostile_vassal.py DIR`` to write every case to DIR for a look.
"""

from __future__ import annotations

import lzma
import stat
import struct
import sys
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

VICTIM = "victim.txt"          # the sentinel beside --out that no case may touch
VICTIM_TEXT = "do not overwrite\n"

# --- a zip writer that writes exactly what it is told (names, sizes, modes) -------------------------


@dataclass
class Entry:
    name: str
    data: bytes = b""                    # compressed bytes as stored (see deflated())
    size: int | None = None              # uncompressed size the directory declares
    crc: int = 0
    method: int = 8                      # 8 deflate, 0 stored
    mode: int = stat.S_IFREG | 0o644     # unix mode in the external attributes
    flags: int = 0


def stored(name: str, raw: bytes, **kw: object) -> Entry:
    return Entry(name, raw, len(raw), zlib.crc32(raw), 0, **kw)  # type: ignore[arg-type]


def deflated(name: str, raw: bytes, **kw: object) -> Entry:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return Entry(name, c.compress(raw) + c.flush(), len(raw), zlib.crc32(raw), 8, **kw)  # type: ignore[arg-type]


def write_zip(path: Path, entries: list[Entry]) -> Path:
    out = bytearray()
    central = bytearray()
    for e in entries:
        name = e.name.encode("utf-8")
        size = len(e.data) if e.size is None else e.size
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, e.flags, e.method, 0, 0x21, e.crc, len(e.data), size,
                           len(name), 0) + name + e.data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, 20, e.flags, e.method, 0, 0x21, e.crc,
                               len(e.data), size, len(name), 0, 0, 0, 0, e.mode << 16, offset) + name
    n = len(entries)
    out += central + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(n, 0xFFFF), min(n, 0xFFFF), len(central),
                                 len(out), 0)
    path.write_bytes(bytes(out))
    return path


@lru_cache(maxsize=None)
def zeros_deflated(size: int) -> tuple[bytes, int]:
    """(raw deflate stream, crc32) of ``size`` zero bytes, compressed in 1 MiB steps (~1000:1)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(1 << 20)
    parts, crc, left = [], 0, size
    while left:
        piece = chunk if left >= len(chunk) else bytes(left)
        parts.append(c.compress(piece))
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    parts.append(c.flush())
    return b"".join(parts), crc


def zeros_entry(name: str, size: int) -> Entry:
    data, crc = zeros_deflated(size)
    return Entry(name, data, size, crc, 8)


# --- a small valid module ------------------------------------------------------------------


def png_header(w: int, h: int) -> bytes:
    """A PNG signature and IHDR chunk only (no pixels): enough for any header check."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
            + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr)))


def tiny_png(w: int = 4, h: int = 3) -> bytes:
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * w for _ in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


SLOT = ('<VASSAL.build.widget.PieceSlot entryName="p{i}" gpid="{i}" height="60" width="60">'
        '+/null/piece;;;counter.png;Piece {i}/null;0;0;{i};0</VASSAL.build.widget.PieceSlot>\n')


COMPACT_SLOT = '<VASSAL.build.widget.PieceSlot entryName="p{i}">+/null/piece;;;;P/null</VASSAL.build.widget.PieceSlot>\n'


def build_file(*, image: str = "board.png", pieces: str | None = None, doctype: str = "", name: str = "Hostile",
               inner: str = "", dx: str = "48.0", dy: str = "55.4256") -> bytes:
    slots = SLOT.format(i=1) if pieces is None else pieces
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}'
            f'<VASSAL.build.GameModule name="{name}" version="1.0" description="hostile corpus">\n'
            '<VASSAL.build.module.PieceWindow name="Counters"><VASSAL.build.widget.ListWidget entryName="All">\n'
            f'{slots}</VASSAL.build.widget.ListWidget></VASSAL.build.module.PieceWindow>\n'
            '<VASSAL.build.module.Map mapName="m"><VASSAL.build.module.map.BoardPicker>'
            f'<VASSAL.build.module.map.boardPicker.Board image="{image}" name="m" width="300" height="300">'
            f'<VASSAL.build.module.map.boardPicker.board.HexGrid dx="{dx}" dy="{dy}" x0="24" y0="28" '
            'sideways="false"/></VASSAL.build.module.map.boardPicker.Board>'
            f'</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>{inner}\n'
            '</VASSAL.build.GameModule>\n').encode("utf-8")


def base_entries(**kw: object) -> list[Entry]:
    return [deflated("images/board.png", tiny_png(300, 300)), deflated("images/counter.png", tiny_png()),
            deflated("buildFile.xml", build_file(**kw))]  # type: ignore[arg-type]


def vsav(saved_game: bytes) -> bytes:
    """A predefined-setup file: a zip holding ``savedGame``."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", saved_game)
    return buf.getvalue()


# --- the cases --------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    what: str
    make: Callable[[Path], Path]          # writes the module into the work folder, returns its path
    expect: list[str]                     # words the stderr must contain (member, reason)
    code: int = 2
    prepare_out: Callable[[Path], None] | None = None  # sets --out up before the run
    out_listing: list[str] = field(default_factory=list)  # what --out must hold after (exit 0)


def _zip(entries: Callable[[Path], list[Entry]]) -> Callable[[Path], Path]:
    return lambda work: write_zip(work / "case.vmod", entries(work))


def _corrupt(work: Path) -> Path:
    """A valid module with one byte of buildFile.xml's compressed data flipped."""
    entries = base_entries()
    bf = entries[-1]
    data = bytearray(bf.data)
    data[len(data) // 2] ^= 0x55
    bf.data = bytes(data)
    return write_zip(work / "case.vmod", entries)


def _truncated(work: Path) -> Path:
    path = write_zip(work / "full.vmod", base_entries())
    data = path.read_bytes()
    path.unlink()
    (work / "case.vmod").write_bytes(data[: len(data) * 2 // 3])
    return work / "case.vmod"


def _bytes(name: str, data: bytes) -> Callable[[Path], Path]:
    def make(work: Path) -> Path:
        (work / name).write_bytes(data)
        return work / name
    return make


LAUGHS = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
          + "]>\n")


def _out_file(out: Path) -> None:
    out.write_text("I am a file\n", encoding="utf-8")


def _out_non_empty(out: Path) -> None:
    out.mkdir()
    (out / "keep.txt").write_text("keep me\n", encoding="utf-8")


CASES: list[Case] = [
    Case("traversal-board-image", "board image '../../victim.txt' with a matching zip entry",
         _zip(lambda w: base_entries(image="../../victim.txt")[:1]
              + [stored("images/../../victim.txt", b"overwritten!\n")] + base_entries(image="../../victim.txt")[1:]),
         ["images/../../victim.txt", "'..'"]),
    Case("traversal-name-only", "board image '../../victim.txt' without an entry: imports; only Hexproof names",
         _zip(lambda w: base_entries(image="../../victim.txt")), [], code=0,
         out_listing=["counters.yaml", "game.yaml", "images", "images/counters",
                      "images/counters/p1-front.png", "maps", "maps/m.yaml", "system.yaml"]),
    Case("absolute-image", "board image and zip entry named by an absolute path",
         _zip(lambda w: base_entries(image=str(w / VICTIM)) + [stored(str(w / VICTIM), b"overwritten!\n")]),
         ["absolute path"]),
    Case("symlink-entry", "the board image entry is a symbolic link to the victim",
         _zip(lambda w: [stored("images/board.png", str(w / VICTIM).encode(), mode=stat.S_IFLNK | 0o777)]
              + base_entries()[1:]),
         ["images/board.png", "symbolic link"]),
    Case("dotdot-entry", "a plain '../' zip entry", _zip(lambda w: base_entries() + [stored("../victim.txt", b"x")]),
         ["../victim.txt", "'..'"]),
    Case("backslash-entry", "a Windows '..\\' zip entry",
         _zip(lambda w: base_entries() + [stored("..\\victim.txt", b"x")]), ["backslash"]),
    Case("escape-codes", "an entry name with terminal escape codes (and '..')",
         _zip(lambda w: base_entries() + [stored("\x1b]0;pwned\x07\x1b[2J/../x", b"x")]),
         ["\\x1b]0;pwned\\x07\\x1b[2J/../x", "'..'"]),
    Case("duplicate-entry", "buildFile.xml twice (which one is meant?)",
         _zip(lambda w: base_entries() + [deflated("buildFile.xml", b"<x/>")]), ["buildFile.xml", "twice"]),
    Case("encrypted-entry", "an encrypted entry",
         _zip(lambda w: base_entries() + [stored("secret.txt", b"x", flags=1)]), ["secret.txt", "encrypted"]),
    Case("zip-bomb-member", "a 300 MiB board image (zeros) in a 300 KB module",
         _zip(lambda w: [zeros_entry("images/board.png", 300 << 20)] + base_entries()[1:]),
         ["images/board.png", "314,572,800 bytes", "before reading"]),
    Case("total-size-bomb", "five 250 MiB members: 1.25 GiB together",
         _zip(lambda w: base_entries() + [zeros_entry(f"images/filler-{i}.png", 250 << 20) for i in range(5)]),
         ["together", "before reading"]),
    Case("lying-directory", "the directory says 100 bytes; the data inflates to 50 MiB",
         _zip(lambda w: [Entry("images/board.png", zeros_deflated(50 << 20)[0], 100, 0, 8)] + base_entries()[1:]),
         ["images/board.png", "cannot decompress"]),
    Case("too-many-entries", "20 001 empty zip entries",
         _zip(lambda w: base_entries() + [stored(f"f/{i}", b"") for i in range(20_001)]),
         ["20,004 entries", "before reading"]),
    Case("billion-laughs", "the XML entity bomb in buildFile.xml",
         _zip(lambda w: base_entries(doctype=LAUGHS, name="&lol9;")), ["buildFile.xml:2:", "entity declaration"]),
    Case("xxe", "an external entity reading /etc/passwd into the module name",
         _zip(lambda w: base_entries(doctype='<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n',
                                     name="&xxe;")), ["buildFile.xml:", "entit"]),
    Case("deep-nesting", "100 000 nested elements",
         _zip(lambda w: base_entries(inner="<a>" * 100_000 + "</a>" * 100_000)),
         ["buildFile.xml:", "deeper than 200"]),
    Case("corrupt-byte", "one byte of buildFile.xml's compressed data flipped", _corrupt,
         ["buildFile.xml", "cannot decompress"]),
    Case("truncated-zip", "the module cut at two thirds", _truncated, ["case.vmod", "not a readable zip"]),
    Case("no-buildfile", "a zip without buildFile.xml", _zip(lambda w: base_entries()[:2]),
         ["no buildFile.xml (or buildFile)"]),
    Case("not-a-zip", "a text file named .vmod", _bytes("case.vmod", b"this is not a module\n" * 10),
         ["case.vmod", "not a readable zip"]),
    Case("empty-file", "a zero-byte .vmod", _bytes("case.vmod", b""), ["case.vmod", "not a readable zip"]),
    Case("not-xml", "buildFile.xml is a PNG",
         _zip(lambda w: base_entries()[:2] + [deflated("buildFile.xml", tiny_png())]),
         ["buildFile.xml:1:", "not well-formed"]),
    Case("wrong-root", "buildFile.xml is XML but not a module",
         _zip(lambda w: base_entries()[:2] + [deflated("buildFile.xml", b"<html><body/></html>")]),
         ["buildFile.xml", "GameModule"]),
    Case("huge-image", "a header-only PNG claiming 28 000 × 28 000 pixels (3 GiB decoded)",
         _zip(lambda w: [deflated("images/board.png", png_header(28_000, 28_000))] + base_entries()[1:]),
         ["images/board.png", "784 megapixels", "before decoding"]),
    Case("huge-counter-image", "a counter image's GIF header claiming 65 535 × 65 535",
         _zip(lambda w: base_entries()[:1] + [deflated("images/counter.png",
                                                       b"GIF89a" + struct.pack("<HH", 65535, 65535) + b"\0" * 8)]
              + base_entries()[2:]),
         ["images/counter.png", "megapixels"]),
    Case("too-many-pieces", "200 000 pieces (19 MB of XML, 0.5 MB compressed)",
         _zip(lambda w: base_entries(pieces="".join(COMPACT_SLOT.format(i=i) for i in range(200_000)))),
         ["buildFile.xml:", "more than 20,000 pieces"]),
    Case("buildfile-too-big", "a 35 MB buildFile.xml (200 000 full piece slots)",
         _zip(lambda w: base_entries(pieces="".join(SLOT.format(i=i) for i in range(200_000)))),
         ["buildFile.xml", "33,554,432", "before reading"]),
    Case("tiny-hexes", "a hex grid 0.01 px apart (a billion-hex map)",
         _zip(lambda w: base_entries(dx="0.01", dy="0.01")), ["buildFile.xml", "smallest accepted"]),
    Case("nan-grid", "a hex grid spacing of NaN", _zip(lambda w: base_entries(dx="NaN")), ["buildFile.xml", "dx="]),
    Case("save-bomb", "a predefined setup whose xz save inflates past 32 MiB",
         _zip(lambda w: base_entries(inner='<VASSAL.build.module.PredefinedSetup name="S" file="s.vsav" '
                                     'useFile="true" isMenu="false"/>')
              + [stored("s.vsav", vsav(lzma.compress(bytes(40 << 20), preset=1)))]),
         ["s.vsav", "more than 33,554,432 bytes"]),
    Case("out-is-a-file", "--out names an existing file", _zip(lambda w: base_entries()), ["exists and is not a folder"],
         prepare_out=_out_file),
    Case("out-not-empty", "--out is a folder with a file in it", _zip(lambda w: base_entries()), ["is not empty"],
         prepare_out=_out_non_empty),
]


def main(argv: list[str]) -> int:
    target = Path(argv[0] if argv else "hostile-vassal")
    for case in CASES:
        work = target / case.name
        work.mkdir(parents=True, exist_ok=True)
        (work / VICTIM).write_text(VICTIM_TEXT, encoding="utf-8")
        path = case.make(work)
        print(f"{case.name}: {path} ({path.stat().st_size:,} bytes) — {case.what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
