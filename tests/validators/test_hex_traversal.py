"""Issue #19 part 2, "every hex checked": every hex and hexside field of the bundle format is
visited by the grid checks (CORE-HEX-001 for scenarios, CORE-HEX-004 for maps).

The field list is read from the models, not written down: a hex field added to the format
without a case here (and a traversal that reaches it) fails :func:`test_every_hex_field_has_a_case`.
Each case puts one off-grid hex (``0409``: the mini map has rows 01-04) in one field and
expects a located finding that names the label as typed.
"""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from fixture_edits import copy_and_edit
from model.base import HexsideKey
from model.bundle import load_bundle
from model.hexes import Hex
from model.mapdata import HexMap
from model.scenario import Scenario
from validators.config import Config
from validators.engine import validate_bundle
from validators.registry import Registry, default_registry

MINI = "tests/fixtures/bundles/mini"
SCEN = "scenarios/base.yaml"
MAP = "maps/mini.yaml"
OFF = "0409"  # column 04, row 09: past the mini map's last row
ON = "0202"

# Not checked, by policy map-wide-features (CORE-HEX-004's docstring): calibration labels pin
# a scan to the grid and may name a hex beyond the terrain rows.
EXEMPT = {("CalibrationPoint", "label")}


def _edit(file: str, path: str, value: Any, op: str = "set") -> dict[str, Any]:
    return {"file": file, "path": path, "op": op, "value": value}


CASES: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("SetupEntry", "hex"): [_edit(SCEN, "setup.0.hex", OFF)],
    ("SetupEntry", "adjacent_to"): [_edit(SCEN, "setup.0", {"unit": "x1", "adjacent_to": OFF})],
    ("SetupEntry", "alternatives"): [_edit(SCEN, "setup.0.alternatives", [OFF])],
    ("Entry", "hex"): [_edit(SCEN, "schedule.0.entry", {"hex": OFF})],
    ("Entry", "hexes"): [_edit(SCEN, "schedule.0.entry", {"hexes": [ON, OFF]})],
    ("DropZone", "hexes"): [_edit(SCEN, "drop_zones", [{"id": "dz", "name": "DZ", "hexes": [OFF]}])],
    ("VictoryCondition", "hex"): [_edit(SCEN, "victory", [{"side": "allied", "text": "Hold it", "hex": OFF}])],
    ("VictoryCondition", "hexes"): [_edit(SCEN, "victory", [{"side": "allied", "text": "Hold them", "hexes": [OFF]}])],
    ("BeachOverlay", "hexes"): [_edit(SCEN, "beach_overlays", [{"id": "o", "name": "O", "hexes": [OFF]}])],
    ("BeachOverlay", "reinforcement_hexes"): [_edit(SCEN, "beach_overlays", [
        {"id": "o", "name": "O", "hexes": [ON], "reinforcement_hexes": [OFF]}])],
    ("BeachOverlay", "gap_hexsides"): [_edit(SCEN, "beach_overlays", [
        {"id": "o", "name": "O", "hexes": [ON], "gap_hexsides": [f"{OFF}/S"]}])],
    ("SubBeach", "hexes"): [_edit(SCEN, "beach_overlays", [
        {"id": "o", "name": "O", "hexes": [ON], "sub_beaches": [{"id": "s", "name": "S", "hexes": [OFF]}]}])],
    ("LandingHexes", "planned"): [_edit(SCEN, "beach_overlays", [
        {"id": "o", "name": "O", "hexes": [ON],
         "sub_beaches": [{"id": "s", "name": "S", "hexes": [ON], "landing": {"planned": [OFF]}}]}])],
    ("LandingHexes", "actual"): [_edit(SCEN, "beach_overlays", [
        {"id": "o", "name": "O", "hexes": [ON],
         "sub_beaches": [{"id": "s", "name": "S", "hexes": [ON], "landing": {"actual": [OFF]}}]}])],
    ("NamedLocation", "hex"): [_edit(SCEN, "locations", [{"id": "rp", "name": "Rally Point", "hex": OFF}])],
    ("NamedLocation", "hexes"): [_edit(MAP, "locations", [
        {"id": "reinf", "name": "Reinforcement A", "kind": "reinforcement_hex", "hexes": [ON, OFF]}])],
    ("Playable", "hexes"): [_edit(SCEN, "playable", {"hexes": [ON, OFF]})],
    ("Playable", "exclude"): [_edit(SCEN, "playable", {"exclude": [OFF]})],
    ("Playable", "bounds"): [_edit(SCEN, "playable", {"bounds": [ON, OFF]})],
    ("Feature", "hex"): [_edit(MAP, "features.0.hex", OFF)],
    ("MapPath", "hexes"): [_edit(MAP, "paths.0.hexes", OFF, op="append")],
    ("ImpassablePortion", "hex"): [_edit(MAP, "portions", [{"hex": OFF, "preset": "S"}])],
    ("Area", "hexes"): [_edit(MAP, "areas", [{"id": "west", "name": "West", "hexes": [ON, OFF]}])],
    ("HexMap", "hexsides"): [_edit(MAP, "hexsides.river", f"{OFF}/S", op="append")],
}


def _leaves(annotation: Any) -> list[Any]:
    args = typing.get_args(annotation)
    return [annotation] if not args else [leaf for a in args for leaf in _leaves(a)]


def hex_fields() -> set[tuple[str, str]]:
    """(model class, field) of every Hex or hexside field reachable from Scenario and HexMap."""
    seen: set[type] = set()
    found: set[tuple[str, str]] = set()

    def walk(cls: type[BaseModel]) -> None:
        if cls in seen:
            return
        seen.add(cls)
        for name, f in cls.model_fields.items():
            for leaf in _leaves(f.annotation):
                if leaf in (Hex, HexsideKey):
                    found.add((cls.__name__, name))
                elif isinstance(leaf, type) and issubclass(leaf, BaseModel):
                    walk(leaf)
    walk(Scenario)
    walk(HexMap)
    return found


def test_every_hex_field_has_a_case() -> None:
    assert hex_fields() - EXEMPT == set(CASES)


@pytest.mark.parametrize("field", sorted(CASES), ids=lambda f: ".".join(f))
def test_off_grid_hex_is_reported(field: tuple[str, str], tmp_path: Path) -> None:
    root = copy_and_edit(MINI, CASES[field], tmp_path)
    result = load_bundle(root)
    assert result.bundle is not None, [d.render() for d in result.diagnostics]
    codes = ("CORE-HEX-001", "CORE-HEX-004", "CORE-VIC-001")  # victory hexes: CORE-VIC-001
    registry = Registry([default_registry().get(c) for c in codes])
    diags = validate_bundle(result.bundle, Config(select=codes, use_bundle_settings=False), registry)
    found = [d for d in diags if d.code in codes]
    assert found, f"{'.'.join(field)}: an off-grid hex passed"
    for d in found:
        assert d.location.file and d.location.line, d.render()  # located in the file
        assert OFF in d.message, d.render()  # names the printed label as typed
