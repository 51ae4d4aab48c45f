"""Undo laws on the document, without widgets: undo-all restores the saved form exactly,
redo-all reproduces the final state, and every command type undoes and redoes."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)
from PySide6.QtGui import QUndoCommand

from conftest import FIXTURES
from editor.commands import (AddPath, CalibrateBackground, ChangeProperty, ClearHexsideFeature, ClearPortion,
                             MoveTerrain, PaintTerrain, PasteTerrain, PlaceFeature, RemoveFeature, RemovePath,
                             SetBackground, SetHexsideFeature, SetPortion)
from editor.document import MapDocument
from model.base import hexside_key
from model.hexes import Hex
from model.mapdata import Background, CalibrationPoint, Feature, ImpassablePortion, MapPath

MINI = FIXTURES / "bundles" / "mini"


def open_mini() -> MapDocument:
    doc, diags = MapDocument.open(MINI)
    assert doc is not None, diags
    return doc


def _hexes(doc: MapDocument) -> list[Hex]:
    return doc.hmap.hexes()


# Each op is (name, argument drawn by hypothesis); build() turns it into a command for a doc.
OPS = st.one_of(
    st.tuples(st.just("paint"), st.integers(0, 23), st.sampled_from(["clear", "woods", "sea"]), st.integers(0, 2)),
    st.tuples(st.just("paste"), st.integers(0, 23), st.sampled_from(["woods", "sea"]), st.just(0)),
    st.tuples(st.just("move"), st.integers(0, 23), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("side_set"), st.integers(0, 23), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("side_clear"), st.integers(0, 23), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("path_add"), st.integers(0, 23), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("path_remove"), st.integers(0, 3), st.just(0), st.just(0)),
    st.tuples(st.just("feature_place"), st.integers(0, 23), st.just(0), st.just(0)),
    st.tuples(st.just("feature_remove"), st.integers(0, 3), st.just(0), st.just(0)),
    st.tuples(st.just("portion_set"), st.integers(0, 23), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("portion_clear"), st.integers(0, 23), st.just(0), st.just(0)),
    st.tuples(st.just("background"), st.integers(0, 1), st.just(0), st.just(0)),
    st.tuples(st.just("calibrate"), st.integers(0, 23), st.just(0), st.just(0)),
    st.tuples(st.just("rename"), st.integers(0, 3), st.just(0), st.just(0)),
)


def build(doc: MapDocument, op: tuple[str, int, Any, int]) -> Any:
    """The command for ``op`` on ``doc``, or None when the op does not apply now."""
    name, a, b, c = op
    hexes = _hexes(doc)
    h = hexes[a % len(hexes)]
    hmap = doc.hmap
    if name == "paint":
        return PaintTerrain(doc, {x: b for x in h.range(c)}, stroke=a % 2)
    if name == "paste":
        return PasteTerrain(doc, {h: b, h.neighbor(0): "clear"})
    if name == "move":
        return MoveTerrain(doc, [h], Hex(1, 0).scale(1) if b % 2 else Hex(0, 1), "clear")
    if name == "side_set":
        return SetHexsideFeature(doc, hexside_key(h, b), "river")
    if name == "side_clear":
        return ClearHexsideFeature(doc, hexside_key(h, b), "river")
    if name == "path_add":
        return AddPath(doc, MapPath(type="road", hexes=[h, h.neighbor(b)]))
    if name == "path_remove":
        return RemovePath(doc, a) if a < len(hmap.paths) else None
    if name == "feature_place":
        return PlaceFeature(doc, Feature(type="town", hex=h, name=f"T{a}"))
    if name == "feature_remove":
        return RemoveFeature(doc, a) if a < len(hmap.features) else None
    if name == "portion_set":
        return SetPortion(doc, ImpassablePortion(hex=h, preset=["N", "S", "NE", "SE", "SW", "NW"][b], depth=0.4))
    if name == "portion_clear":
        return ClearPortion(doc, h)
    if name == "background":
        return SetBackground(doc, Background(image="scan.png", opacity=0.3) if a else None)
    if name == "calibrate":
        if hmap.background is None:
            return None
        return CalibrateBackground(doc, [CalibrationPoint(label=h, x=float(a), y=2.0 * a)])
    if name == "rename":
        return ChangeProperty(doc, hmap, "name", f"Map {a}", merge=True)
    raise AssertionError(name)


@pytest.fixture(scope="module")
def app(qapp: Any) -> Any:
    return qapp


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(OPS, max_size=25))
def test_undo_all_restores_and_redo_all_replays(qapp: Any, ops: list[tuple[str, int, Any, int]]) -> None:
    """Random edits, then undo-all equals the original files and redo-all the final files."""
    doc = open_mini()
    original = doc.dump()
    for op in ops:
        cmd = build(doc, op)
        if cmd is not None:
            doc.push(cmd)
    final = doc.dump()
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.dump() == original
    assert not doc.is_modified
    while doc.undo_stack.canRedo():
        doc.undo_stack.redo()
    assert doc.dump() == final


COMMAND_CASES: dict[str, Callable[[MapDocument], Any]] = {
    "PaintTerrain": lambda d: PaintTerrain(d, {Hex(1, 0): "sea"}),
    "PasteTerrain": lambda d: PasteTerrain(d, {Hex(1, 0): "woods", Hex(1, 1): "sea"}),
    "MoveTerrain": lambda d: MoveTerrain(d, [d.hmap.parse("0303")], Hex(1, 0), "clear"),
    "SetHexsideFeature": lambda d: SetHexsideFeature(d, hexside_key(Hex(1, 0), 0), "river"),
    "ClearHexsideFeature": lambda d: ClearHexsideFeature(d, d.hmap.hexsides["river"][0], "river"),
    "AddPath": lambda d: AddPath(d, MapPath(type="road", hexes=[Hex(1, 0), Hex(2, 0)])),
    "RemovePath": lambda d: RemovePath(d, 0),
    "PlaceFeature": lambda d: PlaceFeature(d, Feature(type="town", hex=Hex(1, 0), name="X")),
    "RemoveFeature": lambda d: RemoveFeature(d, 0),
    "SetPortion": lambda d: SetPortion(d, ImpassablePortion(hex=Hex(1, 0), preset="S")),
    "ClearPortion": lambda d: ClearPortion(d, Hex(1, 0)),
    "SetBackground": lambda d: SetBackground(d, Background(image="scan.png")),
    "ChangeProperty": lambda d: ChangeProperty(d, d.hmap, "name", "Renamed"),
}


@pytest.mark.parametrize("name", sorted(COMMAND_CASES))
def test_each_command_changes_then_undoes_and_redoes(qapp: Any, name: str) -> None:
    """Each command type changes the files (unless a no-op by design), undo restores, redo replays."""
    doc = open_mini()
    if name == "ClearPortion":
        doc.push(SetPortion(doc, ImpassablePortion(hex=Hex(1, 0), preset="S")))
        doc.undo_stack.setClean()
    before = doc.dump()
    events: list[object] = []
    doc.changed.connect(events.append)
    doc.push(COMMAND_CASES[name](doc))
    after = doc.dump()
    assert after != before, f"{name} changed nothing"
    assert events, f"{name} emitted no change event"
    assert doc.is_modified
    doc.undo_stack.undo()
    assert doc.dump() == before
    doc.undo_stack.redo()
    assert doc.dump() == after


def test_calibrate_background_undo(qapp: Any) -> None:
    """Calibration points are saved in the map's background and undo restores the old list."""
    doc = open_mini()
    doc.push(SetBackground(doc, Background(image="scan.png")))
    before = doc.dump()
    doc.push(CalibrateBackground(doc, [CalibrationPoint(label=Hex(1, 0), x=10.0, y=20.0)]))
    assert "calibration" in doc.dump()["maps/mini.yaml"]
    doc.undo_stack.undo()
    assert doc.dump() == before


def test_brush_stroke_merges_into_one_step(qapp: Any) -> None:
    """Paint commands of one stroke merge; a new stroke is a new undo step."""
    doc = open_mini()
    for h in _hexes(doc)[:5]:
        doc.push(PaintTerrain(doc, {h: "woods"}, stroke=7))
    assert doc.undo_stack.count() == 1
    doc.push(PaintTerrain(doc, {_hexes(doc)[6]: "woods"}, stroke=8))
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert all(doc.hmap.terrain_at(h) != "woods" or h in (doc.hmap.parse("0303"),) for h in _hexes(doc)[:5])


def test_property_merge_back_to_start_is_obsolete(qapp: Any) -> None:
    """Typing a name and then restoring it leaves nothing on the stack."""
    doc = open_mini()
    start = doc.hmap.name
    doc.push(ChangeProperty(doc, doc.hmap, "name", "A", merge=True))
    doc.push(ChangeProperty(doc, doc.hmap, "name", start, merge=True))
    assert doc.undo_stack.count() == 0
    assert doc.hmap.name == start


# --- stateful: edits, undo, redo and save points interleaved at random --------------------

# Which command class each op of OPS builds: the coverage test below checks this against
# every undo command the editor exports, so a new command type cannot go untested.
OP_COMMANDS: dict[str, type] = {
    "paint": PaintTerrain, "paste": PasteTerrain, "move": MoveTerrain, "side_set": SetHexsideFeature,
    "side_clear": ClearHexsideFeature, "path_add": AddPath, "path_remove": RemovePath,
    "feature_place": PlaceFeature, "feature_remove": RemoveFeature, "portion_set": SetPortion,
    "portion_clear": ClearPortion, "background": SetBackground, "calibrate": CalibrateBackground,
    "rename": ChangeProperty,
}
PUSHED: set[str] = set()  # command classes the state machine actually pushed (checked after the run)


class UndoMachine(RuleBasedStateMachine):
    """Model: the serialised document expected at every undo-stack index.

    Invariants after every step: the files equal the model's entry for the current index,
    and a document that says it is unmodified serialises exactly as at the last save point.
    At the end: undo-all gives the original files, redo-all the top of the stack.
    """

    def __init__(self) -> None:
        super().__init__()
        self.doc = open_mini()
        self.original = self.doc.dump()
        self.states: list[dict[str, str]] = [self.original]  # index -> files
        self.saved = self.original

    @initialize()
    def one_of_each(self) -> None:
        """Every command type goes on the stack first, so the random undo/redo interleavings
        always cross each of them (random draws alone missed RemoveFeature in some runs)."""
        for name in ("SetPortion", *sorted(COMMAND_CASES)):  # SetPortion: ClearPortion needs one
            self.push(COMMAND_CASES[name](self.doc))

    @rule(op=OPS)
    def edit(self, op: tuple[str, int, Any, int]) -> None:
        cmd = build(self.doc, op)
        if cmd is None:
            return
        assert isinstance(cmd, OP_COMMANDS[op[0]])
        self.push(cmd)

    def push(self, cmd: Any) -> None:
        before = self.doc.undo_stack.index()
        self.doc.push(cmd)
        PUSHED.add(type(cmd).__name__)
        now, files = self.doc.undo_stack.index(), self.doc.dump()
        assert now in (before + 1, before, before - 1)  # new step, merged, or merged into a no-op
        if now == before - 1:  # merged back to where the previous step started: it was dropped
            assert files == self.states[now]
        self.states = self.states[:now] + [files]

    @precondition(lambda self: self.doc.undo_stack.canUndo())
    @rule()
    def undo(self) -> None:
        self.doc.undo_stack.undo()

    @precondition(lambda self: self.doc.undo_stack.canRedo())
    @rule()
    def redo(self) -> None:
        self.doc.undo_stack.redo()

    @rule()
    def save_point(self) -> None:
        """What a successful save does to the stack (disk writes are tested elsewhere)."""
        self.doc.undo_stack.setClean()
        self.saved = self.doc.dump()

    @invariant()
    def files_match_the_model(self) -> None:
        assert self.doc.undo_stack.count() == len(self.states) - 1
        assert self.doc.dump() == self.states[self.doc.undo_stack.index()]

    @invariant()
    def clean_means_saved(self) -> None:
        if not self.doc.is_modified:
            assert self.doc.dump() == self.saved

    def teardown(self) -> None:
        stack = self.doc.undo_stack
        while stack.canUndo():
            stack.undo()
        assert self.doc.dump() == self.original
        while stack.canRedo():
            stack.redo()
        assert self.doc.dump() == self.states[-1]


def test_undo_state_machine(qapp: Any) -> None:
    """Random interleavings of every command type with undo/redo/save keep the laws."""
    PUSHED.clear()
    run_state_machine_as_test(UndoMachine, settings=settings(max_examples=80, stateful_step_count=40,
                                                             deadline=None, derandomize=True))
    assert PUSHED == {c.__name__ for c in OP_COMMANDS.values()}, \
        f"never pushed: {sorted({c.__name__ for c in OP_COMMANDS.values()} - PUSHED)}"


def test_every_command_type_is_covered() -> None:
    """Every undo command the editor exports has an op in OPS (add one when adding a command)."""
    import editor.commands as commands

    exported = {name for name in commands.__all__
                if isinstance(getattr(commands, name), type) and issubclass(getattr(commands, name), QUndoCommand)}
    covered = {c.__name__ for c in OP_COMMANDS.values()}
    assert exported - covered == set(), \
        f"add ops for {sorted(exported - covered)} to OPS/build/OP_COMMANDS in tests/editor/test_undo_laws.py"
