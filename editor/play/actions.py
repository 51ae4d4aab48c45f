"""The Play mode "Actions" dock: buttons for system procedures that have no map gesture.

Everything in it comes from the game's plug-in (:mod:`play.plugin_ui`): the buttons are the
``actions.yaml`` rows of the plug-in (then the shared ones), the form rows after Target are its
fields, the sections under the buttons its panels, the check boxes its attack options. Each
button builds one engine action from the selection (the units picked on the map), the target
field (a hex label, or ``box:ID`` for strategic moves) and the fields
(:func:`play.plugin_ui.build_action`), and runs it through :meth:`PlayController.apply`, so
the result or refusal (with its rule case) reaches the status bar and the log like any other
action. A button is shown and enabled only when the game's procedures offer its action (an
optional rule's buttons only when the scenario selects the rule).
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGridLayout, QLineEdit, QPushButton, QSpinBox, QToolButton,
                               QVBoxLayout, QWidget)

from editor.play.controller import PlayController
from editor.play.dock_panel import PanelView, fill_combo, make_combo
from play.game import ActionResult
from play.plugin import ActionSpec, SystemPlugin
from play.plugin_ui import AttackOption, Choice, DockInput, PlayUI, TurnBox, build_action
from play.plugins import dock_actions


def _turn_box(f: TurnBox) -> QSpinBox:
    box = QSpinBox()
    box.setObjectName(f"play-action-{f.name}")
    box.setRange(0, 9999)
    if f.tip:
        box.setToolTip(f.tip)
    return box


# Buttons per row: two, not three: three rows of names made the panel ~530 px wide, a right
# dock column that took 42 % of a 1280 px window from the map (#21).
COLUMNS = 2


class ActionsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.ctl: PlayController | None = None
        self._plugin: SystemPlugin | None = None  # whose widgets the dock holds now
        self._specs: tuple[ActionSpec, ...] = ()
        lay = QVBoxLayout(self)
        self._form = QFormLayout()
        self.target = QLineEdit()
        self.target.setObjectName("play-action-target")
        self.target.setPlaceholderText("hex label, e.g. 33.031, or box:north")
        self._form.addRow("Target:", self.target)
        lay.addLayout(self._form)
        self._grid = QGridLayout()
        lay.addLayout(self._grid)
        self._sections = QVBoxLayout()  # the plug-in's panels, then its attack options
        lay.addLayout(self._sections)
        # By name, for the views and tests: buttons, form fields, panels, attack option boxes.
        self.buttons: dict[str, QPushButton] = {}
        self.fields: dict[str, QComboBox | QSpinBox] = {}
        self.panels: dict[str, PanelView] = {}
        self.options: dict[str, QCheckBox] = {}
        self._lay = lay
        self._shown: tuple[str, ...] | None = None  # the buttons laid out now (relayout only on a change)
        lay.addStretch(1)

    @property
    def ui(self) -> PlayUI:
        return self._plugin.play_ui if self._plugin is not None else PlayUI()

    # --- building the dock from the plug-in ------------------------------------------------------

    def _build(self, plugin: SystemPlugin) -> None:
        """Replace the plug-in's widgets (a game of another system was opened)."""
        for b in self.buttons.values():
            self._grid.removeWidget(b)
            b.deleteLater()
        for field_widget in self.fields.values():
            self._form.removeRow(field_widget)  # deletes the row's label and widget
        sections: list[QWidget] = [*self.panels.values(), *self.options.values()]
        for section in sections:
            self._sections.removeWidget(section)
            section.deleteLater()
        self.buttons, self.fields, self.panels, self.options = {}, {}, {}, {}
        self._shown = None
        self._plugin = plugin
        self._specs = dock_actions(plugin)
        ui = plugin.play_ui
        for f in ui.fields:
            widget = make_combo(f) if isinstance(f, Choice) else _turn_box(f)
            self._form.addRow(f.label, widget)
            self.fields[f.name] = widget
        for i, spec in enumerate(self._specs):
            b = QPushButton(spec.text)
            b.setObjectName(f"play.action.{spec.name}")
            b.setToolTip(spec.tip)
            b.clicked.connect(self._handler(spec))
            self._grid.addWidget(b, i // COLUMNS, i % COLUMNS)
            self.buttons[spec.name] = b
        for panel in ui.panels:
            view = PanelView(panel)
            self._sections.addWidget(view)
            self.panels[panel.name] = view
        for opt in ui.attack_options:
            box = QCheckBox(opt.text)
            box.setObjectName(f"play-action-{opt.key}")
            box.setToolTip(opt.tip)
            box.toggled.connect(self._option_toggled(opt))
            box.setVisible(False)
            self._sections.addWidget(box)
            self.options[opt.key] = box

    def add_toggle(self, action: QAction) -> QToolButton:
        """A checkable button bound to a window action (e.g. View ▸ Show Fire Zone), so the two
        always agree."""
        b = QToolButton()
        b.setDefaultAction(action)
        b.setObjectName(f"{action.objectName()}.button")
        b.setToolButtonStyle(b.toolButtonStyle().ToolButtonTextOnly)
        self._lay.insertWidget(self._lay.count() - 1, b)
        return b

    def _handler(self, spec: ActionSpec) -> Callable[[], None]:
        def clicked() -> None:
            self.run(spec.name)

        return clicked

    def _option_toggled(self, opt: AttackOption) -> Callable[[bool], None]:
        def toggled(on: bool) -> None:
            if self.ctl is None:
                return
            if on:
                self.ctl.attack_options[opt.key] = True
            else:
                self.ctl.attack_options.pop(opt.key, None)

        return toggled

    def set_controller(self, ctl: PlayController) -> None:
        self.ctl = ctl
        if ctl.game.plugin is not self._plugin:
            self._build(ctl.game.plugin)
        for f in self.ui.fields:
            w = self.fields[f.name]
            if isinstance(f, TurnBox) and isinstance(w, QSpinBox):
                w.setValue(ctl.game.state.turn + 1)  # a plot is for a later turn: the next one first
            elif isinstance(f, Choice) and isinstance(w, QComboBox):
                w.clear()  # a new game: the first option again
        self.refresh()

    def refresh(self) -> None:
        offered = set(self._offered())
        for spec in self._specs:
            self.buttons[spec.name].setEnabled(spec.do in offered)
        self._relayout(offered)
        game = self.ctl.game if self.ctl is not None else None
        ui = self.ui
        for f in ui.fields:
            w = self.fields[f.name]
            if isinstance(f, Choice) and isinstance(w, QComboBox):
                if game is not None:
                    fill_combo(w, f, game)
                w.setEnabled(f.enabled_by is None or f.enabled_by in offered)
        for view in self.panels.values():
            view.refresh(game)
        for opt in ui.attack_options:
            box = self.options[opt.key]
            box.setVisible(game is not None and opt.offered(game))
            if self.ctl is not None:
                box.blockSignals(True)
                box.setChecked(bool(self.ctl.attack_options.get(opt.key)))
                box.blockSignals(False)

    def _relayout(self, offered: set[str]) -> None:
        """Only the buttons this game offers are shown, packed COLUMNS to a row, so buttons of
        optional rules that are off take no room in the dock."""
        shown = [spec for spec in self._specs if spec.do in offered]
        names = tuple(spec.name for spec in shown)
        if names == self._shown:
            # The same buttons: taking them out of the grid and back in on every selection
            # invalidated the dock's layout and repainted it (~0.4 ms a Play-mode click).
            return
        self._shown = names
        for spec in self._specs:
            b = self.buttons[spec.name]
            self._grid.removeWidget(b)
            b.setVisible(spec in shown)
        for i, spec in enumerate(shown):
            self._grid.addWidget(self.buttons[spec.name], i // COLUMNS, i % COLUMNS)

    def _offered(self) -> list[str]:
        if self.ctl is None:
            return []
        game = self.ctl.game
        # A procedure may say it offers nothing in this game (an optional rule that is off).
        return [do for p in game.procedures if getattr(p, "offers", lambda g: True)(game) for do in p.actions]

    # --- building the actions ------------------------------------------------------------------

    def dock_input(self) -> DockInput:
        """What the dock holds now: the selection, the target and every field and panel combo."""
        assert self.ctl is not None
        values: dict[str, Any] = {}
        for name, w in self.fields.items():
            values[name] = w.value() if isinstance(w, QSpinBox) else w.currentData()
        for view in self.panels.values():
            if view.combo is not None and view.panel.choice is not None:
                values[view.panel.choice.name] = view.chosen()
        return DockInput(tuple(self.ctl.selection), self.target.text().strip(), values)

    def action_for(self, name: str) -> dict[str, Any] | str:
        """The engine action for a button, or the reason it cannot be built (nothing selected…)."""
        assert self.ctl is not None
        spec = next((s for s in self._specs if s.name == name), None)
        if spec is None:
            return f"no action {name!r}"
        return build_action(spec, self.ui, self.ctl.game, self.dock_input())

    def run(self, name: str) -> ActionResult:
        """Build and run the button's action; a missing argument is a refusal shown like one."""
        assert self.ctl is not None
        action = self.action_for(name)
        if isinstance(action, str):
            res = ActionResult(False, action)
            self.ctl.last = res
            self.ctl.result.emit(res)
            return res
        return self.ctl.apply(action)
