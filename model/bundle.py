"""Game bundles: a folder with ``game.yaml`` (system, maps, counter manifest, boxes,
rulebook index) plus one file per map and per scenario.

:func:`load_bundle` never raises on bad input. It returns a :class:`LoadResult` holding
whatever could be loaded and every problem as a located :class:`Diagnostic`
(``file:line:col``). A file that breaks a *game* rule still loads; the validators report it.
"""

from __future__ import annotations

import copy
import gc
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError, model_serializer

from model.base import Node, stamp_sources
from model.counters import Counter, CounterSheet
from model.diagnostics import Diagnostic, Location, Severity
from model.labels import GridModel
from model.mapdata import HexMap, NamedLocation
from model.scenario import Scenario, merge_params
from model.system import GameSystem, system_path
from model.safefile import JOURNAL, SafeFileError, commit_files, read_bytes, recover_interrupted_save, resolve_inside
from model.base import HexsideKey
from model.hexes import Hex
from model.formats.yamlio import (MAX_BYTES, FlowList, LiteralBlock, SourceMap, YamlError, dump_yaml, parse_yaml,
                                  read_yaml_source)
from model.formats.yamlpatch import PatchError, literal_reads_back, patch, patch_literal

M = TypeVar("M", bound=BaseModel)

BUNDLE_FILE = "game.yaml"


class Box(Node):
    """An off-map box: holding box, dead pile, OMM area, landing box, display box."""

    id: str
    name: str
    kind: str = "holding"
    side: str | None = None
    entry_hexes: list[str] = Field(default_factory=list, description="printed labels or location ids")
    connects: list[str] = Field(default_factory=list)
    flags: list[str] = Field(default_factory=list)
    capacity: int | None = None
    number: int | None = None
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None


class RulebookRef(Node):
    """The bundle's rulebook index: case number → title, for checking rule references."""

    source: str | None = Field(None, description="rules text the index was extracted from")
    prefix: str | None = None
    cases: dict[str, str | None] = Field(default_factory=dict)


class ValidateSettings(Node):
    """Per-bundle rule selection (``validate:`` in game.yaml): codes, code prefixes, groups or names."""

    select: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)


class GameFile(Node):
    schema_version: int = 1
    id: str
    name: str
    system: str = Field(..., description="system id in resources/systems, or a path to a system file")
    maps: list[str] = Field(..., min_length=1)
    counters: str | None = None
    # The printed counter sheets' grids (model/counter_sheets.py; docs/counters-csv.md).
    counter_sheets: list[CounterSheet] = Field(default_factory=list)
    scenarios: list[str] = Field(default_factory=list)
    boxes: list[Box] = Field(default_factory=list)
    rulebook: RulebookRef | None = None
    provenance: str | None = None
    default_scenario: str | None = None
    # A Combat Results Table file (relative to the bundle), for systems whose rules file has none;
    # read by the test-play engine (play/gts/crt.py). Optional; may be illustrative.
    crt: str | None = None
    # Written ``validate:`` in files; the Python name avoids shadowing BaseModel.validate.
    validation: ValidateSettings | None = Field(None, alias="validate")

    @model_serializer(mode="wrap")
    def _validate_key(self, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict) and "validation" in data:
            data["validate"] = data.pop("validation")
        return data


class CounterFile(Node):
    schema_version: int = 1
    counters: list[Counter] = Field(default_factory=list)


Path_ = tuple[str | int, ...]
_UNSET: Any = object()
_SAME: Any = object()  # stands for a field's data on both sides of a patch when it did not change

# Values that nothing can change in place: a frozen copy shares them.
_ATOMS = frozenset({str, int, float, bool, type(None), Hex, HexsideKey})
_set_attr = object.__setattr__


def _freeze(value: Any) -> Any:
    """A copy of a model (or of a field's value) that edits of the original cannot reach:
    every list, dict, tuple and model is copied; strings, numbers, booleans, ``None`` and
    hexes (immutable tuples) are shared. A model is copied as pydantic's own ``__copy__``
    does (no validation: its values are already valid), keeping which fields were set.

    Why comparing such a copy with the model, with ``==``, can stand for comparing their
    dumps: ``model_dump(mode="json")`` is built field by field, item by item, and every leaf
    is written by a pure function of its value and of the label context (the grid; the only
    custom serializers print hex labels through it, model/base.py). Equal leaves (``==``)
    therefore dump to equal data under equal contexts, and containers and models are equal
    only when their items or fields are (Node.__eq__ compares every field of the same class).
    The dump comparison a save made before used the same ``==`` on the dumped data, so
    nothing that it saw as changed is seen as unchanged here; a copy that compares unequal
    while the dumps are equal (a tuple against a list) only costs a dump."""
    t = type(value)
    if t in _ATOMS:
        return value
    if t is list:
        return list(value) if _ATOMS.issuperset(map(type, value)) else [_freeze(v) for v in value]
    if t is dict:
        if _ATOMS.issuperset(map(type, value.values())):
            return dict(value)
        return {k: _freeze(v) for k, v in value.items()}
    if t is tuple:
        return value if _ATOMS.issuperset(map(type, value)) else tuple(_freeze(v) for v in value)
    if isinstance(value, BaseModel):
        d = value.__dict__
        return _construct(value, {name: _freeze(d[name]) for name in t.model_fields})
    return copy.deepcopy(value)


def _construct(like: BaseModel, fields: dict[str, Any]) -> BaseModel:
    """A model of ``like``'s class holding ``fields``, with ``like``'s set fields, extra and
    private attributes (copied), built as pydantic's ``BaseModel.__copy__`` builds one
    (``model_construct`` costs three times as much)."""
    cls = type(like)
    out = cls.__new__(cls)
    _set_attr(out, "__dict__", fields)
    _set_attr(out, "__pydantic_fields_set__", set(like.__pydantic_fields_set__))
    extra = like.__pydantic_extra__
    _set_attr(out, "__pydantic_extra__", None if extra is None else _freeze(extra))
    private = like.__pydantic_private__
    _set_attr(out, "__pydantic_private__", None if private is None else dict(private))
    return out


# A top-level field holding a list of more models than this is kept as its dumped data, not as
# a copy: copying models in Python costs more than pydantic's dump of them (20,000 setup
# entries: 0.20 s against 0.08 s), while a map's hex lists copy at C speed and dump at Python
# speed (each label is printed by a Python function).
DUMP_MODEL_LISTS_OVER = 64


def _field_dump(model: BaseModel, name: str, context: dict[str, Any] | None) -> tuple[str, Any]:
    """(key in the file, data) of one field of ``model``, as the whole dump has it."""
    data = model.model_dump(mode="json", include={name}, context=context or {})
    if len(data) != 1:
        raise RuntimeError(f"dumping field {name!r} of {type(model).__name__} gave {len(data)} keys")
    return next(iter(data.items()))


@dataclass
class FileSnapshot:
    """A bundle file as it was loaded (or last saved): its text, and what the model it loads
    as held then, top-level field by field: a frozen copy of the field (:func:`_freeze`), or,
    for a long list of models, the field's dumped data (:data:`DUMP_MODEL_LISTS_OVER`).

    A save compares the model now with that, field by field: a copied field with ``==`` and
    without dumping, a dumped one by dumping it now. All equal means the file is left alone;
    otherwise only the fields that differ are dumped (then and now), and :attr:`text` is
    patched where their data differ (model/formats/yamlpatch). Not dumping the copied fields
    is what keeps the dump of a map out of loading and out of a save of painted terrain."""

    text: str
    # A model of the file's class whose fields are the frozen copies (``None`` for the dumped
    # ones). None: what the text holds is not known; a save writes the file whole.
    model: BaseModel | None
    context: dict[str, Any] | None = None  # the label context the fields are dumped with
    raw: Any = None  # what the YAML reader built from ``text`` (None: not known)
    # Where the reader found each literal block in ``text`` (yamlio.SourceMap.literal_blocks).
    blocks: dict[Path_, LiteralBlock] = field(default_factory=dict, repr=False)
    # Fields kept as dumped data: name → (key in the file, data).
    dumped: dict[str, tuple[str, Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, text: str, model: BaseModel, context: dict[str, Any] | None, raw: Any = None,
           blocks: dict[Path_, LiteralBlock] | None = None,
           known: dict[str, tuple[str, Any]] | None = None) -> "FileSnapshot":
        """The snapshot of ``model`` (which edits may change later) as ``text``; ``known`` has
        dumps of its fields already made."""
        fields: dict[str, Any] = {}
        dumped: dict[str, tuple[str, Any]] = {}
        d = model.__dict__
        for name in type(model).model_fields:
            value = d[name]
            if type(value) is list and len(value) > DUMP_MODEL_LISTS_OVER and isinstance(value[0], BaseModel):
                dumped[name] = (known or {}).get(name) or _field_dump(model, name, context)
                fields[name] = None
            else:
                fields[name] = _freeze(value)
        return cls(text, _construct(model, fields), context, raw, blocks or {}, dumped)

    def field_data(self, name: str) -> tuple[str, Any]:
        """(key in the file, data then) of one field."""
        if name in self.dumped:
            return self.dumped[name]
        assert self.model is not None
        return _field_dump(self.model, name, self.context)

    @property
    def data(self) -> Any:
        """The canonical data the text holds (``model_dump(mode="json")``), None if not known."""
        if self.model is None:
            return None
        return dict(self.field_data(name) for name in type(self.model).model_fields)


@dataclass
class _FileModel:
    """One file of the bundle and how to dump and re-read the model it holds."""

    rel: str
    model: BaseModel
    context: dict[str, Any] | None
    kind: str

    def full(self) -> Any:
        return self.model.model_dump(mode="json", context=self.context or {})

    def canonical(self) -> Any:
        return canonical_data(self.model, self.context)


@dataclass
class Bundle:
    root: Path
    game: GameFile
    system: GameSystem
    maps: dict[str, HexMap] = field(default_factory=dict)
    counters: list[Counter] = field(default_factory=list)
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    sources: dict[str, SourceMap] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # object kind/id → relative file
    # Each loaded file's text and data (relative path → snapshot): what a save patches.
    snapshots: dict[str, FileSnapshot] = field(default_factory=dict, repr=False)
    # Files the bundle names that exist but could not be loaded: never overwritten.
    failed_files: set[str] = field(default_factory=set)
    # Of those, the files that could not be *read* at all (YAML syntax, caps, missing, outside
    # the bundle), so their data is absent rather than empty: validation skips rules about it.
    unreadable: set[str] = field(default_factory=set)
    # Messages from opening (an interrupted save completed or rolled back).
    recovered: list[str] = field(default_factory=list)
    # A bundle made in memory (New Map) may replace files it never read, once the user agreed.
    overwrite_unread: bool = False
    # What the last texts() computed per file (raw data read back or None, its literal blocks,
    # and the fields it dumped), so that adopting a save does not parse or dump a file twice.
    _computed: dict[str, tuple[Any, dict[Path_, LiteralBlock], dict[str, tuple[str, Any]]]] = field(
        default_factory=dict, repr=False)
    # Files the last save wrote as canonical text because they could not be patched.
    last_save_fallbacks: list[str] = field(default_factory=list, repr=False)

    # --- lookups ---------------------------------------------------------------------

    @property
    def default_map(self) -> HexMap:
        return next(iter(self.maps.values()))

    def map_for(self, scenario: Scenario | None) -> HexMap:
        if scenario is not None and scenario.map and scenario.map in self.maps:
            return self.maps[scenario.map]
        return self.default_map

    def counter_index(self) -> dict[str, Counter]:
        return {c.id: c for c in self.counters}

    def scenario_ids(self) -> list[str]:
        return list(self.scenarios)

    def box(self, box_id: str) -> Box | None:
        return next((b for b in self.game.boxes if b.id == box_id), None)

    def resolved(self, scenario_id: str, deep: bool = True) -> Scenario:
        """The scenario with every ``extends`` applied: what play and validate see.

        ``deep=False`` shares the base's nested nodes instead of copying them: for readers
        that never mutate the result (the validators), equal data at a fraction of the cost."""
        return resolve_variant(self.scenarios, scenario_id, deep=deep)

    def locations(self, scenario: Scenario | None = None) -> list[NamedLocation]:
        out = list(self.map_for(scenario).locations)
        if scenario is not None:
            out.extend(scenario.locations)
        return out

    def locate(self, node: Node | None, *fields: str | int, **refs: Any) -> Location:
        """A :class:`Location` for ``node`` (and a field inside it), with file:line:col."""
        if node is None or node.source_file is None:
            return Location(**refs)
        smap = self.sources.get(node.source_file)
        path = tuple(node.source_path) + tuple(fields)
        if smap is None:
            from model.base import format_path

            return Location(file=node.source_file, path=format_path(path), **refs)
        return smap.location(path, **refs)

    # --- saving ----------------------------------------------------------------------

    def file_models(self) -> Iterator[_FileModel]:
        """Every file the bundle's models are saved to, with its model and label context."""
        yield _FileModel(BUNDLE_FILE, self.game, None, "game")
        for map_id, hmap in self.maps.items():
            yield _FileModel(self.files.get(f"map:{map_id}", f"maps/{map_id}.yaml"), hmap, hmap.context(), "map")
        if self.game.counters:
            yield _FileModel(self.game.counters, CounterFile(counters=self.counters), None, "counters")
        for sid, scen in self.scenarios.items():
            yield _FileModel(self.files.get(f"scenario:{sid}", f"scenarios/{sid}.yaml"), scen,
                             self.map_for(scen).context(), "scenario")

    def dump_files(self) -> dict[Path, str]:
        """Canonical text of every file in the bundle, keyed by absolute path (what a fresh
        bundle is written as; :meth:`save` patches the loaded text instead)."""
        return {self.root / f.rel: dump_yaml(f.canonical()) for f in self.file_models()}

    def texts(self) -> dict[str, str]:
        """The text every file of the bundle would have if saved now (relative path → text):
        the loaded text where nothing changed, patched where something did, canonical for a
        file never loaded. Files that failed to load are left out."""
        return {rel: text for rel, text, _ in self._texts()}

    def _texts(self) -> Iterator[tuple[str, str, bool]]:
        """(relative path, text, data changed since loaded or saved) for every saveable file."""
        self.last_save_fallbacks = []
        self._computed = {}
        for f in self.file_models():
            if f.rel in self.failed_files:
                continue  # it failed to load: what we hold is not its content
            snap = self.snapshots.get(f.rel)
            if snap is None:
                self._computed[f.rel] = (None, {}, {})
                yield f.rel, dump_yaml(f.canonical()), True
                continue
            dumps: dict[str, tuple[str, Any]] = {}
            changes = _changes(snap, f, dumps)
            if changes == {}:
                self._computed[f.rel] = (snap.raw, snap.blocks, dumps)
                yield f.rel, snap.text, False
            else:
                text, raw, blocks = self._patched(f, snap, changes)
                self._computed[f.rel] = (raw, blocks, dumps)
                yield f.rel, text, True

    def pending_texts(self, target: Path | None = None, rewrite: set[str] | frozenset[str] = frozenset()) -> dict[str, str]:
        """What a save into ``target`` (default: the bundle's own folder) would write:
        relative path → text, only for files whose text would change (and, in ``rewrite``,
        files to write back even though their data did not change: the user chose to
        overwrite what another program wrote there)."""
        target = Path(target) if target is not None else self.root
        own = _same_folder(target, self.root)
        out: dict[str, str] = {}
        for rel, text, changed in self._texts():
            if own:
                if rel not in self.snapshots and (self.root / rel).exists() and not self.overwrite_unread:
                    continue  # exists but was never read: not ours to replace
                if not changed and rel not in rewrite:
                    continue
            else:
                dest = target / rel
                if dest.is_file():
                    try:
                        if dest.read_text(encoding="utf-8") == text:
                            continue
                    except (OSError, UnicodeDecodeError):
                        pass
            out[rel] = text
        return out

    def _patched(self, f: _FileModel, snap: FileSnapshot,
                 changes: dict[str, tuple[str, Any, Any]] | None) -> tuple[str, Any, dict[Path_, LiteralBlock]]:
        """The snapshot's text edited to hold the model's data now, with its raw data and
        literal blocks; canonical text (raw not known) if that cannot be done.

        ``changes`` is what :func:`_changes` found (None: the snapshot does not know what its
        text holds). The patched text is always read back before it is used. A patch that
        only replaced scalars (or lines of a literal block, the terrain) is checked at the
        level of the raw data: it must read as the loaded data with exactly those values
        changed (for lines of a literal block, by reading that block again on its own:
        :func:`_literal_patched`). Any other patch, and any file under
        :data:`FULL_CHECK_BYTES`, is also validated into the model and must dump to exactly
        the model's data."""
        full: Any = _UNSET

        def full_data() -> Any:
            nonlocal full
            if full is _UNSET:
                full = f.full()
            return full

        if changes is not None:
            fast = _literal_patched(f.rel, snap, changes)
            if fast is not None:
                if len(fast[0]) >= FULL_CHECK_BYTES:
                    return fast
                back = _reads_back(fast[0], f, full_data())
                if back is not None:
                    return (fast[0], *back)
            # Only the fields that changed are dumped; the others stand as the same object on
            # both sides, which the patcher skips as equal.
            old: dict[str, Any] = {}
            new: dict[str, Any] = {}
            unset = type(f.model).model_fields.keys() - f.model.model_fields_set
            unset_then = type(f.model).model_fields.keys() - (snap.model.model_fields_set if snap.model else set())
            variant = is_variant(f.model)
            for name in type(f.model).model_fields:
                if name in changes:
                    key, old[key], new[key] = changes[name]
                    if name in unset:
                        # An edit took the field out of what the file says (an undo, or a
                        # variant's property cleared to inherit its base's): the key goes,
                        # rather than being written as its default (``weather: null``).
                        del new[key]
                    if variant and name in unset_then and name not in unset:
                        # The file did not say it (its default stood): the key is new text,
                        # even when its value is the default (a variant's ``special_rules: []``).
                        del old[key]
                else:
                    old[name] = new[name] = _SAME
            try:
                result = patch(snap.text, old, new, f.canonical)
            except PatchError:
                result = None
            if result is not None:
                back = None
                raw_ok = result.scalar_edits is not None and snap.raw is not None
                if raw_ok:
                    back = _raw_reads_back(result.text, f.rel, snap.raw, result.scalar_edits)
                if (raw_ok and back is not None and len(result.text) < FULL_CHECK_BYTES) or not raw_ok:
                    back = _reads_back(result.text, f, full_data())
                if back is not None:
                    return (result.text, *back)
        self.last_save_fallbacks.append(f.rel)
        return dump_yaml(f.canonical()), None, {}

    def save(self, root: Path | None = None, *, rewrite: set[str] | frozenset[str] = frozenset()) -> list[Path]:
        """Write what changed, all files or none (model/safefile.commit_files), patching the
        loaded text so that only what was edited changes.

        Into the bundle's own folder only the files whose data changed are written. Into
        another folder (autosave, a copy) every file that differs there is written.
        ``rewrite`` names files to write back from memory whatever their data: the user chose
        to overwrite what another program wrote there (the editor detects that; see
        editor/disk_state.py)."""
        target = Path(root) if root is not None else self.root
        own = _same_folder(target, self.root)
        texts = self.pending_texts(target, rewrite if own else frozenset())
        written = commit_files(target, {Path(rel): text.encode("utf-8") for rel, text in texts.items()})
        if own:
            self._adopt(texts)
        return written

    def save_as(self, root: Path) -> list[Path]:
        """Save into ``root`` and make it the bundle's folder (its snapshots follow)."""
        written = self.save(root)
        self.rebase(root)
        return written

    def rebase(self, root: Path) -> None:
        """Make ``root`` the bundle's folder, with snapshots of what *its* files hold.

        A recovered document is loaded from the recovery copy but saves into the user's
        folder: its next save must patch the user's files, and write every edit the copy
        holds. A file there that cannot be read back gets a snapshot with no data, so a save
        replaces it with the canonical text of the version in memory."""
        self.root = Path(root)
        self.snapshots = {}
        self.failed_files = set()
        for f in self.file_models():
            path = self.root / f.rel
            if not path.is_file():
                continue
            try:
                text = read_bytes(path, MAX_BYTES).decode("utf-8")
            except Exception:  # noqa: BLE001 - unreadable: the save writes it whole
                self.snapshots[f.rel] = FileSnapshot("", None)
                continue
            try:
                data, smap, errors = parse_yaml(text, f.rel)
            except YamlError:
                self.snapshots[f.rel] = FileSnapshot(text, None)
                continue
            diags: list[Diagnostic] = []
            model = _model_for(f.kind, data, smap, diags, f.context) if isinstance(data, dict) else None
            if model is None or errors:
                self.snapshots[f.rel] = FileSnapshot(text, None)
            else:  # a model of its own, which nothing else holds: no copy needed
                self.snapshots[f.rel] = FileSnapshot(text, model, f.context, data, smap.literal_blocks)

    def _adopt(self, texts: dict[str, str]) -> None:
        """After a save: the written texts are what the files now hold."""
        for f in self.file_models():
            if f.rel in texts:
                raw, blocks, dumps = self._computed.get(f.rel) or (None, {}, {})
                self.snapshots[f.rel] = FileSnapshot.of(texts[f.rel], f.model, f.context, raw, blocks, dumps)
                self.failed_files.discard(f.rel)


def _same_folder(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


# Below this size a patched file is also validated into its model after a scalar-only patch
# (cheap there); above it the raw-data check alone keeps a one-hex save of a 700x700 map fast.
FULL_CHECK_BYTES = 256 * 1024


def _changes(snap: FileSnapshot, f: _FileModel, dumps: dict[str, tuple[str, Any]]
             ) -> dict[str, tuple[str, Any, Any]] | None:
    """The fields of ``f.model`` whose data differ from the snapshot's: field name → (key in
    the file, data then, data now); ``{}`` when nothing changed, None when the snapshot does
    not know its model. A field the snapshot holds a copy of is dumped only if it is not
    ``==`` to the copy (:func:`_freeze` says why that is sound); a change of label context
    (the map's grid) may change how any field prints, so then every field is dumped. The
    model's dumps made here are left in ``dumps``."""
    then = snap.model
    if then is None or type(then) is not type(f.model):
        return None
    same_context = snap.context == f.context
    out: dict[str, tuple[str, Any, Any]] = {}
    d = f.model.__dict__
    # In a variant (a model that ``extends`` another) a field the file now says, or no longer
    # says, is a change even at the same value: its ``special_rules: []`` replaces its base's
    # rules, and left out reads as them. Elsewhere a default said or not reads the same.
    variant = is_variant(f.model)
    set_then, set_now = then.model_fields_set, f.model.model_fields_set
    for name in type(f.model).model_fields:
        said = variant and (name in set_then) != (name in set_now)
        if same_context and name not in snap.dumped and then.__dict__[name] == d[name] and not said:
            continue
        key, old = snap.field_data(name)
        now = dumps[name] = _field_dump(f.model, name, f.context)
        if old != now[1] or said:
            out[name] = (key, old, now[1])
    return out


def _leaf_changes(old: Any, new: Any, path: Path_) -> list[tuple[Path_, Any, Any]] | None:
    """Every leaf where two data trees differ, as (path, old, new); None when their shape
    differs (a key or an item added or removed, a leaf turned into a container)."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        if old.keys() != new.keys():
            return None
        pairs: Iterator[tuple[str | int, Any, Any]] = ((k, old[k], new[k]) for k in old)
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return None
        pairs = ((i, a, b) for i, (a, b) in enumerate(zip(old, new)))
    elif isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        return None
    else:
        return [(path, old, new)]
    out: list[tuple[Path_, Any, Any]] = []
    for k, a, b in pairs:
        sub = _leaf_changes(a, b, path + (k,))
        if sub is None:
            return None
        out.extend(sub)
    return out


def _value_at(tree: Any, path: Path_) -> Any:
    for part in path:
        if isinstance(tree, dict) and isinstance(part, str) and part in tree:
            tree = tree[part]
        elif isinstance(tree, list) and isinstance(part, int) and 0 <= part < len(tree):
            tree = tree[part]
        else:
            return _NO_PATH
    return tree


def _literal_patched(rel: str, snap: FileSnapshot, changes: dict[str, tuple[str, Any, Any]]
                     ) -> tuple[str, Any, dict[Path_, LiteralBlock]] | None:
    """The save of an edit that changed only lines of literal blocks (painting terrain):
    (text, raw data, literal blocks), or None to take the general way.

    Neither the document is composed again nor the result read back whole. Each changed
    block's lines are replaced (yamlpatch.patch_literal) and checked by
    yamlpatch.literal_reads_back, which shows, by parsing that block's lines again on their
    own, that the new text reads as the old raw data with only that block's value changed
    (the argument is in its docstring). This is the raw-level check that :meth:`Bundle._patched`
    makes of every scalar-only patch, by other means: the text reads as the loaded raw data
    with exactly the edited values set, and each edited raw value is the data dumped there
    (checked below against the raw data before the edit too)."""
    if snap.raw is None or not snap.blocks:
        return None
    edits: list[tuple[Path_, Any, Any]] = []
    for key, old, new in changes.values():
        leaves = _leaf_changes(old, new, (key,))
        if leaves is None:
            return None
        edits.extend(leaves)
    text, raw, blocks = snap.text, snap.raw, snap.blocks
    for path, old, new in edits:
        block = blocks.get(path)
        if block is None or not isinstance(old, str) or not isinstance(new, str) or not isinstance(path[-1], str):
            return None
        if _value_at(raw, path) != old:
            return None  # the raw data there is not what the model dumps: not a plain text field
        patched = patch_literal(text, block, old, new, path)
        if patched is None:
            return None
        moved = literal_reads_back(text, block, path[-1], patched, new, rel)
        if moved is None:
            return None
        delta = len(patched) - len(text)
        blocks = {q: moved if q == path else (b.shifted(delta) if b.header > block.header else b)
                  for q, b in blocks.items()}
        raw = _with_value(raw, path, new)
        text = patched
    return text, raw, blocks


def _raw_reads_back(text: str, rel: str, raw: Any, edits: list[tuple[tuple[str | int, ...], Any]]
                    ) -> tuple[Any, dict[Path_, LiteralBlock]] | None:
    """(raw data, literal blocks) of the patched text if it reads as ``raw`` with exactly the
    edited paths set to their values, else None."""
    try:
        # Only scalars changed, so the nesting is the loaded file's, which passed the scan.
        data, smap, errors = parse_yaml(text, rel, check_depth=False)
    except YamlError:
        return None
    if errors:
        return None
    expected = raw
    for path, value in edits:
        expected = _with_value(expected, path, value)
        if expected is _NO_PATH:
            return None
    return (data, smap.literal_blocks) if data == expected else None


_NO_PATH = object()


def _with_value(tree: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """``tree`` with the value at ``path`` replaced, copying only the containers on the path."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict) and isinstance(head, str) and head in tree:
        child = _with_value(tree[head], rest, value)
        return _NO_PATH if child is _NO_PATH else {**tree, head: child}
    if isinstance(tree, list) and isinstance(head, int) and 0 <= head < len(tree):
        child = _with_value(tree[head], rest, value)
        return _NO_PATH if child is _NO_PATH else tree[:head] + [child] + tree[head + 1:]
    return _NO_PATH


def _reads_back(text: str, f: _FileModel, full: Any) -> tuple[Any, dict[Path_, LiteralBlock]] | None:
    """(raw data, literal blocks) of the patched text if it loads, through the normal loader,
    to exactly the data being saved, else None."""
    try:
        data, smap, errors = parse_yaml(text, f.rel)
    except YamlError:
        return None
    if errors or not isinstance(data, dict):
        return None
    diags: list[Diagnostic] = []
    model = _model_for(f.kind, data, smap, diags, f.context)
    ok = model is not None and not diags and model.model_dump(mode="json", context=f.context or {}) == full
    return (data, smap.literal_blocks) if ok else None


def _model_for(kind: str, data: dict[str, Any], smap: SourceMap, diags: list[Diagnostic],
               context: dict[str, Any] | None) -> BaseModel | None:
    if kind == "game":
        return _validate(GameFile, data, smap, diags)
    if kind == "counters":
        return _validate(CounterFile, data, smap, diags)
    if kind == "map":
        return _map_from_data(data, smap, diags)
    return _validate(Scenario, data, smap, diags, context)


def _flowify(data: Any, key: str | None = None) -> Any:
    """Short lists of scalars go on one line; everything else stays block style."""
    if isinstance(data, dict):
        return {k: _flowify(v, k) for k, v in data.items()}
    if isinstance(data, list):
        if data and all(isinstance(x, (str, int, float)) and len(str(x)) <= 24 for x in data):
            return FlowList(data)
        if data and all(isinstance(x, list) and all(isinstance(y, (int, float)) for y in x) for x in data):
            return [FlowList(x) for x in data]
        return [_flowify(x) for x in data]
    return data


def is_variant(model: BaseModel) -> bool:
    """A model that ``extends`` another (a variant scenario): a key it sets replaces its base's,
    so a key set at its default still says something and is written (canonical_data, _changes)."""
    return bool(getattr(model, "extends", None))


def canonical_data(model: BaseModel, context: dict[str, Any] | None = None) -> Any:
    """The data a fresh save writes: defaults left out, short lists in flow style.

    But for a variant (a model that ``extends`` another): every key it sets is written, even at
    its default. A key a variant sets replaces its base's (``_apply_variant``), so a variant
    whose special rules were all removed has ``special_rules: []``, which left out would read
    back as the base's rules (found by the save/load hypothesis law of
    tests/model/test_scenario_props.py: remove a base's rule, then the variant's last one)."""
    data = model.model_dump(mode="json", exclude_defaults=True, context=context or {})
    if is_variant(model):
        kept = model.model_fields_set - data.keys()
        if kept:
            full = model.model_dump(mode="json", include=kept, context=context or {})
            data = {k: (data[k] if k in data else full[k]) for k in type(model).model_fields
                    if k in data or k in full}
    if "schema_version" in type(model).model_fields:
        data = {"schema_version": getattr(model, "schema_version"), **data}
    return _flowify(data)


def dump_model(model: BaseModel, context: dict[str, Any] | None = None) -> str:
    return dump_yaml(canonical_data(model, context))


def resolve_variant(scenarios: dict[str, Scenario], scenario_id: str, _seen: tuple[str, ...] = (),
                    deep: bool = True) -> Scenario:
    """The scenario with its whole ``extends`` chain applied, base first.

    Iterative (no recursion, so no RecursionError on a long chain) and linear in the chain:
    the chain is walked once, the root is copied once, and each variant's keys and
    overrides are applied in turn to that one working copy (each base is resolved once,
    not once per variant above it). A chain longer than ``MAX_EXTENDS_DEPTH`` and a cycle
    (named in full: ``a → b → a``) raise ``ValueError``."""
    from model.limits import MAX_EXTENDS_DEPTH

    chain = [scenario_id]
    index = {scenario_id: 0}
    scen = scenarios[scenario_id]
    while scen.extends:
        parent = scen.extends
        if parent in index:
            cycle = " → ".join(chain[index[parent]:] + [parent])
            if index[parent] == 0:
                raise ValueError(f"scenario {scenario_id!r} extends itself through {cycle}")
            raise ValueError(f"scenario {scenario_id!r} extends a cycle of scenarios: {cycle}")
        if parent not in scenarios:
            raise ValueError(f"scenario {chain[-1]!r} extends unknown scenario {parent!r}")
        if len(chain) > MAX_EXTENDS_DEPTH:
            raise ValueError(f"scenario {scenario_id!r}: the extends chain is longer than {MAX_EXTENDS_DEPTH} "
                             f"({' → '.join(chain[:3])} → … ); refusing to resolve it")
        index[parent] = len(chain)
        chain.append(parent)
        scen = scenarios[parent]
    if len(chain) == 1:
        return scen
    root = scenarios[chain[-1]]
    # deep=False (read-only callers): a shallow copy whose nested nodes are the base's own,
    # so their source file/path are already right and nothing needs copying.
    merged = root.model_copy(deep=deep)
    if deep:
        _copy_sources(root, merged)
    for sid in reversed(chain[:-1]):
        # As when each base was deep-copied in turn: a deep resolve copies what the bases
        # in the middle of the chain contribute; the scenario's own setup/schedule are shared.
        _apply_variant(merged, scenarios[sid], deep, copy_lists=deep and sid != scenario_id)
    return merged


def _apply_variant(merged: Scenario, scen: Scenario, deep: bool, copy_lists: bool = False) -> None:
    """Apply one variant's keys and overrides to ``merged`` (its resolved base, owned here)."""
    for name in scen.model_fields_set - {"overrides", "extends", "schema_version"}:
        value = getattr(scen, name)
        if name == "optional_rules":
            value = {**merged.optional_rules, **value}
        elif name == "params":
            value = merge_params(merged.params, value)  # deep merge; null deletes (model/scenario.py)
        elif deep and (copy_lists or name not in ("setup", "schedule")):
            value = copy.deepcopy(value)
        object.__setattr__(merged, name, value)
    ov = scen.overrides
    if ov is not None:
        removed = set(ov.setup_remove) | {e.unit for e in ov.setup_add}
        added = copy.deepcopy(ov.setup_add) if copy_lists else list(ov.setup_add)
        setup = [e for e in merged.setup if e.unit not in removed] + added
        object.__setattr__(merged, "setup", setup)
        drop = set(ov.schedule_remove)
        sched = []
        for e in merged.schedule:
            if drop & set(e.units):
                kept = [u for u in e.units if u not in drop]
                if not kept:
                    continue
                e = e.model_copy(update={"units": kept})
            sched.append(e)
        sched_add = copy.deepcopy(ov.schedule_add) if copy_lists else list(ov.schedule_add)
        object.__setattr__(merged, "schedule", sched + sched_add)
    object.__setattr__(merged, "extends", scen.extends)
    merged.set_source(scen.source_file, scen.source_path)


def _copy_sources(src: Any, dst: Any) -> None:
    """model_copy(deep=True) keeps private attributes, but be explicit for nested nodes."""
    from model.base import walk_nodes

    for (a, _), (b, _) in zip(walk_nodes(src), walk_nodes(dst)):
        b.set_source(a.source_file, a.source_path)


# --- loading -----------------------------------------------------------------------------


# Codes that mean "this file is not well-formed input" rather than "its data breaks a rule":
# any of them at error severity makes the input unreadable (``hexproof validate`` exits 2).
UNREADABLE_CODES = ("LOAD-YAML-", "LOAD-FILE-")


@dataclass
class LoadResult:
    bundle: Bundle | None
    diagnostics: list[Diagnostic]
    scenario_hint: str | None = None  # set when the user pointed at one scenario file
    # Relative paths of the files that could not be read (also on ``bundle.unreadable``).
    unreadable_files: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return self.bundle is not None and not any(d.severity >= Severity.ERROR for d in self.diagnostics)

    @property
    def unreadable(self) -> bool:
        """No bundle came back at all (game.yaml, the system or every map failed)."""
        return self.bundle is None

    @property
    def unreadable_input(self) -> bool:
        """Some input is not well-formed: no bundle, a file that could not be read, or a YAML
        error such as a duplicate key in a file that still loaded. Exit code 2, not 1."""
        return (self.bundle is None or bool(self.unreadable_files)
                or any(d.code.startswith(UNREADABLE_CODES) and d.severity >= Severity.ERROR
                       for d in self.diagnostics))


# A file with thousands of schema errors is the wrong file, not thousands of problems:
# report the first ones and a count, so a hostile file cannot flood the UI or the time budget.
MAX_SCHEMA_ERRORS_PER_FILE = 200


def _validation_diagnostics(exc: ValidationError, data: Any, smap: SourceMap,
                            prefix: tuple[str | int, ...] = ()) -> list[Diagnostic]:
    out = []
    if exc.error_count() > MAX_SCHEMA_ERRORS_PER_FILE:
        out.append(Diagnostic("LOAD-SCHEMA-003", Severity.ERROR,
                              f"{exc.error_count():,} schema errors in this file; "
                              f"showing the first {MAX_SCHEMA_ERRORS_PER_FILE}",
                              Location(file=smap.file, line=1, column=1)))
    for err in exc.errors(include_url=False)[:MAX_SCHEMA_ERRORS_PER_FILE]:
        path: list[str | int] = []
        cursor = data
        for part in err["loc"]:
            if isinstance(cursor, dict) and part in cursor:
                path.append(part)
                cursor = cursor[part]
            elif isinstance(cursor, dict) and isinstance(part, int) and str(part) in cursor:
                # A mapping keyed by numbers (a CRT's die totals): the file's key is the text.
                path.append(str(part))
                cursor = cursor[str(part)]
            elif isinstance(cursor, list) and isinstance(part, int) and 0 <= part < len(cursor):
                path.append(part)
                cursor = cursor[part]
            elif err["type"] in ("missing", "extra_forbidden") and isinstance(part, str):
                path.append(part)
                break
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        field_name = path[-1] if path else None
        if err["type"] == "missing":
            msg = f"missing required key {field_name!r}"
        elif err["type"] == "extra_forbidden":
            msg = f"unknown key {field_name!r}"
        elif field_name is not None and isinstance(field_name, str):
            msg = f"{field_name}: {msg}"
        code = "LOAD-SCHEMA-001"
        if "hex label" in msg or "HEX/DIRECTION" in msg or "unknown direction" in msg:
            code = "LOAD-LABEL-001"
        loc = smap.location(prefix + tuple(path))
        # For unknown/missing keys point at the key itself (or its parent mapping).
        out.append(Diagnostic(code, Severity.ERROR, msg, loc))
    return out


def _validate(model: type[M], data: Any, smap: SourceMap, diags: list[Diagnostic],
              context: dict[str, Any] | None = None) -> M | None:
    if not isinstance(data, dict):
        diags.append(Diagnostic("LOAD-SCHEMA-001", Severity.ERROR,
                                f"expected a mapping of keys at the top of the file, found {type(data).__name__}",
                                Location(file=smap.file, line=1, column=1)))
        return None
    try:
        obj = model.model_validate(data, context=context or {})
    except ValidationError as exc:
        diags.extend(_validation_diagnostics(exc, data, smap))
        return None
    if isinstance(obj, Node):
        stamp_sources(obj, smap.file)
    return obj


def _read(path: Path, display: str, diags: list[Diagnostic], sources: dict[str, SourceMap],
          texts: dict[Path, tuple[str, Any, SourceMap]] | None = None) -> Any:
    try:
        data, smap, errors, text = read_yaml_source(path, display)
    except YamlError as exc:
        diags.append(exc.diagnostic)
        return None, None
    diags.extend(errors)
    sources[display] = smap
    if texts is not None:
        texts[path] = (text, data, smap)
    if isinstance(data, dict):
        version = data.get("schema_version", 1)
        data = migrate(data, version, display, diags, smap)
    return data, smap


CURRENT_SCHEMA = 1


def migrate(data: dict[str, Any], version: Any, file: str, diags: list[Diagnostic], smap: SourceMap) -> dict[str, Any]:
    """Hook for schema migrations: upgrade ``data`` from ``version`` to the current schema."""
    try:
        v = int(version)
    except (TypeError, ValueError):
        diags.append(Diagnostic("LOAD-SCHEMA-002", Severity.ERROR, f"schema_version must be a whole number, got {version!r}",
                                smap.location(("schema_version",))))
        return data
    if v > CURRENT_SCHEMA:
        diags.append(Diagnostic("LOAD-SCHEMA-002", Severity.ERROR,
                                f"schema_version {v} is newer than this Hexproof understands ({CURRENT_SCHEMA}); upgrade Hexproof",
                                smap.location(("schema_version",))))
    # Version 1 is the first schema: no migrations yet. Add `if v < 2: ...` steps here.
    return data


def find_bundle_root(path: Path) -> tuple[Path | None, Path | None]:
    """(bundle root, scenario file) for a bundle folder, its game.yaml, or a file inside it."""
    path = Path(path)
    if path.is_dir():
        return (path, None) if (path / BUNDLE_FILE).exists() else (None, None)
    if path.name == BUNDLE_FILE:
        return path.parent, None
    real = Path(os.path.realpath(path))  # never raises on a symlink loop (Path.resolve() does on 3.11)
    for parent in real.parents:
        if (parent / BUNDLE_FILE).exists():
            return parent, real
    return None, None


def load_system(ref: str, base: Path | None, diags: list[Diagnostic], sources: dict[str, SourceMap]) -> GameSystem | None:
    candidate = Path(ref)
    if base is not None and (base / candidate).suffix in (".yaml", ".yml") and (base / candidate).exists():
        path = base / candidate
    elif candidate.suffix in (".yaml", ".yml") and candidate.exists():
        path = candidate
    else:
        path = system_path(ref)
    display = _display(path)
    data, smap = _read(path, display, diags, sources)
    if smap is None:
        return None
    return _validate(GameSystem, data, smap, diags)


def _display(path: Path) -> str:
    try:
        # os.path.realpath, not Path.resolve(): on Python 3.11 resolve() raises RuntimeError on a
        # symlink loop (a → b → a), which the read then reports as a located error instead.
        return str(Path(os.path.realpath(path)).relative_to(os.path.realpath(Path.cwd())))
    except ValueError:
        return str(path)


def _inside(root: Path, rel: str, diags: list[Diagnostic], where: Location, what: str) -> Path | None:
    """``rel`` resolved inside the bundle (model/safefile), or None with a located error."""
    try:
        resolve_inside(root, rel, what=what)
    except SafeFileError as exc:
        diags.append(Diagnostic("LOAD-FILE-003", Severity.ERROR, exc.message, where))
        return None
    return root / rel  # as named (a symlink stays a symlink); it resolves inside the root


def _check_named_files(bundle: Bundle, smap: SourceMap, diags: list[Diagnostic]) -> None:
    """Files the bundle names but does not load now (a map's background image, the ``crt:``
    file): each must resolve inside the bundle after symlinks (LOAD-FILE-003) and, if it
    exists, be a regular file (LOAD-FILE-004) — checked by ``stat()`` only, so a FIFO never
    blocks. Located at the key that names it; the readers (editor, proof-art, play) refuse
    the same files through model/safefile."""
    from model.safefile import kind_problem

    named: list[tuple[str, Location, str]] = []
    if bundle.game.crt:
        named.append((bundle.game.crt, smap.location(("crt",)), "CRT file"))
    for hmap in bundle.maps.values():
        if hmap.background is not None:
            named.append((hmap.background.image, bundle.locate(hmap.background, "image"), "background image"))
    for rel, where, what in named:
        path = _inside(bundle.root, rel, diags, where, what)
        if path is None:
            continue
        problem = kind_problem(path, what=f"{what} {rel!r}")
        if problem is not None:
            diags.append(Diagnostic("LOAD-FILE-004", Severity.ERROR, problem, where))


def extends_missing_base(scenarios: dict[str, Scenario], scenario_id: str) -> bool:
    """Whether following ``extends`` from ``scenario_id`` reaches an id that is not loaded."""
    seen: set[str] = set()
    sid: str | None = scenario_id
    while sid is not None and sid not in seen:
        if sid not in scenarios:
            return True
        seen.add(sid)
        sid = scenarios[sid].extends
    return False  # no base, or a cycle (a different error)


def load_bundle(path: str | Path) -> LoadResult:
    """The bundle at ``path`` (its folder, its game.yaml, or a file inside it), with every
    problem found as a located diagnostic."""
    # Loading a 700x700 map makes a few hundred thousand objects (parser nodes and marks, the
    # raw data, the models) that form no reference cycles: the cyclic GC's passes over them
    # (about 240 of them) were a third of the load (0.15-0.18 s of 0.55 s). Reference counting
    # still frees all the garbage at once; collection resumes afterwards (as in terrain_index).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _load_bundle(path)
    finally:
        if was_enabled:
            gc.enable()


def _load_bundle(path: str | Path) -> LoadResult:
    # A file whose _read failed never reaches ``sources``: that is how the steps below tell
    # "could not be read" (``unreadable``: its data is absent) from "read but invalid".
    diags: list[Diagnostic] = []
    sources: dict[str, SourceMap] = {}
    texts: dict[Path, tuple[str, Any, SourceMap]] = {}
    path = Path(path)
    if not path.exists():
        return LoadResult(None, [Diagnostic("LOAD-FILE-001", Severity.ERROR, "no such file or folder",
                                            Location(file=str(path)))], unreadable_files={str(path)})
    root, scenario_file = find_bundle_root(path)
    if root is None:
        return LoadResult(None, [Diagnostic("LOAD-FILE-002", Severity.ERROR,
                                            f"not a game bundle: no {BUNDLE_FILE} here or in a parent folder",
                                            Location(file=str(path)))], unreadable_files={str(path)})
    recovered = _recover(root, diags)
    game_path = root / BUNDLE_FILE
    data, smap = _read(game_path, _display(game_path), diags, sources, texts)
    if smap is None:
        return LoadResult(None, diags, unreadable_files={BUNDLE_FILE})
    game = _validate(GameFile, data, smap, diags)
    if game is None:
        return LoadResult(None, diags)
    from model.limits import bundle_size_problem  # total size of every file, by stat(); nothing read

    if (too_big := bundle_size_problem(root, game, smap.location)) is not None:
        return LoadResult(None, diags + [Diagnostic("LOAD-YAML-003", Severity.ERROR, *too_big)])
    system = load_system(game.system, root, diags, sources)
    if system is None:
        if diags and diags[-1].code.startswith("LOAD-YAML-"):
            # The system file's own syntax error is the one problem; point back at game.yaml
            # instead of adding a second error about the same file.
            diags[-1] = _with_related(diags[-1], smap.location(("system",)))
        else:
            diags.append(Diagnostic("LOAD-REF-001", Severity.ERROR, f"cannot load game system {game.system!r}",
                                    smap.location(("system",))))
        return LoadResult(None, diags)
    bundle = Bundle(root=root, game=game, system=system, sources=sources, recovered=recovered)

    for i, rel in enumerate(game.maps):
        where = smap.location(("maps", i))
        mpath = _inside(root, rel, diags, where, "map file")
        hmap = _load_map(mpath, diags, sources, where, texts) if mpath is not None else None
        if hmap is None:
            bundle.failed_files.add(rel)
            if mpath is None or _display(mpath) not in sources:
                bundle.unreadable.add(rel)
            continue
        if hmap.id in bundle.maps:
            diags.append(Diagnostic("LOAD-REF-002", Severity.ERROR, f"two maps have the id {hmap.id!r}", where))
            bundle.failed_files.add(rel)
            continue
        bundle.maps[hmap.id] = hmap
        bundle.files[f"map:{hmap.id}"] = rel
    if not bundle.maps:
        return LoadResult(None, diags, unreadable_files=set(bundle.unreadable))
    _check_named_files(bundle, smap, diags)

    if game.counters:
        cpath = _inside(root, game.counters, diags, smap.location(("counters",)), "counter manifest")
        cfile = None
        if cpath is not None:
            cdata, csmap = _read(cpath, _display(cpath), diags, sources, texts)
            if csmap is None:
                diags[-1] = _with_related(diags[-1], smap.location(("counters",)))
                bundle.unreadable.add(game.counters)
            else:
                cfile = _validate(CounterFile, cdata, csmap, diags)
        if cfile is not None:
            bundle.counters = cfile.counters
        else:
            bundle.failed_files.add(game.counters)

    if game.scenarios:
        scenario_files = []
        for i, rel in enumerate(game.scenarios):
            spath = _inside(root, rel, diags, smap.location(("scenarios", i)), "scenario file")
            if spath is None:
                bundle.failed_files.add(rel)
                bundle.unreadable.add(rel)
            else:
                scenario_files.append(spath)
    else:
        scenario_files = sorted((root / "scenarios").glob("*.yaml"))
    hint = None
    maps_unreadable = any(m in bundle.unreadable for m in game.maps)
    for spath in scenario_files:
        rel = str(spath.relative_to(root))
        scen = _load_scenario(spath, bundle, diags, sources, texts, maps_unreadable)
        if scen is None:
            bundle.failed_files.add(rel)
            if _display(spath) not in sources:
                bundle.unreadable.add(rel)
            continue
        if scen.id in bundle.scenarios:
            diags.append(Diagnostic("LOAD-REF-002", Severity.ERROR, f"two scenarios have the id {scen.id!r}",
                                    bundle.locate(scen, "id")))
            bundle.failed_files.add(rel)
            continue
        bundle.scenarios[scen.id] = scen
        bundle.files[f"scenario:{scen.id}"] = rel
        if scenario_file is not None and Path(os.path.realpath(spath)) == scenario_file:
            hint = scen.id
    scenarios_unreadable = bool(bundle.unreadable - set(game.maps) - {game.counters})
    for sid, scen in bundle.scenarios.items():
        try:
            bundle.resolved(sid)
        except ValueError as exc:
            if scenarios_unreadable and extends_missing_base(bundle.scenarios, sid):
                continue  # the base is likely in the file that could not be read, reported above
            diags.append(Diagnostic("LOAD-REF-003", Severity.ERROR, str(exc), bundle.locate(scen, "extends")))
    for f in bundle.file_models():
        read = texts.get(root / f.rel)
        if read is not None:
            # A frozen copy of the model, not its dump: a save compares the two without dumping
            # (and dumps only what changed), so loading a 700x700 map need not dump it.
            bundle.snapshots[f.rel] = FileSnapshot.of(read[0], f.model, f.context, read[1], read[2].literal_blocks)
    return LoadResult(bundle, diags, hint, unreadable_files=set(bundle.unreadable))


def _recover(root: Path, diags: list[Diagnostic]) -> list[str]:
    """Complete (or undo) a save that a crash interrupted, and say so."""
    try:
        messages = recover_interrupted_save(root)
    except OSError as exc:
        messages = [f"an interrupted save could not be completed: {exc}"]
    for message in messages:
        diags.append(Diagnostic("LOAD-SAVE-001", Severity.INFO, message, Location(file=str(root / JOURNAL))))
    return messages


def _with_related(d: Diagnostic, where: Location) -> Diagnostic:
    return Diagnostic(d.code, d.severity, d.message, d.location, d.rule_case, d.related + (where,))


def _load_map(path: Path, diags: list[Diagnostic], sources: dict[str, SourceMap], where: Location,
              texts: dict[Path, tuple[str, Any, SourceMap]] | None = None) -> HexMap | None:
    display = _display(path)
    data, smap = _read(path, display, diags, sources, texts)
    if smap is None:
        diags[-1] = _with_related(diags[-1], where)
        return None
    return _map_from_data(data, smap, diags)


def _map_from_data(data: Any, smap: SourceMap, diags: list[Diagnostic]) -> HexMap | None:
    if not isinstance(data, dict):
        return _validate(HexMap, data, smap, diags)
    try:
        grid = GridModel.model_validate(data.get("grid"))
    except ValidationError as exc:
        # Locate each problem at its own key inside ``grid:`` rather than at ``grid:``.
        diags.extend(_validation_diagnostics(exc, data.get("grid"), smap, ("grid",)))
        return None
    if not grid.sheets:
        # Every label and bound is computed from the sheets: a sheetless grid cannot hold a hex.
        diags.append(Diagnostic("LOAD-SCHEMA-001", Severity.ERROR, "sheets: a map needs at least one sheet",
                                smap.location(("grid", "sheets"))))
        return None
    return _validate(HexMap, data, smap, diags, {"grid": grid.spec()})


def _load_scenario(path: Path, bundle: Bundle, diags: list[Diagnostic], sources: dict[str, SourceMap],
                   texts: dict[Path, tuple[str, Any, SourceMap]] | None = None, maps_unreadable: bool = False) -> Scenario | None:
    """The scenario in ``path``, or None. With ``maps_unreadable``, a scenario on a map that did
    not load is not read either, and joins ``bundle.unreadable``."""
    display = _display(path)
    data, smap = _read(path, display, diags, sources, texts)
    if smap is None:
        return None
    map_id = data.get("map") if isinstance(data, dict) else None
    hmap = bundle.maps.get(map_id) if isinstance(map_id, str) else None
    if maps_unreadable and isinstance(map_id, str) and hmap is None:
        # Its map file could not be read, so its labels cannot be read in that map's scheme:
        # reading them in another map's would report a cascade of label errors that are not there.
        bundle.unreadable.add(str(path.relative_to(bundle.root)))
        return None
    hmap = hmap or bundle.default_map
    return _validate(Scenario, data, smap, diags, hmap.context())


def bundle_for_scenario(bundle: Bundle, scenario_id: str) -> tuple[Scenario, HexMap]:
    scen = bundle.resolved(scenario_id)
    return scen, bundle.map_for(scen)
