"""UnitPicker: choose units from the bundle's counters by searching, instead of typing ids.

A filter line over a list of the counters (id, designation, side name). With ``multi`` the
items are check boxes and the picker returns every checked id; without, it returns the one
current id. Only listed ids can be chosen, so an unknown id cannot be entered by accident.
An id the data already holds that names no counter (a typo in the YAML, a counter not yet
written) is listed too, flagged "not in the counters" in red and kept chosen, so opening and
accepting the picker never drops it silently (policy picker-keeps-unknown-ids).

:class:`UnitPickerDialog` is the same widget with OK / Cancel, for buttons and menus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QVBoxLayout, QWidget)

if TYPE_CHECKING:
    from model.bundle import Bundle
    from model.system import GameSystem

ROLE = Qt.ItemDataRole.UserRole
UNKNOWN_COLOUR = "#c62828"


@dataclass(frozen=True)
class UnitChoice:
    """One unit the picker offers: its id, printed designation and side (the system's name)."""

    id: str
    designation: str
    side: str
    known: bool = True

    def text(self) -> str:
        if not self.known:
            return f"{self.id} — not in the counters"
        return f"{self.id} — {self.designation} ({self.side})"

    def matches(self, query: str) -> bool:
        """Every word of ``query`` occurs (case-insensitive) in the id, designation or side."""
        hay = f"{self.id} {self.designation} {self.side}".lower()
        return all(word in hay for word in query.lower().split())


def unit_choices(bundle: "Bundle", system: "GameSystem") -> list[UnitChoice]:
    """The bundle's counters in manifest order, designation from the front side (else the name)."""
    sides = {s.id: s.name for s in system.sides}
    return [UnitChoice(c.id, c.front.designation or c.name, sides.get(c.side, c.side)) for c in bundle.counters]


class UnitPicker(QWidget):
    """Search line + list of units; ``units()`` is the choice (checked ids, or the current one)."""

    unitsChanged = Signal(list)  # the chosen ids after a change

    def __init__(self, choices: list[UnitChoice], multi: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.multi = multi
        self.choices = list(choices)
        self._chosen: list[str] = []
        self.search = QLineEdit()
        self.search.setObjectName("unit-picker-search")
        self.search.setPlaceholderText("Search id, designation or side…")
        self.search.setClearButtonEnabled(True)
        self.list = QListWidget()
        self.list.setObjectName("unit-picker-list")
        self.list.setUniformItemSizes(True)
        self.summary = QLabel()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(2)
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.summary)
        self.setAutoFillBackground(True)
        self.setFocusProxy(self.search)
        self._fill()
        self.search.textChanged.connect(self.set_filter)
        self.search.installEventFilter(self)
        if multi:
            self.list.itemChanged.connect(self._checked)
        else:
            self.list.currentItemChanged.connect(lambda it, _p: self._current(it))
        self._show_summary()

    # --- contents ------------------------------------------------------------------------------

    def _fill(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for choice in self.choices:
            it = QListWidgetItem(choice.text())
            it.setData(ROLE, choice.id)
            it.setToolTip(choice.text() if choice.known else
                          f"{choice.id} is in the scenario but names no counter in counters.yaml")
            if not choice.known:
                it.setForeground(QBrush(QColor(UNKNOWN_COLOUR)))
            if self.multi:
                it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                it.setCheckState(Qt.CheckState.Checked if choice.id in self._chosen else Qt.CheckState.Unchecked)
            self.list.addItem(it)
        self.list.blockSignals(False)
        self.set_filter(self.search.text())

    def items(self) -> list[QListWidgetItem]:
        return [self.list.item(i) for i in range(self.list.count())]

    def item_for(self, unit: str) -> QListWidgetItem | None:
        return next((it for it in self.items() if it.data(ROLE) == unit), None)

    def visible_units(self) -> list[str]:
        """Ids the filter shows, in list order."""
        return [it.data(ROLE) for it in self.items() if not it.isHidden()]

    def unknown_units(self) -> list[str]:
        """Chosen ids that name no counter (shown flagged)."""
        return [c.id for c in self.choices if not c.known]

    # --- the choice ----------------------------------------------------------------------------

    def set_units(self, units: Iterable[str]) -> None:
        """Show ``units`` as the choice; ids that are not counters are added, flagged."""
        wanted = list(dict.fromkeys(units))
        known = {c.id for c in self.choices}
        self.choices += [UnitChoice(u, "", "", known=False) for u in wanted if u not in known]
        self._chosen = wanted if self.multi else wanted[:1]
        # The current choice leads the list (stable otherwise), so it is seen without scrolling.
        self.choices.sort(key=lambda c: c.id not in self._chosen)
        self._fill()
        if not self.multi and self._chosen:
            it = self.item_for(self._chosen[0])
            if it is not None:
                self.list.blockSignals(True)
                self.list.setCurrentItem(it)
                self.list.blockSignals(False)
        self._show_summary()

    def units(self) -> list[str]:
        """The chosen ids: in the order they were first chosen (the data's order is kept)."""
        return list(self._chosen)

    def toggle(self, unit: str, on: bool | None = None) -> None:
        """Check (or uncheck) ``unit``; in a single picker, make it the choice."""
        it = self.item_for(unit)
        if it is None:
            raise KeyError(f"{unit} is not offered")
        if not self.multi:
            self.list.setCurrentItem(it)
            return
        checked = it.checkState() == Qt.CheckState.Checked
        on = not checked if on is None else on
        it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _checked(self, it: QListWidgetItem) -> None:
        unit = it.data(ROLE)
        on = it.checkState() == Qt.CheckState.Checked
        if on and unit not in self._chosen:
            self._chosen.append(unit)
        elif not on and unit in self._chosen:
            self._chosen.remove(unit)
        else:
            return
        self._show_summary()
        self.unitsChanged.emit(self.units())

    def _current(self, it: QListWidgetItem | None) -> None:
        self._chosen = [it.data(ROLE)] if it is not None else []
        self._show_summary()
        self.unitsChanged.emit(self.units())

    def _show_summary(self) -> None:
        unknown = [u for u in self._chosen if u in set(self.unknown_units())]
        text = f"{len(self._chosen)} chosen" if self.multi else (self._chosen[0] if self._chosen else "none chosen")
        if unknown:
            text += f" — {len(unknown)} not in the counters: {', '.join(unknown)}"
        self.summary.setText(text)
        self.summary.setStyleSheet(f"color: {UNKNOWN_COLOUR}" if unknown else "")

    # --- search --------------------------------------------------------------------------------

    def set_filter(self, text: str) -> None:
        if self.search.text() != text:
            self.search.setText(text)  # re-enters through textChanged
            return
        by_id = {c.id: c for c in self.choices}
        for it in self.items():
            it.setHidden(not by_id[it.data(ROLE)].matches(text))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        """In the search line: Return chooses the only match, Down moves into the list."""
        if obj is self.search and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            shown = self.visible_units()
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and len(shown) == 1:
                self.toggle(shown[0], True if self.multi else None)
                return True
            first = self.item_for(shown[0]) if shown else None
            if event.key() == Qt.Key.Key_Down and first is not None:
                self.list.setFocus()
                self.list.setCurrentItem(first)
                return True
        return super().eventFilter(obj, event)


class UnitPickerDialog(QDialog):
    """A :class:`UnitPicker` with OK / Cancel; ``picker.units()`` after ``accepted``."""

    def __init__(self, choices: list[UnitChoice], units: Iterable[str] = (), multi: bool = True,
                 title: str = "Choose units", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.picker = UnitPicker(choices, multi=multi)
        self.picker.set_units(units)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.picker, 1)
        lay.addWidget(self.buttons)
        self.resize(420, 420)
