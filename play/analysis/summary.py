"""The distributions of a Monte-Carlo run, per kind of step, per group and per zone.

:func:`summarise` takes the seeds' outcomes (any order: they are sorted by seed first) and
gives plain data (the JSON report); :func:`render_text` the text table. Per seed and per
group (a battalion) or zone, it counts the counted units that end in the zone they aimed for,
outside it on the map, in a box (named by the bundle's box name), eliminated or withdrawn, the
steps they lost, and how many had each event type the steps emitted (``drift``,
``straggler_box`` …: the plug-in's own events, read from the log); then each count's mean and
5th/95th percentiles over the seeds. Drift distances are pooled over every unit that drifted.
The hexes landed on are counted over all seeds (the heatmap). A table roll a step tallies (the
Random Events table) gives, per result, the times a seed rolled it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import Any, Iterable, Sequence

from play.analysis.plan import NotAnalysed
from play.analysis.stats import CI_POLICY, dist, paired_difference, signed_with_ci
from play.analysis.trial import (ELIMINATED, IN_BOX, IN_ZONE, OFF_ZONE, WITHDRAWN, SeedOutcome, UnitOutcome,
                                 turn_label_of, turn_order)

COUNTS = ("units", IN_ZONE, "share_in_zone", OFF_ZONE, IN_BOX, ELIMINATED, WITHDRAWN, "steps_lost")
TITLES = {"units": "units", IN_ZONE: "in zone", "share_in_zone": "share in zone", OFF_ZONE: "off zone",
          IN_BOX: "in a box", ELIMINATED: "eliminated", WITHDRAWN: "withdrawn", "steps_lost": "steps lost"}


def _per_seed(units: Sequence[UnitOutcome], events: Iterable[str]) -> dict[str, float]:
    n = len(units)
    row: dict[str, float] = {"units": n}
    for status in (IN_ZONE, OFF_ZONE, IN_BOX, ELIMINATED, WITHDRAWN):
        row[status] = sum(1 for u in units if u.status == status)
    row["share_in_zone"] = row[IN_ZONE] / n if n else 0.0
    row["steps_lost"] = sum(u.steps_lost for u in units)
    for ev in events:
        row[f"event:{ev}"] = sum(1 for u in units if ev in u.events)
    return row


def metric_series(outcomes: Sequence[SeedOutcome], kind: str, key: str, value: str) -> dict[str, list[float]]:
    """For each group (``key="group"``) or zone (``key="zone"``) of ``kind``: the per-seed
    values of count ``value``, in seed order."""
    ordered = sorted(outcomes, key=lambda o: o.seed)
    events = sorted({e for o in ordered for u in o.units if u.kind == kind for e in u.events})
    names = sorted({str(getattr(u, key)) for o in ordered for u in o.units if u.kind == kind})
    out: dict[str, list[float]] = {}
    for name in names:
        out[name] = [_per_seed([u for u in o.units if u.kind == kind and str(getattr(u, key)) == name], events)
                     .get(value, 0.0) for o in ordered]
    return out


def summarise(outcomes: Sequence[SeedOutcome], *, box_names: dict[str, str] | None = None,
              zone_names: dict[str, str] | None = None, gaps: Sequence[NotAnalysed] = ()) -> dict[str, Any]:
    """The report: per kind of step, per group / zone (/ turn), each count's distribution over
    the seeds; the levels by turn; and ``not_analysed``, the procedures the plug-in could not
    play (``gaps``, :func:`play.analysis.trial.gaps_for`), each with its rule and why."""
    ordered = sorted(outcomes, key=lambda o: o.seed)
    kinds = sorted({u.kind for o in ordered for u in o.units} | {s.kind for o in ordered for s in o.steps})
    report: dict[str, Any] = {"seeds": {"count": len(ordered), "first": ordered[0].seed if ordered else None,
                                        "last": ordered[-1].seed if ordered else None},
                              "percentiles": "5th and 95th, linear interpolation", "kinds": {}}
    for kind in kinds:
        events = sorted({e for o in ordered for u in o.units if u.kind == kind for e in u.events})
        block: dict[str, Any] = {"events": events}
        by_turn = any(u.turn is not None for o in ordered for u in o.units if u.kind == kind)
        for key, label in (("group", "by_group"), ("zone", "by_zone")) + ((("turn", "by_turn"),) if by_turn else ()):
            table: dict[str, Any] = {}
            names = sorted({str(getattr(u, key)) for o in ordered for u in o.units if u.kind == kind},
                           key=turn_order if key == "turn" else None)
            for name in names:
                rows = [_per_seed([u for u in o.units if u.kind == kind and str(getattr(u, key)) == name], events)
                        for o in ordered]
                keys = list(COUNTS) + [f"event:{e}" for e in events]
                entry: dict[str, Any] = {k: dist([r.get(k, 0.0) for r in rows]).to_dict() for k in keys}
                drifts = [u.drift for o in ordered for u in o.units
                          if u.kind == kind and str(getattr(u, key)) == name and u.drift is not None]
                entry["drift"] = dist(drifts).to_dict()
                entry["drift_histogram"] = {str(k): v for k, v in sorted(Counter(drifts).items())}
                if key == "zone" and zone_names and name in zone_names:
                    entry["name"] = zone_names[name]
                table[name] = entry
            block[label] = table
        boxes = Counter(u.box for o in ordered for u in o.units if u.kind == kind and u.box)
        block["boxes"] = {b: {"name": (box_names or {}).get(b, b), "unit_draws": n} for b, n in sorted(boxes.items())}
        block["results"] = dict(sorted(Counter(s.result or "-" for o in ordered for s in o.steps
                                               if s.kind == kind).items()))
        block["policies"] = sorted({s.policy for o in ordered for s in o.steps if s.kind == kind and s.policy})
        # steps whose turn the trial did not reach (a refusal on the way, or the scenario ended)
        block["not_reached"] = dict(sorted(Counter(s.message for o in ordered for s in o.steps
                                                   if s.kind == kind and s.message).items()))
        block["tables"] = _tables(ordered, kind)
        block["hexes"] = dict(sorted(Counter(u.hex for o in ordered for u in o.units
                                             if u.kind == kind and u.hex).items()))
        report["kinds"][kind] = block
    report["levels"] = _levels(ordered)
    report["not_analysed"] = [asdict(g) for g in gaps]
    return report


def _levels(ordered: Sequence[SeedOutcome]) -> dict[str, Any]:
    """Per level the plug-in reads (a beach defence track) and per turn: its distribution over
    the seeds that reached the turn, and how many of them had it unknown (None)."""
    names = sorted({name for o in ordered for _, name, _ in o.levels})
    out: dict[str, Any] = {}
    for name in names:
        turns = sorted({t for o in ordered for t, n, _ in o.levels if n == name}, key=turn_order)
        row: dict[str, Any] = {}
        for t in turns:
            vals = [v for o in ordered for tt, n, v in o.levels if n == name and tt == t]
            known = [float(v) for v in vals if v is not None]
            row[t] = {**dist(known).to_dict(), "unknown": len(vals) - len(known)}
        out[name] = row
    return out


def _tables(ordered: Sequence[SeedOutcome], kind: str) -> dict[str, Any]:
    """Per tallied event type (a table roll the plug-in names, ``RandomStep.tally``): for each
    result, how many times a seed rolled it (mean, percentiles), and how many seeds rolled none."""
    per_seed = [Counter(t for s in o.steps if s.kind == kind for t in s.tallied) for o in ordered]
    out: dict[str, Any] = {}
    for etype in sorted({t for c in per_seed for t, _ in c}):
        results = sorted({r for c in per_seed for t, r in c if t == etype})
        out[etype] = {"results": {r: dist([float(c[(etype, r)]) for c in per_seed]).to_dict() for r in results},
                      "seeds_with_none": sum(1 for c in per_seed if not any(t == etype for t, _ in c))}
    return out


def compare(a: Sequence[SeedOutcome], b: Sequence[SeedOutcome]) -> dict[str, Any]:
    """Variant B − variant A for every count of every group and zone, paired by seed."""
    sa, sb = sorted(a, key=lambda o: o.seed), sorted(b, key=lambda o: o.seed)
    if [o.seed for o in sa] != [o.seed for o in sb]:
        raise ValueError("the variants were not run on the same seeds")
    out: dict[str, Any] = {"policy": CI_POLICY, "kinds": {}}
    kinds = sorted({u.kind for o in sa + sb for u in o.units})
    for kind in kinds:
        block: dict[str, Any] = {}
        for key, label in (("group", "by_group"), ("zone", "by_zone")):
            table: dict[str, Any] = {}
            for value in COUNTS:
                ma, mb = metric_series(sa, kind, key, value), metric_series(sb, kind, key, value)
                for name in sorted(set(ma) | set(mb)):
                    xa = ma.get(name, [0.0] * len(sa))
                    xb = mb.get(name, [0.0] * len(sb))
                    table.setdefault(name, {})[value] = {"a": dist(xa).to_dict(), "b": dist(xb).to_dict(),
                                                         "b_minus_a": paired_difference(xa, xb).to_dict()}
            block[label] = table
        out["kinds"][kind] = block
    return out


def _fmt(d: dict[str, Any], digits: int = 2) -> str:
    if not d or d.get("n", 0) == 0:
        return "-"
    return f"{d['mean']:.{digits}f} [{d['p5']:.{digits}f}-{d['p95']:.{digits}f}]"


def render_text(report: dict[str, Any], *, titles: dict[str, str] | None = None) -> str:
    """The report as text tables: each figure ``mean [p5-p95]`` over the seeds."""
    s = report["seeds"]
    lines = [f"{s['count']} seeds ({s['first']}..{s['last']}); figures are mean [5th-95th percentile] per seed"]
    for kind, block in report["kinds"].items():
        lines.append("")
        lines.append(f"== {(titles or {}).get(kind, kind)} ==")
        cols = [c for c in COUNTS if c != "units"] + [f"event:{e}" for e in block["events"]] + ["drift"]
        heads = [TITLES.get(c, "#" + c.removeprefix("event:")) if c != "drift" else "drift hexes" for c in cols]
        for label, what in (("by_group", "group"), ("by_zone", "zone"), ("by_turn", "turn")):
            table = block.get(label)
            if not table:
                continue
            rows = [[f"{what}", "units"] + heads]
            for name, entry in table.items():
                shown = name + (f" ({entry['name']})" if entry.get("name") else "")
                rows.append([shown, f"{entry['units']['mean']:.0f}"] +
                            [_fmt(entry[c], 2 if c == "share_in_zone" else 1) for c in cols])
            widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
            lines.append("")
            for r in rows:
                lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
        if block["boxes"]:
            lines.append("")
            lines.append("boxes: " + ", ".join(f"{v['name']} ({b}): {v['unit_draws']} unit-draws"
                                               for b, v in block["boxes"].items()))
        if block["results"]:
            lines.append("results: " + ", ".join(f"{k} x{v}" for k, v in block["results"].items()))
        for etype, tab in block.get("tables", {}).items():
            lines.append("")
            lines.append(f"{etype}: rolls per seed, mean [5th-95th]; {tab['seeds_with_none']} seed(s) rolled none")
            width = max(len(r) for r in tab["results"])
            for r, d in tab["results"].items():
                lines.append(f"  {r.ljust(width)}  {_fmt(d)}")
        for msg, n in block.get("not_reached", {}).items():
            lines.append(f"step not played x{n}: {msg}")
        for p in block["policies"]:
            lines.append(f"policy={p}")
    if report.get("levels"):
        lines.append("")
        lines.append("== levels at the end of each turn (the last: where the trial stopped) ==")
        for name, row in report["levels"].items():
            parts = [f"{turn_label_of(t)} {_fmt(d, 1)}" + (f" ({d['unknown']} unknown)" if d["unknown"] else "")
                     for t, d in row.items()]
            lines.append(f"  {name}: " + "; ".join(parts))
    if report.get("not_analysed"):
        lines.append("")
        lines.append("== not analysed: no distribution, unknown ==")
        for g in report["not_analysed"]:
            lines.append(f"  {g['what']} [{g['rule']}]: {g['why']}")
    return "\n".join(lines) + "\n"


def _plain(v: float | None, digits: int = 2) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def render_compare_text(diff: dict[str, Any], name_a: str, name_b: str) -> str:
    lines = [f"B - A with B = {name_b}, A = {name_a}, paired by seed; [95 % CI] policy={diff['policy']}"]
    for kind, block in diff["kinds"].items():
        lines.append("")
        lines.append(f"== {kind} ==")
        for label in ("by_group", "by_zone"):
            for name, entry in block[label].items():
                parts = []
                for value in (IN_ZONE, "share_in_zone", IN_BOX, ELIMINATED, "steps_lost"):
                    e = entry.get(value)
                    if e is None:
                        continue
                    d = e["b_minus_a"]
                    parts.append(f"{TITLES[value]} {_plain(e['a']['mean'])} -> {_plain(e['b']['mean'])} "
                                 f"({signed_with_ci(d['mean'], d['ci_low'], d['ci_high'])})")
                lines.append(f"{label.removeprefix('by_')} {name}: " + "; ".join(parts))
    return "\n".join(lines) + "\n"
