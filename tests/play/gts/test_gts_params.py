"""The GTS plug-in's typed parameters (play/gts/params.py) and optional-rule data
(play/gts/optional_data.py): the shipped files validate, the system file's sections replace the
plug-in's, a bad value stops the game at its start with a message naming the file and the key,
and no procedure unwraps an untyped parameter any more."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from conftest import REPO
from gts_helpers import game, utah
from play.errors import GameError
from play.game import Game
from play.gts.optional_data import optional_data
from play.gts.params import (SECTIONS, BarrageParams, Cited, GtsParams, NavalParams, StragglerParams, gts_params,
                             parse)
from play.gts.plugin import PLUGIN

SYSTEM = "resources/systems/gts-utah.yaml"


def _game_with(section: str, value: Any) -> Game:
    b = utah()
    b.system.params[section] = value
    return Game(b, "beach-landing", 1)


def test_the_shipped_parameters_validate_and_every_default_section_is_typed() -> None:
    g = game()
    p = gts_params(g)
    assert isinstance(p, GtsParams) and gts_params(g) is p          # validated once per game
    assert set(PLUGIN.defaults) <= set(SECTIONS)                     # no params.yaml section is left untyped
    only_plugin = parse({}, PLUGIN.defaults)                         # the plug-in's file on its own
    assert only_plugin.naval is not None and only_plugin.drop_table is None
    assert p.fire.default_range == Cited(value=1, rule="GTS 15.0")
    assert p.naval is not None and p.naval.step(2).actions == ["ship_fire"] and p.naval.step(42).name is None
    assert p.stragglers is not None and p.stragglers.points.codes["1*"].value == 2
    assert p.drop_table is not None and p.drop_table.para[0] == "NE"   # from the system file
    assert p.drop_number_modifiers.value["Second"] == -3                # its text "-3" read as a number
    assert p.straggler_recovery is not None and p.straggler_recovery.rows[0].roll == (1, 9)
    assert p.die_tables["random_events"].rows[0].roll == "0-1"


def test_the_optional_rule_data_validates() -> None:
    d = optional_data()
    assert d.indirect_fire_scatter.marker.value == "light" and d.roaming_units.errata_rule == "Err 18.6"
    assert d.cp_conversion.dp_max == Cited(value=19, rule="GTS 10.0.4", note=d.cp_conversion.dp_max.note)


def test_a_system_section_replaces_the_plugin_section_whole() -> None:
    p = parse({"barrage": {"heavy_from": 5}}, PLUGIN.defaults)
    assert p.barrage.heavy_from == Cited(value=5)                    # a bare value is {value: it}
    assert p.barrage.cleanup_rule is None                            # not the plug-in's: the section was replaced
    assert p.barrage.leave_mp.value == 2.0                           # the model's default
    assert parse({}, PLUGIN.defaults).barrage.cleanup_rule == "GTS 4.0 I"


def test_missing_or_empty_sections() -> None:
    p = parse({"naval": {}, "stragglers": None}, {"stragglers": {"rule": "Excl 3.4"}})
    assert p.naval is None                                           # empty: absent, the NSoP is off
    assert p.stragglers == StragglerParams(rule="Excl 3.4")          # the system's None falls back to the default
    assert p.indirect is None and p.fire == GtsParams().fire         # absent: off, or the models' defaults


@pytest.mark.parametrize("section, value, where", [
    ("fire", {"default_range": {"value": "far", "rule": "GTS 15.0"}}, "params.fire.default_range.value"),
    ("barrage", {"heavy_from": [6]}, "params.barrage.heavy_from.value"),
    ("naval", {"steps": {"two": {"name": "x"}}}, "params.naval.steps.two"),
    ("stragglers", {"roll_kap": 9}, "params.stragglers.roll_kap"),                    # a typo is not ignored
    ("straggler_recovery", {"rows": [{"id": "i", "roll": "x"}]}, "params.straggler_recovery.rows.0.roll"),
    ("assault", {"cohesion_ratings": {"value": {1: [1, 2]}}}, "params.assault.cohesion_ratings.value.1"),
])
def test_a_bad_value_stops_the_game_at_its_start_naming_the_key(section: str, value: Any, where: str) -> None:
    with pytest.raises(GameError) as exc:
        _game_with(section, value)
    msg = str(exc.value)
    head, sep, tail = msg.partition(f" {where}")
    assert sep and head.endswith(SYSTEM) and tail[:1] in (":", "."), msg   # the file, then the key
    assert "Traceback" not in msg and "got " in msg


def test_a_bad_plugin_default_names_the_plugin_file() -> None:
    with pytest.raises(GameError, match=r"^play/gts/params.yaml params\.column\.marker: "):
        parse({}, {**PLUGIN.defaults, "column": {"marker": ["column"]}})


def test_one_games_parameters_are_its_own() -> None:
    a, b = game(), game()
    naval = gts_params(a).naval
    assert isinstance(naval, NavalParams)
    naval.utah_only = Cited(value=False)
    assert gts_params(b).naval is not None and gts_params(b).naval.utah_only.value is True
    with pytest.raises(ValueError):
        naval.contact_number = "six"  # type: ignore[assignment]  # assignment is validated too
    assert BarrageParams().fire_modifier.value == {"light": -1, "heavy": -2}


def _gts_sources() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(REPO)), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted((REPO / "play" / "gts").rglob("*.py"))]


def test_no_procedure_unwraps_untyped_parameters() -> None:
    """The ``_v()`` copies are gone, and no GTS module reads a parameter through
    ``system_param`` (untyped) or the optional data's old ``cfg()`` dicts."""
    bad = []
    for path, tree in _gts_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in ("_v", "_words_of", "cfg"):
                bad.append(f"{path}: def {node.name}")
            if isinstance(node, ast.ImportFrom) and node.module == "play.procedure":
                names = {a.name for a in node.names} - {"Procedure", "param_value"}
                if names:
                    bad.append(f"{path}: imports {sorted(names)} from play.procedure")
            if isinstance(node, ast.Name) and node.id == "system_param":
                bad.append(f"{path}:{node.lineno}: system_param")
    assert bad == []
