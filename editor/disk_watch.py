"""Watching the open bundle's files for changes made outside the editor.

A ``QFileSystemWatcher`` watches every file of the bundle and the folders holding them (a
save by rename, as git and Hexproof both do, replaces the file: the folder's signal is the one
that fires, and the file must be watched again). Bursts — ``git checkout`` writes many files —
restart a single-shot timer, and only when it runs out are the files hashed and compared with
what the document last read or wrote (:meth:`MapDocument.changed_on_disk`). Our own saves
update that record first, so they never count as outside changes.

:attr:`DiskWatcher.changedOnDisk` carries the sorted relative paths that differ now; it is
emitted whenever that list changes, including back to empty (the change was undone, or we
saved over it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

if TYPE_CHECKING:
    from editor.document import MapDocument

DEFAULT_DEBOUNCE_MS = 400


class DiskWatcher(QObject):
    changedOnDisk = Signal(list)

    def __init__(self, parent: QObject | None = None, debounce_ms: int = DEFAULT_DEBOUNCE_MS) -> None:
        super().__init__(parent)
        self.watcher = QFileSystemWatcher(self)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(max(0, debounce_ms))
        self.timer.timeout.connect(self.check)
        self.watcher.fileChanged.connect(self._poke)
        self.watcher.directoryChanged.connect(self._poke)
        self.doc: "MapDocument | None" = None
        self.reported: list[str] = []
        self.checks = 0  # how many debounced checks ran (tests read it)

    def watch(self, doc: "MapDocument | None") -> None:
        """Watch ``doc``'s files (None: stop watching)."""
        self.timer.stop()
        paths = self.watcher.files() + self.watcher.directories()
        if paths:
            self.watcher.removePaths(paths)
        self.doc = doc
        self.reported = []
        self._rewatch()

    def _targets(self) -> list[str]:
        if self.doc is None:
            return []
        root = Path(self.doc.path)
        out: set[str] = set()
        if root.is_dir():
            out.add(str(root))
        for rel in self.doc.bundle_files():
            path = root / rel
            folder = path.parent
            while folder != root and root in folder.parents:
                if folder.is_dir():
                    out.add(str(folder))
                folder = folder.parent
            if path.is_file():
                out.add(str(path))
        return sorted(out)

    def _rewatch(self) -> None:
        watched = set(self.watcher.files()) | set(self.watcher.directories())
        missing = [p for p in self._targets() if p not in watched]
        if missing:
            self.watcher.addPaths(missing)

    def _poke(self, _path: str = "") -> None:
        self.timer.start()  # restarted by every event of a burst

    def check(self) -> list[str]:
        """Compare the files with the document's record now; emit when the answer changed."""
        self.checks += 1
        if self.doc is None:
            return []
        changed = self.doc.changed_on_disk()
        self._rewatch()  # files replaced by rename are new files to the watcher
        if changed != self.reported:
            self.reported = changed
            self.changedOnDisk.emit(list(changed))
        return changed
