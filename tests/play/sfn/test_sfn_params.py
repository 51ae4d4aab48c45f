"""SFN's typed parameters (play/sfn/params.py, on play/typed_data.py): the shipped data fits the
schema exactly, system-file values override the plug-in's section by section and may arrive as
text, a bad value stops the game at the start naming the key, and it is validated once."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_sfn_helpers import sfn_bundle, sfn_game

from conftest import REPO
from play.errors import GameError
from play.game import Game
from play.sfn import params as sfn
from play.sfn.plugin import PLUGIN as SFN
from play.typed_data import Cited, ParamsError

STRICT = {"forbid_unknown": True}


def fake_game(system_params: dict[str, Any], defaults: dict[str, Any]) -> Any:
    """Just what the loaders read: the system file's params and the plug-in's defaults."""
    return SimpleNamespace(system=SimpleNamespace(params=system_params), plugin=SimpleNamespace(defaults=defaults))


def test_the_shipped_sfn_data_has_no_key_the_schema_does_not_know() -> None:
    p = sfn.load_params(sfn_game(), STRICT)
    assert p.command_points.sides["german"].base == 3 and p.command_points.attack_cost == Cited[int](value=2, rule="SFN 6.3")
    assert p.optional.strategic_air.table.rows[10].modifier == 3 and p.replacements is not None
    assert p.replacements.pools.pools.keys() == {"german", "us", "commonwealth"}
    assert p.combat == SFN.defaults["combat"]           # passed through untyped (play/sfn/combat.py)


def test_an_unknown_key_is_refused_in_strict_mode_and_ignored_otherwise() -> None:
    g = fake_game({"supply": {"markr": "X"}}, {})
    with pytest.raises(ParamsError, match=r"SFN parameter supply: .*unknown key\(s\) markr"):
        sfn.load_params(g, STRICT)
    assert sfn.load_params(g).oos_marker == "OOS"


# --- where values come from ---------------------------------------------------------------------


def test_text_from_the_located_loader_reads_as_numbers() -> None:
    p = sfn.load_params(sfn_game())
    assert p.airdrops.max_divisions_per_day == 3 and p.airdrops.min_plot_lead == 2   # '3', '2' in sfn.yaml
    g = fake_game({"command_points": {"move_cost": {"value": "2", "rule": "X 1"}, "sides": {"german": {"base": "4"}}}}, {})
    cp = sfn.load_params(g).command_points
    assert cp.move_cost.value == 2 and cp.sides["german"].base == 4


def test_a_system_section_replaces_the_plugin_section_whole() -> None:
    g = fake_game({"supply": {"marker": "NOSUP"}}, SFN.defaults)
    p = sfn.load_params(g)
    assert p.oos_marker == "NOSUP" and p.supply is not None and p.supply.sides == {}   # nothing from params.yaml
    assert p.command_points.sides["german"].max == 6                               # the rest from params.yaml
    assert p.zoc_blocking_tags == frozenset({"all_sea"})


def test_a_missing_or_empty_optional_section_is_off() -> None:
    p = sfn.load_params(fake_game({"replacements": {}}, {}))
    assert p.supply is None and p.replacements is None and p.transfers is None and p.oos_marker == "OOS"


def test_an_optional_rule_block_is_the_systems_only_when_it_is_a_mapping() -> None:
    p = sfn.load_params(fake_game({"blue_point": {"die": 6}, "great_storms": "yes"}, {}))
    assert p.optional.blue_point.die.value == 6 and p.optional.blue_point.units.value == []  # the whole block replaced
    assert p.optional.great_storms.first_check_turn.value == 10                            # the data file's


def test_empty_lists_read_as_the_default_where_the_engine_read_them_so() -> None:
    p = sfn.load_params(fake_game({"replacements": {"eliminating_actions": [], "blooding": {"nationalities": []}}}, {}))
    assert p.replacements is not None
    assert p.replacements.eliminating_actions == ["attack", "step_loss", "airdrop"]
    assert p.replacements.blooding.nationalities == ["us"]


# --- bad values ---------------------------------------------------------------------------------


@pytest.mark.parametrize("patch, message", [
    ({"supply": {"oos_movement": {"value": "one"}}},
     r"SFN parameter supply\.oos_movement\.value: .*number.*'one'.* in the system file's params\.supply"),
    ({"command_points": {"sides": {"german": {"base": "three"}}}}, r"command_points\.sides\.german\.base: .*integer"),
    ({"airdrops": {"min_plot_lead": "soon"}}, r"SFN parameter airdrops\.min_plot_lead: .* in the system file's params\.airdrops"),
    ({"great_storms": {"every": {"value": 0}}}, r"SFN optional rule parameter great_storms\.every\.value: .*greater than 0"),
    ({"great_storms": {"arrival_max": {"value": []}}}, r"great_storms: .*arrival_max needs at least one roll"),
    ({"transfers": {"italy": {"every": 0}}}, r"transfers\.italy\.every: .*greater than 0"),
    ({"vp": "yes"}, r"SFN parameter vp: .*dictionary"),
])
def test_a_bad_sfn_value_stops_the_game_at_the_start_naming_the_key(monkeypatch: pytest.MonkeyPatch,
                                                                   patch: dict[str, Any], message: str) -> None:
    for key, bad in patch.items():  # the cached sample bundle's system params, restored afterwards
        monkeypatch.setitem(sfn_bundle().system.params, key, bad)
    with pytest.raises(ParamsError, match=message) as info:
        Game(sfn_bundle(), "calais-landing", 1)
    assert isinstance(info.value, GameError)   # the editor and the script runner report GameError messages


def test_parameters_are_validated_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = sfn.sfn_params._make
    monkeypatch.setattr(sfn.sfn_params, "_make", lambda game: calls.append(game) or real(game))
    a, b = sfn_game(), sfn_game()
    assert calls == [a, b]                                 # one validation each, however many procedures
    assert sfn.sfn_params(a) is sfn.sfn_params(a) and sfn.sfn_params(a) is not sfn.sfn_params(b)

# --- no untyped access left -------------------------------------------------------------------------

UNTYPED = {"cfg", "value", "rule_of", "num", "ocfg", "rule_in", "system_param", "param_value"}


def untyped_reads(package: str, exempt: set[Path]) -> list[str]:
    bad = []
    for path in sorted((REPO / "play" / package).rglob("*.py")):
        rel = path.relative_to(REPO)
        if rel in exempt:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.asname or a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
            called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
            bad += [f"{rel}:{node.lineno}: {name}" for name in [*names, called] if name in UNTYPED]
    return bad


def test_no_sfn_module_reads_params_untyped() -> None:
    # play/sfn/combat.py keeps its untyped combat section (SFN's CRT is moving to a shared form);
    # play/sfn/common.py defines the helpers it uses.
    bad = untyped_reads("sfn", {Path("play/sfn/combat.py"), Path("play/sfn/common.py")})
    assert not bad, "read parameters through sfn_params: " + ", ".join(bad)
