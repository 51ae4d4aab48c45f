"""Start lines and control areas per scenario (model/scenario_areas.py), overriding the map's.

TKG [25.1.5]: "Each scenario will specify the front lines separating the opposing forces as
well as control of various map areas and terrain features." So two scenarios on one map
must be able to differ: the scenario's lists replace the map's (scenario-areas-replace).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import FIXTURES
from model.bundle import load_bundle
from model.mapdata import Area
from model.scenario_areas import CONTROL, START_LINE, control_areas, from_scenario, start_lines

MINI = FIXTURES / "bundles" / "mini"


def _bundle(tmp_path: Path, base_extra: str = "", variant_extra: str = "", map_areas: str = ""):
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    for rel, extra in (("scenarios/base.yaml", base_extra), ("scenarios/variant.yaml", variant_extra),
                       ("maps/mini.yaml", map_areas)):
        if extra:
            path = root / rel
            path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    assert not [d for d in result.diagnostics if d.severity >= d.severity.ERROR], [d.render() for d in result.diagnostics]
    return result.bundle


def test_the_map_areas_apply_when_the_scenario_gives_none(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    hmap = bundle.default_map
    hmap.areas = [Area(id="front", name="Front", kind=START_LINE, hexes=[hmap.parse("0202")]),
                  Area(id="held", name="Held", kind=CONTROL, side="axis", hexes=[hmap.parse("0402")]),
                  Area(id="other", name="Other", hexes=[hmap.parse("0101")])]
    scen = bundle.resolved("base")
    assert [a.id for a in start_lines(hmap, scen)] == ["front"]
    assert [a.id for a in control_areas(hmap, scen)] == ["held"]
    assert not from_scenario(scen, CONTROL)


def test_the_scenario_lists_replace_the_map_and_a_variant_inherits_or_overrides(tmp_path: Path) -> None:
    base = ("control_areas:\n- {id: lodgement, name: Allied lodgement, side: allied, hexes: ['0101']}\n"
            "start_lines:\n- {id: front, name: Front line, hexes: ['0201', '0202']}\n")
    bundle = _bundle(tmp_path, base_extra=base, variant_extra="control_areas: []\n")
    hmap = bundle.default_map
    hmap.areas = [Area(id="map-held", name="Map held", kind=CONTROL, side="axis", hexes=[hmap.parse("0402")])]
    scen = bundle.resolved("base")
    assert [a.id for a in control_areas(hmap, scen)] == ["lodgement"]  # the map's "map-held" is replaced
    assert [hmap.label(h) for a in start_lines(hmap, scen) for h in a.hexes] == ["0201", "0202"]
    assert from_scenario(scen, CONTROL) and from_scenario(scen, START_LINE)
    variant = bundle.resolved("variant")
    assert control_areas(hmap, variant) == []  # an empty list: none in this scenario
    assert [a.id for a in start_lines(hmap, variant)] == ["front"]  # inherited from base


def test_adding_control_areas_saves_only_the_new_text(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    path = bundle.root / "scenarios" / "base.yaml"
    before = path.read_text(encoding="utf-8")
    hmap = bundle.default_map
    bundle.scenarios["base"].control_areas = [Area(id="lodgement", name="Allied lodgement", side="allied",
                                                   hexes=[hmap.parse("0101")])]
    bundle.save()
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before) and "control_areas:" in after[len(before):] and "'0101'" in after
    again = load_bundle(bundle.root).bundle
    assert again is not None
    assert [hmap.label(h) for h in again.scenarios["base"].control_areas[0].hexes] == ["0101"]
