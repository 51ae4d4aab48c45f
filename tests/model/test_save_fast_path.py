"""The fast ways of a save (issue #14 performance) against the slow ones they stand for.

* ``yamlpatch.literal_reads_back`` (an edit inside a literal block, the terrain rows, checked by
  parsing that block again on its own) never accepts a text that the full read-back check
  (``bundle._raw_reads_back``: parse the whole text, compare all its raw data) rejects: on random
  documents, for honest patches and for deliberately corrupted ones; and it accepts the honest
  patches of plain rows, with the block's new position exactly as a full parse records it.
* A bundle save of painted hexes takes that way (with the full model check switched off, as for
  a big map), across several saves, mixed with other edits, and reloads as the edited model; a
  corrupted literal patch is caught and the save still writes a correct file.
* A snapshot's frozen model copy sees in-place edits and grid changes, which skip no dump.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

import model.bundle as bundle_mod
from conftest import FIXTURES, REPO
from model.base import hexside_key
from model.bundle import Bundle, _freeze, _raw_reads_back, load_bundle
from model.edits import place_feature, set_hexside, set_terrain
from model.formats.yamlio import LiteralBlock, YamlError, parse_yaml
from model.formats.yamlpatch import literal_reads_back, patch_literal
from model.labels import GridModel
from model.mapdata import Feature
from test_format_preserving_save import EDITS as EDITS_ANY
from test_format_preserving_save import _apply as apply_edit

SAMPLES = sorted(p for p in (REPO / "scenarios").iterdir() if (p / "game.yaml").is_file())
FIXTURE_BUNDLES = sorted(p.parent for p in FIXTURES.rglob("game.yaml")
                         if "bad" not in p.parts and "broken" not in p.parts)

# --- documents with a literal block ----------------------------------------------------------

SAFE = "ab.W~m-T#:|'\"é"  # row characters that YAML reads as themselves inside a block
RISKY = SAFE + " \t\r\x85\u2028\x00{}"  # also: spaces, tabs, line breaks YAML sees, NUL


@st.composite
def documents(draw: Any) -> tuple[str, tuple[str, ...]]:
    """A small YAML document holding one literal block, in many layouts; and its path."""
    nested = draw(st.booleans())
    c = 2 if nested else 0
    k = draw(st.sampled_from([1, 2, 4]))
    pad = " " * (c + k)
    header = draw(st.sampled_from(["|", "|-"])) + draw(st.sampled_from(["", "  # rows", " "]))
    lines = draw(st.lists(st.text(SAFE + " ", min_size=0, max_size=6), min_size=1, max_size=5))
    lines[0] = draw(st.text(SAFE, min_size=1, max_size=6))
    out = ["a: 1  # first\n"]
    if nested:
        out.append("terrain:\n  legend: {x: y}\n")
    out.append(" " * c + "rows: " + header + "\n")
    out.extend(draw(st.lists(st.sampled_from(["\n", " \n"]), max_size=2)))  # leading blank lines
    out.extend(pad + ln + "\n" if ln else "\n" for ln in lines)
    out.extend(draw(st.lists(st.sampled_from(["\n", " \n"]), max_size=2)))  # trailing blank lines
    tails = ["", "# a comment\n", "after: 2\n", "after: |\n  x\n", "zz: [1, 2]\n"]
    if nested:
        tails += ["  sibling: 3\n", "  # indented comment\n  sibling: 3\n"]
    out.append(draw(st.sampled_from(tails)))
    text = "".join(out)
    if draw(st.booleans()) and text.endswith("\n"):
        text = text[:-1]  # no final line break
    return text, (("terrain", "rows") if nested else ("rows",))


def _trusted(text: str, path: tuple[str, ...]) -> tuple[Any, LiteralBlock]:
    try:
        raw, smap, errors = parse_yaml(text, "doc.yaml")
    except YamlError:
        assume(False)
    assume(not errors and path in smap.literal_blocks)
    return raw, smap.literal_blocks[path]


def _at(raw: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        raw = raw[part]
    return raw


def _edited(old: str, replacements: list[tuple[int, str]], grow: list[str], shrink: int) -> str:
    keep = old.endswith("\n")
    lines = (old[:-1] if keep else old).split("\n")
    for i, ln in replacements:
        lines[i % len(lines)] = ln
    lines.extend(grow)
    if shrink and len(lines) > shrink:
        del lines[-shrink:]
    return "\n".join(lines) + ("\n" if keep else "")


def _full(raw: Any, path: tuple[str, ...], text: str, value: str) -> LiteralBlock | None:
    """The full check a save makes of a scalar-only patch; with the block's position then."""
    back = _raw_reads_back(text, "doc.yaml", raw, [(path, value)])
    if back is None:
        return None
    return back[1].get(path, LiteralBlock(-1, -1, -1))


EDIT = st.tuples(st.lists(st.tuples(st.integers(0, 9), st.text(RISKY, max_size=6)), max_size=3),
                 st.lists(st.text(RISKY, max_size=6), max_size=2), st.integers(0, 2))


@settings(max_examples=400, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(doc=documents(), edit=EDIT)
def test_the_block_check_never_accepts_what_the_full_check_rejects(doc: tuple[str, tuple[str, ...]],
                                                                   edit: Any) -> None:
    text, path = doc
    raw, block = _trusted(text, path)
    old = _at(raw, path)
    new = _edited(old, *edit)
    patched = patch_literal(text, block, old, new, path)
    assume(patched is not None)
    fast = literal_reads_back(text, block, path[-1], patched, new)
    full = _full(raw, path, patched, new)
    event(f"block check {'accepts' if fast else 'declines'}, full check {'accepts' if full else 'rejects'}")
    if fast is not None:
        assert full == fast, (text, patched)


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(doc=documents(), edit=st.tuples(st.lists(st.tuples(st.integers(0, 9), st.text(SAFE, min_size=1, max_size=6)),
                                                min_size=1, max_size=3),
                                       st.lists(st.text(SAFE, min_size=1, max_size=6), max_size=2), st.integers(0, 1)))
def test_the_block_check_agrees_with_the_full_check_on_painted_rows(doc: tuple[str, tuple[str, ...]],
                                                                    edit: Any) -> None:
    """Rows rewritten with row characters (what painting does): both checks accept, and the
    block's new position is the one a full parse records."""
    text, path = doc
    raw, block = _trusted(text, path)
    old = _at(raw, path)
    new = _edited(old, *edit)
    patched = patch_literal(text, block, old, new, path)
    assume(patched is not None)
    # Blank lines before the first row: not a map's layout (and the patcher may get these wrong,
    # which the checks catch; the test above covers them).
    assume(text[block.header:].split("\n", 2)[1].strip(" ") != "")
    # ... and no empty row (a value ending in empty rows cannot be written under these headers).
    assume(all((new[:-1] if new.endswith("\n") else new).split("\n")))
    full = _full(raw, path, patched, new)
    fast = literal_reads_back(text, block, path[-1], patched, new)
    event("checked")
    assert full is not None, patched
    assert fast == full, (text, patched)


MUTATION = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.integers(0, 10_000),
                     st.sampled_from(list(RISKY) + ["\n", "...\n", "---\n", "  ", "\n#"]))


@settings(max_examples=600, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(doc=documents(), edit=EDIT, mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_a_corrupted_patch_is_never_accepted(doc: tuple[str, tuple[str, ...]], edit: Any,
                                             mutations: list[tuple[str, int, str]]) -> None:
    """An honest patch broken anywhere (a character inserted, deleted or replaced: in a row, in
    the indentation, in a line break, around the block, in another key): the block check
    accepts it only if the full check reads it as exactly the intended data too."""
    text, path = doc
    raw, block = _trusted(text, path)
    old = _at(raw, path)
    new = _edited(old, *edit)
    patched = patch_literal(text, block, old, new, path)
    assume(patched is not None)
    broken = patched
    for op, at, piece in mutations:
        i = at % (len(broken) + 1)
        if op == "insert":
            broken = broken[:i] + piece + broken[i:]
        elif op == "delete":
            broken = broken[:i] + broken[i + 1:]
        else:
            broken = broken[:i] + piece + broken[i + 1:]
    fast = literal_reads_back(text, block, path[-1], broken, new)
    full = _full(raw, path, broken, new)
    event(f"block check {'accepts' if fast else 'declines'}, full check {'accepts' if full else 'rejects'}")
    if fast is not None:
        assert full == fast, (text, broken)


TERRAIN = """\
id: m
terrain:
  legend: {'.': clear, W: woods}
  rows: |-
    ....WW
    ..WW..
    WW....
hexsides:
  river: [0101/N]
"""


@pytest.mark.parametrize("broken", [
    "rows: |-\n    ....WW\n  ..W...\n    WW....\n",  # a row that lost its indentation
    "rows: |-\n    ....WW\n     ..W...\n    WW....\n",  # ... or got one more space (kept as content: wrong value)
    "rows: |-\n    ....WW\n    ..W...    WW....\n",  # a line break lost
    "rows: |-\n    ....WW\n    ..W...\n...\n    WW....\n",  # a document end inside the block
    "rows: |-\n    ....WW\n    ..W...\n# note\n    WW....\n",  # a comment line that ends the block early
    "rows: |-\n      ....WW\n    ..W...\n    WW....\n",  # the first row's indentation changed
    "rows: |-\n    ....WW\n    ..W\r    ...\n    WW....\n",  # a line break YAML sees inside a row
])
def test_deliberately_broken_patches_are_caught(broken: str) -> None:
    raw, smap, _ = parse_yaml(TERRAIN, "m.yaml")
    block = smap.literal_blocks[("terrain", "rows")]
    new = "....WW\n..W...\nWW...."
    good = patch_literal(TERRAIN, block, raw["terrain"]["rows"], new, ("terrain", "rows"))
    assert good is not None and literal_reads_back(TERRAIN, block, "rows", good, new) is not None
    bad = good.replace("rows: |-\n    ....WW\n    ..W...\n    WW....\n", "rows: |-" + broken[len("rows: |-"):])
    assert bad != good
    assert _full(raw, ("terrain", "rows"), bad, new) is None  # it does read wrong
    assert literal_reads_back(TERRAIN, block, "rows", bad, new) is None
    # The rest of the file edited too (the patch went outside the block): caught as well.
    outside = good.replace("[0101/N]", "[0101/S]")
    assert literal_reads_back(TERRAIN, block, "rows", outside, new) is None


# --- bundle saves -------------------------------------------------------------------------------


def _copy(src: Path, tmp: Path) -> Path:
    if "../" in (src / "game.yaml").read_text(encoding="utf-8"):
        shutil.copytree(src.parent, tmp / src.parent.name, symlinks=True)
        return tmp / src.parent.name / src.name
    shutil.copytree(src, tmp / src.name, symlinks=True)
    return tmp / src.name


def _load(root: Path) -> Bundle:
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    return result.bundle


def _data(bundle: Bundle) -> dict[str, Any]:
    return {f.rel: f.full() for f in bundle.file_models()}


class _Spy:
    """Counts what yamlpatch.literal_reads_back answers during saves."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.accepted = 0
        self.refused = 0
        real = bundle_mod.literal_reads_back

        def spy(*args: Any, **kwargs: Any) -> Any:
            out = real(*args, **kwargs)
            if out is None:
                self.refused += 1
            else:
                self.accepted += 1
            return out

        monkeypatch.setattr(bundle_mod, "literal_reads_back", spy)


ROUNDS = st.lists(st.lists(st.tuples(st.sampled_from(["paint", "paint", "paint", "hexside", "feature"]),
                                     st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=5),
                  min_size=1, max_size=3)


@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: p.name)
@settings(max_examples=int(os.environ.get("HEXPROOF_SAVE_EXAMPLES", "15")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=ROUNDS)
@example(rounds=[[("paint", 683, 0), ("paint", 1355, 3)]])  # one hex painted away and back (format-example)
def test_painting_saves_take_the_block_check_and_reload_as_edited(src: Path, rounds: list[list[tuple[str, int, int]]],
                                                                  tmp_path_factory: pytest.TempPathFactory,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """With the whole-model check off (as for a map over FULL_CHECK_BYTES), several rounds of
    edits and saves: each save reloads as the edited model, a save of painting only takes the
    block check, and the snapshots it leaves (text, raw data, block positions) serve the next."""
    monkeypatch.setattr(bundle_mod, "FULL_CHECK_BYTES", 0)
    spy = _Spy(monkeypatch)
    root = _copy(src, tmp_path_factory.mktemp("fast"))
    bundle = _load(root)
    hmap = bundle.default_map
    hexes = sorted(hmap.hexes())
    types = [t.id for t in bundle.system.terrain]
    for edits in rounds:
        before = spy.accepted
        legend = dict(hmap.terrain.legend)
        was = {h: hmap.terrain_at(h) for h in hexes}
        only_paint = all(kind == "paint" for kind, _, _ in edits)
        for kind, a, b in edits:
            h = hexes[a % len(hexes)]
            if kind == "paint":
                set_terrain(hmap, {h: types[b % len(types)]}, bundle.system)
            elif kind == "hexside" and bundle.system.hexsides:
                set_hexside(hmap, hexside_key(h, b % 6), bundle.system.hexsides[b % len(bundle.system.hexsides)].id)
            elif kind == "feature" and bundle.system.features:
                place_feature(hmap, Feature(type=bundle.system.features[0].id, hex=h, name=f"F{b}"), 0)
        # Painted: some hex ends the round with another terrain (two paints of one hex may undo
        # each other, and then the save has no rows to patch).
        painted = any(hmap.terrain_at(h) != t for h, t in was.items())
        expected = _data(bundle)
        bundle.save()
        assert bundle.last_save_fallbacks == []
        assert _data(_load(root)) == expected
        # Painting a terrain the legend lacks also adds a legend entry: not a rows-only edit.
        if only_paint and painted and hmap.terrain.legend == legend:
            assert spy.accepted > before
    assert spy.refused == 0


def test_a_corrupted_literal_patch_is_caught_and_the_save_is_still_right(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """patch_literal broken on purpose (the changed row loses its indentation, so YAML ends the
    block there): the block check refuses it, and the save goes the general way, whose file
    reloads as the edited model with only the painted row changed."""
    monkeypatch.setattr(bundle_mod, "FULL_CHECK_BYTES", 0)
    spy = _Spy(monkeypatch)
    real = bundle_mod.patch_literal

    def broken(text: str, block: LiteralBlock, old: str, new: str, path: Any) -> str | None:
        out = real(text, block, old, new, path)
        assert out is not None
        # Dedent the first row that differs.
        start = text.index("\n", block.header) + 1
        i = start
        while text[i] == out[i]:
            i += 1
        line = out.rfind("\n", 0, i) + 1
        return out[:line] + out[line:].lstrip(" ")

    monkeypatch.setattr(bundle_mod, "patch_literal", broken)
    root = _copy(REPO / "scenarios" / "utah-beach", tmp_path)
    bundle = _load(root)
    hmap = bundle.default_map
    rel = bundle.files[f"map:{hmap.id}"]
    h = sorted(hmap.hexes())[500]
    other = next(t.id for t in bundle.system.terrain if t.id != hmap.terrain_at(h) and t.char in hmap.terrain.legend)
    before = (root / rel).read_text(encoding="utf-8")
    set_terrain(hmap, {h: other}, bundle.system)
    expected = _data(bundle)
    bundle.save()
    assert spy.refused == 1 and spy.accepted == 0
    assert bundle.last_save_fallbacks == []
    assert _data(_load(root)) == expected
    after = (root / rel).read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert len(before.splitlines()) == len(after.splitlines()) and len(changed) == 1


# --- frozen snapshot copies ------------------------------------------------------------------------


@pytest.mark.parametrize("src", SAMPLES + FIXTURE_BUNDLES, ids=lambda p: str(p.relative_to(REPO)))
def test_a_frozen_copy_dumps_as_the_model_and_edits_do_not_reach_it(src: Path, tmp_path: Path) -> None:
    bundle = _load(_copy(src, tmp_path))
    for f in bundle.file_models():
        copy = _freeze(f.model)
        assert copy == f.model
        assert copy.model_dump(mode="json", context=f.context or {}) == f.full()
        # The snapshot (copies, and dumped data for long lists of models) holds the same data, in order.
        assert list(bundle.snapshots[f.rel].data.items()) == list(f.full().items())
    hmap = bundle.default_map
    copy = _freeze(hmap)
    kind = next(iter(hmap.hexsides), None)
    if kind is not None:
        hmap.hexsides[kind].append(hmap.hexsides[kind][0])  # in place, no assignment
        assert copy != hmap
        hmap.hexsides[kind].pop()
    assert copy == hmap
    hmap.terrain.legend["?"] = "clear"  # a nested dict, in place
    assert copy != hmap and "?" not in copy.terrain.legend


def test_in_place_edits_and_grid_changes_are_saved(tmp_path: Path) -> None:
    """Edits that bypass model assignment (list and dict contents changed in place), and a grid
    change that reprints every label in the scenarios while their models stay the same."""
    root = _copy(REPO / "scenarios" / "utah-beach", tmp_path)
    bundle = _load(root)
    hmap = bundle.default_map
    kind = next(iter(hmap.hexsides))
    key = next(k for k in (hexside_key(h, 1) for h in sorted(hmap.hexes())) if k not in hmap.hexsides[kind])
    hmap.hexsides[kind].append(key)
    bundle.counters[0].front.values["zz"] = 3
    expected = _data(bundle)
    written = {p.relative_to(root).as_posix() for p in bundle.save()}
    assert written == {bundle.files[f"map:{hmap.id}"], bundle.game.counters}
    assert _data(_load(root)) == expected

    sheets = [s.model_copy(update={"labels": s.labels.model_copy(update={"prefix": "U"})}) for s in hmap.grid.sheets]
    hmap.grid = GridModel(orientation=hmap.grid.orientation, stagger=hmap.grid.stagger, sheets=sheets)
    hmap.invalidate()
    expected = _data(bundle)
    relabelled = {rel for rel, data in expected.items() if data != _data(_load(root))[rel]}
    scenario_files = {bundle.files[f"scenario:{sid}"] for sid in bundle.scenarios}
    assert relabelled & scenario_files  # the scenarios' models did not change, their labels did
    written = {p.relative_to(root).as_posix() for p in bundle.save()}
    assert written == relabelled
    assert _data(_load(root)) == expected


@pytest.mark.parametrize("threshold", [0, 10**9], ids=["lists-dumped", "all-copied"])
@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: p.name)
@settings(max_examples=int(os.environ.get("HEXPROOF_SAVE_EXAMPLES", "15")) // 2 + 1, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.lists(EDITS_ANY, min_size=1, max_size=3))
def test_random_edits_over_several_saves_reload_as_edited(src: Path, threshold: int, rounds: list[Any],
                                                          tmp_path_factory: pytest.TempPathFactory,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The random edits of test_format_preserving_save, in rounds with a save after each: every
    save reloads as the edited model and leaves snapshots that see the next round's edits,
    whether a snapshot keeps its lists of models as dumped data or as frozen copies; a save
    right after a save writes nothing."""
    monkeypatch.setattr(bundle_mod, "DUMP_MODEL_LISTS_OVER", threshold)
    root = _copy(src, tmp_path_factory.mktemp("rounds"))
    bundle = _load(root)
    for edits in rounds:
        for edit in edits:
            apply_edit(bundle, edit)
        expected = _data(bundle)
        bundle.save()
        assert bundle.last_save_fallbacks == []
        assert _data(_load(root)) == expected
        assert bundle.save() == []
