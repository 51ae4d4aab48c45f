"""Scenario Properties dock: the selected scenario's title, turns, weather, first player,
playable area, optional rules, special rules and victory conditions.

Every change is one undo command (editor/commands/scenario_props.py) and re-validates live (the
window's diagnostics runner hears the same ``ScenarioChanged``); the panel reads only the model,
so undo and redo show in it at once (Scenario mode calls :meth:`refresh` after every change).

What it shows is the scenario resolved (a variant with its base applied); what it edits is the
scenario as stored, so a variant's edit goes into the variant's own file (the policies are in
model/scenario_props.py). Values a variant inherits are shown in italics.

* Turns are chosen among the calendar's labels (model/calendar.py). Policy *turn-ref-kind-kept*:
  a scenario that wrote its turns as labels gets labels, one that wrote numbers gets numbers; a
  new range is written as labels, as the sample scenarios write it.
* Weather is free text: no system file declares a list of weather conditions, so the panel
  offers what the bundle's scenarios already use (policy *weather-free-text*).
* Optional rules are the system's ``optional_rules`` (id → title), each with how far test play
  applies it, read from the play plug-in's coverage table (play/<plug-in>/optional_coverage.yaml).
  A rule missing from that table is shown "not applied" (policy *coverage-missing-is-not-applied*,
  as play/optional_coverage.py says it in a started game).
* A special rule's or victory condition's rule references are checked against the rulebook index
  of game.yaml as they are typed (model/rule_refs.py, the check CORE-REF-008 reports); a reference
  that is not a case of the index is marked red with the reason in its tooltip. References are
  typed separated by ``;``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QIntValidator
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QPushButton, QScrollArea, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from editor.commands.scenario_props import (AddScenarioItem, ChangeScenarioItem, RemoveScenarioItem, RetitleScenario,
                                            SetPlayableArea, SetScenarioText, SetScenarioTurns, SetStartingVP,
                                            SwitchOptionalRule)
from model import scenario_props as sp
from model.calendar import TurnDef, build_turns, resolve_turn
from model.formats.rulebook import RulebookIndex
from model.rule_refs import index_from_cases, reference_problem
from model.scenario import Scenario, SpecialRule, VictoryCondition

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection
    from play.plugin import Coverage

ROLE = Qt.ItemDataRole.UserRole
BAD = QColor("#b00020")
BAD_BACKGROUND = QColor("#fde7ea")
# How the coverage table's statuses read in the panel (play/plugin.py STATUSES).
COVERAGE_TEXT = {"applied": "applied", "partial": "partial", "scenario-data-only": "applied (scenario data)",
                 "not-applied": "not applied"}
COVERAGE_COLOUR = {"applied": "#1b7f3b", "scenario-data-only": "#1b7f3b", "partial": "#a15c00",
                   "not-applied": "#b00020"}


def rows(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The top-level items of ``tree``, in order."""
    return [it for it in (tree.topLevelItem(i) for i in range(tree.topLevelItemCount())) if it is not None]


def coverage_text(cov: "Coverage | None") -> tuple[str, str]:
    """(what the Test play column says, its tooltip) for one optional rule's coverage."""
    if cov is None:
        return ("not applied", "Not in the play plug-in's coverage table: assume test play does not apply it "
                               "(policy coverage-missing-is-not-applied)")
    tip = " — ".join(x for x in (cov.rule, cov.note) if x) or cov.status
    return COVERAGE_TEXT.get(cov.status, cov.status), tip


class ScenarioPropertiesPanel(QWidget):
    status = Signal(str, int)  # a message for the status bar, and for how many ms

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection") -> None:
        super().__init__()
        self.document, self.selection = document, selection
        self._filling = False
        self._index_key: Any = None
        self._index: RulebookIndex | None = None
        self._coverage: dict[str, Coverage] | None = None
        self._turns: list[TurnDef] | None = None
        self._ref_problems: dict[str, str | None] = {}
        self._turn_extras: tuple[Any, ...] | None = None  # what the turn combos were filled for

        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setObjectName("scenario-props-header")
        lay.addWidget(self.header)

        general = QGroupBox("Scenario")
        form = QFormLayout(general)
        self.title = QLineEdit()
        self.title.setObjectName("scenario-props-title")
        self.title.editingFinished.connect(self._title_edited)
        form.addRow("&Title:", self.title)
        self.first = QComboBox()
        self.first.setObjectName("scenario-props-first")
        self.last = QComboBox()
        self.last.setObjectName("scenario-props-last")
        for combo in (self.first, self.last):
            combo.currentIndexChanged.connect(lambda _i: self._turns_chosen())
        form.addRow("&First turn:", self.first)
        form.addRow("&Last turn:", self.last)
        self.turns_problem = QLabel()
        self.turns_problem.setStyleSheet("color: #b00020;")
        self.turns_problem.setWordWrap(True)
        form.addRow("", self.turns_problem)
        self.weather = QComboBox()
        self.weather.setObjectName("scenario-props-weather")
        self.weather.setEditable(True)
        self.weather.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.weather.lineEdit().editingFinished.connect(self._weather_edited)  # type: ignore[union-attr]
        self.weather.activated.connect(lambda _i: self._weather_edited())
        form.addRow("&Weather:", self.weather)
        self.first_player = QComboBox()
        self.first_player.setObjectName("scenario-props-first-player")
        self.first_player.currentIndexChanged.connect(lambda _i: self._first_player_chosen())
        form.addRow("First &player:", self.first_player)
        self.vp_row = QHBoxLayout()
        self.vp_row.setContentsMargins(0, 0, 0, 0)
        self.vp_edits: dict[str, QLineEdit] = {}
        vp_box = QWidget()
        vp_box.setLayout(self.vp_row)
        for side in document.system.sides:
            edit = QLineEdit()
            edit.setObjectName(f"scenario-props-vp-{side.id}")
            edit.setValidator(QIntValidator(-99999, 99999, edit))
            edit.setPlaceholderText("—")
            edit.setMaximumWidth(70)
            edit.editingFinished.connect(lambda sid=side.id: self._vp_edited(sid))
            self.vp_row.addWidget(QLabel(side.name))
            self.vp_row.addWidget(edit)
            self.vp_edits[side.id] = edit
        self.vp_row.addStretch(1)
        form.addRow("Starting &VP:", vp_box)
        lay.addWidget(general)

        playable = QGroupBox("Playable area")
        pform = QFormLayout(playable)
        self.sheets_row = QHBoxLayout()
        self.sheet_boxes: dict[str, QCheckBox] = {}
        sheets = QWidget()
        sheets.setLayout(self.sheets_row)
        self.sheets_row.setContentsMargins(0, 0, 0, 0)
        pform.addRow("Sheets:", sheets)
        self.area = QComboBox()
        self.area.setObjectName("scenario-props-area")
        self.area.currentIndexChanged.connect(lambda _i: self._area_chosen())
        pform.addRow("Area:", self.area)
        self.half_hexes = QCheckBox("Half hexes at the sheet edges are playable")
        self.half_hexes.setObjectName("scenario-props-half-hexes")
        self.half_hexes.toggled.connect(self._half_hexes_toggled)
        pform.addRow("", self.half_hexes)
        self.playable_summary = QLabel()
        self.playable_summary.setWordWrap(True)
        pform.addRow("", self.playable_summary)
        lay.addWidget(playable)

        optional = QGroupBox("Optional rules")
        olay = QVBoxLayout(optional)
        self.optional = QTreeWidget()
        self.optional.setObjectName("scenario-props-optional")
        self.optional.setHeaderLabels(["Rule", "Title", "Test play"])
        self.optional.setRootIsDecorated(False)
        self.optional.itemChanged.connect(self._optional_changed)
        olay.addWidget(self.optional)
        lay.addWidget(optional)

        special = QGroupBox("Special rules")
        slay = QVBoxLayout(special)
        self.special = QTreeWidget()
        self.special.setObjectName("scenario-props-special")
        self.special.setHeaderLabels(["Id", "Text", "Rule references"])
        self.special.setRootIsDecorated(False)
        self.special.itemChanged.connect(self._special_changed)
        slay.addWidget(self.special)
        self.refs_summary = QLabel()
        self.refs_summary.setWordWrap(True)
        slay.addWidget(self.refs_summary)
        slay.addLayout(self._buttons("special_rules"))
        lay.addWidget(special)

        victory = QGroupBox("Victory conditions")
        vlay = QVBoxLayout(victory)
        self.victory = QTreeWidget()
        self.victory.setObjectName("scenario-props-victory")
        self.victory.setHeaderLabels(["Side", "VP", "Text", "Rule references"])
        self.victory.setRootIsDecorated(False)
        self.victory.itemChanged.connect(self._victory_changed)
        vlay.addWidget(self.victory)
        vlay.addLayout(self._buttons("victory"))
        lay.addWidget(victory)
        lay.addStretch(1)

        # The title or text column takes the width; ids, statuses and references fit their contents.
        for tree, wide in ((self.optional, 1), (self.special, 1), (self.victory, 2)):
            header = tree.header()
            header.setStretchLastSection(False)
            for col in range(tree.columnCount()):
                header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch if col == wide
                                            else QHeaderView.ResizeMode.ResizeToContents)
            tree.setMinimumHeight(90)
            tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self.refresh()

    def _buttons(self, name: str) -> QHBoxLayout:
        row = QHBoxLayout()
        add = QPushButton("Add")
        add.setObjectName(f"scenario-props-add-{name}")
        remove = QPushButton("Remove")
        remove.setObjectName(f"scenario-props-remove-{name}")
        add.clicked.connect(lambda: self._add_clicked(name))
        remove.clicked.connect(lambda: self._remove_clicked(name))
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        return row

    # --- what is shown -----------------------------------------------------------------------------

    @property
    def sid(self) -> str | None:
        return self.selection.scenario_id

    def _stored(self) -> Scenario | None:
        return self.selection.scenario()

    def turns(self) -> list[TurnDef]:
        """The system calendar's turns (built once: the system does not change under a document)."""
        if self._turns is None:
            self._turns = build_turns(self.document.system.calendar)
        return self._turns

    def reference_problem(self, ref: str) -> str | None:
        """model.rule_refs.reference_problem against game.yaml's index, remembered per reference."""
        index = self.rulebook_index()
        if ref not in self._ref_problems:
            self._ref_problems[ref] = reference_problem(index, ref)
        return self._ref_problems[ref]

    def rulebook_index(self) -> RulebookIndex | None:
        """game.yaml's rulebook index, rebuilt only when it changes."""
        rb = self.document.bundle.game.rulebook
        key = None if rb is None or not rb.cases else (rb.source, tuple(rb.cases.items()))
        if key != self._index_key:
            self._index_key = key
            self._ref_problems = {}
            self._index = None if rb is None or key is None else index_from_cases(rb.source, rb.cases)
        return self._index

    def coverage(self) -> "dict[str, Coverage]":
        if self._coverage is None:
            from play.errors import GameError
            from play.optional_coverage import coverage_for

            try:
                self._coverage = dict(coverage_for(self.document.system))
            except GameError:  # the system names a plug-in this Hexproof lacks: nothing is known
                self._coverage = {}
        return self._coverage

    def _inherited(self, name: str) -> bool:
        """Whether the selected scenario is a variant that does not set ``name`` itself."""
        scen = self._stored()
        return scen is not None and bool(scen.extends) and name not in scen.model_fields_set

    def _mark(self, widget: QWidget, name: str) -> None:
        inherited = self._inherited(name)
        font = widget.font()
        font.setItalic(inherited)
        widget.setFont(font)
        base = self._stored().extends if inherited else None  # type: ignore[union-attr]
        widget.setToolTip(f"Inherited from {base}: a change here is written to this variant" if base else "")

    def refresh(self) -> None:
        self._filling = True
        try:
            self._fill()
        finally:
            self._filling = False

    def _fill(self) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        self.setEnabled(scen is not None and shown is not None)
        if scen is None or shown is None:
            self.header.setText("No scenario selected." if scen is None else
                                f"{scen.id}: its extends chain cannot be resolved (see Diagnostics).")
            return
        base = f" — a variant of {scen.extends}; values in italics are inherited" if scen.extends else ""
        self.header.setText(f"<b>{scen.id}</b>{base}")
        if not self.title.hasFocus() or self.title.text() == "":
            self.title.setText(scen.name)
        self._fill_turns(shown)
        self._fill_weather(shown)
        self._fill_first_player(shown)
        for side, edit in self.vp_edits.items():
            if not edit.hasFocus():
                edit.setText("" if side not in shown.vp else str(shown.vp[side]))
        self._fill_playable(shown)
        self._fill_optional(shown)
        self._fill_items(self.special, shown.special_rules, "special_rules")
        self._fill_items(self.victory, shown.victory, "victory")
        for widget, name in ((self.first, "turns"), (self.last, "turns"), (self.weather, "weather"),
                             (self.first_player, "first_player"), (self.area, "playable"),
                             *((edit, "vp") for edit in self.vp_edits.values()),
                             (self.half_hexes, "playable"), (self.optional, "optional_rules"),
                             (self.special, "special_rules"), (self.victory, "victory")):
            self._mark(widget, name)

    def _fill_turns(self, shown: Scenario) -> None:
        turns = self.turns()
        first = shown.turns.first if shown.turns is not None else None
        last = shown.turns.last if shown.turns is not None else None
        numbers = {t.n for t in turns}
        extras = tuple(v for v in (first, last) if v is not None and resolve_turn(v, turns) not in numbers)
        if extras != self._turn_extras:  # the calendar's items, plus the values not in it
            self._turn_extras = extras
            for combo in (self.first, self.last):
                combo.clear()
                combo.addItem("(not set)", None)
                for t in turns:
                    combo.addItem(t.label if t.label == str(t.n) else f"{t.label}  (turn {t.n})", t.n)
                for value in extras:
                    combo.addItem(f"{value}  (not in the calendar)", str(value))
        for combo, value in ((self.first, first), (self.last, last)):
            n = resolve_turn(value, turns) if value is not None else None
            i = 0 if value is None else combo.findData(n) if n in numbers else combo.findData(str(value))
            combo.setCurrentIndex(max(i, 0))
        a = resolve_turn(first, turns) if first is not None else None
        b = resolve_turn(last, turns) if last is not None else None
        problems = []
        for what, value, n in (("first", first, a), ("last", last, b)):
            if value is not None and n is None:
                problems.append(f"The {what} turn {value!r} is not a turn of the calendar.")
        if a is not None and b is not None and b < a:
            problems.append(f"The last turn ({last}) comes before the first ({first}).")
        self.turns_problem.setText(" ".join(problems))
        self.turns_problem.setVisible(bool(problems))

    def _fill_weather(self, shown: Scenario) -> None:
        used = sorted({s.weather for s in self.document.bundle.scenarios.values() if s.weather} |
                      ({shown.weather} if shown.weather else set()))
        self.weather.clear()
        self.weather.addItems(used)
        self.weather.setCurrentText(shown.weather or "")

    def _fill_first_player(self, shown: Scenario) -> None:
        self.first_player.clear()
        self.first_player.addItem("(not set)", None)
        for side in self.document.system.sides:
            self.first_player.addItem(f"{side.name} ({side.id})", side.id)
        i = self.first_player.findData(shown.first_player) if shown.first_player else 0
        if i < 0:
            self.first_player.addItem(f"{shown.first_player} (not a side of the system)", shown.first_player)
            i = self.first_player.count() - 1
        self.first_player.setCurrentIndex(i)

    def _fill_playable(self, shown: Scenario) -> None:
        hmap = self.document.bundle.map_for(shown)
        play = shown.playable
        chosen = set(play.sheets) if play is not None else set()
        while self.sheets_row.count():
            item = self.sheets_row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.sheet_boxes = {}
        for sheet in hmap.spec.sheets:
            box = QCheckBox(sheet.id)
            box.setObjectName(f"scenario-props-sheet-{sheet.id}")
            box.setToolTip(sheet.name or sheet.id)
            box.setChecked(sheet.id in chosen)
            box.toggled.connect(lambda _on: self._sheets_toggled())
            self.sheets_row.addWidget(box)
            self.sheet_boxes[sheet.id] = box
        self.sheets_row.addStretch(1)
        self.area.clear()
        self.area.addItem("(none)", None)
        for area in hmap.areas:
            self.area.addItem(area.name, area.id)
        i = self.area.findData(play.area) if play is not None and play.area else 0
        if i < 0:
            self.area.addItem(f"{play.area} (not on the map)", play.area)  # type: ignore[union-attr]
            i = self.area.count() - 1
        self.area.setCurrentIndex(i)
        self.half_hexes.setChecked(play.half_hexes if play is not None else True)
        parts = []
        if play is None or not (play.sheets or play.area or play.hexes):
            parts.append("No sheet or area chosen: the whole map is in play.")
        if play is not None and play.hexes:
            parts.append(f"{len(play.hexes)} hexes listed.")
        if play is not None and play.exclude:
            parts.append(f"{len(play.exclude)} hexes excluded.")
        if play is not None and play.note:
            parts.append(play.note)
        self.playable_summary.setText(" ".join(parts))

    def _fill_optional(self, shown: Scenario) -> None:
        self.optional.clear()
        cov = self.coverage()
        rules = dict(self.document.system.optional_rules)
        for rid in shown.optional_rules:
            rules.setdefault(rid, "")
        for rid, title in rules.items():
            it = QTreeWidgetItem([rid, title or "(not an optional rule of the system)", ""])
            it.setData(0, ROLE, rid)
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(0, Qt.CheckState.Checked if sp.optional_rule_on(shown, rid) else Qt.CheckState.Unchecked)
            c = cov.get(rid)
            text, tip = coverage_text(c)
            it.setText(2, text)
            it.setToolTip(2, tip)
            it.setForeground(2, QBrush(QColor(COVERAGE_COLOUR.get(c.status if c else "not-applied", "#000000"))))
            if not title:
                it.setForeground(1, QBrush(BAD))
            self.optional.addTopLevelItem(it)

    def _fill_items(self, tree: QTreeWidget, items: list[Any], name: str) -> None:
        index = self.rulebook_index()
        current = tree.currentIndex().row()
        tree.clear()
        bad = 0
        for i, item in enumerate(items):
            refs = "; ".join(item.refs)
            cols = [item.id, item.text, refs] if name == "special_rules" else \
                [item.side or "", "" if item.vp is None else str(item.vp), item.text, refs]
            row = QTreeWidgetItem(cols)
            row.setData(0, ROLE, i)
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsEditable)
            row.setToolTip(cols.index(item.text), item.text)
            problems = [p for p in (self.reference_problem(r) for r in item.refs) if p]
            ref_col = len(cols) - 1
            if problems:
                bad += len(problems)
                row.setForeground(ref_col, QBrush(BAD))
                row.setBackground(ref_col, QBrush(BAD_BACKGROUND))
                row.setToolTip(ref_col, "\n".join(problems))
                font = QFont(row.font(ref_col))
                font.setBold(True)
                row.setFont(ref_col, font)
            tree.addTopLevelItem(row)
        kept = tree.topLevelItem(current) if current >= 0 else None
        if kept is not None:
            tree.setCurrentItem(kept)
        if name == "special_rules":
            if index is None:
                self.refs_summary.setText("game.yaml has no rulebook index: references are not checked.")
            else:
                self.refs_summary.setText(f"{bad} rule reference{'s' if bad != 1 else ''} not in the rulebook index"
                                          if bad else "Every rule reference is a case of the rulebook index.")
                self.refs_summary.setStyleSheet("color: #b00020;" if bad else "")

    # --- edits from the widgets ---------------------------------------------------------------------

    def _push(self, cmd: Any) -> None:
        self.document.push(cmd)

    def _title_edited(self) -> None:
        scen = self._stored()
        text = self.title.text().strip()
        if self._filling or scen is None or text == scen.name:
            return
        if not text:
            self.status.emit("A scenario needs a title", 4000)
            self.title.setText(scen.name)
            return
        self._push(RetitleScenario(self.document, scen.id, text))

    def _turn_value(self, combo: QComboBox, old: int | str | None) -> int | str | None:
        data = combo.currentData()
        if data is None or isinstance(data, str):
            return data
        turn = next((t for t in self.turns() if t.n == data), None)
        if turn is None or isinstance(old, int):
            return int(data)
        return turn.label  # policy turn-ref-kind-kept: labels stay labels; a new range gets labels

    def _turns_chosen(self) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if self._filling or scen is None or shown is None:
            return
        old = shown.turns
        first = self._turn_value(self.first, old.first if old is not None else None)
        last = self._turn_value(self.last, old.last if old is not None else None)
        if (first, last) == ((old.first, old.last) if old is not None else (None, None)):
            return
        if (first is None) != (last is None):
            self.status.emit("Choose both the first and the last turn", 4000)
            return
        self._push(SetScenarioTurns(self.document, scen.id, first, last))

    def _weather_edited(self) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if self._filling or scen is None or shown is None:
            return
        text = self.weather.currentText().strip() or None
        if text != shown.weather:
            self._push(SetScenarioText(self.document, scen.id, "weather", text))

    def _first_player_chosen(self) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if self._filling or scen is None or shown is None:
            return
        value = self.first_player.currentData()
        if value != shown.first_player:
            self._push(SetScenarioText(self.document, scen.id, "first_player", value))

    def _vp_edited(self, side: str) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if self._filling or scen is None or shown is None:
            return
        text = self.vp_edits[side].text().strip()
        value = int(text) if text.lstrip("-").isdigit() else None
        if value != shown.vp.get(side):
            self._push(SetStartingVP(self.document, scen.id, side, value))

    def _playable_change(self, **changes: Any) -> None:
        scen = self._stored()
        if self._filling or scen is None:
            return
        self._push(SetPlayableArea(self.document, scen.id, **changes))

    def _sheets_toggled(self) -> None:
        chosen = [sid for sid, box in self.sheet_boxes.items() if box.isChecked()]
        self._playable_change(sheets=chosen or None)

    def _area_chosen(self) -> None:
        shown = self.selection.resolved()
        value = self.area.currentData()
        if shown is not None and value != (shown.playable.area if shown.playable else None):
            self._playable_change(area=value)

    def _half_hexes_toggled(self, on: bool) -> None:
        self._playable_change(half_hexes=on)

    def _optional_changed(self, item: QTreeWidgetItem, column: int) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if self._filling or column != 0 or scen is None or shown is None:
            return
        rid = item.data(0, ROLE)
        on = item.checkState(0) == Qt.CheckState.Checked
        if on == sp.optional_rule_on(shown, rid):
            return
        inherited = sp.optional_rule_on(sp.base_of(self.document.bundle, scen.id), rid)
        self._push(SwitchOptionalRule(self.document, scen.id, rid, on, inherited))

    def _special_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling:
            return
        self._item_edited("special_rules", item, {1: "text", 2: "refs"}.get(column), item.text(column))

    def _victory_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling:
            return
        self._item_edited("victory", item, {0: "side", 1: "vp", 2: "text", 3: "refs"}.get(column), item.text(column))

    def _item_edited(self, name: str, item: QTreeWidgetItem, field: str | None, text: str) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if scen is None or shown is None:
            return
        index = item.data(0, ROLE)
        old = getattr(shown, name)[index]
        value: Any = text.strip()
        if field is None:
            self.status.emit("A special rule keeps its id", 4000)
            self.refresh()
            return
        if field == "refs":
            value = sp.parse_refs(text)
        elif field == "vp":
            if value and not value.lstrip("-").isdigit():
                self.status.emit(f"VP must be a whole number, not {value!r}", 4000)
                self.refresh()
                return
            value = int(value) if value else None
        elif field == "side":
            value = value or None
        elif field == "text" and not value:
            self.status.emit("The text cannot be empty", 4000)
            self.refresh()
            return
        if value == getattr(old, field):
            return
        self._push(ChangeScenarioItem(self.document, scen.id, name, index, **{field: value}))

    def _add_clicked(self, name: str) -> None:
        if name == "special_rules":
            self.add_special_rule("New special rule: edit the text", [])
        else:
            self.add_victory_condition("New victory condition: edit the text")
        tree = self.special if name == "special_rules" else self.victory
        last = tree.topLevelItem(tree.topLevelItemCount() - 1) if tree.topLevelItemCount() else None
        if last is not None:
            tree.setCurrentItem(last)
            if tree.isVisible():
                tree.editItem(last, 1 if name == "special_rules" else 2)

    def _remove_clicked(self, name: str) -> None:
        tree = self.special if name == "special_rules" else self.victory
        item = tree.currentItem()
        if item is not None:
            self.remove_item(name, item.data(0, ROLE))

    # --- for tests and scripts: the panel's edits by value ------------------------------------------

    def set_title(self, text: str) -> None:
        """Type ``text`` as the title and leave the field (as a user does)."""
        self.title.setText(text)
        self.title.editingFinished.emit()

    def choose_turns(self, first: str | int | None = None, last: str | int | None = None) -> None:
        """Pick the first and/or last turn by calendar label or turn number."""
        turns = self.turns()
        for combo, value in ((self.first, first), (self.last, last)):
            if value is None:
                continue
            n = resolve_turn(value, turns)
            i = combo.findData(n)
            if i < 0:
                raise KeyError(f"{value!r} is not a turn of the calendar")
            combo.setCurrentIndex(i)

    def set_weather(self, text: str) -> None:
        self.weather.setCurrentText(text)
        self._weather_edited()

    def set_first_player(self, side: str | None) -> None:
        i = self.first_player.findData(side)
        if i < 0:
            raise KeyError(f"{side!r} is not a side of the system")
        self.first_player.setCurrentIndex(i)

    def set_start_vp(self, side: str, value: int | None) -> None:
        """Type ``value`` (None: clear it) as ``side``'s starting VP and leave the field."""
        edit = self.vp_edits[side]
        edit.setText("" if value is None else str(value))
        edit.editingFinished.emit()

    def optional_item(self, rule_id: str) -> QTreeWidgetItem:
        for it in rows(self.optional):
            if it.data(0, ROLE) == rule_id:
                return it
        raise KeyError(f"{rule_id!r} is not listed among the optional rules")

    def set_optional_rule(self, rule_id: str, on: bool) -> None:
        """Tick or untick optional rule ``rule_id``'s checkbox (one undo step)."""
        self.optional_item(rule_id).setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def optional_rules_shown(self) -> dict[str, tuple[bool, str]]:
        """rule id → (ticked, Test play column) as the panel shows them."""
        return {it.data(0, ROLE): (it.checkState(0) == Qt.CheckState.Checked, it.text(2)) for it in rows(self.optional)}

    def add_special_rule(self, text: str, refs: list[str]) -> None:
        scen, shown = self._stored(), self.selection.resolved()
        if scen is None or shown is None:
            return
        rule = SpecialRule(id=sp.free_rule_id(shown.special_rules), text=text, refs=refs)
        self._push(AddScenarioItem(self.document, scen.id, "special_rules", rule))

    def add_victory_condition(self, text: str, side: str | None = None, vp: int | None = None,
                              refs: list[str] | None = None) -> None:
        scen = self._stored()
        if scen is None:
            return
        cond = VictoryCondition(text=text, side=side, vp=vp, refs=refs or [])
        self._push(AddScenarioItem(self.document, scen.id, "victory", cond))

    def edit_item(self, name: str, row: int, column: int, text: str) -> None:
        """Type ``text`` into a cell of the special rules or victory table (through the table)."""
        tree = self.special if name == "special_rules" else self.victory
        rows(tree)[row].setText(column, text)

    def remove_item(self, name: str, row: int) -> None:
        scen = self._stored()
        if scen is not None:
            self._push(RemoveScenarioItem(self.document, scen.id, name, row))

    def bad_references(self, name: str = "special_rules") -> list[tuple[int, str]]:
        """(row, tooltip) of every row whose rule references are marked as not in the index."""
        tree = self.special if name == "special_rules" else self.victory
        col = tree.columnCount() - 1
        return [(i, it.toolTip(col)) for i, it in enumerate(rows(tree)) if it.foreground(col).color() == BAD]
