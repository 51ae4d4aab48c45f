"""GTS-CHART-001: chart notes have no doubled words and follow errata to the rules they restate."""

from __future__ import annotations

import re
from typing import Iterable

from model.diagnostics import Diagnostic, Severity
from validators.context import RuleContext
from validators.packs.gts._data import data_param
from validators.packs.gts._gts import SYSTEMS
from validators.rule import Rule

DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I)
PAREN_REF = re.compile(r"\((\d+(?:\.\d+)+)(?:\s+or\s+(\d+(?:\.\d+)+))?\)")


class ChartNotes(Rule):
    """Each chart note of ``charts`` (``{chart, text, rule?, errata?}``): (1) has no word printed
    twice in a row; (2) when the rule case it restates — its ``rule``, or a case it cites in
    parentheses — has an errata entry in the rulebook index, the note records which errata
    text it follows (``errata:``).

    Rule case: Err Charts (CRT "Airborne Airborne"; TEC Note #6 first sentence removed; Beach
    Overlay note rewritten to cite the drift rules 4.2.1/4.2.5)

    Why: chart text copied by hand from the rules goes stale when the rules change, and typos
    such as a doubled word survive proofing (errata C1, C2, C4).

    Policy: a heuristic. A bare case number is looked up as "Excl N" first (charts of the
    Utah game restate its exclusive rules), then as the series case. Warnings only.

    Violating example: ``{chart: CRT, text: Airborne Airborne at Night (+3)}``; or ``{chart:
    TEC, text: German Units may enter Bocage (16.3) in a Hedgerow hex.}`` without ``errata``.

    Correct example: ``{chart: TEC, text: German Units may enter Bocage (16.3) in a Hedgerow
    hex., errata: Err Charts}``.
    """

    code = "GTS-CHART-001"
    name = "chart-notes"
    severity = Severity.WARNING
    groups = ("charts", "proofing", "gts")
    rule_case = "Err Charts"
    systems = SYSTEMS

    def check(self, ctx: RuleContext) -> Iterable[Diagnostic]:
        notes, node, fields = data_param(ctx, "charts")
        if not isinstance(notes, list):
            return
        book = ctx.bundle.game.rulebook
        cases = book.cases if book is not None else {}
        for i, note in enumerate(notes):
            if not isinstance(note, dict):
                continue
            text = str(note.get("text", ""))
            label = f"{note.get('chart', 'chart')} note {note.get('id', i)}"
            for m in DOUBLED.finditer(text):
                yield ctx.finding(self, f"{label}: {m.group(1)!r} is printed twice in a row", node, *fields, i, "text")
            if note.get("errata"):
                continue
            cited = [str(note["rule"])] if note.get("rule") else []
            cited += [n for m in PAREN_REF.finditer(text) for n in m.groups() if n]
            for ref in cited:
                bare = ref.removeprefix("Excl ").strip()
                amended = [k for k in (f"Excl {bare} (errata)", f"{bare} (errata)") if k in cases]
                if amended:
                    yield ctx.finding(self, f"{label} restates {ref}, which the errata amend ({amended[0]}); "
                                      "check it and record the errata it follows", node, *fields, i)
                    break
