"""TKG's typed parameters (play/tkg/params.py, on play/typed_data.py): the shipped data fits
the schema exactly, text reads as numbers, and a bad value stops the game at the start."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import FIXTURES, REPO
from model.bundle import load_bundle
from play.game import Game
from play.tkg import params as tkg
from play.tkg.plugin import PLUGIN as TKG
from play.typed_data import Cited, ParamsError

STRICT = {"forbid_unknown": True}


def fake_game(system_params: dict[str, Any], defaults: dict[str, Any]) -> Any:
    """Just what the loaders read: the system file's params and the plug-in's defaults."""
    return SimpleNamespace(system=SimpleNamespace(params=system_params), plugin=SimpleNamespace(defaults=defaults))


def test_the_shipped_tkg_data_has_no_key_the_schema_does_not_know() -> None:
    bundle = load_bundle(REPO / "scenarios" / "killing-ground").bundle
    assert bundle is not None
    p = tkg.load_params(fake_game(bundle.system.params, TKG.defaults), STRICT)
    assert p.zoc is not None and p.zoc.rzoc_extra.costs == {"nonmech": 1, "mech": 3}
    assert p.stacking.max_regiments == Cited[int](value=2, rule="TKG [6.1.2]")
    assert p.omm is not None and p.omm.edge_to_box.value == 1.0 and p.transit is not None


def test_text_reads_as_numbers_and_keeps_ints_ints() -> None:
    g = fake_game({"zoc": {"rzoc_extra": {"nonmech": "2", "mech": "2.5"}}}, {})
    p = tkg.load_params(g)
    assert p.zoc is not None and p.zoc.rzoc_extra.costs == {"nonmech": 2, "mech": 2.5}  # refusals print "+2"
    assert p.zoc.rzoc_extra.cost("leg") == 2        # a class without its own cost pays the non-mech one


def test_missing_sections_are_off_or_default() -> None:
    p = tkg.load_params(fake_game({}, {}))
    assert p.zoc is None and p.omm is None and p.transit is None and p.stacking.max_regiments is None
    assert p.landing.per_beach_per_turn.value == 2


def test_a_bad_plugin_default_names_the_plugin_file() -> None:
    with pytest.raises(ParamsError, match=r"TKG parameter landing\.per_beach_per_turn\.value: .* in play/tkg/params\.yaml"):
        tkg.load_params(fake_game({}, {"landing": {"per_beach_per_turn": {"value": "two"}}}))


def test_a_bad_tkg_value_stops_the_game_at_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = load_bundle(FIXTURES / "playtests" / "tkg_zoc").bundle
    monkeypatch.setitem(bundle.system.params, "stacking", {"max_regiments": {"value": "two"}})
    with pytest.raises(ParamsError, match=r"TKG parameter stacking\.max_regiments\.value: .*'two'"):
        Game(bundle, "zoc", seed=5)

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



def test_no_tkg_module_reads_params_untyped() -> None:
    bad = untyped_reads("tkg", set())
    assert not bad, "read parameters through tkg_params: " + ", ".join(bad)
