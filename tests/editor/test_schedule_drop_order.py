"""A drop made in the schedule table is the drop order the validators read (the known gap: the
table wrote ``entry: {drop_zone}``, which the GTS-DZ rules never look at). Policy
drop-zone-is-drop-order (model.scenario_edits.schedule_place_changes): the entry editor's
"drop zone" kind writes ``drop: {zone, drop_number}``, the form of the Utah sample's drops.

"Simply place each arriving stick … in any hex of the designated DZ or LZ" (Utah Excl 3.3 B);
the zone a drop names must be one the scenario defines (GTS-DZ-001, Excl 3.2), and its drop
number one of the Drop Table's ("-3 if it is the Second Drop/Glider Landing …", Excl 3.3.1;
GTS-DZ-005)."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path
from typing import Any

from editor.main_window import MainWindow
from helpers import no_modal_prompts  # noqa: F401 (autouse fixture)
from model.bundle import load_bundle
from model.diagnostics import Diagnostic
from scenario_helpers import commit, edit_cell, schedule_arrival
from test_scenario_mode import UTAH, open_scenario, settle
from validators.config import Config
from validators.engine import validate_bundle

SID = "night-drop"
DZ_RULES = ("GTS-DZ-001", "GTS-DZ-002", "GTS-DZ-003", "GTS-DZ-005", "CORE-REF-005")
COMMENT = "# The drops of Excl 3.1; a later row is the editor's."


def live(qtbot: Any, w: MainWindow) -> list[str]:
    """The window's own validation of the drop rules, once settled: (code: message) lines."""
    settle(qtbot, w)
    return sorted(f"{d.code}: {d.message}" for d in w.diagnostics.diagnostics
                  if d.code in DZ_RULES and d.location.scenario == SID)


def on_disk(root: Path) -> list[Diagnostic]:
    bundle = load_bundle(root).bundle
    assert bundle is not None
    return [d for d in validate_bundle(bundle, Config(select=DZ_RULES, use_bundle_settings=False))
            if d.location.scenario == SID]


def test_a_drop_row_made_in_the_table_is_validated_and_saved_with_the_files_comments(
        qtbot: Any, tmp_path: Path) -> None:
    copy = tmp_path / "utah"
    shutil.copytree(UTAH, copy)
    path = copy / "scenarios" / f"{SID}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\nschedule:\n", f"\n{COMMENT}\nschedule:\n", 1), encoding="utf-8")
    before = path.read_text(encoding="utf-8").splitlines()
    w = open_scenario(qtbot, copy, SID)
    assert live(qtbot, w) == []  # the sample's own drops are clean

    # A zone the scenario does not define (the value combo takes typed text), no drop number.
    row = schedule_arrival(qtbot, w, ["a-1-502"], "0700 6 June", "drop_zone", "dz-x", kind="drop")
    e = w.scenario_mode.panels.schedule.model.rows[row]  # type: ignore[union-attr]
    assert e.drop is not None and e.drop.zone == "dz-x" and e.entry is None
    assert live(qtbot, w) == ["CORE-REF-005: drop zone 'dz-x' is not defined",
                              "GTS-DZ-001: drop into 'dz-x', which this scenario does not define",
                              "GTS-DZ-005: drop number None is not one of One, Second, Third A, Third B, Fourth"]

    # The entry editor again: DZ B, the Second drop. The editor opens on the row's drop order.
    panel = w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    ed = edit_cell(panel, row, "entry")
    assert ed.kind.currentText() == "drop_zone" and ed.value.currentText() == "dz-x"
    assert ed.number.isVisibleTo(ed) and ed.number.findText("Second") > 0  # the system's drop numbers
    ed.value.setCurrentText("dz-b")
    ed.number.setCurrentText("Second")
    commit(panel, "entry", ed)
    e = panel.model.rows[row]
    assert e.drop is not None and (e.drop.zone, e.drop.drop_number) == ("dz-b", "Second")
    assert panel.model.data(panel.model.index(row, 6)) == "drop zone dz-b (drop Second)"
    assert live(qtbot, w) == []

    assert w.save()
    after = path.read_text(encoding="utf-8").splitlines()
    changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert not [x for x in changed if x.startswith("-")], changed  # the new row only adds lines
    assert COMMENT in after and sum(line.lstrip().startswith("#") for line in after) == \
        sum(line.lstrip().startswith("#") for line in before)
    assert any("dz-b" in x for x in changed) and any("Second" in x for x in changed), changed
    assert not any("drop_zone" in x for x in changed), changed
    reloaded = load_bundle(copy).bundle
    assert reloaded is not None
    saved = reloaded.scenarios[SID].schedule[row]
    assert saved.drop is not None and (saved.drop.zone, saved.drop.drop_number) == ("dz-b", "Second")
    assert saved.units == ["a-1-502"] and saved.entry is None
    assert on_disk(copy) == []

    # Undo takes the zone change back: the bad drop is found again.
    w.doc.undo_stack.undo()  # type: ignore[union-attr]
    assert panel.model.rows[row].drop.zone == "dz-x"  # type: ignore[union-attr]
    assert "GTS-DZ-001: drop into 'dz-x', which this scenario does not define" in live(qtbot, w)


def test_too_many_sticks_for_the_zone_the_table_chose_is_found(qtbot: Any) -> None:
    """GTS-DZ-002 reads the order's sticks: the first drop's six sticks (edited in the YAML)
    moved by the table into DZ O's eight hexes fit; into LZ 5's four they do not ("Each
    arriving Unit must be placed in a separate hex from other sticks", Excl 3.3 B)."""
    w = open_scenario(qtbot, sid=SID)
    panel = w.scenario_mode.panels.schedule  # type: ignore[union-attr]
    first = panel.model.rows[0]
    assert first.drop is not None and len(first.drop.sticks) == 6
    zones = {z.id: z for z in w.doc.bundle.scenarios[SID].drop_zones}  # type: ignore[union-attr]
    assert len(zones["dz-o"].hexes) == 8 and len(zones["lz-5"].hexes) == 4
    for zone, found in (("dz-o", []), ("lz-5", ["GTS-DZ-002: 6 sticks dropped into lz-5, which has 4 hexes"])):
        ed = edit_cell(panel, 0, "entry")
        assert ed.kind.currentText() == "drop_zone" and ed.number.currentText() == "One"
        ed.value.setCurrentText(zone)
        commit(panel, "entry", ed)
        assert panel.model.rows[0].drop.sticks == first.drop.sticks  # type: ignore[union-attr]
        assert [f for f in live(qtbot, w) if f.startswith("GTS-DZ-002")] == found
