"""Format-preserving YAML saves: edit the user's text only where the data changed.

A save must change only what was edited (designers keep bundles in git and write errata from
the diffs). :func:`patch_text` takes a file's original text, the data it was loaded as and
the data to save, and returns the original text with the *smallest spans* replaced:

* a changed scalar is replaced in place, in its own quoting style (``'28.050'`` stays single
  quoted, ``value: 30`` stays a plain number), keeping a comment after it on the line;
* a changed line of a literal block (``rows: |-``, the terrain) replaces only that line, so
  painting 4 hexes changes at most 4 lines;
* an added mapping key or list item is written in the canonical style (the same dumper as a
  fresh save) next to its siblings, at their indentation; a removed one takes only its lines;
* anything the patcher cannot place exactly (a key that moved, an anchor/alias, a change of
  type) replaces the smallest enclosing entry: still only the lines of what was edited.

Comments, key order, blank lines, quoting, flow or block style and numbers as written all stay
wherever nothing changed. Both data trees are the *canonical* JSON-like dumps of the models
(``model_dump(mode="json")``), so a no-op save is an equality test and the file is untouched.
:class:`PatchError` means "cannot patch this document": the caller writes the canonical text.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

import yaml
import yaml.emitter

from model.formats.yamlio import (MAX_BYTES, FlowList, LiteralBlock, YamlError, dump_yaml, make_loader, parse_yaml,
                                 reads_as_number_in_yaml12)

_MISSING = object()
# Plain text that the reader would not read back as that text (null, booleans, the merge key).
_NULLISH = {"", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "<<"}
_EMITTER = yaml.emitter.Emitter(io.StringIO())


class PatchError(Exception):
    """The document cannot be patched (no mapping at the top, anchors, an unplaceable edit)."""


@dataclass
class _Edit:
    start: int
    end: int
    text: str
    seq: int = 0


class _Render:
    """The canonical (defaults-omitted, flow-styled) value at a path, computed only if needed."""

    def __init__(self, root: Callable[[], Any]) -> None:
        self._root = root
        self._value: Any = _MISSING

    def at(self, path: tuple[str | int, ...], fallback: Any) -> Any:
        if self._value is _MISSING:
            self._value = self._root()
        cur = self._value
        for part in path:
            if isinstance(cur, dict) and isinstance(part, str) and part in cur:
                cur = cur[part]
            elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
                cur = cur[part]
            else:
                return fallback
        return cur


@dataclass
class Patched:
    """The patched text and, when every edit replaced a scalar (or lines of a literal block),
    the raw value each edited path now reads as: enough to check the result by reading it
    back without validating the whole model (``None`` after any structural edit)."""

    text: str
    scalar_edits: list[tuple[tuple[str | int, ...], Any]] | None


def patch_text(text: str, old: Any, new: Any, render: Callable[[], Any]) -> str:
    """``text`` (which loads as ``old``) edited so that it loads as ``new``.

    ``render()`` returns the canonical form of ``new`` (what a fresh save would write), used
    for the text of added or restructured parts. Raises :class:`PatchError` when the
    document's shape does not allow a local edit."""
    return patch(text, old, new, render).text


def patch(text: str, old: Any, new: Any, render: Callable[[], Any]) -> Patched:
    """:func:`patch_text` with what was edited (see :class:`Patched`)."""
    if old == new:
        return Patched(text, [])
    loader = make_loader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise PatchError(f"original text does not parse: {exc}") from None
    finally:
        loader.dispose()
    if not isinstance(node, yaml.MappingNode) or node.flow_style:
        raise PatchError("the document is not a block mapping")
    if "&" in text or "*" in text:
        _refuse_aliases(node)
    patcher = _Patcher(text, _Render(render))
    try:
        patcher.diff(node, old, new, ())
    except _Replace:
        raise PatchError("the top-level mapping cannot be edited in place") from None
    return Patched(patcher.apply(), None if patcher.structural else patcher.scalar_edits)


class _Mark:
    def __init__(self, index: int) -> None:
        self.index = index


class _LiteralNode:
    """What :meth:`_Patcher.diff_literal` reads of a block scalar's node: where it starts."""

    style = "|"

    def __init__(self, header: int) -> None:
        self.start_mark = _Mark(header)


def patch_literal(text: str, block: LiteralBlock, old: str, new: str, path: tuple[str | int, ...]) -> str | None:
    """``text`` with the lines of the literal block at ``block`` that differ between ``old``
    and ``new`` replaced (as :func:`patch` would), without composing the document; None when
    the block's layout is not the plain one. The result must still be checked, by
    :func:`literal_reads_back`."""
    if old == new:
        return text
    patcher = _Patcher(text, _Render(lambda: None))
    if not patcher.diff_literal(_LiteralNode(block.header), old, new, path):  # type: ignore[arg-type]
        return None
    return patcher.apply()


# Characters that libyaml reads as a space or a line break (YAML 1.1 counts NEL, LS and PS).
_BLANK = " \r\n\x85\u2028\u2029"


def literal_reads_back(before: str, block: LiteralBlock, key: str, after: str, value: str,
                       file: str = "<patched>") -> LiteralBlock | None:
    """Whether ``after`` reads exactly as ``before`` with the literal block at ``block`` (the
    value of mapping key ``key``) holding ``value``, and nothing else changed. Returns where
    that block sits in ``after`` (for the next save), or None when this cannot be shown here:
    the caller then reads the whole of ``after`` back instead.

    Only the block's own lines are parsed again, as a document of their own. Why that is
    equivalent to parsing all of ``after``, given that ``before`` was parsed by the loader
    (which recorded ``block``), found no alias and no duplicate key, and read ``key`` as a
    key of a block mapping at the column where it stands first on its line:

    Let ``a`` be the start of the key's line, ``j`` the first character of the block's
    content that is neither a space nor a line break (its first non-blank content line's
    indentation ends there), and ``b = block.end``, where the parser's scan of the block
    ended in ``before``: the start of the first line that is not part of it, or the end of
    the text. Checked on the texts: (1) ``after[:j] == before[:j]`` and ``after[j]`` is not
    blank either; (2) with ``d = len(after) - len(before)``, ``after[b+d:] == before[b:]``,
    and ``b`` is the end of the text or both texts have ``\n`` just before ``b`` (resp.
    ``b+d``); (3) the fragment ``after[a:b+d]``, parsed by the loader alone, is the mapping
    ``{key: value}`` with no error, its block's scan ending exactly at the fragment's end.

    * YAML is scanned left to right. By (1) everything up to the block's first content line
      is the same text, so the same tokens come out, up to and including the ``|`` header,
      and the scanner reaches the content in the same state. A block scalar's scan depends
      only on the text from its header on and on the indentation of the mapping holding it
      (the key's column ``c``: the key stands first on its line in a block mapping, so that
      mapping's indentation is ``c``). Its content indentation is fixed by the blank lines
      and spaces before its first non-blank character (YAML's auto-detection, or the
      header's explicit indicator, also unchanged): by (1) it is the same in both texts.
    * The fragment starts with the same key at the same column ``c``, so its mapping has the
      same indentation and its block is scanned under the same rules over the same text.
      Its scan ends at the fragment's end (3), so the scan of ``after`` did not end earlier
      (same text, same rules up to there). In ``before`` the line at ``b`` ended the block:
      a non-blank line indented less than the content, or the end of the text. By (2) the
      same line follows at ``b+d`` after a complete line break, and the content indentation
      is the same, so it ends the block in ``after`` too. Both scans read the same lines and
      their chomping sees the same trailing breaks: the block reads as the fragment's does,
      ``value`` (3), with the same tag and style (same header).
    * After the block the scanner is in the state it was in ``before`` after it (a block
      scalar changes no indentation level, and allows a simple key next), at the start of the
      same text (2). So every other token, hence every event and node, is as in ``before``,
      and the builder reads the same data everywhere else: same keys (no new duplicate), the
      same node count and depth (the caps), no alias that could repeat the block elsewhere.

    Anything else (a header line with an unusual break, a block that is all blank, a line
    break other than ``\n`` at its end, an early end, an error in the fragment) returns None."""
    if len(after) > MAX_BYTES:
        return None
    a = before.rfind("\n", 0, block.key) + 1
    if before[a:block.key].strip(" ") or not before.startswith("|", block.header):
        return None
    nl = before.find("\n", block.header)
    if nl < 0 or nl >= block.end:
        return None
    header_line = before[block.header:nl]
    if header_line.endswith("\r"):
        header_line = header_line[:-1]
    if any(ch in header_line for ch in _BLANK[1:]):
        return None  # the header line holds another line break: its content starts elsewhere
    j = nl + 1
    while j < block.end and before[j] in _BLANK:
        j += 1
    b = block.end
    d = len(after) - len(before)
    if j >= b or j >= b + d or after[j] in _BLANK or after[:j] != before[:j]:  # (1)
        return None
    if b != len(before) and not (before[b - 1] == "\n" and after[b + d - 1] == "\n"):  # (2)
        return None
    if after[b + d:] != before[b:]:
        return None
    fragment = after[a:b + d]
    try:  # (3)
        data, smap, errors = parse_yaml(fragment, file)
    except (YamlError, UnicodeError):
        return None
    own = smap.literal_blocks.get((key,))
    if (errors or data != {key: value} or own is None or own.key != block.key - a
            or own.header != block.header - a or own.end != len(fragment)):
        return None
    return LiteralBlock(block.key, block.header, b + d)


def _refuse_aliases(root: yaml.Node) -> None:
    """An alias shares its anchor's node (and marks): its text cannot be edited apart."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise PatchError("the document uses anchors and aliases")
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(n for kv in node.value for n in kv)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _double(value: str) -> str:
    """A double-quoted YAML scalar; characters YAML forbids raw (controls, NEL, DEL,
    unassigned code points) as YAML escapes (``\\xXX``, ``\\uXXXX``, ``\\UXXXXXXXX``; JSON's
    surrogate pairs are not valid YAML)."""
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


class _Patcher:
    def __init__(self, text: str, render: _Render) -> None:
        self.text = text
        self.render = render
        self.edits: list[_Edit] = []
        # Scalar edits as (raw path, the raw value the new text reads as); any other edit
        # makes the patch structural.
        self.scalar_edits: list[tuple[tuple[str | int, ...], Any]] = []
        self.structural = False

    # --- text positions --------------------------------------------------------------------

    def line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def line_end(self, index: int) -> int:
        """Index just past the newline of the line holding ``index`` (or the end of text)."""
        nl = self.text.find("\n", index)
        return len(self.text) if nl < 0 else nl + 1

    def first_on_line(self, index: int) -> bool:
        return self.text[self.line_start(index):index].strip() == ""

    def column(self, index: int) -> int:
        return index - self.line_start(index)

    def content_end(self, node: yaml.Node) -> int:
        """Where the node's own text ends (block collections: their last descendant's end;
        block scalars: before their trailing line breaks)."""
        if isinstance(node, yaml.ScalarNode):
            end = node.end_mark.index
            if node.style in ("|", ">"):
                while end > node.start_mark.index and self.text[end - 1] in " \n\r":
                    end -= 1
            return end
        if node.flow_style or not node.value:
            return node.end_mark.index
        last = node.value[-1]
        return self.content_end(last[1] if isinstance(node, yaml.MappingNode) else last)

    def dash(self, item: yaml.Node) -> int:
        """The index of the ``-`` that introduces a block sequence item."""
        i = item.start_mark.index - 1
        while i >= 0 and self.text[i] in " \t\r\n":
            i -= 1
        if i < 0 or self.text[i] != "-":
            raise PatchError("cannot find a sequence item's dash")
        return i

    def replace(self, start: int, end: int, text: str, scalar: tuple[tuple[str | int, ...], Any] | None = None) -> None:
        self.edits.append(_Edit(start, end, text, len(self.edits)))
        if scalar is None:
            self.structural = True
        else:
            self.scalar_edits.append(scalar)

    def apply(self) -> str:
        out = self.text
        last = len(out) + 1
        # Last edit first; of two insertions at one place, the later one first, so that
        # they end up in the order they were made.
        for edit in sorted(self.edits, key=lambda e: (e.start, e.end, e.seq), reverse=True):
            if edit.end > last:
                raise PatchError("overlapping edits")
            out = out[:edit.start] + edit.text + out[edit.end:]
            last = edit.start
        return out

    # --- rendering -------------------------------------------------------------------------

    @staticmethod
    def indent(rendered: str, col: int) -> str:
        """Indent every line after the first by ``col`` (the first starts where it is put)."""
        lines = rendered.split("\n")
        pad = " " * col
        return "\n".join([lines[0]] + [pad + ln if ln else ln for ln in lines[1:]])

    def block_entry(self, key: str, value: Any, col: int) -> str:
        """``key: value`` in canonical style at column ``col``, without its final newline."""
        return self.indent(dump_yaml({key: value}).rstrip("\n"), col)

    def block_item(self, value: Any, col: int) -> str:
        return self.indent(dump_yaml([value]).rstrip("\n"), col)

    @staticmethod
    def flow(value: Any) -> str:
        out = yaml.dump(value, Dumper=_FlowDumper, default_flow_style=True, allow_unicode=True,
                        sort_keys=False, width=1 << 30).strip()
        if out.endswith("\n..."):
            out = out[:-4].rstrip()
        return out

    def scalar(self, node: yaml.ScalarNode, value: Any, in_flow: bool) -> str | None:
        """``value`` written as a scalar in ``node``'s style, or None if that needs a block."""
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, float)):
            text = json.dumps(value)
            return f"'{text}'" if node.style == "'" else (f'"{text}"' if node.style == '"' else text)
        if not isinstance(value, str):
            return None
        if "\n" in value or node.style in ("|", ">"):
            return _double(value) if in_flow else None
        if node.style == '"':
            return _double(value)
        printable = all(ch.isprintable() or ch == "\t" for ch in value)
        if node.style != "'" and value not in _NULLISH and printable and not reads_as_number_in_yaml12(value):
            analysis = _EMITTER.analyze_scalar(value)
            if (analysis.allow_flow_plain if in_flow else analysis.allow_block_plain) and not analysis.multiline:
                return value
        if printable:
            return "'" + value.replace("'", "''") + "'"
        return _double(value)

    # --- diffing ---------------------------------------------------------------------------

    def diff(self, node: yaml.Node, old: Any, new: Any, path: tuple[str | int, ...]) -> None:
        """Edit ``node`` (a mapping value's or item's node, or the root) from ``old`` to ``new``.

        Returns normally when it could edit in place; raises :class:`_Replace` when the caller
        must rewrite the whole entry that holds ``node``."""
        if old == new:
            return
        if isinstance(node, yaml.MappingNode) and isinstance(old, dict) and isinstance(new, dict):
            self.diff_mapping(node, old, new, path)
        elif isinstance(node, yaml.SequenceNode) and isinstance(old, list) and isinstance(new, list):
            self.diff_sequence(node, old, new, path)
        elif isinstance(node, yaml.ScalarNode) and not isinstance(new, (dict, list)):
            self.diff_scalar(node, old, new, path)
        else:
            raise _Replace()

    def diff_scalar(self, node: yaml.ScalarNode, old: Any, new: Any, path: tuple[str | int, ...],
                    in_flow: bool = False) -> None:
        if node.style == "|" and isinstance(old, str) and isinstance(new, str) and not in_flow:
            if self.diff_literal(node, old, new, path):
                return
        text = self.scalar(node, new, in_flow)
        if text is None:
            raise _Replace()
        # What the loader reads back: text for numbers (they stay text), the value otherwise.
        raw = json.dumps(new) if isinstance(new, (int, float)) and not isinstance(new, bool) else new
        self.replace(node.start_mark.index, self.content_end(node), text, (path, raw))

    def diff_literal(self, node: yaml.ScalarNode, old: str, new: str, path: tuple[str | int, ...]) -> bool:
        """Patch a literal block line by line; False when its layout is not the plain one."""
        header_end = self.line_end(node.start_mark.index)
        header = self.text[node.start_mark.index:header_end].split("#")[0].strip()
        if header not in ("|", "|-") or header_end >= len(self.text):
            return False
        strip = header == "|-"
        if (not strip) != old.endswith("\n") or (not strip) != new.endswith("\n"):
            return False
        old_lines = (old[:-1] if not strip else old).split("\n")
        new_lines = (new[:-1] if not strip else new).split("\n")
        # Where each content line starts, and the indentation the block uses.
        starts: list[int] = []
        pos = header_end
        for _ in old_lines:
            if pos >= len(self.text):
                return False
            starts.append(pos)
            pos = self.line_end(pos)
        first = self.text[starts[0]:self.line_end(starts[0])].rstrip("\n")
        ind = len(first) - len(first.lstrip(" "))
        if ind == 0:
            return False
        pad = " " * ind
        for start, line in zip(starts, old_lines):
            raw = self.text[start:self.line_end(start)].rstrip("\n").rstrip("\r")
            if raw != pad + line and not (line == "" and raw.strip() == ""):
                return False
        if any(ln and not ln.startswith(" ") and ln != ln.lstrip() for ln in new_lines):
            return False
        if new_lines and new_lines[0].startswith(" "):
            return False  # a leading space on the first line would change the indentation
        ends = [self.line_end(s) for s in starts]
        if len(old_lines) == len(new_lines):
            # Painting changes rows in place: compare row by row (a matcher over hundreds of
            # long rows costs more than the whole rest of the save).
            opcodes = [("replace", i, i + 1, i, i + 1) for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
        else:
            opcodes = SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "equal":
                continue
            body = "".join(pad + ln + "\n" if ln else "\n" for ln in new_lines[j1:j2])
            if i1 < i2:
                start, end = starts[i1], ends[i2 - 1]
                if end == len(self.text) and not self.text.endswith("\n"):
                    body = body[:-1]
            else:  # pure insertion before old line i1 (or after the last)
                if i1 < len(starts):
                    start = end = starts[i1]
                else:
                    start = end = ends[-1]
                    if not self.text[:end].endswith("\n"):
                        body = "\n" + body[:-1]
            self.edits.append(_Edit(start, end, body, len(self.edits)))
        self.scalar_edits.append((path, new))
        return True

    def diff_mapping(self, node: yaml.MappingNode, old: dict[str, Any], new: dict[str, Any],
                     path: tuple[str | int, ...]) -> None:
        raw: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for k, v in node.value:
            if not isinstance(k, yaml.ScalarNode) or k.value in raw:
                raise _Replace()
            raw[k.value] = (k, v)
        if node.flow_style:
            self.diff_flow_mapping(node, raw, old, new, path)
            return
        col = self.column(node.value[0][0].start_mark.index) if node.value else 0
        removed = [k for k in old if k not in new and k in raw]
        if removed and len(removed) == len(raw) and not any(k in raw for k in new):
            raise _Replace()  # the mapping would be empty: rewrite the entry
        for key in new:
            if key in raw and old.get(key, _MISSING) != new[key]:
                knode, vnode = raw[key]
                mark = len(self.edits)
                try:
                    self.diff(vnode, old.get(key, _MISSING), new[key], path + (key,))
                except _Replace:
                    del self.edits[mark:]  # the entry is rewritten whole: drop its inner edits
                    self.replace(knode.start_mark.index, self.content_end(vnode),
                                 self.block_entry(key, self.render.at(path + (key,), new[key]), col))
        for key in removed:
            self.delete_entry(node, key)
        # Added keys go after the nearest earlier sibling (in the saved order) that the text has.
        order = list(new)
        for i, key in enumerate(order):
            if key in raw or key in old and key not in raw and old[key] == new[key]:
                continue
            value = self.render.at(path + (key,), new[key])
            prev = next((order[j] for j in range(i - 1, -1, -1) if order[j] in raw), None)
            if prev is not None:
                end = self.line_end(self.content_end(raw[prev][1]))
                body = " " * col + self.block_entry(key, value, col) + "\n"
                if end == len(self.text) and not self.text.endswith("\n"):
                    body = "\n" + body[:-1]
                self.replace(end, end, body)
            elif node.value:
                first = node.value[0][0].start_mark.index
                self.replace(first, first, self.block_entry(key, value, col) + "\n" + " " * col)
            else:
                raise _Replace()

    def delete_entry(self, node: yaml.MappingNode, key: str) -> None:
        items = node.value
        idx = next(i for i, (k, _) in enumerate(items) if k.value == key)
        start = items[idx][0].start_mark.index
        if idx + 1 < len(items):
            self.replace(start, items[idx + 1][0].start_mark.index, "")
        elif self.first_on_line(start):
            self.replace(self.line_start(start), self.line_end(self.content_end(items[idx][1])), "")
        else:
            # The last key of a mapping that starts after "- ": take it back to the previous entry.
            prev_end = self.content_end(items[idx - 1][1])
            self.replace(prev_end, self.content_end(items[idx][1]), "")

    def diff_flow_mapping(self, node: yaml.MappingNode, raw: dict[str, tuple[yaml.Node, yaml.Node]],
                          old: dict[str, Any], new: dict[str, Any], path: tuple[str | int, ...]) -> None:
        if [k for k in old if k not in new and k in raw]:
            raise _Replace()
        for key in new:
            if key in raw and old.get(key, _MISSING) != new[key]:
                vnode = raw[key][1]
                if isinstance(vnode, yaml.ScalarNode) and not isinstance(new[key], (dict, list)):
                    self.diff_scalar(vnode, old.get(key), new[key], path + (key,), in_flow=True)
                elif (isinstance(vnode, (yaml.MappingNode, yaml.SequenceNode)) and vnode.flow_style
                      and isinstance(new[key], (dict, list))):
                    self.replace(vnode.start_mark.index, vnode.end_mark.index,
                                 self.flow(self.render.at(path + (key,), new[key])))
                else:
                    raise _Replace()
        added = [k for k in new if k not in raw and not (k in old and old[k] == new[k])]
        if added:
            close = node.end_mark.index - 1
            if self.text[close] != "}":
                raise _Replace()
            body = "".join(f", {self.flow({k: self.render.at(path + (k,), new[k])})[1:-1]}" for k in added)
            if not node.value:
                body = body[2:]
            self.replace(close, close, body)

    def diff_sequence(self, node: yaml.SequenceNode, old: list[Any], new: list[Any],
                      path: tuple[str | int, ...]) -> None:
        if len(node.value) != len(old):
            raise _Replace()
        if node.flow_style:
            if len(old) == len(new) and all(
                    isinstance(n, yaml.ScalarNode) and not isinstance(v, (dict, list))
                    for n, v in zip(node.value, new)):
                for i, (n, a, b) in enumerate(zip(node.value, old, new)):
                    if a != b:
                        self.diff_scalar(n, a, b, path + (i,), in_flow=True)
                return
            if not new or (not old and any(isinstance(v, (dict, list)) for v in new)):
                # Emptied, or an empty ``[]`` that now holds records (a new bundle's ``counters: []``
                # gaining counters): the entry is rewritten in the canonical block style, one record
                # a line, instead of one ever-growing flow line.
                raise _Replace()
            self.replace(node.start_mark.index, node.end_mark.index, self.flow(self.render.at(path, new)))
            return
        if not new or not node.value:
            raise _Replace()
        col = self.column(self.dash(node.value[0]))
        matcher = SequenceMatcher(None, [_key(v) for v in old], [_key(v) for v in new], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            pairs = min(i2 - i1, j2 - j1)
            for k in range(pairs):
                self.edit_item(node, i1 + k, old[i1 + k], new[j1 + k], path + (j1 + k,), col)
            for k in range(i1 + pairs, i2):
                self.delete_item(node, k)
            if j1 + pairs < j2:
                self.insert_items(node, i1 + pairs, [(path + (j,), new[j]) for j in range(j1 + pairs, j2)], col)

    def edit_item(self, node: yaml.SequenceNode, i: int, old: Any, new: Any,
                  path: tuple[str | int, ...], col: int) -> None:
        item = node.value[i]
        mark = len(self.edits)
        try:
            self.diff(item, old, new, path)
        except _Replace:
            del self.edits[mark:]  # the item is rewritten whole: drop its inner edits
            self.replace(self.dash(item), self.content_end(item), self.block_item(self.render.at(path, new), col))

    def delete_item(self, node: yaml.SequenceNode, i: int) -> None:
        items = node.value
        start = self.dash(items[i])
        if not self.first_on_line(start):
            raise PatchError("a sequence item that does not start its line")
        if i + 1 < len(items):
            self.replace(self.line_start(start), self.line_start(self.dash(items[i + 1])), "")
        else:
            self.replace(self.line_start(start), self.line_end(self.content_end(items[i])), "")

    def insert_items(self, node: yaml.SequenceNode, before: int, values: list[tuple[tuple[str | int, ...], Any]],
                     col: int) -> None:
        rendered = [self.block_item(self.render.at(p, v), col) for p, v in values]
        if before < len(node.value):
            at = self.dash(node.value[before])
            self.replace(at, at, "".join(r + "\n" + " " * col for r in rendered))
        else:
            end = self.line_end(self.content_end(node.value[-1]))
            body = "".join(" " * col + r + "\n" for r in rendered)
            if end == len(self.text) and not self.text.endswith("\n"):
                body = "\n" + body[:-1]
            self.replace(end, end, body)


class _Replace(Exception):
    """Internal: the caller must rewrite the entry that holds this node."""


class _FlowDumper(yaml.SafeDumper):
    pass


def _repr_str(dumper: yaml.Dumper, data: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", data,
                                   style="'" if reads_as_number_in_yaml12(data) else None)


def _repr_list(dumper: yaml.Dumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_FlowDumper.add_representer(str, _repr_str)
_FlowDumper.add_representer(FlowList, _repr_list)
