"""TKG-MAP-001."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.patterns import PatternError, system_pattern
from validators.rule import Rule

PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9])[NWE]?[0-9xX?]{4}(?![0-9A-Za-z?])")


def _strings(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, path + (i,))


class HexReferenceForm(Rule):
    """Hex references written as text are sheet letter + 4 digits, never a placeholder such as N41xx or N????.

    Digest §8: MAP-01.

    Rule case: TKG L807

    Why: The draft prints hex ids as N1511, W6021, E1422 but also leaves wildcards and
    stubs (``Exx28``, ``N41xx``, Maisy ``N????`` at L2171). A box entry hex or scenario
    parameter that still holds such a placeholder points nowhere on the map.

    Violating example:
        boxes:
        - {id: W5, kind: omm, entry_hexes: [W45xx]}

    Correct example:
        boxes:
        - {id: W5, kind: omm, entry_hexes: [W4501]}

    Policy: Box entry hexes must match the system's ``hex_pattern`` (or name a map
    location). Free text in scenario params is scanned only for placeholders
    (``xx``/``??`` in a hex id), since it may legitimately quote hexrows in prose.
    """

    code = "TKG-MAP-001"
    name = "hex-reference-form"
    severity = Severity.ERROR
    groups = ("map",)
    rule_case = "TKG L807"
    systems = ("tkg",)
    scope = "bundle"

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        try:  # a pattern from data runs under a timeout (model/safe_regex.py)
            pattern = system_pattern(ctx, ("hex_pattern",), r"^[NWE]\d{4}$")
        except PatternError as exc:
            yield ctx.finding(self, f"hex_pattern refused: {exc.reason}", ctx.system, "params", "hex_pattern")
            return
        loc_ids = {loc.id for m in ctx.bundle.maps.values() for loc in m.locations}
        for box in ctx.bundle.game.boxes:
            for i, ref in enumerate(box.entry_hexes):
                try:
                    ok = bool(pattern.match(ref))
                except PatternError as exc:
                    yield ctx.finding(self, f"hex_pattern refused: {exc.reason}", ctx.system, "params", "hex_pattern")
                    return
                if not ok and ref not in loc_ids:
                    yield ctx.finding(self, f"box {box.id!r} entry hex {ref!r} is not a hex id like N1511 "
                                            "(sheet letter + 4 digits)", box, "entry_hexes", i)
        for sid, scen in ctx.bundle.scenarios.items():
            for path, text in _strings(scen.params):
                for m in PLACEHOLDER.finditer(text):
                    tok = m.group(0)
                    if "x" in tok.lower() or "?" in tok:
                        yield ctx.finding(self, f"scenario {sid!r} param {'.'.join(map(str, path))} holds the "
                                                f"placeholder hex {tok!r}", scen, "params", *path)
