"""Safe, located YAML reading and canonical, atomic YAML writing.

Reading composes the node tree with the C parser where available (safe: no Python tags are
ever constructed) and builds plain data ourselves, which lets us

* remember the line and column of every mapping key and sequence item (``SourceMap``);
* report duplicate keys, unknown tags and non-string keys as located errors;
* cap document size, nesting depth and alias expansion ("billion laughs") with a clear
  message instead of exhausting memory;
* keep numbers as their *text*: hex labels such as ``28.050`` or ``0332`` must not become
  ``28.05`` or an octal integer. pydantic's lax mode turns numeric text into numbers for
  fields typed as numbers. ``true``/``false`` and ``null``/``~`` are still recognised.

Writing emits a stable, block-style document (keys in model order, multi-line strings as
literal blocks) so that loading and saving a canonical file is byte-identical, and saves
atomically: temp file in the same folder, fsync, keep the previous file as ``.bak``, rename.
"""

from __future__ import annotations

import re

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from model.diagnostics import Diagnostic, Location, Severity
from model.limits import MAX_ALIAS_NODES, MAX_ALIASES, MAX_SETUP_ENTRIES

try:  # the C parser is much faster on big maps; the pure one behaves the same
    from yaml import CSafeLoader as _BaseLoader
    from yaml import CSafeDumper as _BaseDumper
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]
    from yaml import SafeDumper as _BaseDumper  # type: ignore[assignment]

MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 100
MAX_NODES = 5_000_000  # counted with aliases expanded

_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_SAFE_TAGS = {_STR, _NULL, _BOOL, "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq",
              "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_NULLS = {"", "~", "null", "Null", "NULL"}


_PLAIN = "tag:yaml.org,2002:str"  # plain scalars stay text; the builder reads bool/null itself
_MERGE = "tag:yaml.org,2002:merge"


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader; we only use its composer, and we resolve plain scalars ourselves."""

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        # PyYAML's resolver runs a list of regexes on every plain scalar (3 of the 8 s of a
        # 100,000-entry scenario) to find ints, floats and timestamps, which we keep as text
        # anyway. Only the distinctions the builder uses are made here.
        if kind is yaml.ScalarNode and implicit[0]:
            if value in _TRUE or value in _FALSE:
                return _BOOL
            if value in _NULLS:
                return _NULL
            if value == "<<":
                return _MERGE
            return _PLAIN
        return super().resolve(kind, value, implicit)


def make_loader(text: str) -> _Loader:
    """A safe composer over ``text`` (for tools that need the node tree and its marks)."""
    return _Loader(text)


class YamlError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class LiteralBlock:
    """Where a literal block scalar (``key: |`` or ``key: |-``) that is a mapping value sits
    in the text the loader read (string indices, as the parser's marks give them)."""

    key: int  # the first character of its key
    header: int  # its ``|`` indicator
    end: int  # where the parser's scan of the block ended: the start of the line that ends it, or the end of the text

    def shifted(self, delta: int) -> "LiteralBlock":
        return LiteralBlock(self.key + delta, self.header + delta, self.end + delta)


@dataclass
class SourceMap:
    """Line/column (1-based) of each model path in one file."""

    file: str
    marks: dict[tuple[str | int, ...], tuple[int, int]] = field(default_factory=dict)
    # Every literal block scalar that is a mapping value, by its path: what a save of an edit
    # inside such a block (terrain rows) needs to check the edited text without reading all of
    # it again (model/formats/yamlpatch.literal_reads_back). Left empty when the document has
    # aliases or duplicate keys: a block's text is then not the only place its value comes from.
    literal_blocks: dict[tuple[str | int, ...], LiteralBlock] = field(default_factory=dict)
    # The text these positions are of (None when not kept): lets a reader of the same text
    # (a rule that re-reads a file on disk) tell that the loader's parse is of it.
    text: str | None = field(default=None, repr=False, compare=False)

    def find(self, path: tuple[str | int, ...]) -> tuple[int, int] | None:
        """Position of ``path``, or of its nearest recorded ancestor."""
        p = tuple(path)
        while True:
            if p in self.marks:
                return self.marks[p]
            if not p:
                return None
            p = p[:-1]

    def location(self, path: tuple[str | int, ...], **refs: Any) -> Location:
        from model.base import format_path

        pos = self.find(path)
        return Location(
            file=self.file,
            line=pos[0] if pos else None,
            column=pos[1] if pos else None,
            path=format_path(path),
            **refs,
        )


def _error(file: str, message: str, line: int | None = None, column: int | None = None,
           code: str = "LOAD-YAML-001") -> YamlError:
    return YamlError(Diagnostic(code, Severity.ERROR, message, Location(file=file, line=line, column=column)))


class _Builder:
    def __init__(self, file: str):
        self.file = file
        self.marks: dict[tuple[str | int, ...], tuple[int, int]] = {}
        self.count = 0
        self.errors: list[Diagnostic] = []
        self.blocks: dict[tuple[str | int, ...], LiteralBlock] = {}

    def mark(self, node: yaml.Node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def build(self, node: yaml.Node, path: tuple[str | int, ...], depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            line, col = self.mark(node)
            raise _error(self.file, f"document expands to more than {MAX_NODES:,} nodes "
                         "(an alias bomb?); refusing to load it", line, col, "LOAD-YAML-003")
        if depth > MAX_DEPTH:
            line, col = self.mark(node)
            raise _error(self.file, f"nesting deeper than {MAX_DEPTH} levels; refusing to load it",
                         line, col, "LOAD-YAML-003")
        if node.tag not in _SAFE_TAGS:
            line, col = self.mark(node)
            raise _error(self.file, f"tag {node.tag!r} is not allowed: Hexproof reads plain data "
                         "only and never constructs objects from a file", line, col, "LOAD-YAML-004")
        if path not in self.marks:
            self.marks[path] = self.mark(node)
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    line, col = self.mark(key_node)
                    raise _error(self.file, "merge keys ('<<') are not supported", line, col)
                if not isinstance(key_node, yaml.ScalarNode):
                    line, col = self.mark(key_node)
                    raise _error(self.file, "mapping keys must be plain text", line, col)
                key = key_node.value
                if key in out:
                    line, col = self.mark(key_node)
                    self.errors.append(Diagnostic("LOAD-YAML-002", Severity.ERROR,
                                                  f"duplicate key {key!r}; the later value would silently win",
                                                  Location(file=self.file, line=line, column=col)))
                self.marks[path + (key,)] = self.mark(key_node)
                if value_node.__class__ is yaml.ScalarNode and value_node.style == "|":
                    self.blocks[path + (key,)] = LiteralBlock(key_node.start_mark.index, value_node.start_mark.index,
                                                              value_node.end_mark.index)
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        value = node.value
        if node.tag == _STR:
            return value
        if node.tag == _NULL or (node.style is None and value in _NULLS):
            return None
        if node.tag == _BOOL:
            if value in _TRUE:
                return True
            if value in _FALSE:
                return False
            return value  # yes/no/on/off stay text (YAML 1.2 behaviour)
        return value  # numbers and timestamps stay as their text


_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


# Sequences whose length is capped while streaming (model/limits.py), by their path from
# the top of the file: only scenario files have these keys. Refusing here, at the first
# entry over the limit, costs a scan up to it instead of composing, building and
# validating 100,000 entries.
_SEQUENCE_LIMITS: dict[tuple[str, ...], tuple[int, str]] = {
    ("setup",): (MAX_SETUP_ENTRIES, "setup entries; the limit is {limit:,} per scenario"),
    ("overrides", "setup_add"): (MAX_SETUP_ENTRIES, "setup_add entries; the limit is {limit:,} per scenario"),
}
_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)


def _check_depth(text: str, file: str) -> None:
    """Refuse over-deep nesting *before* composing: libyaml's composer recurses in C and
    crashes the process (segfault) on some tens of thousands of nested ``[``. The event
    stream is flat, so scanning it is safe; syntax errors are left to the real parse.

    The same pass counts aliases (``*name``): more than :data:`MAX_ALIASES` is refused at
    the first one over the limit, before anything is composed or built; and the capped
    sequences of :data:`_SEQUENCE_LIMITS` are counted item by item."""
    loader = _Loader(text)
    depth = 0
    aliases = 0
    # One frame per open collection: [is_mapping, expecting_key, key, items, limit, path].
    # ``path`` is kept for the top two levels only (all _SEQUENCE_LIMITS need).
    stack: list[list[Any]] = []
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, _NODE_EVENTS):
                child: tuple[Any, ...] | None = ()
                if stack:
                    frame = stack[-1]
                    if frame[0]:
                        if frame[1]:  # a key
                            frame[2] = event.value if isinstance(event, yaml.ScalarEvent) else None
                            frame[1] = False
                            child = None
                        else:
                            frame[1] = True
                            child = frame[5] + (frame[2],) if frame[5] is not None else None
                    else:
                        frame[3] += 1
                        if frame[4] is not None and frame[3] > frame[4][0]:
                            mark = event.start_mark
                            limit = frame[4][0]
                            raise _error(file, f"more than {limit:,} " + frame[4][1].format(limit=limit),
                                         mark.line + 1, mark.column + 1, "LOAD-YAML-003")
                        child = None
                if isinstance(event, yaml.AliasEvent):
                    aliases += 1
                    if aliases > MAX_ALIASES:
                        mark = event.start_mark
                        raise _error(file, f"more than {MAX_ALIASES:,} aliases (*name) in one file "
                                     "(an alias bomb?); refusing to load it",
                                     mark.line + 1, mark.column + 1, "LOAD-YAML-003")
                elif isinstance(event, _OPEN):
                    depth += 1
                    if depth > MAX_DEPTH:
                        mark = event.start_mark
                        raise _error(file, f"nesting deeper than {MAX_DEPTH} levels; refusing to load it",
                                     mark.line + 1, mark.column + 1, "LOAD-YAML-003")
                    is_map = isinstance(event, yaml.MappingStartEvent)
                    limit = None if is_map or child is None else _SEQUENCE_LIMITS.get(child)
                    stack.append([is_map, True, None, 0, limit,
                                  child if child is not None and len(child) < 2 else None])
            elif isinstance(event, _CLOSE):
                depth -= 1
                if stack:
                    stack.pop()
    except yaml.YAMLError:
        return
    finally:
        loader.dispose()


def _expanded_size(node: yaml.Node, memo: dict[int, int], depth: int = 0) -> int:
    """Node count with aliases expanded, saturating just above :data:`MAX_NODES`."""
    key = id(node)
    if key in memo:
        return memo[key]
    if depth > MAX_DEPTH or isinstance(node, yaml.ScalarNode):
        size = 1  # too-deep trees are reported by the builder with their position
    else:
        size = 1
        items = node.value if isinstance(node, yaml.SequenceNode) else [n for kv in node.value for n in kv]
        for child in items:
            size += _expanded_size(child, memo, depth + 1)
            if size > MAX_NODES:
                break
    size = min(size, MAX_NODES + 1)
    memo[key] = size
    return size


def parse_yaml(text: str | bytes, file: str, *, check_depth: bool = True) -> tuple[Any, SourceMap, list[Diagnostic]]:
    """Parse one YAML document. Raises :class:`YamlError` (located) if it cannot be read.

    ``check_depth=False`` skips the nesting pre-scan, for text whose nesting is known: a
    save reading back a file in which it only replaced scalars."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise _error(file, f"file is {len(text):,} bytes; the limit is {MAX_BYTES:,}", code="LOAD-YAML-003")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            # Point at the offending byte's line so the user can find it in an editor.
            line = text.count(b"\n", 0, exc.start) + 1
            column = exc.start - (text.rfind(b"\n", 0, exc.start) + 1) + 1
            raise _error(file, f"not UTF-8 text (byte {exc.start})", line, column) from None
    if len(text) > MAX_BYTES:
        raise _error(file, f"file is {len(text):,} characters; the limit is {MAX_BYTES:,}", code="LOAD-YAML-003")
    if check_depth:
        _check_depth(text, file)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "malformed YAML"
        ctx = exc.context_mark
        if exc.problem and exc.context and ctx is not None and (mark is None or ctx.line != mark.line):
            # An unclosed quote or bracket is noticed far below where it starts: say where.
            problem += f" ({exc.context} at line {ctx.line + 1})"
        raise _error(file, f"YAML syntax error: {problem}", mark.line + 1 if mark else None,
                     mark.column + 1 if mark else None) from None
    except yaml.reader.ReaderError as exc:
        # Raised for characters YAML forbids (NUL, most control codes): locate it by position.
        pos = max(0, min(int(exc.position), len(text)))
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        raise _error(file, f"character {exc.character!r} is not allowed in YAML ({exc.reason})",
                     line, column) from None
    except yaml.YAMLError as exc:
        raise _error(file, f"YAML error: {exc}") from None
    except RecursionError:
        raise _error(file, "nesting too deep to parse", code="LOAD-YAML-003") from None
    finally:
        loader.dispose()
    builder = _Builder(file)
    if node is None:
        return None, SourceMap(file, builder.marks, text=text), []
    # Aliases share node objects: size the expanded tree first (memoised per node, so this
    # is linear in the text) and refuse an alias bomb before spending time building it.
    memo: dict[int, int] = {}
    expanded = _expanded_size(node, memo)
    if expanded > MAX_NODES:
        raise _error(file, f"document expands to more than {MAX_NODES:,} nodes "
                     "(an alias bomb?); refusing to load it", 1, 1, "LOAD-YAML-003")
    # ``memo`` holds each distinct node once: what aliases add is the rest. Building (and
    # later validating) every copy is what made 400,000 aliases in 2 MB take 44 s.
    if expanded - len(memo) > MAX_ALIAS_NODES:
        raise _error(file, f"aliases expand the document by {expanded - len(memo):,} nodes, more than "
                     f"{MAX_ALIAS_NODES:,} (an alias bomb?); refusing to load it", 1, 1, "LOAD-YAML-003")
    try:
        data = builder.build(node, (), 0)
    except RecursionError:
        raise _error(file, "nesting too deep to load", code="LOAD-YAML-003") from None
    blocks = builder.blocks if expanded == len(memo) and not builder.errors else {}
    return data, SourceMap(file, builder.marks, blocks, text), builder.errors


def read_yaml(path: Path, display: str | None = None) -> tuple[Any, SourceMap, list[Diagnostic]]:
    data, smap, errors, _ = read_yaml_source(path, display)
    return data, smap, errors


def read_yaml_source(path: Path, display: str | None = None) -> tuple[Any, SourceMap, list[Diagnostic], str]:
    """:func:`read_yaml` plus the decoded text (what a format-preserving save patches).

    The read goes through :mod:`model.safefile`: a regular file only (a FIFO or a device is
    refused at once, never read or waited on), bounded by the bytes actually read."""
    from model.safefile import SafeFileError, read_bytes

    name = display or str(path)
    try:
        raw = read_bytes(path, MAX_BYTES)
    except SafeFileError as exc:
        code = "LOAD-YAML-003" if exc.code == "FILE-SIZE-001" else "LOAD-FILE-001"
        message = exc.message
        if exc.code == "FILE-SIZE-001":
            message = f"file is over the size limit (the limit is {MAX_BYTES:,} bytes); refusing to read it"
        raise _error(name, message, code=code) from None
    data, smap, errors = parse_yaml(raw, name)
    return data, smap, errors, smap.text if smap.text is not None else raw.decode("utf-8")


def parse_typed_yaml(text: str, file: str) -> Any:
    """One YAML document with YAML's own types (ints stay ints), for the files Hexproof writes
    or ships itself: a plug-in's tables, a saved game. Size and nesting are capped as for
    every file; an error is a located :class:`YamlError`."""
    if len(text) > MAX_BYTES:
        raise _error(file, f"file is {len(text):,} characters; the limit is {MAX_BYTES:,}", code="LOAD-YAML-003")
    _check_depth(text, file)
    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _error(file, f"YAML syntax error: {exc.problem or exc.context or 'malformed YAML'}",
                     mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise _error(file, f"YAML error: {exc}") from None


def read_package_data(path: Path) -> Any:
    """A YAML data file that ships with Hexproof (a plug-in's params, coverage, buttons), read
    through :mod:`model.safefile` and parsed by :func:`parse_typed_yaml`."""
    from model.safefile import SafeFileError, read_bytes

    try:
        raw = read_bytes(path, MAX_BYTES)
    except SafeFileError as exc:
        raise _error(str(path), exc.message, code="LOAD-FILE-001") from None
    return parse_typed_yaml(raw.decode("utf-8"), str(path))


# --- writing -----------------------------------------------------------------------------


class _Dumper(_BaseDumper):  # type: ignore[misc,valid-type]
    pass


# Plain scalars a YAML 1.2 reader takes for numbers, although PyYAML (YAML 1.1) reads them as
# text: a hex label ``0808`` written plain is the integer 808 to a 1.2 tool. Such strings are
# quoted when written, so the files mean the same to every YAML reader.
_YAML12_NUMBER = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
                            r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")


def reads_as_number_in_yaml12(text: str) -> bool:
    """Whether ``text`` written plain would be a number to a YAML 1.2 (core schema) reader."""
    return _YAML12_NUMBER.fullmatch(text) is not None


def _repr_str(dumper: yaml.Dumper, data: str) -> yaml.Node:
    if "\n" in data:
        return dumper.represent_scalar(_STR, data, style="|")
    return dumper.represent_scalar(_STR, data, style="'" if reads_as_number_in_yaml12(data) else None)


_Dumper.add_representer(str, _repr_str)


class FlowList(list):  # type: ignore[type-arg]
    """A list written on one line (``[a, b, c]``): hex lists stay short and diffable."""


def _repr_flow(dumper: yaml.Dumper, data: FlowList) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_Dumper.add_representer(FlowList, _repr_flow)


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=120, indent=2)


def atomic_write_text(path: Path, text: str, *, keep_backup: bool = True) -> None:
    """Write ``text`` to ``path`` so that a crash or a full disk never leaves it half written.

    Temp file in the same folder → fsync → previous version copied to ``.bak`` → rename
    over the target → fsync the folder. Any failure raises ``OSError`` and leaves the
    original file untouched.
    """
    atomic_write_bytes(path, text.encode("utf-8"), keep_backup=keep_backup)


def atomic_write_bytes(path: Path, data: bytes, *, keep_backup: bool = True) -> None:
    """:func:`atomic_write_text` for bytes (an XLSX workbook)."""
    path = Path(path)
    try:
        _atomic_write(path, data, keep_backup)
    except OSError as exc:
        # Name the file the user saved (not our temp file) and say the old one is intact.
        # OSError(errno, ...) keeps the subclass (PermissionError, ...) and the errno.
        raise OSError(exc.errno, f"could not save {path}: {exc.strerror or exc}; "
                      "the previous version of the file is unchanged") from exc


def _atomic_write(path: Path, data: bytes, keep_backup: bool) -> None:
    import stat

    from model.safefile import umask_mode

    folder = path.parent
    # mkstemp makes the temp file 0600; the file written keeps the mode of the one it
    # replaces, or gets a new file's usual mode (an exported sheet must be readable by
    # whoever could read a file the user made).
    mode = stat.S_IMODE(path.stat().st_mode) if path.is_file() else umask_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        if keep_backup and path.exists():
            bak = path.with_name(path.name + ".bak")
            # A hard link keeps the old bytes even after the rename replaces the name.
            try:
                if bak.exists():
                    bak.unlink()
                os.link(path, bak)
            except OSError:
                import shutil

                shutil.copy2(path, bak)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:  # some file systems cannot fsync a folder; the rename is still atomic
        pass
