"""Help ▸ Rule Reference (F1): the open game's rulebook text, or at least its rule case titles.

The rulebook texts are not shipped with Hexproof (a plain install has none), so F1 works in
three steps:

1. The bundle names its text (game.yaml ``rulebook.source``, else the system's ``rulebook``),
   looked for relative to the bundle folder and every folder above it, also inside a
   ``shared/`` folder there (the layout of a working copy beside ``../shared/rules``).
2. Otherwise the file the user chose before for this game system (QSettings
   ``rulebook/<system id>``).
3. Otherwise the dialog says plainly which file is missing, offers to choose one (remembered
   for next time), and meanwhile lists the case titles of the bundle's rulebook index
   (game.yaml ``rulebook.cases``), which every sample has.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPlainTextEdit, QPushButton, QSplitter,
                               QVBoxLayout, QWidget)

from model.bundle import Bundle
from model.formats.rulebook import extract_rulebook_index

SETTINGS_GROUP = "rulebook"
MAX_TEXT_BYTES = 32 * 1024 * 1024  # a rulebook is a few hundred KB; anything this big is the wrong file


def settings_key(system_id: str) -> str:
    """Where the chosen rulebook text of one game system is remembered (per system: every
    bundle of a game reads the same rulebook)."""
    return f"{SETTINGS_GROUP}/{system_id}"


def named_rulebooks(bundle: Bundle) -> list[str]:
    """The rulebook file names the bundle gives: its index's ``source``, then the system's."""
    names = []
    if bundle.game.rulebook is not None and bundle.game.rulebook.source:
        names.append(bundle.game.rulebook.source)
    if bundle.system.rulebook and bundle.system.rulebook not in names:
        names.append(bundle.system.rulebook)
    return names


def rulebook_candidates(bundle: Bundle) -> list[Path]:
    """Every place a named rulebook text is looked for, in order."""
    from model.safefile import SafeFileError, resolve_inside

    out: list[Path] = []
    root = Path(bundle.root).resolve()
    for name in named_rulebooks(bundle):
        # A name from data: never absolute, and inside each folder it is looked for after
        # '..' and symlinks (model/safefile.resolve_inside) — ``../../etc/x`` finds nothing.
        if _climbs(name):
            continue  # refused_rulebooks() says why
        # The folders above the bundle, not the file-system root itself (``etc/passwd``).
        for base in (root, *[p for p in root.parents if p != p.parent]):
            for folder in (base, base / "shared"):
                try:
                    out.append(resolve_inside(folder, name, what="rulebook text"))
                except SafeFileError:
                    pass
    return list(dict.fromkeys(out))


def _climbs(name: str) -> bool:
    return ".." in Path(name).parts


def refused_rulebooks(bundle: Bundle) -> list[str]:
    """Why each refused rulebook name is not looked for (absolute, NUL, or climbing with '..':
    the folders above the bundle are already searched, so a name never needs '..')."""
    from model.safefile import SafeFileError, resolve_inside

    out = []
    for name in named_rulebooks(bundle):
        if _climbs(name) and not Path(name).is_absolute():
            out.append(f"rulebook text {name!r} climbs out of its folder with '..'")
            continue
        try:
            resolve_inside(bundle.root, name, what="rulebook text")
        except SafeFileError as exc:
            if exc.code == "FILE-PATH-001" and ("absolute" in exc.message or "NUL" in exc.message):
                out.append(exc.message)
    return out


def remembered_rulebook(settings: QSettings, system_id: str) -> Path | None:
    value = settings.value(settings_key(system_id))
    return Path(str(value)) if value else None


def find_rulebook_text(bundle: Bundle, settings: QSettings) -> Path | None:
    """The rulebook text file for ``bundle`` (steps 1 and 2 of the module docstring), or None."""
    for path in rulebook_candidates(bundle):
        if path.is_file():
            return path
    chosen = remembered_rulebook(settings, bundle.system.id)
    return chosen if chosen is not None and chosen.is_file() else None


def read_rulebook(path: Path) -> tuple[str | None, str | None]:
    """(text, None), or (None, why it cannot be read) — never an exception."""
    from model.safefile import SafeFileError, read_bytes

    try:
        # Through model/safefile: a regular file only (a FIFO is refused at once, never
        # waited on), bounded by the bytes actually read (/dev/zero is refused too).
        return read_bytes(path, MAX_TEXT_BYTES, what="it").decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "it is not UTF-8 text"
    except SafeFileError as exc:
        if exc.code == "FILE-SIZE-001":
            return None, f"it is larger than {MAX_TEXT_BYTES // (1024 * 1024)} MB, so not a rulebook text"
        return None, exc.message.removeprefix("it ").removeprefix("cannot read it: ")


class RuleReferenceDialog(QDialog):
    """Non-modal: the case list (filterable) beside the rulebook text; a case jumps to its line."""

    def __init__(self, bundle: Bundle, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bundle = bundle
        self.settings = settings
        self.text_path: Path | None = None
        self._lines: dict[str, int] = {}  # case key → 1-based line in the text
        book = bundle.game.rulebook
        self.cases: dict[str, str | None] = dict(book.cases) if book is not None else {}
        self.setWindowTitle(f"Rule Reference — {bundle.system.name}")
        self.resize(1000, 700)

        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.choose_button = QPushButton("Choose Rulebook Text…")
        self.choose_button.clicked.connect(lambda: self.choose_text())
        top = QHBoxLayout()
        top.addWidget(self.banner, 1)
        top.addWidget(self.choose_button, 0, Qt.AlignmentFlag.AlignTop)

        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter cases: number or words")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.case_list = QListWidget()
        self.case_list.currentItemChanged.connect(lambda item, _prev: self.show_case(item.data(Qt.ItemDataRole.UserRole))
                                                  if item is not None else None)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.filter)
        left_layout.addWidget(self.case_list)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.text)
        splitter.setSizes([320, 680])

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addWidget(buttons)
        self.refresh()

    # --- state -----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Look for the text again (steps 1–2) and show it, or say plainly what is missing."""
        path = find_rulebook_text(self.bundle, self.settings)
        if path is not None:
            text, why = read_rulebook(path)
            if text is not None:
                self._show_text(path, text)
                return
            self._show_missing(f"The rulebook text {path} cannot be read: {why}.")
            return
        names = named_rulebooks(self.bundle)
        chosen = remembered_rulebook(self.settings, self.bundle.system.id)
        if names:
            why = (f"The rulebook text {names[0]} was not found. Hexproof looked beside the bundle "
                   f"and in a shared/ folder above it.")
        else:
            why = f"This bundle and {self.bundle.system.name} name no rulebook text."
        for refused in refused_rulebooks(self.bundle):
            why += f" {refused[0].upper()}{refused[1:]}; it is not looked for."
        if chosen is not None:
            why += f" The file chosen before, {chosen}, is no longer there."
        self._show_missing(why)

    def _show_missing(self, why: str) -> None:
        self.text_path = None
        self._lines = {}
        self.text.clear()
        self.text.hide()
        if self.cases:
            rest = (f" Showing the {len(self.cases)} rule case titles from the bundle's rulebook index; "
                    "choose the text file to read the rules themselves (Hexproof remembers it).")
        else:
            rest = " The bundle has no rulebook index either; choose the text file to read the rules here."
        self.banner.setText(why + rest)
        self.banner.setToolTip("\n".join(str(p) for p in rulebook_candidates(self.bundle)[:12]))
        self.choose_button.show()
        self._fill_list()

    def _show_text(self, path: Path, text: str) -> None:
        self.text_path = path
        index = extract_rulebook_index(text, source=path.name)
        self._lines = {key: case.line for key, case in index.cases.items()}
        if not self.cases:  # no index in the bundle: list what the text itself numbers
            self.cases = {key: case.title for key, case in index.cases.items()}
        self.text.setPlainText(text)
        self.text.show()
        self.banner.setText(f"Rulebook text: {path}")
        self.banner.setToolTip("")
        self.choose_button.hide()
        self._fill_list()

    def _fill_list(self) -> None:
        self.case_list.clear()
        for key, title in self.cases.items():
            item = QListWidgetItem(f"{key}  {title}" if title else key)
            item.setData(Qt.ItemDataRole.UserRole, key)
            self.case_list.addItem(item)
        self._apply_filter(self.filter.text())

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().casefold()
        for i in range(self.case_list.count()):
            item = self.case_list.item(i)
            item.setHidden(bool(needle) and needle not in item.text().casefold())

    # --- actions ---------------------------------------------------------------------------

    def case_titles(self) -> list[str]:
        """The visible list entries (tests and the filter read them)."""
        return [self.case_list.item(i).text() for i in range(self.case_list.count())
                if not self.case_list.item(i).isHidden()]

    def show_case(self, key: str | None) -> bool:
        """Scroll the text to the line that defines case ``key``; False without text or line."""
        line = self._lines.get(key or "")
        if self.text_path is None or line is None:
            return False
        block = self.text.document().findBlockByLineNumber(line - 1)
        cursor = QTextCursor(block)
        self.text.setTextCursor(cursor)
        self.text.centerCursor()
        return True

    def choose_text(self) -> Path | None:
        """Ask for the rulebook text file; remember it for this game system and show it."""
        start = str(self.bundle.root)
        picked, _ = QFileDialog.getOpenFileName(self, f"Choose the rulebook text of {self.bundle.system.name}",
                                                start, "Text files (*.txt);;All files (*)")
        if not picked:
            return None
        path = Path(picked)
        text, why = read_rulebook(path)
        if text is None:
            self.banner.setText(f"{path} cannot be read: {why}. Choose a plain-text (UTF-8) rulebook.")
            return None
        self.settings.setValue(settings_key(self.bundle.system.id), str(path))
        self.settings.sync()
        self._show_text(path, text)
        return path
