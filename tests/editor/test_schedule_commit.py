"""Committing a schedule cell leaves no Qt warning (issue #21: stderr printed
"QAbstractItemView::commitData called with an editor that does not belong to this view"): the
edit's document change resets the table only once the view's commit is over."""

from __future__ import annotations

from typing import Any

from conftest import REPO
from helpers import no_modal_prompts, show_window  # noqa: F401 (autouse fixture)
from scenario_helpers import commit, edit_cell

SFN = REPO / "scenarios" / "second-front-now"


def test_cell_commits_raise_no_commitdata_warning_and_the_table_follows(qtbot: Any, qtlog: Any) -> None:
    w = show_window(qtbot, SFN)
    assert w.scenario_mode.open_scenario("calais-landing")
    doc, panel = w.doc, w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    assert doc is not None
    def turn() -> object:
        return doc.bundle.scenarios["calais-landing"].schedule[r].turn

    r = next(i for i, e in enumerate(doc.bundle.scenarios["calais-landing"].schedule) if e.turn == 30)
    seen = []
    for column in ("turn", "kind", "turn"):
        combo = edit_cell(panel, r, column)
        if column == "turn":
            combo.setCurrentIndex(combo.findData(31 if turn() == 30 else 30))
        commit(panel, column, combo)
        seen.append(turn())
    assert seen == [31, 31, 30]
    qtbot.waitUntil(lambda: not panel._reload_pending)
    shown = panel.model.index(r, 0).data()
    assert shown is not None and "30" in str(shown)
    warnings = [rec.message for rec in qtlog.records if "commitData" in rec.message]
    assert warnings == []
