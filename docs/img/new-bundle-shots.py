"""Render the New Bundle wizard's pages for docs/editor.md (offscreen):

    python docs/img/new-bundle-shots.py      # writes docs/img/new-bundle-*.png

The wizard is filled as a user would fill it (editor/new_bundle_wizard.py): the Killing Ground
system (three printed sheets, labels prefixed by the sheet id), a game named "Normandy 44" in a
temporary folder, the N sheet of 60 × 56 hexes and a W sheet of 40 × 62 below it, starting
terrain "mixed". ``new-bundle-folder-refused.png`` shows the Name & folder page pointed at an
existing bundle (the sample scenarios/killing-ground), refused with Next disabled.
"""

from __future__ import annotations

import os
import sys
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from PySide6.QtWidgets import QApplication  # noqa: E402

from editor.new_bundle_wizard import NewBundleWizard, PageId  # noqa: E402

OUT = REPO / "docs" / "img"
SYSTEM = "tkg"


def _grab(wizard: NewBundleWizard, name: str) -> None:
    QApplication.processEvents()
    path = OUT / f"new-bundle-{name}.png"
    wizard.grab().save(str(path))
    print(path.relative_to(REPO))


def main() -> None:
    app = QApplication.instance() or QApplication([])
    # A fixed folder name (emptied first), not mkdtemp's random one: the pictures show the path,
    # and docs/img/shots.py makes every picture the same on each run.
    parent = Path(tempfile.gettempdir()) / "new-bundle-shots"
    shutil.rmtree(parent, ignore_errors=True)
    parent.mkdir()
    wizard = NewBundleWizard(None, parent)
    wizard.show()
    assert wizard.system_page.select(SYSTEM)
    _grab(wizard, "system")
    wizard.next()
    wizard.folder_page.set_folder(REPO / "scenarios" / "killing-ground")
    _grab(wizard, "folder-refused")
    wizard.folder_page.name.setText("Normandy 44")
    wizard.folder_page.set_folder(parent / "normandy-44")
    _grab(wizard, "folder")
    wizard.next()
    page = wizard.map_page
    page.cols.setValue(60)
    page.rows.setValue(56)
    page.add_next_sheet()
    page.cols.setValue(40)
    page.rows.setValue(62)
    page.x0.setValue(0)
    page.y0.setValue(56)
    _grab(wizard, "map")
    wizard.next()
    wizard.terrain_page.select("mixed")
    _grab(wizard, "terrain")
    wizard.next()
    assert wizard.currentId() == int(PageId.SUMMARY)
    _grab(wizard, "summary")
    wizard.close()
    del app


if __name__ == "__main__":
    main()
