"""Counter and scenario edits for authoring (model/counter_edits.py, model/scenario_crud.py):
typed cells give located findings, a counter id renames everywhere it is referenced, and the
laws hold — apply then undo is the identity, rename a→b→a is the identity, and a save after
an edit changes only the edited files and lines."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from model.bundle import Bundle, load_bundle
from model.counter_edits import (add_back, add_counter, counter_references, delete_counters, duplicate_counter,
                                 new_counter, preview_rename, remove_back, rename_counter, set_counter_field)
from model.scenario_crud import (delete_scenario, duplicate_scenario, free_scenario_id, new_scenario, new_variant,
                                 rename_scenario, retitle_scenario, scenario_dependents)
from validators.engine import validate_bundle

SFN = REPO / "scenarios" / "second-front-now"
SAMPLES = sorted(p.parent for p in (REPO / "scenarios").glob("*/game.yaml"))


def _load(root: Path) -> Bundle:
    result = load_bundle(root)
    assert result.bundle is not None
    return result.bundle


def _copy(src: Path, tmp_path: Path) -> Path:
    root = tmp_path / src.name
    shutil.copytree(src, root)
    return root


def _state(bundle: Bundle) -> tuple[Any, ...]:
    """Everything a save writes, and the tables it is written from."""
    return (bundle.texts(), list(bundle.scenarios), dict(bundle.files), [c.id for c in bundle.counters])


# --- typed fields ---------------------------------------------------------------------------------------

def test_bad_cells_give_located_findings_and_change_nothing() -> None:
    b = _load(SFN)
    c = b.counters[3]
    before = _state(b)
    cases = {("side", "martians"): "side: 'martians' is not a side of Second Front Now (allied, german)",
             ("steps", "x"): "steps: 'x' is not a whole number",
             ("front.attack", "abc"): "front.attack: 'abc' is not a number or the word 'unknown'",
             ("name", ""): "name cannot be empty: every counter has one",
             ("category", "dragoons"): "category: 'dragoons' is not a unit category of Second Front Now",
             ("parent", "nobody"): "parent: 'nobody' is not a counter id"}
    for (column, text), message in cases.items():
        result = set_counter_field(b, c, column, text)
        assert not result.ok and result.undo is None
        assert result.finding is not None and result.finding.message.startswith(message)
        loc = result.finding.location
        # At the cell's own key where the file has one (side: on line 42), else at the counter.
        path = ("front", "values", "attack") if column == "front.attack" else (column,)
        assert loc.file is not None and loc.file.endswith("counters.yaml"), column
        assert (loc.line, loc.column) == (b.locate(c, *path).line, b.locate(c, *path).column), column
        assert _block(b, c)[0] <= loc.line < _block(b, c)[1]
        assert result.finding.code == "CORE-UNIT-003" and loc.units == (c.id,)
    assert b.locate(c, "side").line == 42 and b.locate(c, "steps").line == 45  # pinned: the sample's lines
    assert _state(b) == before


def _block(b: Bundle, c: Any) -> tuple[int, int]:
    """The lines of counter ``c`` in the loaded manifest: [its first line, the next counter's)."""
    i = b.counters.index(c)
    start = b.locate(c).line
    end = b.locate(b.counters[i + 1]).line if i + 1 < len(b.counters) else 1 << 30
    assert start is not None and end is not None
    return start, end



def test_good_cells_are_typed_and_undo_exactly() -> None:
    b = _load(SFN)
    c = b.counters[3]
    before = _state(b)
    undos = []
    for column, text, check in (("front.attack", "7", lambda: c.front.values["attack"] == 7),
                                ("front.defense", "unknown", lambda: c.front.values["defense"] == "unknown"),
                                ("front.setup", "", lambda: "setup" not in c.front.values),
                                ("steps", "3", lambda: c.steps == 3),
                                ("side", "german", lambda: c.side == "german"),
                                ("flags", "a; b", lambda: c.flags == ["a", "b"]),
                                ("note", "typed", lambda: c.note == "typed"),
                                ("illustrative", "yes", lambda: c.illustrative is True)):
        result = set_counter_field(b, c, column, text)
        assert result.ok, result.finding
        if result.undo is not None:
            undos.append(result.undo)
        assert check(), column
    no_back = set_counter_field(b, c, "back.attack", "2")
    assert no_back.finding is not None and no_back.finding.message == f"{c.id} has no back side; add one first"
    back = add_back(c, "reduced")
    assert set_counter_field(b, c, "back.attack", "2").ok and c.back is not None and c.back.values == {"attack": 2}
    for u in reversed(undos):
        u.undo()
    # the back's own value edit is undone with the back
    remove = remove_back(c)
    assert c.back is None
    remove.undo()
    back.undo()
    assert _state(b)[0] == before[0]


# --- rename a counter id everywhere ---------------------------------------------------------------------

def _raw_mentions(root: Path, bundle: Bundle, text: str) -> int:
    """An independent count: string values equal to ``text`` in the scenario files' raw YAML,
    and counters' ``parent`` (keys and the counters' own ids are not references)."""
    count = 0

    def walk(x: Any) -> None:
        nonlocal count
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif x == text:
            count += 1

    for key, rel in bundle.files.items():
        if key.startswith("scenario:"):
            walk(yaml.safe_load((root / rel).read_text(encoding="utf-8")))
    manifest = yaml.safe_load((root / (bundle.game.counters or "counters.yaml")).read_text(encoding="utf-8"))
    count += sum(1 for c in manifest.get("counters", []) if c.get("parent") == text)
    return count


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_rename_preview_counts_every_reference_and_the_rename_changes_them_all(sample: Path, tmp_path: Path) -> None:
    root = _copy(sample, tmp_path)
    b = _load(root)
    errors_before = sorted(d.code for d in validate_bundle(b) if d.severity >= d.severity.ERROR)
    # Counters a system file names (SFN's airdrop divisions) would lose those references, which
    # the preview lists as outside the bundle: tested below, left out here.
    counted = {c.id: _raw_mentions(root, b, c.id) for c in b.counters if not preview_rename(b, c.id, "zz").outside}
    busiest = sorted(counted, key=lambda cid: (-counted[cid], cid))[:3]
    assert counted[busiest[0]] > 0
    for cid in busiest:
        preview = preview_rename(b, cid, f"{cid}-renamed")
        assert preview.ok, preview.problems
        assert preview.count == counted[cid] == len(counter_references(b, cid)), cid
        rename_counter(b, cid, f"{cid}-renamed")
    b.save()
    again = _load(root)
    for cid in busiest:
        assert _raw_mentions(root, again, cid) == 0
        assert _raw_mentions(root, again, f"{cid}-renamed") == counted[cid]
    assert sorted(d.code for d in validate_bundle(again) if d.severity >= d.severity.ERROR) == errors_before


def test_rename_lists_system_references_it_cannot_change_and_refuses_collisions() -> None:
    b = _load(SFN)
    preview = preview_rename(b, "uk-6-ab", "uk-6th-airborne")
    assert preview.ok and {r.kind for r in preview.references} >= {"setup", "params"}
    assert preview.outside == ["system sfn: params.airdrops.eligible[1] (in the system file; not changed)"]
    other = b.counters[1].id
    assert preview_rename(b, "uk-6-ab", other).problems == [f"another counter has the id {other!r}"]
    assert preview_rename(b, "uk-6-ab", " x").problems == ["a counter id cannot be empty or start or end with spaces"]
    assert preview_rename(b, "nobody", "x").problems == ["no counter has the id 'nobody'"]
    # A text already written where a counter id can be (a unit named by its name, a params
    # value such as invasion_area: calais) would be captured by the new id.
    assert preview_rename(b, "uk-6-ab", "calais").problems[0].startswith("2 reference(s) already read 'calais'")
    with pytest.raises(ValueError, match="another counter"):
        rename_counter(b, "uk-6-ab", other)


# --- scenarios ------------------------------------------------------------------------------------------

def test_scenario_crud_saves_loads_and_asks_before_deleting_a_base(tmp_path: Path) -> None:
    root = _copy(SFN, tmp_path)
    b = _load(root)
    new_scenario(b, "fresh", "Fresh start", turns=(1, 80))
    new_variant(b, "fresh", "fresh-v", "Fresh, varied")
    new_variant(b, "fresh-v", "fresh-vv", "Fresh, varied twice")
    duplicate_scenario(b, "calais-landing", "calais-copy")
    rename_scenario(b, "fresh", "fresh-1")
    retitle_scenario(b, "fresh-1", "Fresh start, renamed")
    assert scenario_dependents(b, "fresh-1") == ["fresh-v", "fresh-vv"]
    with pytest.raises(ValueError, match="extended by fresh-v, fresh-vv"):
        delete_scenario(b, "fresh-1")
    b.save()
    again = _load(root)
    assert again.scenarios["fresh-v"].extends == "fresh-1" and again.scenarios["fresh-1"].name == "Fresh start, renamed"
    assert again.resolved("calais-copy").setup == again.resolved("calais-landing").setup
    assert again.game.scenarios[-1] == "scenarios/calais-copy.yaml" or "scenarios/calais-copy.yaml" in again.game.scenarios
    deleted = delete_scenario(again, "fresh-1", with_dependents=True)
    assert deleted.removed == ["fresh-1", "fresh-v", "fresh-vv"]
    assert deleted.unlisted_files == ["scenarios/fresh.yaml", "scenarios/fresh-v.yaml", "scenarios/fresh-vv.yaml"]
    again.save()
    final = _load(root)
    assert "fresh-1" not in final.scenarios and (root / "scenarios" / "fresh.yaml").exists()  # file kept
    assert load_bundle(root).ok


def test_the_last_scenario_of_a_globbing_bundle_is_not_deleted(tmp_path: Path) -> None:
    from model.new_bundle import BundlePlan, create_bundle, default_sheets, load_plan_system

    system = load_plan_system("gts-utah")
    folder = tmp_path / "g"
    create_bundle(BundlePlan(folder, "G", "gts-utah", default_sheets(system, 4, 4)))
    b = _load(folder)
    with pytest.raises(ValueError, match="last scenario"):
        delete_scenario(b, "scenario-1")
    new_variant(b, "scenario-1", "v", "V")
    with pytest.raises(ValueError, match="extended by v"):
        delete_scenario(b, "scenario-1")


# --- laws -----------------------------------------------------------------------------------------------

OPS = st.lists(st.tuples(st.sampled_from(["add", "dup", "del", "set", "back+", "back-", "rename", "scen", "variant",
                                          "dup_scen", "rename_scen", "retitle", "del_scen"]),
                         st.integers(0, 200), st.integers(0, 200)), min_size=1, max_size=6)
COLUMNS = [("name", "Renamed"), ("side", "german"), ("side", "martians"), ("steps", "4"), ("steps", "x"),
           ("front.attack", "9"), ("front.attack", "abc"), ("front.defense", ""), ("note", "n"), ("flags", "p;q"),
           ("back.state", "cadre"), ("category", "armor")]


def _apply(b: Bundle, op: tuple[str, int, int]) -> Any:
    """Do ``op`` on ``b``; returns its undo, or None when it does not apply now."""
    name, i, j = op
    counters, scenarios = b.counters, list(b.scenarios)
    c = counters[i % len(counters)] if counters else None
    sid = scenarios[i % len(scenarios)] if scenarios else None
    if name == "add":
        return add_counter(b, new_counter(b), index=j % (len(counters) + 1))
    if c is None or sid is None:
        return None
    if name == "dup":
        return duplicate_counter(b, c.id)[0]
    if name == "del":
        return delete_counters(b, [c.id])
    if name == "set":
        column, text = COLUMNS[j % len(COLUMNS)]
        return set_counter_field(b, c, column, text).undo
    if name == "back+":
        return add_back(c, "reduced") if c.back is None else None
    if name == "back-":
        return remove_back(c) if c.back is not None else None
    if name == "rename":
        preview = preview_rename(b, c.id, f"r{j}-{c.id}")
        return rename_counter(b, c.id, f"r{j}-{c.id}") if preview.ok else None
    if name == "scen":
        return new_scenario(b, free_scenario_id(b, f"s{j}"), f"S{j}")
    if name == "variant":
        return new_variant(b, sid, free_scenario_id(b, f"{sid}-v"), "V")
    if name == "dup_scen":
        return duplicate_scenario(b, sid, free_scenario_id(b, f"{sid}-copy"))
    if name == "rename_scen":
        new = free_scenario_id(b, f"{sid}-r{j}")
        return rename_scenario(b, sid, new)
    if name == "retitle":
        return retitle_scenario(b, sid, f"Title {j}")
    if name == "del_scen":
        if scenario_dependents(b, sid) or len(scenarios) == 1:
            return None
        return delete_scenario(b, sid).undo
    raise AssertionError(name)


@settings(max_examples=40)
@given(OPS)
def test_apply_then_undo_is_the_identity(ops: list[tuple[str, int, int]]) -> None:
    b = _load(SFN)
    before = _state(b)
    undos = [u for u in (_apply(b, op) for op in ops) if u is not None]
    for u in reversed(undos):
        u.undo()
    assert _state(b) == before
    assert b.pending_texts() == {}  # a save now writes nothing


@settings(max_examples=40)
@given(st.integers(0, 200), st.text("abcxyz-", min_size=1, max_size=6))
def test_rename_there_and_back_is_the_identity(i: int, suffix: str) -> None:
    b = _load(SFN)
    before = _state(b)
    old = b.counters[i % len(b.counters)].id
    new = f"{old}{suffix}"
    if not preview_rename(b, old, new).ok:
        return
    rename_counter(b, old, new)
    assert _state(b) != before
    rename_counter(b, new, old)
    assert _state(b) == before and b.pending_texts() == {}


def _changed_lines(old: str, new: str) -> set[int]:
    """1-based numbers of the old text's lines that a save replaced or deleted, and for an
    insertion the old line it follows (so a key added after an entry's last line counts as
    that entry's; 0 is the top of the file)."""
    out: set[int] = set()
    for tag, a1, a2, _, _ in difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(),
                                                    autojunk=False).get_opcodes():
        if tag == "insert":
            out.add(a1)
        elif tag != "equal":
            out.update(range(a1 + 1, a2 + 1))
    return out


@settings(max_examples=25)
@given(st.integers(0, 200), st.sampled_from(COLUMNS))
def test_a_save_after_a_field_edit_changes_only_that_counters_lines(i: int, cell: tuple[str, str]) -> None:
    b = _load(SFN)
    c = b.counters[i % len(b.counters)]
    start, end = _block(b, c)
    result = set_counter_field(b, c, *cell)
    pending = b.pending_texts()
    if result.undo is None:
        assert pending == {}
        return
    assert set(pending) == {"counters.yaml"}
    old = (SFN / "counters.yaml").read_text(encoding="utf-8")
    changed = _changed_lines(old, pending["counters.yaml"])
    assert changed and all(start <= n < end for n in changed), (c.id, cell, sorted(changed), start, end)
    # a value that replaces one (not one added where the key was absent) changes its line alone
    key = cell[0].split(".")[-1]
    field_line = b.locate(c, *(["front", "values", key] if cell[0].startswith("front.") else [cell[0]])).line
    written = b.locate(c, *(["front", "values", key] if cell[0].startswith("front.") else [cell[0]])).path
    if cell[1] and field_line != start and written is not None and field_line is not None:
        assert field_line in changed


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_a_save_after_a_rename_changes_only_the_lines_with_references(sample: Path) -> None:
    b = _load(sample)
    cid = max(b.counters, key=lambda c: (len(counter_references(b, c.id)), c.id)).id
    refs = counter_references(b, cid)
    expected: dict[str, set[int]] = {}
    for ref in refs:
        loc = ref.location(b)
        assert loc.file is not None and loc.line is not None
        rel = str(Path(loc.file).resolve().relative_to(sample.resolve()))
        expected.setdefault(rel, set()).add(loc.line)
    counters_rel = b.game.counters or "counters.yaml"
    expected.setdefault(counters_rel, set()).add(b.locate(next(c for c in b.counters if c.id == cid)).line)
    rename_counter(b, cid, f"{cid}-x")
    pending = b.pending_texts()
    assert set(pending) == set(expected)
    for rel, text in pending.items():
        assert _changed_lines((sample / rel).read_text(encoding="utf-8"), text) == expected[rel], rel


def test_a_save_after_scenario_edits_changes_only_their_files_and_lines() -> None:
    b = _load(SFN)
    retitle_scenario(b, "dieppe-landing", "Dieppe, retitled")
    pending = b.pending_texts()
    assert set(pending) == {"scenarios/dieppe-landing.yaml"}
    old = (SFN / "scenarios" / "dieppe-landing.yaml").read_text(encoding="utf-8")
    assert _changed_lines(old, pending["scenarios/dieppe-landing.yaml"]) == {b.locate(b.scenarios["dieppe-landing"], "name").line}
    b = _load(SFN)
    new_variant(b, "calais-landing", "calais-night", "Calais by night")
    pending = b.pending_texts()
    assert set(pending) == {"game.yaml", "scenarios/calais-night.yaml"}
    old_game = (SFN / "game.yaml").read_text(encoding="utf-8")
    changed = _changed_lines(old_game, pending["game.yaml"])
    assert changed == {b.locate(b.game, "scenarios").line}  # the flow list gains one item, on its line
    assert pending["scenarios/calais-night.yaml"] == ("schema_version: 1\nid: calais-night\nname: Calais by night\n"
                                                      "extends: calais-landing\n")
    b = _load(SFN)
    rename_scenario(b, "calais-landing", "calais")
    pending = b.pending_texts()
    extending = [sid for sid, s in b.scenarios.items() if s.extends == "calais"]
    assert extending and set(pending) == {"game.yaml", "scenarios/calais-landing.yaml",
                                          *(b.files[f"scenario:{sid}"] for sid in extending)}
    for rel, text in pending.items():
        assert len(_changed_lines((SFN / rel).read_text(encoding="utf-8"), text)) == 1, rel
