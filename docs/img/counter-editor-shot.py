"""Render the counter manifest editor screenshot of docs/editor.md (offscreen):

    python docs/img/counter-editor-shot.py      # writes docs/img/counter-editor.png and counter-import.png

Second Front Now in Scenario mode with the Counters dock; counter ``de-10-ss-pz`` (front
6-6-3, back values ``unknown``) is the current row, so the preview beside the table shows both its sides.
Rows ``de-10-ss-pz`` and the one after it are selected (the bulk-edit selection), and a refused
side ``martians`` typed two rows below shows red with its finding as tooltip (the model
refused it; nothing changed). The dock is floated and enlarged so the picture is legible. Every step goes through the panel, as a user's edits do.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from editor.app import application, make_window, screenshot  # noqa: E402
from editor.main_window import MainWindow  # noqa: E402

SFN = REPO / "scenarios" / "second-front-now"
OUT = REPO / "docs" / "img" / "counter-editor.png"
IMPORT_OUT = REPO / "docs" / "img" / "counter-import.png"
CURRENT = "de-10-ss-pz"  # front 6-6-3, back not given by the rules we hold (unknown)


def main() -> None:
    application()
    w, _ = make_window(str(SFN), (1400, 900))
    w.show()
    assert w.scenario_mode.open_scenario("calais-landing")
    mode = w.scenario_mode
    dock = mode.docks[3]
    assert dock.objectName() == "scenario-counters-dock"
    dock.raise_()
    panel = mode.panels.counters
    assert panel.model is not None
    ids = [c.id for c in w.doc.bundle.counters]
    row = ids.index(CURRENT)
    # A value the model refuses (an unknown side) two rows below: shown red, nothing changed.
    refused = panel.model.set_cells([w.doc.bundle.counters[row + 2]], "side", "martians")
    assert refused, "the bad value was accepted"
    panel.select_ids([CURRENT, ids[row + 1]], current=CURRENT)
    panel.table.scrollTo(panel.proxy.mapFromSource(panel.model.index(row, 0)))
    panel.table.horizontalScrollBar().setValue(0)
    # Floated and enlarged: the dock alone, wide enough for the identity columns and the preview.
    dock.setFloating(True)
    dock.resize(1300, 520)
    dock.show()
    assert screenshot(w, OUT.with_suffix(".window.png"))
    OUT.with_suffix(".window.png").unlink()
    application().processEvents()
    assert dock.grab().save(str(OUT))
    print(OUT)
    import_shot(w, IMPORT_OUT)
    print(IMPORT_OUT)


def import_shot(w: MainWindow, out: Path) -> None:
    import csv
    import io
    import shutil
    import tempfile

    from editor.scenario.counter_import import CounterImportDialog
    from model.formats.counter_table import export_csv

    doc = w.doc
    rows = list(csv.reader(io.StringIO(export_csv(doc.bundle.counters, doc.system))))
    header = rows[0]
    rows[1][header.index("side")] = "martians"
    rows[2][header.index("front.attack")] = "six"
    rows[4][header.index("id")] = ""
    # A fixed folder name (emptied first), not a random one: the dialog shows the sheet's path,
    # and docs/img/shots.py makes every picture the same on each run.
    tmp = Path(tempfile.gettempdir()) / "hexproof-shot"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    sheet = tmp / "sfn-counters.csv"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    dlg = CounterImportDialog(doc, sheet, w)
    dlg.resize(900, 320)
    outcome = dlg.run_dry()
    assert not outcome.ok and len(outcome.result.rejected) == 3, outcome.refusal_lines()
    dlg.show()
    application().processEvents()
    assert dlg.grab().save(str(out))
    dlg.close()


if __name__ == "__main__":
    main()
