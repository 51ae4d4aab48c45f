"""Reporters: text (one line per finding plus counts), JSON, and SARIF 2.1.0."""

from __future__ import annotations

import json
from collections import Counter as Tally
from typing import Any, Iterable

from model.diagnostics import Diagnostic, Location, Severity
from validators.rule import Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def summary(diags: list[Diagnostic]) -> str:
    tally = Tally(d.severity for d in diags)
    parts = [f"{tally[s]} {s}{'' if tally[s] == 1 else 's'}" for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)]
    return f"{len(diags)} finding{'' if len(diags) == 1 else 's'}: " + ", ".join(parts)


def render_line(d: Diagnostic) -> str:
    """One finding as text: ``file:line:col: severity CODE: message [rule case]``, then
    ``(policy NAME)`` when the finding applied a named policy (where the rules are silent or
    contradict, the text output says which choice was made, as JSON ``policy`` and SARIF
    ``properties.policy`` do), then ``(scenario ID)``."""
    line = d.render()
    if d.policy:
        line += f" (policy {d.policy})"
    if d.location.scenario:
        inherited = [r.scenario for r in d.related if r.scenario and r.scenario != d.location.scenario]
        also = f"; inherited by {', '.join(inherited)}" if inherited else ""
        line += f" (scenario {d.location.scenario}{also})"
    return line


def render_text(diags: list[Diagnostic]) -> str:
    """:func:`render_line` for each finding, then the counts."""
    lines = [render_line(d) for d in diags]
    lines.append(summary(diags))
    return "\n".join(lines) + "\n"


def render_json(diags: list[Diagnostic]) -> str:
    tally = Tally(str(d.severity) for d in diags)
    data = {
        "diagnostics": [d.to_dict() for d in diags],
        "summary": {"total": len(diags), **{s: tally.get(s, 0) for s in ("error", "warning", "info")}},
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _rule_descriptor(rule: type[Rule]) -> dict[str, Any]:
    sections = rule.sections()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary() or rule.name},
        "fullDescription": {"text": sections.get("Why", rule.summary() or rule.name)},
        "help": {"text": rule.doc() or rule.name},
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
        "properties": {"ruleCase": rule.rule_case, "status": rule.status, "groups": list(rule.groups)},
    }


def _sarif_location(loc: Location) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": (loc.file or "").replace("\\", "/")}}
    if loc.line is not None:
        physical["region"] = {"startLine": loc.line, **({"startColumn": loc.column} if loc.column is not None else {})}
    return {"physicalLocation": physical}


def render_sarif(diags: list[Diagnostic], rules: Iterable[type[Rule]] = ()) -> str:
    """A SARIF 2.1.0 log with one run; the rules array comes from the registry."""
    descriptors = [_rule_descriptor(r) for r in rules]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    # Loader and engine codes (LOAD-*, INTERNAL-*) are not registry rules: describe them minimally.
    for d in diags:
        if d.code not in index:
            index[d.code] = len(descriptors)
            descriptors.append({"id": d.code, "shortDescription": {"text": d.code}})
    results = []
    for d in diags:
        loc = d.location
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f" [{d.rule_case}]" if d.rule_case else "")},
        }
        if loc.file:
            physical: dict[str, Any] = {"artifactLocation": {"uri": loc.file.replace("\\", "/")}}
            if loc.line is not None:
                region: dict[str, Any] = {"startLine": loc.line}
                if loc.column is not None:
                    region["startColumn"] = loc.column
                physical["region"] = region
            location: dict[str, Any] = {"physicalLocation": physical}
            if loc.path:
                location["logicalLocations"] = [{"fullyQualifiedName": loc.path}]
            result["locations"] = [location]
        related = [_sarif_location(r) | {"id": i, "message": {"text": f"inherited by scenario {r.scenario}"}}
                   for i, r in enumerate(d.related) if r.file]
        if related:
            result["relatedLocations"] = related
        props = {k: v for k, v in loc.to_dict().items() if k in ("hexes", "hexsides", "units", "turns", "scenario")}
        if d.rule_case:
            props["ruleCase"] = d.rule_case
        if d.policy:
            props["policy"] = d.policy
        if props:
            result["properties"] = props
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": "hexproof",
                                "rules": descriptors}},
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def render(diags: list[Diagnostic], fmt: str, rules: Iterable[type[Rule]] = ()) -> str:
    if fmt == "json":
        return render_json(diags)
    if fmt == "sarif":
        return render_sarif(diags, rules)
    return render_text(diags)
