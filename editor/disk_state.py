"""What a bundle's files held when the editor last read or wrote them (no Qt here).

The editor records, for every file of the open bundle (``game.yaml``, the maps, the counter
manifest, every scenario, a local system file), the sha256 of its bytes right after opening
and right after each save. Before saving it hashes them again: a file whose hash changed was
written by someone else (git, another editor) and the save asks first. The file watcher
(:mod:`editor.disk_watch`) uses the same comparison, so the editor's own writes — which move
the recorded hashes — are never mistaken for someone else's.

The bytes read at that moment are kept too (:class:`DiskState`), so the editor can say *what*
the other program changed: the recorded version is loaded from those bytes and diffed
semantically (``model/diff.py``) against the version now on disk.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from model.bundle import BUNDLE_FILE, Bundle, LoadResult, load_bundle
from model.safefile import SafeFileError, commit_files, read_bytes, resolve_inside, sha256
from model.formats.yamlio import MAX_BYTES


def bundle_file_paths(bundle: Bundle) -> list[str]:
    """Relative paths of every file the bundle is made of (that load_bundle reads), sorted."""
    rels = {BUNDLE_FILE, *bundle.files.values()}
    if bundle.game.counters:
        rels.add(bundle.game.counters)
    system = Path(bundle.game.system)
    if system.suffix in (".yaml", ".yml") and not system.is_absolute():
        rels.add(bundle.game.system)  # a local system file (``system: system.yaml``)
    return sorted(str(Path(r)) for r in rels)


def read_file(root: Path, rel: str) -> bytes | None:
    """The bytes of ``rel`` inside ``root``; None when it is missing, unreadable or outside."""
    try:
        return read_bytes(resolve_inside(root, rel), MAX_BYTES)
    except (SafeFileError, OSError):
        return None


@dataclass
class DiskState:
    """The files of a bundle as last read or written: relative path → bytes (None = absent)."""

    root: Path
    files: dict[str, bytes | None] = field(default_factory=dict)
    # Hashes only, without the bytes (a recovered document: the manifest's based-on hashes).
    known_hashes: dict[str, str | None] | None = None

    @classmethod
    def read(cls, root: Path, rels: list[str]) -> "DiskState":
        return cls(Path(root), {rel: read_file(root, rel) for rel in rels})

    @classmethod
    def absent(cls, root: Path, rels: list[str]) -> "DiskState":
        """A bundle never saved: every file is expected not to exist."""
        return cls(Path(root), {rel: None for rel in rels})

    def __post_init__(self) -> None:
        self._digests = (dict(self.known_hashes) if self.known_hashes is not None else
                         {rel: (sha256(data) if data is not None else None) for rel, data in self.files.items()})

    @classmethod
    def from_hashes(cls, root: Path, hashes: dict[str, str | None]) -> "DiskState":
        return cls(Path(root), {}, dict(hashes))

    @property
    def has_bytes(self) -> bool:
        return self.known_hashes is None

    @property
    def hashes(self) -> dict[str, str | None]:
        return dict(self._digests)

    def changed_on_disk(self, extra: list[str] | None = None) -> list[str]:
        """Files whose bytes on disk now differ from the recorded ones (``extra``: new files too)."""
        out = []
        recorded = self.hashes
        for rel in sorted(set(recorded) | set(extra or [])):
            if _current_hash(self.root, rel) != recorded.get(rel):
                out.append(rel)
        return out

    def load(self) -> LoadResult:
        """The recorded version, loaded (from a temporary copy of the recorded bytes)."""
        if not self.has_bytes:
            from model.diagnostics import Diagnostic, Location, Severity

            return LoadResult(None, [Diagnostic("LOAD-FILE-001", Severity.ERROR, "only hashes were recorded",
                                                Location(file=str(self.root)))])
        with tempfile.TemporaryDirectory(prefix="hexproof-base-") as tmp:
            present = {rel: data for rel, data in self.files.items() if data is not None}
            try:
                commit_files(tmp, {Path(rel): data for rel, data in present.items()})
            except (SafeFileError, OSError) as exc:
                from model.diagnostics import Diagnostic, Location, Severity

                return LoadResult(None, [Diagnostic("LOAD-FILE-001", Severity.ERROR, str(exc), Location(file=tmp))])
            result = load_bundle(Path(tmp))
            if result.bundle is not None:
                result.bundle.root = self.root
            return result


def _current_hash(root: Path, rel: str) -> str | None:
    data = read_file(root, rel)
    return sha256(data) if data is not None else None


def current_hashes(root: Path, rels: list[str]) -> dict[str, str | None]:
    return {rel: _current_hash(root, rel) for rel in rels}


def semantic_summary(old: Bundle | None, new: Bundle | None, *, old_name: str, new_name: str,
                     limit: int = 40) -> str:
    """``model.diff`` between two bundles as text, capped at ``limit`` lines."""
    if old is None or new is None:
        missing = old_name if old is None else new_name
        return f"(no semantic summary: {missing} cannot be loaded)"
    from model.diff import diff_bundles, render_text

    try:
        text = render_text(diff_bundles(old, new))
    except Exception as exc:  # a summary must never stop a save or an open
        return f"(no semantic summary: {type(exc).__name__}: {exc})"
    lines = text.rstrip("\n").splitlines()
    if lines == ["no differences"]:
        return f"{new_name} has no semantic differences from {old_name} (only formatting or comments differ)"
    if len(lines) > limit:
        lines = lines[:limit] + [f"… and {len(lines) - limit} more line(s)"]
    return f"From {old_name} to {new_name}:\n" + "\n".join(lines)


def describe_target(folder: Path, new_files: list[str], *, current_root: Path | None = None) -> str | None:
    """What writing a bundle of ``new_files`` into ``folder`` would replace; None if nothing.

    None for a missing or empty folder, or for the document's own folder (``current_root``)."""
    folder = Path(folder)
    if current_root is not None and folder.resolve() == Path(current_root).resolve():
        return None
    if not folder.exists():
        return None
    if not folder.is_dir():
        return f"{folder} is a file, not a folder."
    entries = sorted(p.name for p in folder.iterdir())
    if not entries:
        return None
    existing = sorted(rel for rel in new_files if (folder / rel).exists())
    if (folder / BUNDLE_FILE).is_file():
        result = load_bundle(folder)
        if result.bundle is not None:
            name = f"the game bundle “{result.bundle.game.name}” ({len(result.bundle.maps)} map(s), " \
                   f"{len(result.bundle.scenarios)} scenario(s))"
            old_files = bundle_file_paths(result.bundle)
        else:
            name = f"a game bundle ({BUNDLE_FILE}) that does not load"
            old_files = [BUNDLE_FILE]
        orphaned = sorted(set(old_files) - set(new_files))
        text = f"{folder} already holds {name}.\n\nThese files would be replaced: {', '.join(existing) or '(none)'}."
        if orphaned:
            text += ("\nThese files of that bundle would no longer belong to any bundle: "
                     + ", ".join(orphaned) + ".")
        return text
    shown = ", ".join(entries[:8]) + (f" and {len(entries) - 8} more" if len(entries) > 8 else "")
    text = f"{folder} is not empty and is not a game bundle ({len(entries)} item(s): {shown})."
    if existing:
        text += f"\n\nThese files would be replaced: {', '.join(existing)}."
    return text
