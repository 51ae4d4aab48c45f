"""A new game bundle from nothing: a system, a name, a folder, map sheets, a label scheme and a
starting terrain become ``game.yaml``, one map, an empty counter manifest and one empty
starter scenario — written all at once or not at all (model/safefile.commit_files), into a
new or empty folder only (an existing bundle, or any file already there, is never overwritten).

Qt-free, so the New Bundle wizard and ``hexproof new`` share it:

* :func:`load_plan_system` — the system (a shipped id, or a system file the user chose);
* :func:`default_scheme`, :func:`default_sheets` — the label scheme and sheets a system's
  ``grid:`` gives (``labels:`` as a model/labels.py LabelScheme; ``sheet_prefix: true``: each
  sheet's labels start with its id; ``sheets:`` the printed sheets with what differs on each);
* :func:`corner_labels` — the live preview: a sheet's four corner labels (pure);
* :func:`plan_problems` — everything wrong with a plan, as sentences (empty: it can be made);
* :func:`bundle_files` — the files' bytes (pure), and :func:`create_bundle`, which writes them.

A system given as a file is copied into the bundle as ``system.yaml``: the bundle then opens
anywhere, and nothing is written outside the chosen folder. The starter scenario runs over the
system calendar's whole span when the calendar has one (turns are data the system gives).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from model.bundle import BUNDLE_FILE, Bundle, GameFile, ValidateSettings, load_system
from model.diagnostics import Diagnostic, Severity
from model.formats.yamlio import MAX_BYTES
from model.labels import GridModel, LabelScheme, Sheet
from model.limits import MAX_MAP_HEXES, MAX_MAP_SHEETS
from model.mapdata import VOID, HexMap, TerrainLayer
from model.safefile import SafeFileError, commit_files, read_bytes
from model.scenario import Scenario, Turns
from model.system import GameSystem, system_path

MAP_ID = "map"
SCENARIO_ID = "scenario-1"
SYSTEM_COPY = "system.yaml"
CORNERS = ("NW", "NE", "SW", "SE")
_SHEET_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


class NewBundleError(ValueError):
    """A plan that cannot be made, or a folder that must not be written; says why. Nothing
    has been written when it is raised."""


@dataclass(frozen=True)
class SheetPlan:
    """One map sheet: its size, its place in the map's offset grid, and its label scheme
    (None: the system's default for a sheet of this id, :func:`default_scheme`)."""

    id: str
    cols: int
    rows: int
    x0: int = 0
    y0: int = 0
    labels: LabelScheme | None = None


@dataclass(frozen=True)
class BundlePlan:
    folder: Path
    name: str
    system: str                      # a shipped system id, or the path of a system file
    sheets: tuple[SheetPlan, ...]
    terrain: str | None = None       # starting terrain id; None: the system's first terrain
    orientation: str | None = None   # None: the system grid's (else flat)
    stagger: str | None = None       # None: the system grid's (else odd)
    bundle_id: str | None = None     # None: made from the name
    scenario_name: str = "Scenario 1"
    # Rule codes to switch off in game.yaml's ``validate: ignore:`` (the caller's choice, e.g.
    # rules about map content a new map cannot have yet; see validators/starter.py).
    ignore_rules: tuple[str, ...] = ()


@dataclass
class NewBundle:
    """What :func:`create_bundle` wrote."""

    root: Path
    written: list[Path] = field(default_factory=list)
    system: GameSystem | None = None


# --- the system and its grid defaults -------------------------------------------------------------

def load_plan_system(ref: str) -> GameSystem:
    """The system a plan names: a shipped id (``sfn``) or the path of a system file."""
    diags: list[Diagnostic] = []
    path = Path(ref)
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise NewBundleError(f"system file {ref!r} not found")
    elif not system_path(ref).is_file():
        from model.system import available_systems

        raise NewBundleError(f"no shipped system {ref!r}; the shipped systems are {', '.join(available_systems())}, "
                             "or give the path of a system file (.yaml)")
    system = load_system(ref, None, diags, {})
    errors = [d for d in diags if d.severity >= Severity.ERROR]
    if system is None or errors:
        shown = "; ".join(d.render() for d in errors[:5]) or "it does not load"
        raise NewBundleError(f"system {ref!r} cannot be used: {shown}")
    return system


def _grid(system: GameSystem) -> dict[str, Any]:
    return system.grid if isinstance(system.grid, dict) else {}


def default_scheme(system: GameSystem, sheet_id: str, rows: int) -> LabelScheme:
    """The label scheme the system gives a sheet ``sheet_id`` of ``rows`` rows.

    ``grid.labels`` (a mapping of LabelScheme fields) is the base; ``grid.sheet_prefix``
    makes the sheet id the prefix; ``grid.sheets[sheet_id]`` overrides fields for that sheet.
    A sheet whose rows are numbered northward (``row_step: -1``) without its own
    ``first_row`` has its southern row numbered as the base's first row. A system whose
    ``labels`` is not such a mapping (prose, or a file of the user's) gives the plain
    LabelScheme (CCRR from 0101), which the caller may adjust."""
    grid = _grid(system)
    base = grid.get("labels")
    data: dict[str, Any] = dict(base) if isinstance(base, dict) else {}
    if grid.get("sheet_prefix") is True:
        data["prefix"] = sheet_id
    sheets = grid.get("sheets")
    own = sheets.get(sheet_id) if isinstance(sheets, dict) else None
    if isinstance(own, dict):
        data.update(own)
        if _step(own.get("row_step")) == -1 and "first_row" not in own:
            data["first_row"] = int(data.get("first_row", 1)) + rows - 1
    try:
        return LabelScheme.model_validate(data)
    except ValidationError:
        return LabelScheme()


def _step(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def default_sheets(system: GameSystem, cols: int, rows: int) -> tuple[SheetPlan, ...]:
    """One sheet of ``cols`` × ``rows``: the system's first printed sheet id (TKG: ``N``), else ``main``."""
    sheets = _grid(system).get("sheets")
    sheet_id = str(next(iter(sheets))) if isinstance(sheets, dict) and sheets else "main"
    return (SheetPlan(sheet_id, cols, rows, labels=default_scheme(system, sheet_id, rows)),)


def corner_labels(cols: int, rows: int, scheme: LabelScheme) -> dict[str, str]:
    """The printed labels of a ``cols`` × ``rows`` sheet's four corner hexes (NW, NE, SW, SE):
    the wizard's live preview. Pure; labels depend on offset columns and rows only, so the
    orientation does not matter."""
    sheet = Sheet(id="preview", cols=max(cols, 1), rows=max(rows, 1), labels=scheme)
    x1, y1 = sheet.cols - 1, sheet.rows - 1
    cells = {"NW": (0, 0), "NE": (x1, 0), "SW": (0, y1), "SE": (x1, y1)}
    return {k: scheme.format(*sheet.printed(x, y)) for k, (x, y) in cells.items()}


# --- checking a plan ---------------------------------------------------------------------------------

def resolved_sheets(plan: BundlePlan, system: GameSystem) -> tuple[SheetPlan, ...]:
    """The plan's sheets with every label scheme filled in."""
    return tuple(s if s.labels is not None else replace(s, labels=default_scheme(system, s.id, s.rows))
                 for s in plan.sheets)


def plan_problems(plan: BundlePlan, system: GameSystem) -> list[str]:
    """Everything that keeps ``plan`` from becoming a bundle that loads and labels every hex
    once (the folder is checked by :func:`folder_problem`)."""
    out: list[str] = []
    if not plan.name.strip():
        out.append("the bundle needs a name")
    if plan.bundle_id is not None and not _SHEET_ID.fullmatch(plan.bundle_id):
        out.append(f"bundle id {plan.bundle_id!r}: use letters, digits, '-' and '_' (at most 32)")
    terrain = plan.terrain or (system.terrain[0].id if system.terrain else None)
    if terrain is None:
        out.append(f"system {system.id!r} defines no terrain types")
    elif terrain not in system.terrain_by_id:
        out.append(f"terrain {terrain!r} is not a terrain type of {system.name} "
                   f"({', '.join(t.id for t in system.terrain)})")
    orientation, stagger = _layout(plan, system)
    if orientation not in ("flat", "pointy"):
        out.append(f"orientation {orientation!r}: use flat or pointy")
    if stagger not in ("odd", "even"):
        out.append(f"stagger {stagger!r}: use odd or even")
    sheets = resolved_sheets(plan, system)
    if not sheets:
        out.append("a map needs at least one sheet")
    if len(sheets) > MAX_MAP_SHEETS:
        out.append(f"{len(sheets):,} sheets; the limit is {MAX_MAP_SHEETS:,}")
    ids = [s.id for s in sheets]
    for sid in sorted({i for i in ids if ids.count(i) > 1}):
        out.append(f"two sheets have the id {sid!r}")
    for s in sheets:
        if not _SHEET_ID.fullmatch(s.id):
            out.append(f"sheet id {s.id!r}: use letters, digits, '-' and '_' (at most 32)")
        if not (1 <= s.cols <= 5000 and 1 <= s.rows <= 5000):
            out.append(f"sheet {s.id}: {s.cols} × {s.rows} hexes; each side is 1 to 5000")
    total = sum(max(s.cols, 0) * max(s.rows, 0) for s in sheets)
    if total > MAX_MAP_HEXES:
        out.append(f"{total:,} hexes; the limit is {MAX_MAP_HEXES:,} per map")
    if out:
        return out
    for i, a in enumerate(sheets):
        for b in sheets[i + 1:]:
            if a.x0 < b.x0 + b.cols and b.x0 < a.x0 + a.cols and a.y0 < b.y0 + b.rows and b.y0 < a.y0 + a.rows:
                out.append(f"sheets {a.id} and {b.id} overlap on the map")
    for s in sheets:
        out += _label_problems(s)
    if out:
        return out
    # Every corner must read back as its own hex through the whole grid: this catches a
    # number too wide for its digits and a label that another sheet would claim.
    spec = _grid_model(sheets, orientation, stagger).spec()
    for s in sheets:
        for x, y in ((s.x0, s.y0), (s.x0 + s.cols - 1, s.y0), (s.x0, s.y0 + s.rows - 1),
                     (s.x0 + s.cols - 1, s.y0 + s.rows - 1)):
            h = spec.hex_at_offset(x, y)
            label = spec.label(h)
            if spec.try_parse(label) != h:
                out.append(f"sheet {s.id}: label {label!r} does not read back as its own hex "
                           "(another sheet prints it too, or it is too wide for its digits)")
                break
    return out


def _label_problems(s: SheetPlan) -> list[str]:
    scheme = s.labels
    assert scheme is not None
    out = []
    cols = [scheme.first_col, scheme.first_col + scheme.col_step * (s.cols - 1)]
    rows = [scheme.first_row, scheme.first_row + scheme.row_step * (s.rows - 1)]
    if min(cols) < 0 or min(rows) < 0:
        out.append(f"sheet {s.id}: its labels would need negative numbers (columns {min(cols)}–{max(cols)}, "
                   f"rows {min(rows)}–{max(rows)}); change first_col/first_row")
    limit_c = 9999 if scheme.separator else 10 ** scheme.col_digits - 1
    limit_r = 9999 if scheme.separator else 10 ** scheme.row_digits - 1
    if max(cols) > limit_c:
        out.append(f"sheet {s.id}: column numbers reach {max(cols)}, more than {scheme.col_digits} digits hold "
                   "without a separator; add digits or a separator")
    if max(rows) > limit_r:
        out.append(f"sheet {s.id}: row numbers reach {max(rows)}, more than {scheme.row_digits} digits hold "
                   "without a separator; add digits or a separator")
    return out


def folder_problem(folder: Path) -> str | None:
    """Why a new bundle may not be written into ``folder``, or None. Never overwrite: the
    folder must not exist yet, or be empty; its parent must exist."""
    folder = Path(folder)
    if folder.exists() or folder.is_symlink():
        if not folder.is_dir():
            return f"{folder} exists and is not a folder"
        try:
            entries = sorted(os.listdir(folder))
        except OSError as exc:
            return f"cannot look into {folder}: {exc.strerror or exc}"
        if BUNDLE_FILE in entries:
            return f"{folder} already holds a bundle ({BUNDLE_FILE}); a new bundle never replaces one"
        if entries:
            shown = ", ".join(entries[:3]) + (f" and {len(entries) - 3} more" if len(entries) > 3 else "")
            return f"{folder} is not empty ({shown}); choose a new or empty folder"
        return None
    if not folder.parent.is_dir():
        return f"the folder {folder.parent} does not exist"
    return None


# --- making the files --------------------------------------------------------------------------------

def _layout(plan: BundlePlan, system: GameSystem) -> tuple[str, str]:
    grid = _grid(system)
    return (plan.orientation or str(grid.get("orientation") or "flat"),
            plan.stagger or str(grid.get("stagger") or "odd"))


def _grid_model(sheets: tuple[SheetPlan, ...], orientation: str, stagger: str) -> GridModel:
    return GridModel(orientation=orientation, stagger=stagger,  # type: ignore[arg-type]
                     sheets=[Sheet(id=s.id, x0=s.x0, y0=s.y0, cols=s.cols, rows=s.rows,
                                   labels=s.labels or LabelScheme()) for s in sheets])


def slug(name: str) -> str:
    """A bundle id from its name: ``"Bastogne '44"`` → ``bastogne-44``."""
    text = re.sub(r"[^0-9a-z]+", "-", name.lower()).strip("-")[:32].strip("-")
    return text or "new-game"


def _terrain_rows(sheets: tuple[SheetPlan, ...], char: str) -> str:
    """One character per offset cell of the sheets' bounding box: ``char`` on a sheet, VOID
    between sheets."""
    x0 = min(s.x0 for s in sheets)
    y0 = min(s.y0 for s in sheets)
    x1 = max(s.x0 + s.cols for s in sheets)
    y1 = max(s.y0 + s.rows for s in sheets)
    lines = []
    for y in range(y0, y1):
        row = [VOID] * (x1 - x0)
        for s in sheets:
            if s.y0 <= y < s.y0 + s.rows:
                row[s.x0 - x0:s.x0 - x0 + s.cols] = char * s.cols
        lines.append("".join(row).rstrip(VOID))
    return "\n".join(lines)


def _starter_turns(system: GameSystem) -> Turns | None:
    turns = system.calendar.all_turns
    if not turns:
        return None
    # A calendar of named slots ("0700 6 June") is read by its labels; a daily one by number.
    named = system.calendar.kind in ("slots", "explicit")
    first, last = turns[0], turns[-1]
    return Turns(first=first.label if named else first.n, last=last.label if named else last.n)


def build_bundle(plan: BundlePlan, system: GameSystem) -> Bundle:
    """The new bundle in memory (root = the plan's folder). Raises :class:`NewBundleError`
    with every problem of the plan."""
    problems = plan_problems(plan, system)
    if problems:
        raise NewBundleError("; ".join(problems))
    sheets = resolved_sheets(plan, system)
    orientation, stagger = _layout(plan, system)
    terrain = system.terrain_by_id[plan.terrain or system.terrain[0].id]
    hmap = HexMap(id=MAP_ID, name=f"{plan.name.strip()} map", grid=_grid_model(sheets, orientation, stagger),
                  terrain=TerrainLayer(legend={terrain.char: terrain.id}, rows=_terrain_rows(sheets, terrain.char)))
    system_ref = SYSTEM_COPY if Path(plan.system).suffix in (".yaml", ".yml") else plan.system
    map_rel, scen_rel = f"maps/{MAP_ID}.yaml", f"scenarios/{SCENARIO_ID}.yaml"
    game = GameFile(id=plan.bundle_id or slug(plan.name), name=plan.name.strip(), system=system_ref,
                    maps=[map_rel], counters="counters.yaml", scenarios=[scen_rel], default_scenario=SCENARIO_ID)
    if plan.ignore_rules:
        game.validation = ValidateSettings(ignore=list(dict.fromkeys(plan.ignore_rules)))
    scen = Scenario(id=SCENARIO_ID, name=plan.scenario_name.strip() or "Scenario 1", map=MAP_ID)
    if (turns := _starter_turns(system)) is not None:
        scen.turns = turns
    bundle = Bundle(root=Path(plan.folder), game=game, system=system, maps={MAP_ID: hmap},
                    scenarios={SCENARIO_ID: scen})
    bundle.files.update({f"map:{MAP_ID}": map_rel, f"scenario:{SCENARIO_ID}": scen_rel})
    return bundle


def bundle_files(plan: BundlePlan, system: GameSystem) -> dict[Path, bytes]:
    """Every file of the new bundle, relative path → bytes (pure: reads only a system file
    the plan names, to copy it)."""
    bundle = build_bundle(plan, system)
    files = {Path(os.path.relpath(p, bundle.root)): text for p, text in bundle.dump_files().items()}
    if bundle.game.validation is not None:
        files[Path(BUNDLE_FILE)] = (
            "# validate.ignore: rules this new bundle switched off because they need content it does\n"
            "# not have yet (map areas, VP hexes, scenario parameters). Remove each code once that\n"
            "# content is there, and `hexproof validate` checks it again.\n" + files[Path(BUNDLE_FILE)])
    # An empty manifest written out, not left to the reader to infer from a missing key.
    files[Path(bundle.game.counters or "counters.yaml")] = "schema_version: 1\ncounters: []\n"
    out = {rel: text.encode("utf-8") for rel, text in files.items()}
    if bundle.game.system == SYSTEM_COPY:
        try:
            out[Path(SYSTEM_COPY)] = read_bytes(plan.system, MAX_BYTES, what="system file")
        except SafeFileError as exc:
            raise NewBundleError(f"{plan.system}: {exc.message}") from exc
    return out


def create_bundle(plan: BundlePlan, system: GameSystem | None = None) -> NewBundle:
    """Write the new bundle into ``plan.folder``, all files or none. Raises
    :class:`NewBundleError` (nothing written) for a bad plan or a folder that is not new or
    empty, and model/safefile's errors when the disk refuses (nothing is left behind then)."""
    system = system or load_plan_system(plan.system)
    files = bundle_files(plan, system)
    folder = Path(plan.folder)
    if (problem := folder_problem(folder)) is not None:
        raise NewBundleError(problem + "; nothing written")
    existed = folder.exists()
    try:
        written = commit_files(folder, files)
    except BaseException:
        if not existed:
            _remove_empty_tree(folder)
        raise
    return NewBundle(folder, written, system)


def _remove_empty_tree(folder: Path) -> None:
    """After a failed first write: remove the folders it created, only if they are empty."""
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        try:
            sub.rmdir()
        except OSError:
            pass
    try:
        folder.rmdir()
    except OSError:
        pass


def render_plan(plan: BundlePlan, system: GameSystem) -> str:
    """A few lines saying what the plan makes (for ``hexproof new --dry-run`` and the wizard)."""
    lines = [f"{plan.name} ({plan.bundle_id or slug(plan.name)}) on {system.name}, in {plan.folder}"]
    for s in resolved_sheets(plan, system):
        assert s.labels is not None
        corners = corner_labels(s.cols, s.rows, s.labels)
        lines.append(f"  sheet {s.id}: {s.cols} × {s.rows} at ({s.x0}, {s.y0}); corners "
                     + ", ".join(f"{k} {v}" for k, v in corners.items()))
    return "\n".join(lines)

