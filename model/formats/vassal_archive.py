"""Reading a VASSAL module (.vmod) that someone else made: a bounded, located refusal for anything hostile.

A module is a zip archive from an untrusted source. Everything here is read *before* pywargame
sees it, and every limit is checked twice: from the zip directory before a byte is
decompressed, and again while decompressing (counting the bytes actually produced, because
the directory can lie):

* :class:`Limits` — entries, bytes per member, bytes in total, buildFile size, XML depth and
  element count, pieces, image pixels (read from the PNG/JPEG/GIF header, never by decoding);
* :class:`VmodArchive` — opens a regular file only, refuses unsafe entry names (absolute,
  ``..``, backslashes, NUL, symlinks, duplicates) and encrypted entries, and reads members with
  :meth:`VmodArchive.read` under the limits;
* :func:`parse_xml` — a streaming pre-pass (expat, entity declarations and external entities
  refused, depth and element count limited) then a DOM built by ``defusedxml.minidom``;
* :func:`image_info` — the format (from the magic bytes, not the name) and pixel size;
* :func:`save_lines` — the command lines of a predefined setup (.vsav, itself a zip) with the
  same caps, including its xz payload.

Every refusal is a :class:`VmodError` naming the member (and line:col for XML). Names from the
archive are only ever used to look members up: nothing here writes a file.
"""

from __future__ import annotations

import io
import lzma
import os
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any, BinaryIO


@dataclass(frozen=True)
class Limits:
    max_entries: int = 20_000                 # zip entries in a module (or a save inside it)
    max_member_bytes: int = 256 << 20         # one member, uncompressed
    max_total_bytes: int = 1 << 30            # every member read, uncompressed, together
    max_buildfile_bytes: int = 32 << 20       # buildFile.xml, uncompressed
    max_save_bytes: int = 32 << 20            # a predefined setup's decoded save
    max_xml_depth: int = 200
    max_xml_elements: int = 250_000
    max_pieces: int = 20_000
    max_image_pixels: int = 100_000_000       # width × height from the image header
    max_image_side: int = 65_535
    max_placements: int = 200_000             # pieces placed by all predefined setups together


DEFAULT_LIMITS = Limits()
_CHUNK = 1 << 20


class VmodError(Exception):
    """A module refused: ``member`` names the archive entry, ``line``/``col`` the XML position."""

    def __init__(self, message: str, member: str | None = None, line: int | None = None,
                 col: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.member = member
        self.line = line
        self.col = col

    def where(self) -> str:
        if self.member is None:
            return ""
        pos = f":{self.line}:{self.col}" if self.line is not None else ""
        return f"{self.member}{pos}: "

    def __str__(self) -> str:
        return f"{self.where()}{self.message}"


# --- the archive ------------------------------------------------------------------------------------

_DAMAGE = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, NotImplementedError, RuntimeError,
           struct.error, ValueError, OSError)


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, zlib.error):
        return f"corrupt compressed data ({text})"
    if isinstance(exc, NotImplementedError):
        return f"unsupported compression ({text})"
    return text


def _unsafe_name(name: str) -> str | None:
    if "\x00" in name:
        return "contains a NUL character"
    if "\\" in name:
        return "contains a backslash"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "is an absolute path"
    if any(part == ".." for part in name.split("/")):
        return "contains a '..' component"
    return None


def _eocd_counts(fh: BinaryIO, size: int) -> tuple[int, int] | None:
    """(entries, central directory bytes) from the end-of-central-directory record (zip64 too),
    read before :mod:`zipfile` parses the directory; ``None`` when there is no such record."""
    tail_len = min(size, 22 + 65535)
    fh.seek(size - tail_len)
    tail = fh.read(tail_len)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return None
    entries, cd_size = struct.unpack("<HI", tail[at + 10:at + 16])
    if entries == 0xFFFF or cd_size == 0xFFFFFFFF:
        loc = at - 20
        if loc >= 0 and tail[loc:loc + 4] == b"PK\x06\x07":
            (offset,) = struct.unpack("<Q", tail[loc + 8:loc + 16])
            if offset + 56 <= size:
                fh.seek(offset)
                rec = fh.read(56)
                if rec[:4] == b"PK\x06\x06":
                    entries, cd_size = struct.unpack("<QQ", rec[32:48])
    return entries, cd_size


class VmodArchive:
    """A zip archive opened for bounded reads. ``label`` names it in messages (a save inside a
    module is ``module.vmod!setup.vsav``); ``budget`` is shared by nested archives."""

    def __init__(self, source: str | os.PathLike[str] | bytes, limits: Limits = DEFAULT_LIMITS, *,
                 label: str | None = None, budget: list[int] | None = None) -> None:
        self.limits = limits
        self.budget = budget if budget is not None else [limits.max_total_bytes]
        self._fh: BinaryIO
        if isinstance(source, bytes):
            self.label = label or "archive"
            self._fh = io.BytesIO(source)
            size = len(source)
        else:
            path = os.fspath(source)
            self.label = label or os.path.basename(path)
            self._fh, size = _open_regular(path)
        try:
            self._check_directory_record(size)
            try:
                self._zip = zipfile.ZipFile(self._fh)
            except _DAMAGE as exc:
                raise VmodError(f"not a readable zip archive: {_describe(exc)} (a VASSAL module is a zip file; "
                                "this one is truncated, damaged or something else)", self.label) from None
            self._infos = self._check_entries()
        except BaseException:
            self._fh.close()
            raise

    # The directory, before anything is decompressed.
    def _check_directory_record(self, size: int) -> None:
        lim = self.limits
        try:
            counts = _eocd_counts(self._fh, size)
        except (OSError, struct.error):
            counts = None
        if counts is None:
            return  # zipfile will refuse it with its own message
        entries, cd_size = counts
        if entries > lim.max_entries:
            raise VmodError(f"the zip directory lists {entries:,} entries; the limit is {lim.max_entries:,} "
                            "(refused before reading)", self.label)
        if cd_size > lim.max_entries * 1024:
            raise VmodError(f"the zip directory is {cd_size:,} bytes, more than {lim.max_entries:,} entries "
                            "need (refused before reading)", self.label)

    def _check_entries(self) -> dict[str, zipfile.ZipInfo]:
        lim = self.limits
        infos = self._zip.infolist()
        if len(infos) > lim.max_entries:
            raise VmodError(f"{len(infos):,} zip entries; the limit is {lim.max_entries:,}", self.label)
        out: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            name = info.filename
            shown = f"{self.label}!{name}" if "!" in self.label else name
            why = _unsafe_name(name)
            if why:
                raise VmodError(f"zip entry name {why}; refused", shown)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise VmodError("zip entry is a symbolic link; refused", shown)
            if name in out:
                raise VmodError("zip entry appears twice; refused (which one is meant is ambiguous)", shown)
            if info.flag_bits & 0x1:
                raise VmodError("zip entry is encrypted; refused", shown)
            if info.file_size > lim.max_member_bytes:
                raise VmodError(f"zip directory says this entry is {info.file_size:,} bytes uncompressed; "
                                f"the limit per entry is {lim.max_member_bytes:,} (refused before reading)", shown)
            total += info.file_size
            out[name] = info
        if total > lim.max_total_bytes:
            raise VmodError(f"zip directory says the entries are {total:,} bytes uncompressed together; "
                            f"the limit is {lim.max_total_bytes:,} (refused before reading)", self.label)
        return out

    def names(self) -> list[str]:
        return [n for n, i in self._infos.items() if not i.is_dir()]

    def __contains__(self, name: str) -> bool:
        info = self._infos.get(name)
        return info is not None and not info.is_dir()

    def member_label(self, name: str) -> str:
        return f"{self.label}!{name}" if "!" in self.label else name

    def read(self, name: str, limit: int | None = None, *, head_check: Any = None) -> bytes:
        """The member's bytes, at most ``limit`` (default: the per-member limit), counted as they
        are decompressed. ``head_check(first_bytes)`` runs on the first 64 KiB before the rest."""
        lim = self.limits
        cap = min(limit if limit is not None else lim.max_member_bytes, lim.max_member_bytes)
        shown = self.member_label(name)
        info = self._infos.get(name)
        if info is None or info.is_dir():
            raise VmodError("not in the module", shown)
        if info.file_size > cap:
            raise VmodError(f"zip directory says this entry is {info.file_size:,} bytes uncompressed; "
                            f"the limit for it is {cap:,} (refused before reading)", shown)
        if info.file_size > self.budget[0]:
            raise VmodError(f"reading this entry ({info.file_size:,} bytes) would pass the limit of "
                            f"{lim.max_total_bytes:,} bytes read from the module", shown)
        chunks: list[bytes] = []
        got = 0
        checked = head_check is None
        try:
            with self._zip.open(info) as fh:
                while True:
                    chunk = fh.read(min(_CHUNK, cap + 1 - got))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    got += len(chunk)
                    if got > cap:
                        raise VmodError(f"decompresses to more than {cap:,} bytes (the zip directory said "
                                        f"{info.file_size:,}); refused", shown)
                    if got > self.budget[0]:
                        raise VmodError(f"reading it passes the limit of {lim.max_total_bytes:,} bytes read "
                                        "from the module", shown)
                    if not checked and (got >= 65536 or got >= info.file_size):
                        head_check(b"".join(chunks))
                        checked = True
        except VmodError:
            raise
        except _DAMAGE as exc:
            raise VmodError(f"cannot decompress: {_describe(exc)} (the module is damaged)", shown) from None
        self.budget[0] -= got
        data = b"".join(chunks)
        if not checked:
            head_check(data)
        return data

    def close(self) -> None:
        try:
            self._zip.close()
        finally:
            self._fh.close()

    def __enter__(self) -> VmodArchive:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _open_regular(path: str) -> tuple[BinaryIO, int]:
    """Open ``path`` for reading only if it is a regular file (never blocks on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise VmodError("file not found", os.path.basename(path)) from None
    except IsADirectoryError:
        raise VmodError("is a folder, not a module file", os.path.basename(path)) from None
    except OSError as exc:
        raise VmodError(f"cannot open: {exc.strerror or exc}", os.path.basename(path)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise VmodError("is not a regular file (a device, pipe or socket); refused", os.path.basename(path))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb"), info.st_size


# --- XML ----------------------------------------------------------------------------------------


class _Refused(Exception):
    pass


def parse_xml(data: bytes, member: str, limits: Limits = DEFAULT_LIMITS, *,
              count_tag_suffix: str | None = None, max_counted: int | None = None) -> Any:
    """A minidom Document for ``data``, after a streaming pre-pass that refuses entity
    declarations, external entities, more than ``max_xml_depth`` levels, more than
    ``max_xml_elements`` elements and more than ``max_counted`` elements whose tag ends with
    ``count_tag_suffix`` (pieces). Errors are :class:`VmodError` at ``member:line:col``."""
    from xml.parsers import expat

    import defusedxml.minidom

    p = expat.ParserCreate()
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    depth = 0
    elements = 0
    counted = 0

    def start(tag: str, attrs: Any) -> None:
        nonlocal depth, elements, counted
        depth += 1
        elements += 1
        if depth > limits.max_xml_depth:
            raise _Refused(f"elements nested deeper than {limits.max_xml_depth} levels; refused")
        if elements > limits.max_xml_elements:
            raise _Refused(f"more than {limits.max_xml_elements:,} XML elements; refused")
        if count_tag_suffix and tag.endswith(count_tag_suffix):
            counted += 1
            if max_counted is not None and counted > max_counted:
                raise _Refused(f"more than {max_counted:,} pieces ({count_tag_suffix} elements); refused")

    def end(tag: str) -> None:
        nonlocal depth
        depth -= 1

    def entity_decl(name: str, *args: Any) -> None:
        raise _Refused(f"XML entity declaration {name!r}: entities are refused (an entity bomb or an "
                       "external entity reading local files)")

    def external(*args: Any) -> int:
        raise _Refused("XML external entity reference: refused")

    p.StartElementHandler = start
    p.EndElementHandler = end
    p.EntityDeclHandler = entity_decl
    p.UnparsedEntityDeclHandler = entity_decl
    p.ExternalEntityRefHandler = external
    try:
        p.Parse(data, True)
    except _Refused as exc:
        raise VmodError(str(exc), member, p.CurrentLineNumber, p.CurrentColumnNumber + 1) from None
    except expat.ExpatError as exc:
        raise VmodError(f"not well-formed XML: {expat.ErrorString(exc.code)}", member, exc.lineno,
                        exc.offset + 1) from None
    try:
        return defusedxml.minidom.parseString(data, forbid_dtd=False, forbid_entities=True,
                                              forbid_external=True)
    except expat.ExpatError as exc:  # pragma: no cover - the pre-pass refuses the same documents
        raise VmodError(f"not well-formed XML: {expat.ErrorString(exc.code)}", member, exc.lineno,
                        exc.offset + 1) from None
    except ValueError as exc:  # defusedxml's refusals (EntitiesForbidden, …) are ValueErrors
        raise VmodError(f"refused XML: {exc}", member) from None


# --- images -------------------------------------------------------------------------------------


def image_info(data: bytes) -> tuple[str, int, int] | None:
    """(extension, width, height) from the magic bytes and header; ``None`` for other formats."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return "png", int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if len(data) >= 10 and data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif", int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_size(data)
    return None


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        seg = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in _SOF:
            if i + 9 > n:
                return None
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            return "jpg", w, h
        if seg < 2:
            return None
        i += 2 + seg
    return None


def check_image(data: bytes, member: str, limits: Limits = DEFAULT_LIMITS) -> tuple[str, int, int] | None:
    """:func:`image_info`, refusing dimensions over the pixel limits (a decompression bomb)."""
    found = image_info(data)
    if found is None:
        return None
    ext, w, h = found
    if w > limits.max_image_side or h > limits.max_image_side or w * h > limits.max_image_pixels:
        raise VmodError(f"{ext.upper()} image header says {w:,}×{h:,} pixels ({w * h / 1e6:,.0f} megapixels); "
                        f"the limit is {limits.max_image_pixels / 1e6:,.0f} megapixels and {limits.max_image_side:,} "
                        "pixels a side (refused before decoding)", member)
    if w == 0 or h == 0:
        raise VmodError(f"{ext.upper()} image header says {w}×{h} pixels; refused", member)
    return found


# --- saves (predefined setups) --------------------------------------------------------------------

_VCS_HEADER = b"!VCSK"
_VOB_HEADER = b"VOBS"
_XZ_HEADER = b"\xfd7zXZ\x00"


def _hex_table() -> Any:
    import numpy as np

    # VASSAL's obfuscation maps each nibble to one of several characters: '0'-'9' → 0-9,
    # 'a'-'f' and 'A'-'F' → 10-15, plus pywargame's offsets (decHex: b - DEC_MAP[b]).
    table = np.full(256, -1, dtype=np.int16)
    for b in range(0x30, 0x3A):
        table[b] = b - 0x30
    for b in range(0x61, 0x67):
        table[b] = b - 0x61 + 10
    for b in range(0x41, 0x47):
        table[b] = b - 0x41 + 10
    return table


def decode_save(raw: bytes, member: str, limit: int) -> str:
    """The text of a VASSAL ``savedGame`` stream (``!VCS`` hex, ``VOBS`` xor or xz), at most ``limit`` bytes."""
    import numpy as np

    if raw.startswith(_XZ_HEADER):
        dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        try:
            out = dec.decompress(raw, max_length=limit + 1)
        except lzma.LZMAError as exc:
            raise VmodError(f"cannot decompress the saved game: {exc}", member) from None
        if len(out) > limit:
            raise VmodError(f"the saved game decompresses to more than {limit:,} bytes; refused", member)
        return out.decode("utf-8", errors="replace")
    if raw.startswith(_VCS_HEADER):
        body = raw[len(_VCS_HEADER):]
        if len(body) < 2:
            return ""
        table = _hex_table()
        key_hi, key_lo = table[body[0]], table[body[1]]
        arr = np.frombuffer(body[2:2 + (len(body) - 2) // 2 * 2], dtype=np.uint8)
        hi, lo = table[arr[0::2]], table[arr[1::2]]
        if key_hi < 0 or key_lo < 0 or (hi < 0).any() or (lo < 0).any():
            raise VmodError("the saved game is not valid VASSAL '!VCS' encoding", member)
        key = int(key_hi) << 4 | int(key_lo)
        out = (((hi << 4) | lo) ^ key).astype(np.uint8).tobytes()
        return out.decode("latin-1")
    if raw.startswith(_VOB_HEADER):
        if len(raw) < 5:
            return ""
        key = raw[4]
        arr = np.frombuffer(raw[5:], dtype=np.uint8) ^ np.uint8(key)
        return arr.tobytes().decode("latin-1")
    raise VmodError("not a VASSAL saved game (unknown header)", member)


def save_lines(archive: VmodArchive, name: str) -> list[str]:
    """Command lines (split at ESC) of the predefined setup ``name`` inside ``archive``."""
    lim = archive.limits
    data = archive.read(name, lim.max_member_bytes)
    label = archive.member_label(name) if "!" in archive.label else f"{archive.label}!{name}"
    with VmodArchive(data, lim, label=label, budget=archive.budget) as inner:
        if "savedGame" not in inner:
            raise VmodError("the setup file has no 'savedGame' entry", name)
        raw = inner.read("savedGame", lim.max_save_bytes * 2 + 16)
    return decode_save(raw, name, lim.max_save_bytes).split("\x1b")
