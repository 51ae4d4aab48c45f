"""Citations and LOS rule cases are system data (``citations:``, ``los.cases``), not code.

The shared engine cites what the system file declares, and says "no case" where it declares
none; bad input in those blocks is reported at its file:line like the rest of the loader.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from geomkit import H, make_map
from hypothesis import given
from hypothesis import strategies as st

from model.bundle import load_system
from model.diagnostics import Diagnostic
from model.los import line_of_sight
from model.los_fast import FastLos
from model.system import NO_CASE, GameSystem, LosCases, available_systems, system_path

BOTH = "between 09.010 and 09.009, both blocking"   # the along-hexside crossing of 08.010 → 14.010
GEOM_SYSTEM = Path(__file__).resolve().parents[1] / "fixtures" / "geometry" / "system.yaml"

BASE = textwrap.dedent("""\
    schema_version: 1
    id: cites
    name: Citation test system
    short: CT
    terrain:
    - {id: clear, name: Clear, char: ., color: '#f4f1e0'}
    """)


def _system(extra: str = "") -> GameSystem:
    return GameSystem.model_validate(yaml.safe_load(BASE + textwrap.dedent(extra)))


def _load(tmp_path: Path, extra: str) -> tuple[GameSystem | None, list[Diagnostic]]:
    path = tmp_path / "system.yaml"
    path.write_text(BASE + textwrap.dedent(extra), encoding="utf-8")
    diags: list[Diagnostic] = []
    return load_system(str(path), None, diags, {}), diags


# --- cite ----------------------------------------------------------------------------------

def test_a_bare_number_gets_the_prefix_a_book_or_other_form_is_kept() -> None:
    s = _system("""\
        citations:
          books: [{prefix: Excl, name: Exclusive rules}, {prefix: Err, name: Errata}]
        """)
    assert s.citation_prefix == "CT"
    assert s.cite("15.4.1") == "CT 15.4.1"
    assert s.cite(" CT 3.4 ") == "CT 3.4"
    assert s.cite("Excl 2.2.1") == "Excl 2.2.1" and s.cite("Err 2.2.2") == "Err 2.2.2"
    assert s.cite("[7.5.3]") == "[7.5.3]" and s.cite("L28") == "L28"
    assert s.citation_books == {"CT", "Excl", "Err"}


def test_the_prefix_defaults_to_short_and_can_be_set() -> None:
    assert _system().cite("1.2") == "CT 1.2"
    assert _system("citations: {prefix: Series}\n").cite("1.2") == "Series 1.2"


def test_no_case_is_said_not_invented() -> None:
    s = _system()
    assert s.cited(None) == NO_CASE and s.cited("  ") == NO_CASE and s.cited("4.1") == "CT 4.1"


@given(st.text(st.sampled_from("0123456789. []ExclErCT()L-;,"), max_size=14))
def test_cite_is_idempotent_and_never_leaves_a_bare_number(case: str) -> None:
    s = _system("citations: {books: [{prefix: Excl, name: Exclusive rules}]}\n")
    once = s.cite(case)
    assert s.cite(once) == once
    assert not once[:1].isdigit()


# --- bad input is located -------------------------------------------------------------------

@pytest.mark.parametrize("extra,line,words", [
    ("citations:\n  books:\n  - {prefix: 2nd, name: Second edition}\n", 9, "one word"),
    ("citations:\n  books:\n  - {prefix: Utah Excl, name: Exclusive rules}\n", 9, "one word"),
    ("citations:\n  prefix: ''\n", 8, "one word"),
    ("citations:\n  books:\n  - {prefix: Excl, name: A}\n  - {prefix: Excl, name: B}\n", 8, "listed twice: Excl"),
    ("citations:\n  books:\n  - {prefix: Excl}\n", 9, "missing required key 'name'"),
    ("citations:\n  cases: {impasable: '2.1'}\n", 8, "unknown key 'impasable'"),
    ("citations:\n  bookz: []\n", 8, "unknown key 'bookz'"),
    ("los:\n  enabled: true\n  cases:\n    barage: '15.4.1'\n", 10, "unknown key 'barage'"),
    ("los:\n  crest_rule: errata\n", 8, "crest_rule"),
    ("los:\n  ranges: {day: 8}\n  range_rules: {dya: '15.4'}\n", 9, "unknown condition 'dya'"),
])
def test_bad_citation_or_case_input_is_a_located_message(tmp_path: Path, extra: str, line: int, words: str) -> None:
    system, diags = _load(tmp_path, extra)
    assert system is None
    got = [(d.code, d.location.line, d.message) for d in diags]
    assert any(code == "LOAD-SCHEMA-001" and ln == line and words in msg for code, ln, msg in got), got
    assert all(d.location.file and d.location.file.endswith("system.yaml") for d in diags)


def test_the_former_crest_rule_spelling_still_loads(tmp_path: Path) -> None:
    system, diags = _load(tmp_path, "los:\n  crest_rule: utah_errata\n")
    assert not diags and system is not None and system.los.crest_rule == "one_crossing"


# --- shipped systems cite only books they declare ---------------------------------------------

# "Excl 2.2.1", "Utah Excl 2.1.14", "TKG [7.1.1]": the first word of a reference with a number.
_OPENS_WITH_BOOK = re.compile(r"^\s*\[?([A-Za-z][\w.&'-]*)\s+(?:[A-Za-z][\w.&'-]*\s+)*[\[#]?\d")


def _references(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every rule reference of a raw system file: ``rule:`` values, ``los.cases``,
    ``los.range_rules`` and ``citations.cases`` values, ``optional_rules`` keys."""
    if isinstance(data, dict):
        for k, v in data.items():
            here = f"{path}.{k}" if path else str(k)
            if k == "rule" and isinstance(v, str):
                yield here, v
            elif k in ("cases", "range_rules") and isinstance(v, dict):
                yield from ((f"{here}.{n}", c) for n, c in v.items() if isinstance(c, str))
            elif k == "optional_rules" and isinstance(v, dict):
                yield from ((f"{here}[{n}]", str(n)) for n in v)
            else:
                yield from _references(v, here)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _references(v, f"{path}[{i}]")


@pytest.mark.parametrize("path", [system_path(s) for s in available_systems()] + [GEOM_SYSTEM],
                         ids=lambda p: p.stem if p != GEOM_SYSTEM else "geometry-fixture")
def test_every_citation_names_the_prefix_or_a_declared_book(path: Path) -> None:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    system = GameSystem.model_validate(raw)
    bad = []
    for where, ref in _references(raw):
        for part in re.split(r"[;,]\s*", ref):
            m = _OPENS_WITH_BOOK.match(part)
            if m and m.group(1) not in system.citation_books:
                bad.append(f"{path.name} {where}: {ref!r} opens with {m.group(1)!r}")
    assert not bad, "declare the book under citations.books:\n" + "\n".join(bad)


def test_the_utah_file_declares_every_los_case_and_its_engine_cases() -> None:
    s = GameSystem.model_validate(yaml.safe_load(system_path("gts-utah").read_text(encoding="utf-8")))
    assert all(getattr(s.los.cases, name) for name in LosCases.model_fields)
    assert s.citations.cases.impassable and s.citations.cases.map_art
    assert s.cite(s.los.rule or "") == "GTS 15.4" and s.los.crest_rule == "one_crossing"


# --- LOS cites what the system declares ---------------------------------------------------------

def _geom(**los: Any) -> GameSystem:
    data = yaml.safe_load(GEOM_SYSTEM.read_text(encoding="utf-8"))
    data["los"].update(los)
    return GameSystem.model_validate(data)


def test_los_cites_the_declared_cases_and_follows_the_data() -> None:
    m = make_map(terrain={"09.009": "W", "09.010": "T"})
    r = line_of_sight(m, _geom(), H(m, "08.010"), H(m, "14.010"), barrage={H(m, "12.010")})
    rules = {(c.kind, c.feature): c.rule for c in r.crossings}
    assert rules[("hex", "barrage")] == "GTS 15.4.1"
    assert rules[("along", BOTH)] == "GTS 15.4.1 (INFERRED)"
    renamed = _geom(cases={"barrage": "99.1", "along_hexside": "Err 7.7"}, rule="98.2")
    r2 = line_of_sight(m, renamed, H(m, "08.010"), H(m, "14.010"), barrage={H(m, "12.010")})
    rules2 = {(c.kind, c.feature): c.rule for c in r2.crossings}
    assert rules2[("hex", "barrage")] == "GTS 99.1"
    assert rules2[("along", BOTH)] == "Err 7.7 (INFERRED)"
    assert rules2[("hex", "clear")] == "GTS 98.2"


def test_los_says_no_case_where_the_system_declares_none() -> None:
    bare = _geom(cases={}, rule=None)
    m = make_map(terrain={"09.009": "W", "09.010": "T"}, hexsides={"crest": ["11.008/S", "11.012/S"]})
    r = line_of_sight(m, bare, H(m, "08.010"), H(m, "14.010"), barrage={H(m, "12.010")})
    rules = {(c.kind, c.feature): c.rule for c in r.crossings}
    assert rules[("hex", "barrage")] == NO_CASE and rules[("hex", "clear")] == NO_CASE
    assert rules[("along", BOTH)] == f"{NO_CASE} (INFERRED)"
    # Two crests, each beside an end: the second blocks and says which rule it lacks.
    two = line_of_sight(m, bare, H(m, "11.008"), H(m, "11.013"))
    assert not two.visible and two.first_blocker is not None
    assert two.first_blocker.rule.endswith(f"(only one crest/ridge may be crossed, {NO_CASE})")
    assert f"[{NO_CASE}]" in r.explain()
    # The fast path explains with the same evaluator.
    fast = FastLos(m, bare).query(H(m, "08.010"), H(m, "14.010"), barrage={H(m, "12.010")})
    assert [c.rule for c in fast.crossings] == [c.rule for c in r.crossings]
