"""Placing units in Scenario mode: the one code path every drop, drag and menu ends in.

Drops on the map, drops on a box, stack drags and the stack's context menu all call
:func:`drop_units` (one ``PlaceUnit`` per unit, one undo macro); the state check boxes call
:func:`set_unit_state`. Functions of the document and the selection only, so panels, tools and
tests share them without a mode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu, QWidget

from editor.commands.scenario import PlaceUnit, SetUnitState
from model import scenario_edits as se
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import SetupEntry

if TYPE_CHECKING:
    from editor.document import MapDocument
    from editor.scenario.selection import ScenarioSelection


def drop_units(document: "MapDocument", scenario_id: str | None, units: list[str], hex: Hex | None = None,
               box: str | None = None, adjacent: bool = False) -> bool:
    """Place units on a hex (``adjacent``: "in or adjacent to" it, a setup area) or in a box."""
    if scenario_id is None or (hex is None and box is None):
        return False
    stack = document.undo_stack
    if len(units) > 1:
        stack.beginMacro(f"Place {len(units)} units")
    for u in units:
        if box is not None:
            document.push(PlaceUnit(document, scenario_id, u, "box", box))
        else:
            assert hex is not None
            document.push(PlaceUnit(document, scenario_id, u, "adjacent_to" if adjacent else "hex", hex))
    if len(units) > 1:
        stack.endMacro()
    return True


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
    """Context menu of a placed stack: place it exactly on, or in or adjacent to, ``h``."""
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
    return menu
