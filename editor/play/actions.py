"""The Play mode "Actions" dock: buttons for system procedures that have no map gesture.

Each button builds one engine action from the selection (the units picked on the map), the
target field (a hex label, or ``box:ID`` for strategic moves) and the division / turn boxes,
and runs it through :meth:`PlayController.apply`, so the result or refusal (with its rule
case) reaches the status bar and the log like any other action. A button is shown and enabled
only when the game's procedures offer its action (SFN buttons in SFN games, GTS ones in GTS,
SFN optional-rule buttons only when the scenario selects the rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGridLayout, QLineEdit, QPushButton, QSpinBox, QToolButton,
                               QVBoxLayout, QWidget)

from editor.play.controller import PlayController
from editor.play.naval_panel import NavalPanel
from play.game import ActionResult


@dataclass(frozen=True)
class ButtonSpec:
    name: str        # objectName: play.action.<do>
    text: str
    do: str          # the engine action the button needs
    tip: str


BUTTONS = (
    ButtonSpec("strategic_move", "Strategic Move", "strategic_move",
               "SFN 12.5: move the selected units to the target hex (or box:north / box:south)"),
    ButtonSpec("plot_drop", "Plot Airdrop", "plot_drop",
               "SFN 15.6: plot the selected unit's airdrop on the target hex for the chosen turn"),
    ButtonSpec("fire", "Fire", "attack",
               "GTS 15.5: the selected unit fires at the first enemy in the target hex (the bundle's CRT)"),
    ButtonSpec("indirect_fire", "Indirect Fire", "indirect_fire",
               "GTS 16.5: the first selected unit fires an Indirect Fire mission at the first enemy in the target hex "
               "(or the empty hex: a Barrage marker); a second selected unit is the spotter"),
    ButtonSpec("opportunity_fire", "Opportunity Fire", "opportunity_fire",
               "GTS 17.8: the selected Non-Active unit Opportunity Fires at the unit in the target hex (or the first "
               "pending target) that triggered it: Troop Quality Check, then Direct Fire with the 17.6 modifier"),
    ButtonSpec("column", "Column On/Off", "column",
               "GTS 14.6: the selected units enter Column, or leave it if they are in Column"),
    ButtonSpec("land_craft", "Land Craft", "land_craft",
               "Utah Excl 4.5: the selected landing craft or DD tank lands on the target hex"),
    ButtonSpec("assault", "Assault", "assault",
               "GTS 18.7: the selected units (one hex) Assault the adjacent target hex: Bravery, defenders' fire, "
               "Assault Fire (values the counters lack: use a scripted action)"),
    ButtonSpec("rally", "Rally", "rally",
               "GTS 20.0: the selected unit Rallies (Suppressed first, then one Cohesion Hit); automatic In Command, "
               "else a Troop Quality Check (an unknown TQ: use a scripted action with 'tq')"),
    ButtonSpec("command", "Command?", "command",
               "GTS 21.4: is the selected unit In Command (its Leader's Command Range), and why"),
    ButtonSpec("transfer_leader", "Transfer Leader", "transfer_leader",
               "GTS 21.2: the selected Leader transfers to the target hex (a Unit of his Formation must be there)"),
    ButtonSpec("recover_stragglers", "Recover Stragglers", "recover_stragglers",
               "Utah Excl 3.4.2: the straggler recovery roll of the chosen division (after its DivAct chit)"),
    ButtonSpec("spend_srp", "Spend SRP", "spend_srp",
               "Utah Excl 3.4.3: spend Straggler Recovery Points on the selected unit"),
    ButtonSpec("naval_step", "Naval Step", "naval_next",
               "Utah Excl 4.6: the Naval Sequence of Play goes on to its next step"),
    ButtonSpec("ship_fire", "Ship Fire", "ship_fire",
               "Utah Excl 4.7.1: NSoP step 2 - the selected ship (or the Naval box's) fires at the first German unit "
               "in the target hex (track:obstacles: an LCS at the beach defences)"),
    ButtonSpec("battery_fire", "Battery Fire", "battery_fire",
               "Utah Excl 4.7.2: NSoP step 3 - the selected Coastal Battery (or the one in the target hex) fires at "
               "the ship or Landing Wave craft chosen in the Naval box"),
    ButtonSpec("move_assault_force", "Move Assault Force", "move_assault_force",
               "Utah Excl 4.4.3: NSoP step 7 - the Assault Force marker nearest the target hex moves there"),
    ButtonSpec("move_ship", "Move Ship", "move_ship",
               "Utah Excl 4.4.2: NSoP step 8 - the selected ship moves to the target range box (box:ID)"),
    ButtonSpec("resolve_event", "Resolve Event", "resolve_event",
               "Utah Excl 6.0: the Random Event's choice - a Division or Formation name, a hex, or "
               "(Naval Support) the two selected ships at the target hex"),
    ButtonSpec("declare_air", "Contest Air", "declare_air",
               "SFN 15.3: the German contests Allied air superiority for five game turns (-1 VP)"),
    ButtonSpec("plot_saf", "Plot SAF Strike", "plot_saf",
               "SFN 15.4: plot the SAF strike on the target hex for the chosen turn (2-7 turns ahead)"),
    ButtonSpec("aerial_supply", "Aerial Supply", "aerial_supply",
               "SFN 15.8: aerial supply for the selected out-of-supply units (up to three)"),
    ButtonSpec("airborne_withdraw", "Airborne Withdrawal", "airborne_withdraw",
               "SFN 15.5: withdraw the selected airborne division to the England box (from GT 25)"),
    ButtonSpec("blue_point", "Launch Blue Point", "blue_point",
               "SFN 15.7: launch Operation Blue Point (GT 1, German administrative phase)"),
    ButtonSpec("omm_move", "OMM Move", "omm_move",
               "TKG 7.5.2 / 18.4.2: the selected units move to the target box (an OMM or Transit box id)"),
    ButtonSpec("replace", "Replace", "replace",
               "SFN 8.1-8.6: the selected unit receives replacements (target hex: the beach for an Allied rebuild)"),
    ButtonSpec("blood", "Blooding Roll", "blood",
               "SFN 8.5: the selected untried US unit rolls to convert to its blooded version"),
    ButtonSpec("italy_transfer", "Transfer from Italy", "italy_transfer",
               "SFN 7.4: the selected unit moves from the Italy box to the South box (every fifth turn)"),
    ButtonSpec("declare_riga_odessa", "Declare Riga-Odessa", "declare_riga_odessa",
               "SFN 7.6: the German declares the Riga-Odessa Line strategy (GT 5 or a later fifth turn)"),
    ButtonSpec("hq_to_cp", "HQ to CP Box", "hq_to_cp",
               "SFN 6.6: the selected army HQ moves from the North/South box to the CP box (1 CP)"),
)


class ActionsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.ctl: PlayController | None = None
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.target = QLineEdit()
        self.target.setObjectName("play-action-target")
        self.target.setPlaceholderText("hex label, e.g. 33.031, or box:north")
        self.division = QComboBox()
        self.division.setObjectName("play-action-division")
        self.turn = QSpinBox()
        self.turn.setObjectName("play-action-turn")
        self.turn.setRange(0, 9999)
        form.addRow("Target:", self.target)
        form.addRow("Division:", self.division)
        form.addRow("Drop turn:", self.turn)
        lay.addLayout(form)
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for i, spec in enumerate(BUTTONS):
            b = QPushButton(spec.text)
            b.setObjectName(f"play.action.{spec.name}")
            b.setToolTip(spec.tip)
            b.clicked.connect(self._handler(spec))
            grid.addWidget(b, i // 3, i % 3)  # three columns: the dock stays as tall as before
            self.buttons[spec.name] = b
        self._grid = grid
        lay.addLayout(grid)
        # Utah: the Naval combo and the read-only Naval Display (hidden without one) [Excl 4.4, 4.6].
        self.naval = NavalPanel()
        lay.addWidget(self.naval)
        # SFN 15.1: the Allied player declares the Naval Task Force on an attack (his own, or a
        # German one on his coastal hexes); the box adds ``ntf: true`` to the next map attack.
        self.ntf = QCheckBox("NTF support on the next attack")
        self.ntf.setObjectName("play-action-ntf")
        self.ntf.setToolTip("SFN 15.1: +1 to Allied attackers into a coastal hex, +2 to Allied defenders in one; "
                            "once per game turn")
        self.ntf.toggled.connect(self._ntf_toggled)
        self.ntf.setVisible(False)
        lay.addWidget(self.ntf)
        self._lay = lay
        lay.addStretch(1)

    def add_toggle(self, action: QAction) -> QToolButton:
        """A checkable button bound to a window action (e.g. View ▸ Show Fire Zone), so the two
        always agree."""
        b = QToolButton()
        b.setDefaultAction(action)
        b.setObjectName(f"{action.objectName()}.button")
        b.setToolButtonStyle(b.toolButtonStyle().ToolButtonTextOnly)
        self._lay.insertWidget(self._lay.count() - 1, b)
        return b

    def _handler(self, spec: ButtonSpec) -> Callable[[], None]:
        return lambda: self.run(spec.name) and None

    def set_controller(self, ctl: PlayController) -> None:
        self.ctl = ctl
        self.division.clear()
        for div in _straggler_divisions(ctl):
            self.division.addItem(div, div)
        self.turn.setValue(ctl.game.state.turn + 1)
        self.refresh()

    def refresh(self) -> None:
        offered = set(self._offered())
        for spec in BUTTONS:
            self.buttons[spec.name].setEnabled(spec.do in offered)
        self._relayout(offered)
        self.naval.refresh(self.ctl)
        self.ntf.setVisible(self._ntf_offered())
        if self.ctl is not None:
            self.ntf.blockSignals(True)
            self.ntf.setChecked(bool(self.ctl.attack_options.get("ntf")))
            self.ntf.blockSignals(False)
        self.division.setEnabled("recover_stragglers" in offered)

    def _ntf_offered(self) -> bool:
        if self.ctl is None:
            return False
        game = self.ctl.game
        return any(getattr(p, "key", None) == "naval_task_force" and p.offers(game) for p in game.procedures)

    def _ntf_toggled(self, on: bool) -> None:
        if self.ctl is None:
            return
        if on:
            self.ctl.attack_options["ntf"] = True
        else:
            self.ctl.attack_options.pop("ntf", None)

    def _relayout(self, offered: set[str]) -> None:
        """Only the buttons this game offers are shown, packed three to a row, so buttons of
        other systems (or of SFN optional rules that are off) take no room in the dock."""
        shown = [spec for spec in BUTTONS if spec.do in offered]
        for spec in BUTTONS:
            b = self.buttons[spec.name]
            self._grid.removeWidget(b)
            b.setVisible(spec in shown)
        for i, spec in enumerate(shown):
            self._grid.addWidget(self.buttons[spec.name], i // 3, i % 3)

    def _offered(self) -> list[str]:
        if self.ctl is None:
            return []
        game = self.ctl.game
        # A procedure may say it offers nothing in this game (an SFN optional rule that is off).
        return [do for p in game.procedures if getattr(p, "offers", lambda g: True)(game) for do in p.actions]

    # --- building the actions ------------------------------------------------------------------

    def action_for(self, name: str) -> dict[str, Any] | str:
        """The engine action for a button, or the reason it cannot be built (nothing selected…)."""
        assert self.ctl is not None
        sel = list(self.ctl.selection)
        target = self.target.text().strip()
        needs_unit = name in ("strategic_move", "plot_drop", "fire", "column", "land_craft", "spend_srp",
                              "opportunity_fire")
        if needs_unit and not sel:
            return "select a unit first"
        if name in ("strategic_move", "plot_drop", "fire", "land_craft") and not target:
            return "type a target hex first"
        if name in ("aerial_supply", "airborne_withdraw") and not sel:
            return "select a unit first"
        if name == "plot_saf" and not target:
            return "type a target hex first"
        if name == "declare_air":
            return {"do": "declare_air", "contest": True}
        if name == "plot_saf":
            return {"do": "plot_saf", "hex": target, "turn": self.turn.value()}
        if name == "aerial_supply":
            return {"do": "aerial_supply", "units": sel}
        if name == "airborne_withdraw":
            return {"do": "airborne_withdraw", "unit": sel[0]}
        if name == "blue_point":
            return {"do": "blue_point", "launch": True}
        if name in ("omm_move", "replace", "blood", "italy_transfer", "hq_to_cp") and not sel:
            return "select a unit first"
        if name == "omm_move":
            return {"do": "omm_move", "units": sel, "to": target.removeprefix("box:")} if target \
                else "type a target box first"
        if name == "replace":
            return {"do": "replace", "unit": sel[0], **({"to": target} if target else {})}
        if name in ("blood", "italy_transfer", "hq_to_cp"):
            return {"do": name, "unit": sel[0]}
        if name == "declare_riga_odessa":
            return {"do": "declare_riga_odessa"}
        if name == "strategic_move":
            return {"do": "strategic_move", "units": sel, "to": target}
        if name == "plot_drop":
            return {"do": "plot_drop", "unit": sel[0], "hex": target, "turn": self.turn.value()}
        if name == "fire":
            return {"do": "attack", "attackers": sel[:1], "target": target}
        if name == "opportunity_fire":
            return _opportunity_action(self.ctl, sel, target)
        if name == "indirect_fire":
            return _indirect_action(self.ctl, sel, target)
        if name == "column":
            markers = [str(c.marker) for c in (getattr(p, "column", None) for p in self.ctl.game.procedures)
                       if hasattr(c, "marker")]  # a procedure with Column parameters (GTS [14.6])
            marker = markers[0] if markers else "column"
            units = self.ctl.selected_units()
            return {"do": "column", "units": sel, "enter": not all(marker in u.markers for u in units)}
        if name == "assault":  # GTS 18.7: all selected units, from their one hex
            return {"do": "assault", "units": sel, "target": target} if sel and target else \
                "select the Assaulting units and type the target hex"
        if name == "land_craft":
            return {"do": "land_craft", "unit": sel[0], "to": target}
        if name in ("rally", "command"):  # GTS 20.0, 21.4
            return {"do": name, "unit": sel[0]} if sel else "select a unit first"
        if name == "transfer_leader":  # GTS 21.2
            return {"do": "transfer_leader", "leader": sel[0], "to": target} if sel and target else \
                "select the Leader and type the target hex"
        if name == "recover_stragglers":
            div = self.division.currentData()
            return {"do": "recover_stragglers", "division": str(div)} if div else "choose a division"
        if name == "spend_srp":
            return {"do": "spend_srp", "unit": sel[0]}
        if name in ("naval_step", "ship_fire", "battery_fire", "move_assault_force", "move_ship", "resolve_event"):
            from editor.play.naval_actions import naval_action

            return naval_action(self.ctl.game, name, sel, target, self.naval.chosen())
        return f"no action {name!r}"

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


def _indirect_action(ctl: PlayController, sel: list[str], target: str) -> dict[str, Any] | str:
    """``indirect_fire`` [GTS 16.5]: the first selected unit fires, a second one spots; the
    target is the first enemy in the target hex, else the hex itself (a barrage-only mission)."""
    if not sel or not target:
        return "select the firing unit (and a spotter) and type the target hex"
    game = ctl.game
    firer = game.unit(sel[0])
    try:
        h = game.hex_of(target)
    except Exception:  # a typo in the target field is a message, not a crash
        return f"unknown hex {target!r}"
    enemies = [u.id for u in game.state.at(h) if u.side != firer.side]
    action: dict[str, Any] = {"do": "indirect_fire", "unit": sel[0]}
    action.update({"target": enemies[0]} if enemies else {"hex": target})
    if len(sel) > 1:
        action["spotter"] = sel[1]
    return action


def _opportunity_action(ctl: PlayController, sel: list[str], target: str) -> dict[str, Any] | str:
    """``opportunity_fire`` for the selected firer: the target is the pending target now in the
    target hex, or the first pending one when no hex is typed [GTS 17.8]."""
    from play.gts.opportunity import pending

    game = ctl.game
    mine = [p for p in pending(game) if p.firer == sel[0]]
    if not mine:
        return f"no pending Opportunity Fire for {sel[0]} [GTS 17.2]"
    targets = [t for p in mine for t in p.targets]
    if target:
        try:
            h = game.hex_of(target)
        except Exception:  # an unreadable label: the engine's own message says why
            return f"cannot read hex {target!r}"
        targets = [t for t in targets if game.unit(t).hex == h]
        if not targets:
            return f"no pending Opportunity Fire target of {sel[0]} in {target}"
    return {"do": "opportunity_fire", "unit": sel[0], "target": targets[0]}


def _straggler_divisions(ctl: PlayController) -> list[str]:
    """Airborne divisions with straggler rules in the data (the Division box of the panel)."""
    from play.gts.stragglers import cfg_of

    if not ctl.game.system.id.startswith("gts"):
        return []
    cfg = cfg_of(ctl.game)
    return [str(d) for d in (cfg.divact_chits.value if cfg is not None else {})]
