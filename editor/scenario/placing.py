"""Placing units in Scenario mode: the one code path every drop, drag, menu and dialog ends in.

Drops on the map, drops on a box, stack drags, the stack's context menu and the placement
dialog all call :func:`place_units` (one ``PlaceUnit`` per unit, one undo macro; ``drop_units``
is its hex/box form); the state check boxes call :func:`set_unit_state`. The placement kinds
are the format's (``SetupEntry``: exactly on a hex, in or adjacent to a hex, a named area, a
box, a named location). Functions of the document and the selection only, so panels, tools and
tests share them without a mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QMenu,
                               QVBoxLayout, QWidget)

from editor.commands.scenario import PlaceUnit, SetUnitState
from editor.scenario.unit_picker import UnitPicker, unit_choices
from model import scenario_edits as se
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import SetupEntry

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection


# The setup places the format has (model.scenario.SetupEntry: exactly one of these), as the
# placement dialog and menus name them.
PLACE_LABELS: dict[str, str] = {"hex": "Exactly on a hex", "adjacent_to": "In or adjacent to a hex",
                                "area": "In a named area", "box": "In a box", "location": "At a named location"}
assert tuple(PLACE_LABELS) == se.PLACE_KINDS


def place_units(document: "MapDocument", scenario_id: str | None, units: list[str], kind: str,
                where: Hex | str) -> bool:
    """Place ``units`` by setup ``kind`` (hex, adjacent_to, area, box, location): one
    ``PlaceUnit`` per unit, several in one undo macro. False (nothing pushed) without a
    scenario, units or place, or for an unknown kind."""
    if scenario_id is None or not units or kind not in se.PLACE_KINDS or where is None or where == "":
        return False
    stack = document.undo_stack
    if len(units) > 1:
        stack.beginMacro(f"Place {len(units)} units")
    for u in units:
        document.push(PlaceUnit(document, scenario_id, u, kind, where))
    if len(units) > 1:
        stack.endMacro()
    return True


def drop_units(document: "MapDocument", scenario_id: str | None, units: list[str], hex: Hex | None = None,
               box: str | None = None, adjacent: bool = False) -> bool:
    """Place units on a hex (``adjacent``: "in or adjacent to" it, a setup area) or in a box."""
    if box is not None:
        return place_units(document, scenario_id, units, "box", box)
    if hex is None:
        return False
    return place_units(document, scenario_id, units, "adjacent_to" if adjacent else "hex", hex)


def set_unit_state(document: "MapDocument", selection: "ScenarioSelection", unit: str, flag: str, on: bool) -> None:
    """Set or clear an initial-state flag of a unit the selected scenario itself sets up."""
    if selection.scenario_id is not None and selection.own_setup_entry(unit) is not None:
        document.push(SetUnitState(document, selection.scenario_id, unit, flag, on))


def units_at(selection: "ScenarioSelection", h: Hex) -> list[str]:
    """The stack in ``h`` in the selected scenario (resolved), top first."""
    scen = selection.resolved()
    return se.stacks(scen).get(h, []) if scen else []


def describe_place(hmap: HexMap, e: SetupEntry | None) -> str:
    """Where a setup entry puts its unit, in the map's printed labels ("" when not set up)."""
    if e is None:
        return ""
    if e.hex is not None:
        return hmap.label(e.hex)
    if e.adjacent_to is not None:
        return f"in/adj {hmap.label(e.adjacent_to)}"
    return next(f"{k} {getattr(e, k)}" for k in ("box", "area", "location") if getattr(e, k))


def stack_menu(document: "MapDocument", selection: "ScenarioSelection", h: Hex,
               parent: QWidget | None = None) -> QMenu | None:
    """Context menu of a placed stack: place it exactly on, or in or adjacent to, ``h``; move
    it to one of the scenario's areas, boxes or named locations; or open the placement dialog."""
    units = units_at(selection, h)
    if not units:
        return None
    label = document.hmap.label(h)
    sid = selection.scenario_id
    menu = QMenu(parent)
    adj = menu.addAction(f"Place in or adjacent to {label}")
    adj.setObjectName("place-adjacent")
    adj.triggered.connect(lambda: drop_units(document, sid, units, hex=h, adjacent=True))
    exact = menu.addAction(f"Place exactly on {label}")
    exact.setObjectName("place-exact")
    exact.triggered.connect(lambda: drop_units(document, sid, units, hex=h))
    scen = selection.resolved()
    for kind in ("area", "box", "location"):
        choices = se.place_choices(document.bundle, scen, kind)
        if not choices:
            continue
        sub = menu.addMenu({"area": "Move stack to area", "box": "Move stack to box",
                            "location": "Move stack to location"}[kind])
        sub.setObjectName(f"place-{kind}-menu")
        for cid, name in choices:
            act = sub.addAction(f"{name} ({cid})" if name != cid else cid)
            act.setObjectName(f"place-{kind}:{cid}")
            act.triggered.connect(lambda _=False, k=kind, c=cid: place_units(document, sid, units, k, c))
    menu.addSeparator()
    more = menu.addAction("Place…")
    more.setObjectName("place-dialog")
    more.triggered.connect(lambda: open_placement(document, selection, units, h, parent))
    return menu


class PlacementDialog(QDialog):
    """Place units by any setup kind the format has: the units (searchable picker), the
    kind (exactly on a hex, in or adjacent to a hex, a named area, a box, a named location)
    and the place (a hex's printed label, or the id from a list). OK applies one ``PlaceUnit``
    per unit (one undo macro); OK is disabled while the place is missing or the hex label
    does not parse, and the reason is shown."""

    def __init__(self, document: "MapDocument", selection: "ScenarioSelection", units: list[str] | None = None,
                 hex: Hex | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.selection = document, selection
        self.setWindowTitle("Place units")
        self.picker = UnitPicker(unit_choices(document.bundle, document.system), multi=True)
        self.picker.set_units(units or [])
        self.kind = QComboBox()
        self.kind.setObjectName("place-kind")
        for kind, label in PLACE_LABELS.items():
            self.kind.addItem(label, kind)
        self.kind.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.hex = QLineEdit(document.hmap.label(hex) if hex is not None else "")
        self.hex.setObjectName("place-hex")
        self.hex.setPlaceholderText("printed label, e.g. 23.024")
        self.place = QComboBox()
        self.place.setObjectName("place-id")
        self.place.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c62828")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Placement:", self.kind)
        form.addRow("Hex:", self.hex)
        form.addRow("Place:", self.place)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Units:"))
        lay.addWidget(self.picker, 1)
        lay.addLayout(form)
        lay.addWidget(self.problem)
        lay.addWidget(self.buttons)
        self.form = form
        self.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        self.hex.textChanged.connect(lambda _t: self._check())
        self.place.currentIndexChanged.connect(lambda _i: self._check())
        self.picker.unitsChanged.connect(lambda _u: self._check())
        self._kind_changed()
        self.resize(460, 520)

    def set_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def _kind_changed(self) -> None:
        kind = self.current_kind()
        on_hex = kind in ("hex", "adjacent_to")
        self.form.setRowVisible(self.hex, on_hex)
        self.form.setRowVisible(self.place, not on_hex)
        self.place.blockSignals(True)
        self.place.clear()
        for cid, name in se.place_choices(self.document.bundle, self.selection.resolved(), kind):
            self.place.addItem(f"{name} ({cid})" if name != cid else cid, cid)
        self.place.blockSignals(False)
        self._check()

    def current_kind(self) -> str:
        return str(self.kind.currentData())

    def where(self) -> Hex | str | None:
        """The place as PlaceUnit takes it (a Hex, or an id); None while it is not valid."""
        if self.current_kind() in ("hex", "adjacent_to"):
            text = self.hex.text().strip()
            if not text:
                return None
            try:
                return self.document.hmap.parse(text)
            except ValueError:
                return None
        return self.place.currentData()

    def _check(self) -> None:
        problem = ""
        if not self.picker.units():
            problem = "Choose at least one unit."
        elif self.where() is None:
            if self.current_kind() in ("hex", "adjacent_to"):
                text = self.hex.text().strip()
                problem = "Type the hex's printed label." if not text else f"{text!r} is not a hex of this map."
            else:
                problem = f"This scenario has no {self.current_kind().replace('_', ' ')} to choose."
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    def apply(self) -> bool:
        """Push the placement (one undo step per unit, a macro for several)."""
        where = self.where()
        if where is None:
            return False
        return place_units(self.document, self.selection.scenario_id, self.picker.units(), self.current_kind(), where)


def open_placement(document: "MapDocument", selection: "ScenarioSelection", units: list[str],
                   hex: Hex | None = None, parent: QWidget | None = None) -> PlacementDialog:
    """Show a :class:`PlacementDialog` (window-modal, not blocking); OK applies it."""
    dlg = PlacementDialog(document, selection, units, hex, parent)
    dlg.accepted.connect(dlg.apply)
    dlg.finished.connect(dlg.deleteLater)
    dlg.open()
    return dlg
