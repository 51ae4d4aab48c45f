"""Validator support for the set-up kind ``adjacent_to`` ("in or adjacent to HEX"): a centre hex
off the map is a located finding (CORE-HEX-001, at the ``adjacent_to`` value), a centre on the
map is clean — play then chooses the hex (play/setup_choice.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES
from validators.engine import validate_path

MINI = FIXTURES / "bundles" / "mini"


def _with_setup(tmp_path: Path, line: str) -> Path:
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    base = root / "scenarios" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("- {unit: x1, hex: '0402'}", line), encoding="utf-8")
    return base


def test_an_adjacent_to_centre_off_the_map_is_located(tmp_path: Path) -> None:
    base = _with_setup(tmp_path, "- {unit: x1, adjacent_to: '0909'}")
    diags, unreadable = validate_path(str(base.parent.parent))
    assert not unreadable
    found = [d for d in diags if d.code == "CORE-HEX-001"]
    # The variant extends base: one finding, at the base's line, the variant related to it.
    assert [(d.location.scenario, [r.scenario for r in d.related]) for d in found] == [("base", ["variant"])]
    for d in found:
        assert Path(d.location.file or "").name == "base.yaml" and d.location.line == 6
        assert d.location.path == "$.setup[0].adjacent_to" and d.location.column == 14  # at the adjacent_to key
        assert "(placement) is not on map" in d.message


def test_an_adjacent_to_centre_on_the_map_is_clean(tmp_path: Path) -> None:
    base = _with_setup(tmp_path, "- {unit: x1, adjacent_to: '0402'}")
    diags, _ = validate_path(str(base.parent.parent))
    assert not [d for d in diags if d.code.startswith("CORE-HEX")], [d.render() for d in diags]
