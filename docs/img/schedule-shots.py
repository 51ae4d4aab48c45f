"""Render the setup and schedule screenshots of docs/scenario-editor.md (offscreen):

    python docs/img/schedule-shots.py     # writes docs/img/schedule.png and docs/img/placement.png

- ``schedule.png``: the Schedule dock of Utah ``beach-landing`` with the unit picker open on the
  first row's units (search line, check boxes, "n chosen") and the arrivals chart below it
  (x axis: the calendar's turn labels; y axis: units arriving; legend: the system's sides).
- ``placement.png``: the placement dialog for Wn 5 (Utah ``beach-landing``), kind "In or
  adjacent to a hex", its hex filled in from the unit's setup.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from PySide6.QtCore import Qt  # noqa: E402

from editor.app import application, make_window  # noqa: E402
from editor.scenario.schedule import COLUMNS  # noqa: E402

UTAH = REPO / "scenarios" / "utah-beach"
OUT = REPO / "docs" / "img"


def main() -> None:
    app = application()
    window, _ = make_window(str(UTAH), (1500, 1000))
    window.show()
    mode = window.scenario_mode
    if not mode.open_scenario("beach-landing"):
        raise SystemExit("cannot open beach-landing")
    dock = next(d for d in mode.docks if d.objectName() == "scenario-schedule-dock")
    dock.raise_()
    window.resizeDocks([dock], [520], Qt.Orientation.Vertical)
    panel = mode.panels.schedule  # type: ignore[union-attr]
    index = panel.model.index(0, COLUMNS.index("units"))
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    for _ in range(5):
        app.processEvents()
    dock.grab().save(str(OUT / "schedule.png"))
    panel.table.closePersistentEditor(index)
    mode.selection.choose_unit("wn-5")  # type: ignore[union-attr]
    dlg = mode.panels.unit.place()  # type: ignore[union-attr]
    assert dlg is not None
    dlg.set_kind("adjacent_to")
    for _ in range(5):
        app.processEvents()
    dlg.grab().save(str(OUT / "placement.png"))
    dlg.reject()


if __name__ == "__main__":
    main()
