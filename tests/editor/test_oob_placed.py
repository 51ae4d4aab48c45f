"""The order of battle's "Placed" column counts units set up, of all (issue #21: TKG said 15
with nothing placed): a side, division and formation row reads "placed of total"."""

from __future__ import annotations

from typing import Any

from conftest import REPO
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)

TKG = REPO / "scenarios" / "killing-ground"


def test_placed_column_counts_set_up_units_not_all_units(qtbot: Any) -> None:
    w = show_window(qtbot, TKG)
    assert w.scenario_mode.open_scenario("operation-overlord")
    doc, oob = w.doc, w.scenario_mode.panels.oob  # type: ignore[union-attr]
    assert doc is not None and doc.bundle.scenarios["operation-overlord"].setup == []
    by_side: dict[str, list[str]] = {}
    for c in doc.bundle.counters:
        by_side.setdefault(c.side, []).append(c.id)
    names = {s.id: s.name for s in doc.system.sides}
    tops = {oob.topLevelItem(i).text(0): oob.topLevelItem(i) for i in range(oob.topLevelItemCount())}
    for side, ids in by_side.items():
        assert tops[names.get(side, side)].text(1) == f"0 of {len(ids)}"
    unit = doc.bundle.counters[0]
    assert w.scenario_mode.drop_unit([unit.id], hex=next(iter(doc.hmap.hexes())))
    item = oob.item_for(unit.id)
    assert item is not None
    formation, division = item.parent(), item.parent().parent()
    top = division.parent()
    assert top.text(1) == f"1 of {len(by_side[unit.side])}"
    in_division = sum(1 for c in doc.bundle.counters
                      if c.side == unit.side and (c.division or "(no division)") == division.text(0))
    assert division.text(1) == f"1 of {in_division}"
    assert formation.text(1).startswith("1 of ")
    doc.undo_stack.undo()
    top = next(oob.topLevelItem(i) for i in range(oob.topLevelItemCount())
               if oob.topLevelItem(i).text(0) == names.get(unit.side, unit.side))
    assert top.text(1) == f"0 of {len(by_side[unit.side])}"
