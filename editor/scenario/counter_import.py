"""Import a counter sheet (CSV or XLSX) into the open bundle: column mapping, dry run, apply.

:class:`CounterImportDialog` has two pages:

1. **Map columns** — one row per column of our layout (``id``, ``name``, ``side`` …,
   ``front.<field>``, ``back.<field>``), each with a list of *their* headers, guessed by
   name (:func:`guess_mapping`). Their header is read by the csv module
   (model/formats/counter_table.read_header: a quoted ``"Smith, J."`` stays one header) or
   from row 1 of the workbook (counter_xlsx.read_xlsx_header). A header chosen twice is
   refused on this page.
2. **Dry run** — the strict importer reads every row against the system
   (``system=``: unknown sides, text in numeric columns, duplicate and empty ids are each
   refused ``file:row:column``); if nothing is refused, the dry run
   (model/counter_changes.plan_import, ``merge`` mode: ids in the sheet replace those
   counters in place, new ids are appended, none are removed) lists the counters added
   and changed (with each changed column). Apply pushes the resulting manifest as one undo
   step. A sheet with any refusal cannot be applied: nothing is half-applied.

The Qt-free steps, :func:`read_sheet_header`, :func:`dry_run` and :func:`apply_import`, are
what the dialog runs, and what a script or test runs without the dialog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel, QListWidget, QPushButton,
                               QScrollArea, QStackedWidget, QVBoxLayout, QWidget)

from editor.commands.counters import ApplyCounterImport
from model.counter_changes import ImportPlan, Mode, plan_import
from model.formats.counter_table import ImportResult, Rejected, columns_for, read_header

if TYPE_CHECKING:
    from editor.document import MapDocument

MAX_SHEET_BYTES = 64 * 1024 * 1024
IMPORT_MODE: Mode = "merge"  # the editor updates the manifest; `hexproof counters import` replaces it
# Common spreadsheet headings for our columns (after normalising: lower case, "_" for gaps).
SYNONYMS = {"unit": "name", "unit_name": "name", "designation": "front.designation", "nation": "nationality",
            "country": "nationality", "type": "category", "unit_type": "category", "qty": "count",
            "quantity": "count", "comment": "note", "notes": "note"}


def is_xlsx(path: str | Path) -> bool:
    return str(path).lower().endswith((".xlsx", ".xlsm"))


def _read(path: str | Path) -> tuple[bytes | None, Rejected | None]:
    from model.safefile import SafeFileError, read_bytes

    try:
        # Bounded, and a FIFO or device is refused at once, never waited on.
        return read_bytes(path, MAX_SHEET_BYTES, what="XLSX workbook" if is_xlsx(path) else "CSV file"), None
    except SafeFileError as exc:
        return None, Rejected(0, exc.message)
    except OSError as exc:
        return None, Rejected(0, f"cannot read it: {exc.strerror or exc}")


def _csv_text(raw: bytes) -> tuple[str | None, Rejected | None]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, Rejected(line, f"not UTF-8 text (byte {exc.start}); save the sheet as CSV UTF-8")
    return text.replace("\r\n", "\n").replace("\r", "\n"), None  # as text mode reads it


def read_sheet_header(path: str | Path) -> tuple[list[str], str | None]:
    """Their header row (CSV by the csv module, XLSX row 1), or ``([], why not)`` located
    ``file[:row]: reason``."""
    raw, problem = _read(path)
    if raw is None:
        assert problem is not None
        return [], f"{problem.where(str(path))}: {problem.reason}"
    if is_xlsx(path):
        from model.formats.counter_xlsx import check_archive, read_xlsx_header

        why = check_archive(raw)
        return ([], f"{path}: {why}") if why else (read_xlsx_header(raw), None)
    text, problem = _csv_text(raw)
    if text is None:
        assert problem is not None
        return [], f"{problem.where(str(path))}: {problem.reason}"
    return read_header(text), None


def our_columns(document: "MapDocument") -> list[str]:
    """The layout columns a sheet may fill: the manifest's, plus a back for every system field."""
    system = document.system
    cols = columns_for(document.bundle.counters, system)
    extra = [f"back.{f.id}" for f in system.counter_fields if f"back.{f.id}" not in cols]
    at = cols.index("illustrative") if "illustrative" in cols else len(cols)
    return cols[:at] + extra + cols[at:]


def _norm(text: str) -> str:
    return re.sub(r"[\s\-/]+", "_", text.strip().lower())


def guess_mapping(theirs: list[str], ours: list[str]) -> dict[str, str]:
    """Our column → their header, where a header reads as our column (same name ignoring case
    and gaps, ``front`` implied for a printed value, or a common synonym)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for col in ours:
        for h in theirs:
            n = _norm(h)
            if h in used or not n:
                continue
            if n in (col, col.replace(".", "_")) or SYNONYMS.get(n) == col or (col.startswith("front.") and n == col[6:]):
                out[col] = h
                used.add(h)
                break
    return out


@dataclass
class ImportOutcome:
    """What reading a sheet gave: the importer's result, the dry run when it was clean, and
    every refusal as a ``file:row:column`` line."""

    path: str
    result: ImportResult
    plan: ImportPlan | None = None
    messages: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result.ok and self.plan is not None

    def refusal_lines(self) -> list[str]:
        return [f"{r.where(self.path)}: {r.reason}" for r in self.result.rejected]


def dry_run(document: "MapDocument", path: str | Path, mapping: dict[str, str] | None = None) -> ImportOutcome:
    """Read ``path`` strictly against the document's system with ``mapping`` (their header →
    our column; ``""`` ignores a column) and plan the import. Changes nothing."""
    shown = str(path)
    raw, problem = _read(path)
    result = ImportResult()
    if raw is None:
        assert problem is not None
        result.rejected.append(problem)
        return ImportOutcome(shown, result)
    system = document.system
    if is_xlsx(path):
        from model.formats.counter_xlsx import import_xlsx

        result = import_xlsx(raw, mapping, system=system)
    else:
        text, problem = _csv_text(raw)
        if text is None:
            assert problem is not None
            result.rejected.append(problem)
            return ImportOutcome(shown, result)
        from model.formats.counter_table import import_csv

        result = import_csv(text, mapping, system=system)
    outcome = ImportOutcome(shown, result)
    if result.ok:
        outcome.plan = plan_import(list(document.bundle.counters), result.counters, IMPORT_MODE)
    if result.unmapped_columns:
        outcome.messages.append("not imported (no column of ours): " + ", ".join(result.unmapped_columns))
    return outcome


def apply_import(document: "MapDocument", outcome: ImportOutcome) -> bool:
    """Apply a clean dry run as one undo step; False (nothing done) when it was refused or
    changes nothing."""
    if not outcome.ok or outcome.plan is None or outcome.plan.changes_nothing:
        return False
    document.push(ApplyCounterImport(document, list(outcome.plan.result), outcome.plan.summary()))
    return True


class CounterImportDialog(QDialog):
    """Map columns, then the dry run, then Apply (see the module docstring)."""

    NOT_IMPORTED = "(not imported)"

    def __init__(self, document: "MapDocument", path: str | Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.path = document, str(path)
        self.setWindowTitle(f"Import counters — {Path(path).name}")
        self.resize(620, 560)
        self.header, self.load_error = read_sheet_header(path)
        if not self.load_error and not self.header:
            self.load_error = f"{path}:1: no header row (id, name, side, category, …)"
        self.outcome: ImportOutcome | None = None
        self.pages = QStackedWidget()
        self.pages.addWidget(self._mapping_page())
        self.pages.addWidget(self._dry_run_page())
        self.back_btn = QPushButton("< Back")
        self.run_btn = QPushButton("Dry Run >")
        self.apply_btn = QPushButton("Apply")
        self.cancel_btn = QPushButton("Cancel")
        self.back_btn.clicked.connect(lambda: self._go(0))
        self.run_btn.clicked.connect(self.run_dry)
        self.apply_btn.clicked.connect(self.apply)
        self.cancel_btn.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.back_btn, self.run_btn, self.apply_btn, self.cancel_btn):
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addWidget(self.pages, 1)
        lay.addLayout(buttons)
        self._go(0)

    # --- page 1: mapping -------------------------------------------------------------------------

    def _mapping_page(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        intro = QLabel(f"Our column ← the sheet's column that fills it (the sheet has {len(self.header)}). "
                       "Sheet columns no row chooses are not imported; id, name, side and category are required.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.ours = our_columns(self.document)
        guess = guess_mapping(self.header, self.ours)
        inner = QWidget()
        form = QFormLayout(inner)
        self.boxes: dict[str, QComboBox] = {}
        for col in self.ours:
            box = QComboBox()
            box.addItem(self.NOT_IMPORTED, "")
            for h in self.header:
                if h:
                    box.addItem(h, h)
            box.setCurrentIndex(max(box.findData(guess.get(col, "")), 0))
            box.currentIndexChanged.connect(lambda _i: self._check_mapping())
            form.addRow(col, box)
            self.boxes[col] = box
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        lay.addWidget(scroll, 1)
        self.mapping_problem = QLabel()
        self.mapping_problem.setStyleSheet("color: #c62828")
        self.mapping_problem.setWordWrap(True)
        lay.addWidget(self.mapping_problem)
        return page

    def set_choice(self, ours: str, theirs: str | None) -> None:
        """Map our column ``ours`` to their header ``theirs`` (None: not imported)."""
        box = self.boxes[ours]
        box.setCurrentIndex(max(box.findData(theirs or ""), 0))

    def chosen(self) -> dict[str, str]:
        """Our column → their header, for the columns mapped."""
        return {col: box.currentData() for col, box in self.boxes.items() if box.currentData()}

    def mapping(self) -> dict[str, str]:
        """Their header → our column, as the importers take it; their headers not chosen are
        ignored (mapped to ``""``), even one that happens to read as a column of ours."""
        out = {h: "" for h in self.header}
        for col, h in self.chosen().items():
            out[h] = col
        return out

    def _check_mapping(self) -> bool:
        seen: dict[str, str] = {}
        problems = []
        for col, h in self.chosen().items():
            if h in seen:
                problems.append(f"their column {h!r} is chosen for both {seen[h]} and {col}")
            seen.setdefault(h, col)
        missing = [c for c in ("id", "name", "side", "category") if c not in self.chosen()]
        if missing:
            problems.append("no column chosen for " + ", ".join(missing))
        self.mapping_problem.setText("; ".join(problems))
        self.run_btn.setEnabled(not problems and self.pages.currentIndex() == 0)
        return not problems

    # --- page 2: dry run ---------------------------------------------------------------------------

    def _dry_run_page(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.lines = QListWidget()
        lay.addWidget(self.summary)
        lay.addWidget(self.lines, 1)
        return page

    def run_dry(self) -> ImportOutcome:
        """Read the whole sheet with the mapping and show what applying it would do."""
        outcome = dry_run(self.document, self.path, self.mapping())
        self.outcome = outcome
        self.lines.clear()
        if not outcome.result.ok:
            n = len(outcome.result.rejected)
            self.summary.setText(f"<b style='color:#c62828'>Refused: {n} problem{'s' if n != 1 else ''}.</b> "
                                 "Nothing will be imported; fix the sheet (or the mapping) and try again.")
            self.lines.addItems(outcome.refusal_lines())
        else:
            assert outcome.plan is not None
            self.summary.setText(f"Dry run: {outcome.plan.summary()}. Apply makes this one undo step."
                                 if not outcome.plan.changes_nothing else "The sheet changes nothing.")
            self.lines.addItems(outcome.plan.lines())
        self.lines.addItems(outcome.messages)
        self._go(1)
        return outcome

    def apply(self) -> bool:
        if self.outcome is None or not apply_import(self.document, self.outcome):
            return False
        self.accept()
        return True

    def _go(self, page: int) -> None:
        self.pages.setCurrentIndex(page)
        self.back_btn.setEnabled(page == 1)
        clean = self.outcome is not None and self.outcome.ok and self.outcome.plan is not None \
            and not self.outcome.plan.changes_nothing
        self.apply_btn.setEnabled(page == 1 and clean)
        if page == 0:
            self._check_mapping()
        else:
            self.run_btn.setEnabled(False)
