"""Saves change only what was edited (issue #14, model/formats/yamlpatch.py + Bundle.save).

* load then save with no edit leaves every file of every sample and fixture bundle untouched;
* painting 4 hexes changes at most 4 lines, all in the map file;
* moving one setup entry changes only that entry's lines; an added object is written in the
  canonical style next to its siblings; comments, quoting and numbers as written stay;
* random edit sequences (hypothesis), saved and reloaded, give the edited model back, and the
  changed lines all belong to the files whose data changed.
"""

from __future__ import annotations

import difflib
import os
import shutil
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, REPO
from model.bundle import Bundle, load_bundle
from model.counters import CounterSide
from model.edits import place_feature, remove_feature, set_hexside, set_terrain
from model.mapdata import Feature
from model.scenario import DropZone, ScheduleEntry
from model.base import hexside_key
from model.scenario_edits import (add_drop_zone, add_schedule_entry, place_unit, remove_schedule_entry, remove_unit,
                                  set_zone_hexes)

SAMPLES = sorted(p for p in (REPO / "scenarios").iterdir() if (p / "game.yaml").is_file())
FIXTURE_BUNDLES = sorted(p.parent for p in FIXTURES.rglob("game.yaml")
                         if "bad" not in p.parts and "broken" not in p.parts)


def _copy(src: Path, tmp: Path) -> Path:
    """A copy of the bundle; with its parent folder when it names a system file beside it."""
    if "../" in (src / "game.yaml").read_text(encoding="utf-8"):
        shutil.copytree(src.parent, tmp / src.parent.name, symlinks=True)
        return tmp / src.parent.name / src.name
    dest = tmp / src.name
    shutil.copytree(src, dest, symlinks=True)
    return dest


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _load(root: Path) -> Bundle:
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    return result.bundle


def _changed_lines(before: bytes, after: bytes) -> list[str]:
    diff = difflib.unified_diff(before.decode().splitlines(), after.decode().splitlines(), lineterm="", n=0)
    return [ln for ln in diff if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


@pytest.mark.parametrize("src", SAMPLES + FIXTURE_BUNDLES, ids=lambda p: str(p.relative_to(REPO)))
def test_noop_save_is_byte_identical(src: Path, tmp_path: Path) -> None:
    root = _copy(src, tmp_path)
    before = _files(root)
    bundle = _load(root)
    assert bundle.save() == []
    assert _files(root) == before
    # Saving into another folder copies the texts exactly too (autosave, Save As).
    other = tmp_path / "copy"
    bundle.save(other)
    for rel, data in _files(other).items():
        assert data == before[rel], rel


@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: p.name)
def test_painting_four_hexes_changes_at_most_four_lines_of_the_map(src: Path, tmp_path: Path) -> None:
    root = _copy(src, tmp_path)
    before = _files(root)
    bundle = _load(root)
    hmap = bundle.default_map
    hexes = sorted(hmap.hexes())[:: max(1, len(hmap.hexes()) // 5)][:4]
    assert len(hexes) == 4
    types = [t.id for t in bundle.system.terrain]
    changes = {h: next(t for t in types if t != hmap.terrain_at(h)) for h in hexes}
    set_terrain(hmap, changes, bundle.system)
    written = bundle.save()
    map_rel = bundle.files[f"map:{hmap.id}"]
    assert [str(p.relative_to(root.resolve())) for p in written] == [map_rel]
    after = _files(root)
    assert {rel for rel in after if after[rel] != before[rel]} == {map_rel}
    removed = [ln for ln in _changed_lines(before[map_rel], after[map_rel]) if ln.startswith("-")]
    assert 1 <= len(removed) <= 4
    assert bundle.last_save_fallbacks == []
    reloaded = _load(root).default_map
    assert all(reloaded.terrain_at(h) == t for h, t in changes.items())


def test_moving_one_setup_entry_changes_only_its_lines(tmp_path: Path) -> None:
    root = _copy(REPO / "scenarios" / "utah-beach", tmp_path)
    before = _files(root)
    bundle = _load(root)
    scen = bundle.scenarios["beach-landing"]
    entry = next(e for e in scen.setup if e.hex is not None)
    target = next(h for h in bundle.default_map.hexes() if h != entry.hex)
    place_unit(scen, entry.unit, "hex", target)
    bundle.save()
    rel = bundle.files["scenario:beach-landing"]
    after = _files(root)
    assert {r for r in after if after[r] != before[r]} == {rel}
    changed = _changed_lines(before[rel], after[rel])
    label = bundle.default_map.label(target)
    assert len(changed) == 2 and label in changed[1], changed
    assert bundle.last_save_fallbacks == []


def test_comments_quoting_and_numbers_stay(tmp_path: Path) -> None:
    """The Utah game.yaml is full of comments, flow mappings and quoted rule cases: renaming
    the game changes its one line and nothing else."""
    root = _copy(REPO / "scenarios" / "utah-beach", tmp_path)
    before = (root / "game.yaml").read_text(encoding="utf-8")
    bundle = _load(root)
    bundle.game.name = "The Greatest Day: Utah Beach (second printing)"
    bundle.save()
    after = (root / "game.yaml").read_text(encoding="utf-8")
    changed = _changed_lines(before.encode(), after.encode())
    assert changed == [f"-name: {_line(before, 'name:')}", "+name: 'The Greatest Day: Utah Beach (second printing)'"]
    assert after.count("#") == before.count("#")


def _line(text: str, prefix: str) -> str:
    return next(ln for ln in text.splitlines() if ln.startswith(prefix))[len(prefix):].strip()


def test_an_added_setup_entry_is_written_canonically_beside_its_siblings(tmp_path: Path) -> None:
    root = _copy(REPO / "scenarios" / "second-front-now", tmp_path)
    bundle = _load(root)
    sid = next(s for s, sc in bundle.scenarios.items() if sc.setup and not sc.extends)
    scen = bundle.scenarios[sid]
    placed = {e.unit for e in scen.setup}
    unit = next(c.id for c in bundle.counters if c.id not in placed)
    rel = bundle.files[f"scenario:{sid}"]
    before = (root / rel).read_bytes()
    h = next(iter(bundle.default_map.hexes()))
    place_unit(scen, unit, "hex", h)
    bundle.save()
    after = (root / rel).read_bytes()
    changed = _changed_lines(before, after)
    assert all(ln.startswith("+") for ln in changed) and len(changed) == 2, changed
    assert f"unit: {unit}" in changed[0]
    # Beside its siblings: right after the last setup entry, its dash at theirs.
    lines = after.decode().splitlines()
    at = lines.index(changed[0][1:])
    sibling_dash = next(ln for ln in reversed(lines[:at]) if ln.lstrip().startswith("- ") and "unit:" in ln)
    assert changed[0][1:].index("-") == sibling_dash.index("-")
    assert all(ln.startswith((" ", "-")) for ln in lines[lines.index(sibling_dash):at])
    assert bundle.last_save_fallbacks == []
    reloaded = _load(root).scenarios[sid]
    assert any(e.unit == unit and e.hex == h for e in reloaded.setup)


def test_removing_a_setup_entry_takes_only_its_lines(tmp_path: Path) -> None:
    root = _copy(REPO / "scenarios" / "utah-beach", tmp_path)
    bundle = _load(root)
    scen = bundle.scenarios["night-drop"]
    unit = scen.setup[len(scen.setup) // 2].unit
    rel = bundle.files["scenario:night-drop"]
    before = (root / rel).read_bytes()
    remove_unit(scen, unit)
    bundle.save()
    changed = _changed_lines(before, (root / rel).read_bytes())
    assert changed and all(ln.startswith("-") for ln in changed)
    assert any(unit in ln for ln in changed)
    assert unit not in {e.unit for e in _load(root).scenarios["night-drop"].setup}


def test_file_modes_are_kept_and_new_files_get_the_umask_default(tmp_path: Path) -> None:
    root = _copy(REPO / "tests" / "fixtures" / "bundles" / "mini", tmp_path)
    os.chmod(root / "game.yaml", 0o644)
    os.chmod(root / "counters.yaml", 0o640)
    bundle = _load(root)
    bundle.game.name = "Renamed"
    bundle.counters[0].name = "Renamed counter"
    bundle.save()
    assert stat.S_IMODE((root / "game.yaml").stat().st_mode) == 0o644
    assert stat.S_IMODE((root / "counters.yaml").stat().st_mode) == 0o640
    other = tmp_path / "elsewhere"
    old = os.umask(0o022)
    try:
        bundle.save(other)
    finally:
        os.umask(old)
    assert stat.S_IMODE((other / "game.yaml").stat().st_mode) == 0o644


def test_a_symlinked_map_file_stays_a_symlink(tmp_path: Path) -> None:
    root = _copy(REPO / "tests" / "fixtures" / "bundles" / "mini", tmp_path)
    bundle = _load(root)
    rel = bundle.files[f"map:{bundle.default_map.id}"]
    real = root / "shared-maps" / Path(rel).name
    real.parent.mkdir()
    (root / rel).rename(real)
    (root / rel).symlink_to(os.path.relpath(real, (root / rel).parent))
    bundle = _load(root)
    hmap = bundle.default_map
    h = next(iter(hmap.hexes()))
    set_terrain(hmap, {h: next(t.id for t in bundle.system.terrain if t.id != hmap.terrain_at(h))}, bundle.system)
    bundle.save()
    assert (root / rel).is_symlink()
    assert _load(root).default_map.terrain_at(h) == hmap.terrain_at(h)


def test_a_file_that_failed_to_load_is_never_overwritten(tmp_path: Path) -> None:
    """One typo in counters.yaml loads the bundle with no counters; the next save must not
    write counters.yaml as an empty manifest (issue #15, data loss)."""
    root = _copy(REPO / "tests" / "fixtures" / "bundles" / "mini", tmp_path)
    broken = (root / "counters.yaml").read_text(encoding="utf-8") + "\n  - [unclosed\n"
    (root / "counters.yaml").write_text(broken, encoding="utf-8")
    bundle = _load(root)
    assert bundle.counters == [] and "counters.yaml" in bundle.failed_files
    bundle.game.name = "Edited while counters are broken"
    bundle.save()
    assert (root / "counters.yaml").read_text(encoding="utf-8") == broken


def test_a_file_reference_outside_the_bundle_is_refused_and_never_written(tmp_path: Path) -> None:
    root = _copy(REPO / "tests" / "fixtures" / "bundles" / "mini", tmp_path)
    outside = tmp_path / "notes.txt"
    outside.write_text("my notes\n", encoding="utf-8")
    game = (root / "game.yaml").read_text(encoding="utf-8")
    game = "\n".join("counters: ../notes.txt" if ln.startswith("counters:") else ln for ln in game.splitlines()) + "\n"
    (root / "game.yaml").write_text(game, encoding="utf-8")
    result = load_bundle(root)
    assert result.bundle is not None
    refusals = [d for d in result.diagnostics if d.code == "LOAD-FILE-003"]
    assert refusals and "outside" in refusals[0].message and refusals[0].location.line is not None
    result.bundle.game.name = "Edited"
    result.bundle.save()
    assert outside.read_text(encoding="utf-8") == "my notes\n"


# --- random edits ---------------------------------------------------------------------------

EDITS = st.lists(st.tuples(st.sampled_from(["paint", "hexside", "place", "remove", "counter", "rename", "value",
                                                            "back", "schedule", "unschedule", "feature", "zone"]),
                           st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=6)


def _apply(bundle: Bundle, edit: tuple[str, int, int]) -> None:
    kind, a, b = edit
    hmap = bundle.default_map
    hexes = sorted(hmap.hexes())
    h = hexes[a % len(hexes)]
    if kind == "paint":
        types = [t.id for t in bundle.system.terrain]
        set_terrain(hmap, {h: types[b % len(types)]}, bundle.system)
    elif kind == "hexside":
        kinds = [t.id for t in bundle.system.hexsides] if bundle.system.hexsides else []
        if kinds:
            set_hexside(hmap, hexside_key(h, b % 6), kinds[b % len(kinds)])
    elif kind in ("place", "remove"):
        scen = bundle.scenarios[sorted(bundle.scenarios)[a % len(bundle.scenarios)]]
        if scen.extends:
            return
        if kind == "place" and bundle.counters:
            place_unit(scen, bundle.counters[b % len(bundle.counters)].id, "hex", hexes[b % len(hexes)])
        elif scen.setup:
            remove_unit(scen, scen.setup[b % len(scen.setup)].unit)
    elif kind == "counter" and bundle.counters:
        counter = bundle.counters[a % len(bundle.counters)]
        counter.name = f"{counter.name} ({b})"
    elif kind == "rename":
        bundle.game.name = f"{bundle.game.name.split(' #')[0]} #{b}"
    elif kind == "value" and bundle.counters:
        counter = bundle.counters[a % len(bundle.counters)]
        values = dict(counter.front.values)
        key = sorted(values)[b % len(values)] if values and b % 3 else f"x{b % 4}"
        values[key] = b % 13 if b % 5 else "unknown"
        counter.front.values = values
    elif kind == "back" and bundle.counters:
        counter = bundle.counters[a % len(bundle.counters)]
        counter.back = None if counter.back is not None and b % 2 else CounterSide(values={"mf": b % 9})
    elif kind in ("schedule", "unschedule"):
        scen = bundle.scenarios[sorted(bundle.scenarios)[a % len(bundle.scenarios)]]
        if scen.extends or not bundle.counters:
            return
        if kind == "schedule":
            entry = ScheduleEntry(turn=scen.turns.first if scen.turns is not None else 1,
                                  units=[bundle.counters[b % len(bundle.counters)].id])
            add_schedule_entry(scen, entry, b % (len(scen.schedule) + 1))
        elif scen.schedule:
            remove_schedule_entry(scen, b % len(scen.schedule))
    elif kind == "feature":
        types = [f.id for f in bundle.system.features]
        if b % 2 and hmap.features:
            remove_feature(hmap, b % len(hmap.features))
        elif types:
            place_feature(hmap, Feature(type=types[b % len(types)], hex=h, name=f"F{b}"), b % (len(hmap.features) + 1))
    elif kind == "zone":
        scen = bundle.scenarios[sorted(bundle.scenarios)[a % len(bundle.scenarios)]]
        if scen.extends:
            return
        if scen.drop_zones and b % 2:
            zone = scen.drop_zones[b % len(scen.drop_zones)]
            set_zone_hexes(scen, zone.id, [h], "add" if b % 4 == 1 else "replace")
        elif f"dz-{b}" not in {z.id for z in scen.drop_zones}:
            add_drop_zone(scen, DropZone(id=f"dz-{b}", name=f"Zone {b}", hexes=[h]))


@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: p.name)
@settings(max_examples=int(os.environ.get("HEXPROOF_SAVE_EXAMPLES", "15")))
@given(edits=EDITS)
def test_random_edits_save_and_reload_to_the_edited_model(src: Path, edits: list[tuple[str, int, int]],
                                                          tmp_path_factory: pytest.TempPathFactory) -> None:
    root = _copy(src, tmp_path_factory.mktemp("edit"))
    before = _files(root)
    bundle = _load(root)
    for edit in edits:
        _apply(bundle, edit)
    expected = {f.rel: f.full() for f in bundle.file_models()}
    bundle.save()
    assert bundle.last_save_fallbacks == []
    reloaded = _load(root)
    assert {f.rel: f.full() for f in reloaded.file_models()} == expected
    # Lines changed only in files whose data changed.
    after = _files(root)
    originals = _load(_copy(src, tmp_path_factory.mktemp("orig")))
    unchanged = {f.rel for f in originals.file_models() if f.full() == expected.get(f.rel)}
    for rel in unchanged:
        assert after[rel] == before[rel], rel


def test_a_flow_item_rewritten_whole_drops_its_inner_edits(tmp_path: Path) -> None:
    """Found by the property above: a schedule entry written as a flow mapping whose first
    scalars changed in place and whose ``entry:`` then had to be rewritten gave overlapping
    edits (and a canonical rewrite of the whole file)."""
    root = _copy(REPO / "scenarios" / "second-front-now", tmp_path)
    bundle = _load(root)
    scen = bundle.scenarios["calais-landing"]
    rel = bundle.files["scenario:calais-landing"]
    before = (root / rel).read_bytes()
    add_schedule_entry(scen, ScheduleEntry(turn=scen.turns.first, units=[bundle.counters[0].id]), 0)
    remove_schedule_entry(scen, 1)
    bundle.save()
    assert bundle.last_save_fallbacks == []
    changed = _changed_lines(before, (root / rel).read_bytes())
    assert len([ln for ln in changed if ln.startswith("-")]) == 1, changed


def test_an_empty_flow_list_that_gains_records_becomes_a_block_list(tmp_path: Path) -> None:
    """A new bundle's ``counters: []`` gaining counters is written one record a line, not as one
    ever-growing flow line (found by the end-to-end authoring test); the comment stays."""
    from model.counters import Counter

    root = _copy(FIXTURES / "bundles" / "mini", tmp_path)
    path = root / "counters.yaml"
    path.write_text("schema_version: 1\n# my counters\ncounters: []\n", encoding="utf-8")
    bundle = _load(root)
    for i in range(3):
        bundle.counters.append(Counter(id=f"c{i}", name=f"C {i}", side="allied", category="inf"))
    bundle.save(root)
    assert bundle.last_save_fallbacks == []
    text = path.read_text(encoding="utf-8")
    assert "# my counters" in text and "[" not in text
    assert [line for line in text.splitlines() if line.startswith("- ")] == ["- id: c0", "- id: c1", "- id: c2"]
    assert [c.id for c in _load(root).counters] == ["c0", "c1", "c2"]
