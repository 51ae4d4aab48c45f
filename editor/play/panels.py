"""The Play mode widgets: turn and phase bar, unit information panel, dice and event log.

They only read the controller and call its methods; none of them holds game state.
"""

from __future__ import annotations

import html
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QSpinBox, QTabWidget, QToolBar, QVBoxLayout, QWidget)

from editor.eliding_combo import ElidingComboBox
from editor.play.controller import PlayController
from editor.play.describe import describe, describe_dice, wording_for
from play import rules
from play.game import Game
from play.sequence import coverage
from play.state import UnitState


STEPS_SHOWN = 160  # characters of step names on the bar; the tooltip lists them all


def phase_text(g: Game) -> str:
    """``Phase: Activation Phase [GTS 4.0 H] · both sides to move``: the system's own phase name and case."""
    side = g.side_to_move
    side_name = g.system.side_by_id[side].name if side in g.system.side_by_id else (side or "both sides")
    case = f" [{g.phase.rule}]" if g.phase.rule else ""
    over = "  — GAME OVER" if g.state.over else ""
    return f"Phase: {g.phase.name}{case} · {side_name} to move{over}"


def steps_text(g: Game) -> tuple[str, str]:
    """(bar text, tooltip) for the steps the rules print in this phase, each with its case and
    whether the engine plays it (play/sequence.py); a phase without steps shows its own status."""
    rows = coverage(g.phase, g.procedures, g.engine_plays)
    tip = "\n".join(f"{st.message}" + (f" — {st.policy}" if st.policy else "") for st in rows)
    if not g.phase.steps:
        return f"({rows[0].status})", tip
    text = "Steps: " + " · ".join(f"{st.id} {st.name}" + ("" if st.status == "played" else f" ({st.status})")
                                 for st in rows)
    return (text if len(text) <= STEPS_SHOWN else text[:STEPS_SHOWN - 1] + "…"), tip


def movement_allowance_text(g: Game, u: UnitState) -> str:
    """The MA the engine moves the unit with, and where it comes from: the printed counter value
    (the back side when reduced) or the illustrative ``params.play_ma`` of the scenario/system."""
    c = g.counters.get(u.id)
    printed = rules.movement_allowance(g.system, c, u.reduced, None)
    if printed is not None:
        return f"MA {printed:g} (printed)"
    ma = g.movement_allowance(u)
    if ma is not None:
        return f"MA {ma:g} (illustrative (params.play_ma))"
    return "MA unknown: none printed and no params.play_ma (cannot move)"


class TurnBar(QToolBar):
    """Scenario chooser, seed, turn label and date, phase, side to move, Next Phase, End Turn,
    Undo, Restart, and the combat availability note."""

    def __init__(self, on_restart: Callable[[str, int], object]) -> None:
        super().__init__("Play")
        self.setObjectName("play-toolbar")
        self.ctl: PlayController | None = None
        self._on_restart = on_restart
        # Long variant titles are elided, whole in the tooltip and the list (editor/eliding_combo.py).
        self.scenario = ElidingComboBox(34, "Scenario or variant to play (resolved, variants applied)")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2 ** 31 - 1)
        self.seed.setPrefix("seed ")
        self.seed.setToolTip("Dice seed: the same seed and actions give the same game")
        self.turn = QLabel()
        self.turn.setObjectName("play-turn")
        self.phase = QLabel()
        self.phase.setObjectName("play-phase")
        self.steps = QLabel()
        self.steps.setObjectName("play-steps")
        self.steps.setStyleSheet("color: #555;")
        self.combat = QLabel()
        self.combat.setObjectName("play-combat")
        self.combat.setStyleSheet("color: #8a1c1c;")
        self.next_phase = QPushButton("Next Phase")
        self.end_turn = QPushButton("End Turn")
        self.undo = QPushButton("Undo")
        self.restart = QPushButton("Restart")
        for w in (QLabel(" Scenario: "), self.scenario, self.seed, self.restart):
            self.addWidget(w)
        self.addSeparator()
        for w in (self.turn, QLabel("  "), self.phase, QLabel("  "), self.next_phase, self.end_turn, self.undo):
            self.addWidget(w)
        self.addSeparator()
        self.addWidget(self.combat)
        # The steps the rules print in the phase, on a toolbar row of their own (Play mode puts it
        # under this one): a long list never pushes the buttons out of sight.
        self.sequence = QToolBar("Sequence of play")
        self.sequence.setObjectName("play-sequence-toolbar")
        self.sequence.addWidget(self.steps)
        self.next_phase.clicked.connect(lambda: self.ctl and self.ctl.next_phase())
        self.end_turn.clicked.connect(lambda: self.ctl and self.ctl.end_turn())
        self.undo.clicked.connect(lambda: self.ctl and self.ctl.undo())
        self.restart.clicked.connect(self._restart)
        self.scenario.activated.connect(lambda _i: self._restart())

    def _restart(self) -> None:
        sid = self.scenario.currentData()
        if sid:
            self._on_restart(str(sid), self.seed.value())

    def set_controller(self, ctl: PlayController) -> None:
        self.ctl = ctl
        self.scenario.blockSignals(True)
        self.scenario.clear()
        for sid in ctl.bundle.scenario_ids():
            sc = ctl.bundle.scenarios[sid]
            text = f"{sc.name or sid} ({sid})"
            if sc.extends:
                text += f" — variant of {sc.extends}"
            self.scenario.addItem(text, sid)
        self.scenario.setCurrentIndex(max(0, self.scenario.findData(ctl.scenario_id)))
        self.scenario.blockSignals(False)
        self.seed.setValue(ctl.seed)
        self.refresh()

    def refresh(self) -> None:
        ctl = self.ctl
        if ctl is None:
            return
        g = ctl.game
        self.turn.setText(ctl.turn_text())
        self.phase.setText(phase_text(g))
        self.phase.setToolTip(f"{g.phase.name}: {g.phase.rule or 'no case in the data'}")
        text, tip = steps_text(g)
        self.steps.setText(text)
        self.steps.setToolTip(tip)
        note = ctl.combat_note()
        self.combat.setText(note or "Combat: CRT in the data")
        self.combat.setToolTip(note or "The engine resolves attacks with the CRT in the bundle's data")
        self.next_phase.setEnabled(not g.state.over)
        self.end_turn.setEnabled(not g.state.over)
        self.undo.setEnabled(g.can_undo)


class UnitPanel(QWidget):
    """The selected stack: a list of its units (choose which move) and the values of each."""

    def __init__(self) -> None:
        super().__init__()
        self.ctl: PlayController | None = None
        lay = QVBoxLayout(self)
        self.units = QListWidget()
        self.units.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.units.setToolTip("Units in the selected hex; select the ones to move")
        self.units.setMaximumHeight(110)
        self.info = QLabel("Click a counter on the map.")
        self.info.setObjectName("play-unit-info")
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.RichText)
        self.info.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.offmap = QComboBox()
        self.offmap.setToolTip("Units in off-map boxes: choose one, then click an entry hex")
        lay.addWidget(QLabel("Off-map boxes:"))
        lay.addWidget(self.offmap)
        lay.addWidget(self.units)
        lay.addWidget(self.info, 1)
        self.units.itemSelectionChanged.connect(self._picked)
        self.offmap.activated.connect(self._offmap_picked)
        self._filling = False

    def set_controller(self, ctl: PlayController) -> None:
        self.ctl = ctl
        self.refresh()

    def clear(self) -> None:
        """No game: the document it was played on has gone (nothing of it may stay on show)."""
        self.ctl = None
        self._filling = True
        self.offmap.clear()
        self.units.clear()
        self._filling = False
        self.info.setText("Click a counter on the map.")

    def _picked(self) -> None:
        if self._filling or self.ctl is None:
            return
        ids = [i.data(Qt.ItemDataRole.UserRole) for i in self.units.selectedItems()]
        if ids:
            self.ctl.select(ids)

    def _offmap_picked(self, _i: int) -> None:
        uid = self.offmap.currentData()
        if self.ctl is not None and uid:
            self.ctl.select([str(uid)])

    def refresh(self) -> None:
        ctl = self.ctl
        if ctl is None:
            return
        g = ctl.game
        # Each widget is refilled only when what it shows changed (compared with what it holds):
        # clearing and refilling them on every selection re-laid and repainted the whole dock.
        self._filling = True
        offmap = [("—", None)] + [(f"{u.id} ({u.box})", u.id)
                                  for u in sorted(g.state.units.values(), key=lambda u: (u.box or "", u.id))
                                  if u.where == "box"]
        if offmap != [(self.offmap.itemText(i), self.offmap.itemData(i)) for i in range(self.offmap.count())]:
            self.offmap.clear()
            for text, uid in offmap:
                self.offmap.addItem(text, uid)
        elif self.offmap.currentIndex() != 0:
            self.offmap.setCurrentIndex(0)  # as a refill did: the box choice is for one selection
        sel = ctl.selected_units()
        if sel and sel[0].on_map and sel[0].hex is not None:
            peers = ctl.units_at(sel[0].hex)
        else:
            peers = sel
        rows = [(f"{u.id} · {u.side}", u.id) for u in peers]
        have = [(self.units.item(i).text(), self.units.item(i).data(Qt.ItemDataRole.UserRole))
                for i in range(self.units.count())]
        if rows != have:
            self.units.clear()
            for text, uid in rows:
                item = QListWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, uid)
                self.units.addItem(item)
        for i, (_text, uid) in enumerate(rows):
            item = self.units.item(i)
            if item.isSelected() != (uid in ctl.selection):
                item.setSelected(uid in ctl.selection)
        self._filling = False
        html_text = self._info_html()
        if html_text != self.info.text():
            self.info.setText(html_text)

    def _info_html(self) -> str:
        ctl = self.ctl
        assert ctl is not None
        g = ctl.game
        sel = ctl.selected_units()
        if not sel:
            return "Click a counter on the map (right-click clears the selection)."
        parts = []
        for u in sel:
            c = g.counters.get(u.id)
            where = g.label(u.hex) if u.where == "hex" else (f"box {u.box}" if u.where == "box" else u.where)
            side = c.back if c is not None and u.reduced and c.back is not None else (c.front if c is not None else None)
            values = ", ".join(f"{k} {v}" for k, v in (side.values.items() if side is not None else []))
            rows = [f"<b>{html.escape(c.name if c is not None else u.id)}</b> ({html.escape(u.id)})",
                    f"side {html.escape(u.side)}" + (f" · {html.escape(c.category)}" if c is not None else ""),
                    f"at {html.escape(str(where))}",
                    f"steps {u.steps}/{u.max_steps}" + (" · reduced" if u.reduced else " · full strength"),
                    f"values: {html.escape(values) or 'none printed'}",
                    html.escape(movement_allowance_text(g, u)),
                    f"MP spent {u.mp_spent:g}"]
            if u.markers:
                rows.append(f"markers: {html.escape(', '.join(u.markers))}")
            parts.append("<br>".join(rows))
        if ctl.reach_problem is not None:
            p = ctl.reach_problem
            parts.append(f"<i>Cannot move: {html.escape(p.message)}"
                         + (f" [{html.escape(p.rule)}]" if p.rule else "")
                         + (f" (policy {html.escape(p.policy)})" if p.policy else "") + "</i>")
        elif ctl.reach is not None:
            parts.append(f"{len(ctl.reachable_costs())} reachable hex(es) shown with their MP cost")
        return "<hr>".join(parts)


class LogPanel(QTabWidget):
    """Dice log (every roll with its purpose and result) and the full event log."""

    def __init__(self) -> None:
        super().__init__()
        self.ctl: PlayController | None = None
        self.dice = QListWidget()
        self.dice.setObjectName("play-dice-log")
        self.events = QListWidget()
        self.events.setObjectName("play-event-log")
        for lst in (self.dice, self.events):
            lst.setWordWrap(True)
        self.addTab(self.dice, "Dice")
        self.addTab(self.events, "Log")
        self._shown: tuple[object, ...] | None = None  # the log as last shown (refresh skips an unchanged one)

    def set_controller(self, ctl: PlayController) -> None:
        self.ctl = ctl
        self.refresh()

    def refresh(self) -> None:
        if self.ctl is None:
            return
        log = self.ctl.game.log
        # A selection changes no log: re-describing every line (and scrolling, which repaints
        # both lists) cost ~1 ms of each Play-mode click. The last entry's text catches an
        # entry changed in place.
        key = (id(self.ctl.game), id(log), len(log), repr(log[-1]) if log else None)
        if key == self._shown:
            return
        self._shown = key
        wording = wording_for(self.ctl.game.plugin)  # the shared templates and the plug-in's
        # Rebuild only what changed: the log only grows, or shrinks on undo/restart.
        for widget, lines in ((self.events, [describe(e, wording) for e in log]),
                              (self.dice, [describe_dice(e, wording) for e in log if wording.is_dice(e)])):
            have = widget.count()
            if have > len(lines) or any(widget.item(i).text() != lines[i] for i in range(max(0, have - 3), have)):
                widget.clear()
                have = 0
            for line in lines[have:]:
                item = QListWidgetItem(line)
                if "REFUSED" in line:
                    item.setForeground(Qt.GlobalColor.darkRed)
                widget.addItem(item)
            widget.scrollToBottom()

    def clear(self) -> None:
        """No game: the old game's rolls and events go with it."""
        self.ctl = None
        self._shown = None
        self.dice.clear()
        self.events.clear()

    def dice_lines(self) -> list[str]:
        return [self.dice.item(i).text() for i in range(self.dice.count())]

    def event_lines(self) -> list[str]:
        return [self.events.item(i).text() for i in range(self.events.count())]
