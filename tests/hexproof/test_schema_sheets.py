"""``hexproof schema`` describes the counter sheet, victory and scenario-area fields (the
JSON Schema is generated from the models, so an editor completing YAML sees them)."""

from __future__ import annotations

import json

import pytest

from hexproof.cli import main


def _schema(kind: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["schema", kind]) == 0
    return json.loads(capsys.readouterr().out)


def test_counter_positions_and_sheets_are_typed(capsys: pytest.CaptureFixture[str]) -> None:
    counter = _schema("counters", capsys)["$defs"]["Counter"]["properties"]
    for name in ("row", "col", "back_row", "back_col"):
        assert {"minimum": 1, "type": "integer"} in counter[name]["anyOf"], name
    assert {"type": "string"} in counter["sheet"]["anyOf"]
    game = _schema("game", capsys)
    sheet = game["$defs"]["CounterSheet"]
    assert sheet["required"] == ["id", "cols"] and sheet["properties"]["cols"]["minimum"] == 1
    assert game["properties"]["counter_sheets"]["items"] == {"$ref": "#/$defs/CounterSheet"}


def test_victory_and_scenario_areas_are_typed(capsys: pytest.CaptureFixture[str]) -> None:
    scen = _schema("scenario", capsys)
    victory = scen["$defs"]["VictoryCondition"]["properties"]
    assert "printed hex label" in json.dumps(victory["hex"]) and victory["hexes"]["type"] == "array"
    assert {"type": "integer"} in victory["turn"]["anyOf"]
    for name in ("start_lines", "control_areas"):
        assert {"items": {"$ref": "#/$defs/Area"}, "type": "array"} in scen["properties"][name]["anyOf"]
