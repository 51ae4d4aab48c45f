"""MapDocument: owns the bundle, the undo stack, the file path and the modified flag.

Following Tiled's ``Document``: every modifying user action is a ``QUndoCommand`` pushed on
:attr:`MapDocument.undo_stack`; after each model mutation (do, undo or redo) the command calls
:meth:`MapDocument.notify` with a pure-Python event from :mod:`model.changes`, and views
redraw from that. "Modified" is simply "the stack is not at its clean index".
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from editor.disk_state import DiskState, bundle_file_paths
from model.bundle import Bundle, LoadResult, load_bundle
from model.changes import Change, DocumentReplaced
from model.safefile import JOURNAL
from model.diagnostics import Diagnostic
from model.mapdata import HexMap
from model.system import GameSystem


class MapDocument(QObject):
    """One open game bundle and its edit history (one map is the current edit target)."""

    changed = Signal(object)  # a model.changes.Change
    modifiedChanged = Signal(bool)
    pathChanged = Signal(str)

    def __init__(self, bundle: Bundle, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bundle = bundle
        self._map_id = next(iter(bundle.maps))
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        # The bundle's files as last read or written (hashes + bytes): editor/disk_state.py.
        self.disk: DiskState = DiskState.read(bundle.root, self.bundle_files())

    def _on_clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)

    # --- loading ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, parent: QObject | None = None) -> tuple["MapDocument | None", list[Diagnostic]]:
        """Load a bundle; never raises on bad input (the diagnostics say what is wrong)."""
        try:
            result: LoadResult = load_bundle(path)
        except Exception as exc:  # the loader should not raise; the editor must not crash if it does
            from model.diagnostics import Location, Severity

            return None, [Diagnostic("LOAD-INTERNAL-001", Severity.ERROR, f"{type(exc).__name__}: {exc}",
                                     Location(file=str(path)))]
        if result.bundle is None:
            return None, list(result.diagnostics)
        return cls(result.bundle, parent), list(result.diagnostics)

    # --- accessors -------------------------------------------------------------------------

    @property
    def bundle(self) -> Bundle:
        return self._bundle

    @property
    def system(self) -> GameSystem:
        return self._bundle.system

    @property
    def path(self) -> Path:
        return self._bundle.root

    @property
    def map_id(self) -> str:
        return self._map_id

    @property
    def hmap(self) -> HexMap:
        return self._bundle.maps[self._map_id]

    def set_current_map(self, map_id: str) -> None:
        if map_id not in self._bundle.maps:
            raise KeyError(map_id)
        self._map_id = map_id
        self.changed.emit(DocumentReplaced(map_id))

    @property
    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    # --- editing ---------------------------------------------------------------------------

    def push(self, command: QUndoCommand) -> None:
        self.undo_stack.push(command)

    def notify(self, change: Change) -> None:
        self.changed.emit(change)

    # --- saving ----------------------------------------------------------------------------

    def save(self, root: str | Path | None = None, overwrite: Iterable[str] = ()) -> list[Path]:
        """Format-preserving, bundle-atomic save (``Bundle.save``: only what was edited
        changes, and every file lands or none does).

        Raises ``OSError`` on failure and then leaves the document modified; on success the
        stack's current index becomes the clean state. "Save As" moves the document's root.
        ``overwrite`` names files that changed on disk and that the user chose to overwrite:
        they are written back from memory even where nothing was edited in them. Afterwards the files on disk become the recorded state (:attr:`disk`), so the file
        watcher and the next save's conflict check see our own writes as ours.
        """
        target = Path(root) if root is not None else self._bundle.root
        if target.resolve() != self._bundle.root.resolve():
            if self._bundle.root.is_dir():
                # Save As: bring along what the bundle does not re-serialise (a local system
                # file, background images, READMEs), then write the model files on top.
                shutil.copytree(self._bundle.root, target, dirs_exist_ok=True, symlinks=True,
                                ignore=shutil.ignore_patterns("*.bak", "*.tmp", JOURNAL))
            written = self._bundle.save_as(target)
            self.pathChanged.emit(str(target))
        else:
            written = self._bundle.save(rewrite=set(overwrite))
        self.record_disk_state()
        self.undo_stack.setClean()
        return written

    # --- files on disk -------------------------------------------------------------------

    def bundle_files(self) -> list[str]:
        """Relative paths of every file of the bundle (game.yaml, maps, counters, scenarios)."""
        return bundle_file_paths(self._bundle)

    def record_disk_state(self) -> None:
        """Remember what the bundle's files hold now (after open, save, or a confirmed replace)."""
        self.disk = DiskState.read(self._bundle.root, self.bundle_files())

    def changed_on_disk(self) -> list[str]:
        """Bundle files whose bytes differ from what was last read or written here."""
        return self.disk.changed_on_disk(self.bundle_files())

    def dump(self) -> dict[str, str]:
        """The text every file would be saved as now (``Bundle.texts``: the loaded text,
        patched where edited), keyed by path relative to the bundle root."""
        return self._bundle.texts()
