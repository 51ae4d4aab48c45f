"""Counter manifests round-trip through the stable CSV layout; bad rows are reported."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from hexproof.cli import main
from model.bundle import load_bundle
from model.formats.counter_table import export_csv, import_csv
from model.counters import Counter, CounterSide

MINI = FIXTURES / "bundles" / "mini"

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=20).map(str.strip).filter(bool)
values = st.dictionaries(st.sampled_from(["attack", "defense", "movement", "fr", "range"]),
                         st.one_of(st.integers(0, 30), st.just("unknown")), max_size=4)


@given(st.lists(st.tuples(names, values, st.one_of(st.none(), values), st.booleans()), min_size=1, max_size=8))
def test_round_trip(rows) -> None:
    counters = [Counter(id=f"c{i}", name=name, side="allied", category="inf", front=CounterSide(values=front),
                        back=CounterSide(state="reduced", values=back) if back is not None else None,
                        illustrative=illus, flags=["asterisk"] if illus else [])
                for i, (name, front, back, illus) in enumerate(rows)]
    result = import_csv(export_csv(counters))
    assert result.rejected == []
    assert result.counters == counters


def test_sample_manifests_round_trip() -> None:
    for game in sorted((REPO / "scenarios").glob("*/game.yaml")) + [MINI / "game.yaml"]:
        b = load_bundle(game.parent).bundle
        if b is None:
            continue  # that a sample loads at all is tests/scenarios/test_samples_clean.py's job
        again = import_csv(export_csv(b.counters, b.system))
        assert again.rejected == [] and again.counters == b.counters, game


def test_rejected_rows_are_reported() -> None:
    text = ("Unit,id,side,category,front.attack\n"
            "1st Inf,a1,allied,inf,3\n"
            ",a2,allied,inf,3\n"          # no name
            "3rd Inf,a1,allied,inf,3\n"   # duplicate id
            "4th Inf,a4,allied\n")        # short row
    result = import_csv(text, {"Unit": "name"})
    assert [c.id for c in result.counters] == ["a1"]
    assert [(r.row, r.reason.split(":")[0]) for r in result.rejected] == [
        (3, "missing name"), (4, "duplicate id 'a1'"), (5, "has 3 cells, the header has 5")]


def test_cli_export_import(tmp_path: Path, capsys) -> None:
    root = tmp_path / "b"
    shutil.copytree(MINI, root)
    out = tmp_path / "c.csv"
    assert main(["counters", "export", str(root), "--output", str(out)]) == 0
    text = out.read_text()
    assert text.splitlines()[0].startswith("id,name,side,category")
    out.write_text(text.replace("1st Inf", "1st Infantry"))
    assert main(["counters", "import", str(root), str(out)]) == 0
    b = load_bundle(root).bundle
    assert b is not None and b.counter_index()["a1"].name == "1st Infantry"
