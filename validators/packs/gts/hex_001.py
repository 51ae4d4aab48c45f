"""GTS-HEX-001: hex ids are written CC.RRR as the rules print them."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterable, Iterator

from model.diagnostics import Diagnostic, Location, Severity
from model.safe_regex import GuardedPattern
from model.formats.yamlio import MAX_BYTES, SourceMap, parse_yaml
from validators.context import RuleContext
from validators.packs.gts._gts import SYSTEMS
from validators.patterns import PatternError, system_pattern
from validators.rule import Rule

HEX_KEYS = frozenset({"hex", "hexes", "adjacent_to", "alternatives", "exclude", "planned", "actual",
                      "reinforcement_hexes", "from", "to", "label"})
LOOKS_LIKE = re.compile(r"^\d+\.\d+(/\w+)?$")


def _walk(data: Any, path: tuple[Any, ...] = (), key: str | None = None) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _walk(v, path + (k,), str(k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _walk(v, path + (i,), key)
    elif isinstance(data, str) and (key in HEX_KEYS or "hexsides" in path or key == "gap_hexsides"):
        yield path, data


class HexSyntax(Rule):
    """Every hex id written in a map or scenario file has the printed form CC.RRR.

    Rule case: Excl 3.2 (every hex id in the rules is written like 28.048 or 105.031)

    Why: the label scheme reads ``28.48`` as 28.048 without complaint, but no GTS map prints
    such an id; a typo that happens to parse would put a unit in the wrong hex silently.

    Violating example: ``{unit: wn-5, hex: '23.24'}``

    Correct example: ``{unit: wn-5, hex: '23.024'}`` (two or three column digits, a dot,
    three row digits: ``^\\d{2,3}\\.\\d{3}$``).
    """

    code = "GTS-HEX-001"
    name = "hex-syntax"
    severity = Severity.ERROR
    groups = ("hexes", "gts")
    rule_case = "Excl 3.2"
    systems = SYSTEMS
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        # A pattern from data runs under a timeout (model/safe_regex.py): a ReDoS pattern such
        # as ^(\d+)+$ is refused at its key instead of hanging validate.
        setting = ctx.system.params.get("hex_label_pattern")
        keys = ("hex_label_pattern", "value") if isinstance(setting, dict) else ("hex_label_pattern",)
        try:
            pattern = system_pattern(ctx, keys, r"^\d{2,3}\.\d{3}$")
        except PatternError as exc:
            yield ctx.finding(self, f"hex_label_pattern refused: {exc.reason}", ctx.system, "params", *keys)
            return
        files = [ctx.bundle.files.get(k) for k in sorted(ctx.bundle.files) if k.startswith(("map:", "scenario:"))]
        for rel in files:
            if rel is None:
                continue
            display = _display(ctx, rel)
            from model.safefile import SafeFileError, read_inside

            try:
                # Inside the bundle after symlinks, a regular file, bounded (model/safefile).
                raw = read_inside(ctx.bundle.root, rel, MAX_BYTES)
            except SafeFileError:  # unreadable or refused files are reported by the loader
                continue
            # Parsing the file is the cost: keep the findings per file, keyed by its bytes, so
            # only a changed file is parsed again; and when the loader's parse is of these very
            # bytes (a bundle just loaded: the whole command-line case), walk that instead.
            loaded = _loaded_parse(ctx, rel, display, raw)
            try:
                found = ctx.memo(f"gts.hex_syntax:{rel}", lambda: _bad_ids(raw, display, pattern, loaded),
                                 key=(raw, display, pattern.pattern))
            except PatternError as exc:
                yield ctx.finding(self, f"hex_label_pattern refused: {exc.reason}", ctx.system, "params", *keys)
                return
            for text, where in found:
                diag = ctx.finding(self, f"hex id {text!r} is not written CC.RRR (e.g. 28.048)")
                yield replace(diag, location=replace(where, scenario=diag.location.scenario))


def _loaded_parse(ctx: RuleContext, rel: str, display: str, raw: bytes) -> tuple[Any, SourceMap] | None:
    """(data, source map) the loader read from ``raw``, or None when it read other text (an
    edit saved since, a file changed on disk) or did not keep it. The snapshot's ``raw`` is
    what the YAML reader built from the snapshot's text (model.bundle.FileSnapshot), and the
    source map knows the text its positions are of, so equal texts make the pair ``raw``'s."""
    snap = ctx.bundle.snapshots.get(rel)
    smap = ctx.bundle.sources.get(display)
    if snap is None or snap.raw is None or smap is None or smap.text is None or snap.text != smap.text:
        return None
    try:
        if smap.text.encode("utf-8") != raw:
            return None
    except UnicodeEncodeError:
        return None
    return snap.raw, smap


def _bad_ids(raw: bytes, display: str, pattern: GuardedPattern,
             loaded: tuple[Any, SourceMap] | None = None) -> list[tuple[str, Location]]:
    """(text, location) of every hex id in one file's text that does not fit ``pattern``
    (``loaded``: the loader's parse of the same bytes, walked instead of parsing again)."""
    if loaded is not None:
        data, smap = loaded
    else:
        try:
            data, smap, _ = parse_yaml(raw, display)
        except Exception:  # unreadable files are reported by the loader
            return []
    out = []
    for path, text in _walk(data):
        label = text.split("/", 1)[0]
        if LOOKS_LIKE.match(text) and not pattern.match(label):
            out.append((text, smap.location(path)))
    return out


def _display(ctx: RuleContext, rel: str) -> str:
    for key in ctx.bundle.sources:
        if key.endswith(rel):
            return key
    return rel
