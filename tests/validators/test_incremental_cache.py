"""The Validator's shared look-ups (``ctx.memo``) and the shallow variant resolve: what they
keep across runs, what makes them rebuild, and that they change no result."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO
from model.base import walk_nodes
from model.bundle import Bundle, load_bundle
from model.scenario import SpecialRule
from validators.config import Config
from validators.context import SharedCache
from validators.engine import Validator, validate_bundle

SAMPLES = ("utah-beach", "second-front-now", "killing-ground")


def _load(path: Path) -> Bundle:
    bundle = load_bundle(path).bundle
    assert bundle is not None
    return bundle


@pytest.mark.parametrize("sample", SAMPLES)
def test_shallow_resolve_equals_deep(sample: str) -> None:
    b = _load(REPO / "scenarios" / sample)
    for sid in b.scenarios:
        deep, shallow = b.resolved(sid), b.resolved(sid, deep=False)
        assert shallow.model_dump() == deep.model_dump()
        # every node still points at the file and path it came from (findings are located by them)
        assert [(n.source_file, n.source_path) for n, _ in walk_nodes(shallow)] == \
               [(n.source_file, n.source_path) for n, _ in walk_nodes(deep)]


def test_shallow_resolve_leaves_the_base_alone() -> None:
    b = _load(REPO / "scenarios" / "second-front-now")
    variants = [sid for sid, s in b.scenarios.items() if s.extends]
    assert variants
    before = {sid: s.model_dump() for sid, s in b.scenarios.items()}
    for sid in variants:
        b.resolved(sid, deep=False)
    assert {sid: s.model_dump() for sid, s in b.scenarios.items()} == before


def test_memo_survives_scenario_edits_and_clears_on_bundle_edits() -> None:
    b = _load(REPO / "scenarios" / "utah-beach")
    v = Validator(b, Config(preview=True))
    v.run()
    built = v.shared.builds
    assert built > 0 and len(v.shared) > 0
    sid = next(s for s, sc in b.scenarios.items() if sc.setup)
    b.scenarios[sid].setup[0].note = "an edit"
    v.invalidate([sid])
    v.run()
    assert v.shared.builds == built  # rulebook index, counter indexes, parsed files… all reused
    v.invalidate()  # the whole bundle changed
    assert len(v.shared) == 0
    v.run()
    assert v.shared.builds > built


def test_rulebook_index_follows_the_game_file() -> None:
    """CORE-REF-008's index is keyed by the rulebook's content, so even a run that (wrongly)
    reruns only the scenario sees the new index."""
    b = _load(REPO / "scenarios" / "utah-beach")
    rb = b.game.rulebook
    assert rb is not None and rb.cases and "42.42" not in rb.cases
    sid = next(iter(b.scenarios))
    scen = b.scenarios[sid]
    scen.special_rules = [*scen.special_rules, SpecialRule(id="probe", text="t", refs=["42.42"])]
    v = Validator(b, Config(preview=True))
    missing = [d for d in v.run() if d.code == "CORE-REF-008" and "'42.42'" in d.message]
    assert missing and missing[0].location.scenario == sid
    rb.cases = {**rb.cases, "42.42": "A New Case"}
    v.invalidate([sid])
    assert not [d for d in v.run() if d.code == "CORE-REF-008" and "'42.42'" in d.message]


def test_hex_syntax_reparses_a_changed_file(tmp_path: Path) -> None:
    root = tmp_path / "utah-beach"
    shutil.copytree(REPO / "scenarios" / "utah-beach", root)
    b = _load(root)
    v = Validator(b, Config(preview=True))
    assert not [d for d in v.run() if d.code == "GTS-HEX-001"]
    sid = "night-drop"
    path = root / b.files[f"scenario:{sid}"]
    text = path.read_text(encoding="utf-8")
    assert "'32.028'" in text
    path.write_text(text.replace("'32.028'", "'32.28'", 1), encoding="utf-8")
    v.invalidate([sid])  # a scenario edit: the memo is not cleared, the file's bytes changed
    got = [d for d in v.run() if d.code == "GTS-HEX-001"]
    assert len(got) == 1 and "'32.28'" in got[0].message
    assert got[0].location.file is not None and got[0].location.line is not None
    assert v.run() == validate_bundle(b, Config(preview=True))


def test_base_edit_reruns_its_variants_only() -> None:
    b = _load(REPO / "scenarios" / "second-front-now")
    v = Validator(b, Config(preview=True))
    v.run()
    per_scenario = sum(1 for r in v.active_rules() if r.scope == "scenario")
    base = next(sid for sid, s in b.scenarios.items()
                if not s.extends and any(o.extends == sid for o in b.scenarios.values()))
    family = {base}
    while grown := {sid for sid, s in b.scenarios.items() if s.extends in family} - family:
        family |= grown  # variants of variants too
    assert len(family) < len(b.scenarios)  # some scenario is not affected
    before = v.runs
    v.invalidate([base], bundle=False)
    v.run()
    assert v.runs - before == per_scenario * len(family)
    lone = next(sid for sid in b.scenarios if sid not in family)
    before = v.runs
    v.invalidate([lone], bundle=False)
    v.run()
    assert v.runs - before == per_scenario


def test_shared_cache_keys_owner_and_content() -> None:
    cache = SharedCache()
    a, b = [1], [1]  # equal content, different owners
    assert cache.get("n", lambda: "A", owner=a, key=1) == "A"
    assert cache.get("n", lambda: "other", owner=a, key=1) == "A"  # a hit
    assert cache.get("n", lambda: "B", owner=b, key=1) == "B"  # identity, not equality
    assert cache.get("n", lambda: "A2", owner=a, key=2) == "A2"  # the key changed: rebuilt
    assert cache.builds == 3
    owners = [[i] for i in range(10)]  # snapshots: only the latest few owners are kept
    for o in owners:
        cache.get("n", lambda: 0, owner=o)
    assert len(cache) == SharedCache.MAX_OWNERS
    assert cache.get("n", lambda: "again", owner=owners[0]) == "again"
