"""The typed generic-rule sections of a system file (model/generic_rules.py): what loads, and
bad input reported as file:line:col messages, never a traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from model.bundle import load_bundle, load_system
from model.diagnostics import Diagnostic
from model.system import available_systems

EXAMPLE = REPO / "resources" / "systems" / "example-hex.yaml"
BUNDLE = REPO / "scenarios" / "format-example"


def _bundle_with_system(tmp_path: Path, text: str) -> tuple[list[Diagnostic], str]:
    """The format-example bundle with its system file replaced by ``text`` (a local system.yaml)."""
    root = tmp_path / "b"
    shutil.copytree(BUNDLE, root)
    game = (root / "game.yaml").read_text(encoding="utf-8").replace("system: example-hex", "system: system.yaml")
    (root / "game.yaml").write_text(game, encoding="utf-8")
    (root / "system.yaml").write_text(text, encoding="utf-8")
    res = load_bundle(root)
    return res.diagnostics, text


def _line_of(text: str, needle: str, nth: int = 1) -> int:
    seen = 0
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == nth:
                return i
    raise AssertionError(f"{needle!r} not in the text")


def _edit(old: str, new: str) -> str:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert old in text, old
    return text.replace(old, new, 1)


def test_the_format_example_loads_with_every_section() -> None:
    diags: list[Diagnostic] = []
    system = load_system("example-hex", None, diags, {})
    assert system is not None and diags == []
    assert system.name == "Format Example (not a real game)" and system.illustrative and system.plugin is None
    assert system.combat.crt.kind == "odds" and system.combat.crt.columns[0] == "1:2"
    assert system.combat.crt.results["EX"].exchange and system.combat.crt.results["DR"].defender.retreat == 2
    assert system.combat.crt.results["AE"].attacker.eliminated  # the "eliminated" shorthand
    assert system.zoc.kind == "stop" and system.zoc.negated_by_hexsides == ["river"]
    assert [(t.categories, t.max) for t in system.stacking.by_type] == [(["armor"], 1)]
    assert system.sequence_of_play.player_turns == ["first", "second"] and len(system.sequence_of_play.phases) == 3


@pytest.mark.parametrize("sid", available_systems())
def test_every_shipped_system_still_loads(sid: str) -> None:
    diags: list[Diagnostic] = []
    assert load_system(sid, None, diags, {}) is not None, [d.render() for d in diags]
    assert diags == []


BAD = [
    # (what, old text, new text, the line to point at (a needle in the new text), message part)
    ("result code not in results", "      3: [AE, AR, EX, D1, DE]", "      3: [AE, AR, EX, D2, DE]",
     "      3: [AE, AR, EX, D2, DE]", "result 'D2' is not in results"),
    ("a row too short", "      4: [AE, AR, AR, EX, DR]", "      4: [AE, AR, AR, EX]",
     "      4: [AE, AR, AR, EX]", "row 4 has 4 results for 5 columns"),
    ("columns out of order", 'columns: ["1:2", "1:1", "2:1", "3:1", "4:1"]',
     'columns: ["1:1", "1:2", "2:1", "3:1", "4:1"]', "columns:", "lowest to the highest"),
    ("a column that is not odds", 'columns: ["1:2", "1:1", "2:1", "3:1", "4:1"]',
     'columns: ["1:2", "1-1", "2:1", "3:1", "4:1"]', "columns:", "odds column '1-1'"),
    ("a die total with no row", "      6: [AE, AE, AE, AR, AR]\n", "", "    rows:", "no row for die total(s) 6 of 1d6"),
    ("bad dice", "    dice: 1d6", "    dice: d6", "    dice: d6", "write NdS"),
    ("an unknown stacking category", "  - {categories: [armor], max: 1, rule: EX 4.1}",
     "  - {categories: [armour], max: 1, rule: EX 4.1}", "categories: [armour]", "no unit category 'armour'"),
    ("an unknown negating hexside", "  negated_by_hexsides: [river]", "  negated_by_hexsides: [stream]",
     "negated_by_hexsides: [stream]", "no hexside id or tag 'stream'"),
    ("an unknown ZOC kind", "  kind: stop\n  negated", "  kind: halt\n  negated", "  kind: halt", "kind"),
    ("a cost ZOC without a cost", "  kind: stop\n  negated", "  kind: cost\n  negated", "zoc:", "enter_cost or leave_cost"),
    ("a phase side that is no side", "  - {id: combat, name: Combat}", "  - {id: combat, name: Combat, side: green}",
     "side: green", "within player_turns"),
    ("a player turn that is no side", "  player_turns: [first, second]", "  player_turns: [first, purple]",
     "player_turns: [first, purple]", "'purple' is first, second or a side id"),
    ("below naming no result", "    below: refused", "    below: AX", "    below: AX", "below is 'refused' or a result code"),
    ("an unknown counter field", "    attack_field: attack", "    attack_field: atk", "attack_field: atk",
     "no counter field 'atk'"),
    ("a shift with two conditions", "    - {defender_marker: dug_in, shift: -1, rule: EX 6.3}",
     "    - {defender_marker: dug_in, attacker_marker: x, shift: -1}", "defender_marker: dug_in", "exactly one condition"),
    ("an unknown key", "    hexsides_when: all", "    hexsides_when: all\n    hexside_when: all", "hexside_when",
     "unknown key 'hexside_when'"),
]


@pytest.mark.parametrize(("what", "old", "new", "needle", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_generic_sections_are_located_errors(tmp_path: Path, what: str, old: str, new: str, needle: str,
                                                 message: str) -> None:
    diags, text = _bundle_with_system(tmp_path, _edit(old, new))
    errors = [d for d in diags if d.severity.name == "ERROR" and d.location.file and "system.yaml" in d.location.file]
    assert errors, [d.render() for d in diags]
    hit = [d for d in errors if message in d.message]
    assert hit, [d.render() for d in errors]
    assert hit[0].location.line == _line_of(text, needle), hit[0].render()
    assert hit[0].location.column is not None


def test_a_section_declared_twice_is_refused(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8") + "params:\n  zoc: {rule: EX 5.0, stop_on_entry: true}\n"
    diags, _ = _bundle_with_system(tmp_path, text)
    hit = [d for d in diags if "declared twice" in d.message]
    assert hit and hit[0].location.line == _line_of(text, "  zoc: {rule: EX 5.0"), [d.render() for d in diags]


def test_a_fire_table_needs_a_default_value_field(tmp_path: Path) -> None:
    sfn = (REPO / "resources" / "systems" / "sfn.yaml").read_text(encoding="utf-8")
    text = sfn.replace('    - {field: defense, rule: SFN 13.4, note: "Anti-infantry value: fired at every other target, '
                       'corps support artillery included."}\n', "")
    assert text != sfn
    diags, _ = _bundle_with_system(tmp_path, text)
    assert any("needs no target_tags (the default)" in d.message for d in diags), [d.render() for d in diags]


SECTION = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.sampled_from(["1:2", "odds", "stop", "AE", "river", "1d6", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["kind", "crt", "columns", "rows", "results", "dice", "shift", "max", "categories",
                         "phases", "side", "attacker", "defender", "retreat", "steps", "terrain_effects", "keys"]),
        inner, max_size=5),
    max_leaves=20)


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(["combat", "zoc", "sequence_of_play", "stacking"]), value=SECTION)
def test_any_generic_section_loads_or_is_reported_never_raises(tmp_path_factory: pytest.TempPathFactory,
                                                               key: str, value: object) -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    data[key] = value
    path = tmp_path_factory.mktemp("sys") / "system.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    diags: list[Diagnostic] = []
    system = load_system(str(path), None, diags, {})  # never raises
    assert (system is None) == bool(diags)
    assert all(d.location.line is not None for d in diags), [d.render() for d in diags]


def test_a_phase_side_must_be_a_side_or_a_turn_word(tmp_path: Path) -> None:
    text = _edit("  player_turns: [first, second]\n", "").replace(
        "  - {id: combat, name: Combat}", "  - {id: combat, name: Combat, side: green}")
    diags, _ = _bundle_with_system(tmp_path, text)
    hit = [d for d in diags if "'green' is first, second, each, both or a side id" in d.message]
    assert hit and hit[0].location.line == _line_of(text, "side: green"), [d.render() for d in diags]
