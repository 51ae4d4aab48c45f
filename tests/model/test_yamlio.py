"""Located, safe YAML reading and atomic writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.formats.yamlio import MAX_NODES, YamlError, atomic_write_text, parse_yaml


def test_positions_of_keys_and_items() -> None:
    data, smap, errors = parse_yaml("a: 1\nb:\n  - x\n  - {hex: '28.050'}\n", "f.yaml")
    assert not errors
    assert data == {"a": "1", "b": ["x", {"hex": "28.050"}]}
    assert smap.find(("b", 1, "hex")) == (4, 6)
    assert smap.location(("b", 1, "hex", "deeper")).render() == "f.yaml:4:6"


def test_numbers_keep_their_text() -> None:
    data, _, _ = parse_yaml("h: 28.050\no: 0332\nt: true\nn: null\ny: yes\n", "f.yaml")
    assert data == {"h": "28.050", "o": "0332", "t": True, "n": None, "y": "yes"}


def test_syntax_error_is_located() -> None:
    with pytest.raises(YamlError) as exc:
        parse_yaml("a: [1, 2\nb: 3\n", "bad.yaml")
    d = exc.value.diagnostic
    assert d.location.file == "bad.yaml" and d.location.line is not None
    assert "syntax" in d.message


def test_python_tags_are_rejected() -> None:
    with pytest.raises(YamlError) as exc:
        parse_yaml("x: !!python/object/apply:os.system ['echo hi']\n", "evil.yaml")
    assert "never constructs objects" in exc.value.diagnostic.message
    assert exc.value.diagnostic.location.line == 1


def test_duplicate_keys_reported() -> None:
    _, _, errors = parse_yaml("a: 1\na: 2\n", "d.yaml")
    assert [e.code for e in errors] == ["LOAD-YAML-002"]
    assert errors[0].location.line == 2


def test_billion_laughs_is_capped() -> None:
    doc = 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n'
    prev = "a"
    for i in range(9):
        name = f"l{i}"
        doc += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]\n"
        prev = name
    with pytest.raises(YamlError) as exc:
        parse_yaml(doc, "bomb.yaml")
    assert f"{MAX_NODES:,}" in exc.value.diagnostic.message


def test_deep_nesting_is_capped() -> None:
    with pytest.raises(YamlError) as exc:
        parse_yaml("a: " + "[" * 500 + "]" * 500 + "\n", "deep.yaml")
    assert "nesting" in exc.value.diagnostic.message


def test_atomic_write_keeps_backup(tmp_path: Path) -> None:
    target = tmp_path / "m.yaml"
    atomic_write_text(target, "one\n")
    atomic_write_text(target, "two\n")
    assert target.read_text() == "two\n"
    assert (tmp_path / "m.yaml.bak").read_text() == "one\n"
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_failed_write_leaves_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    target = tmp_path / "m.yaml"
    target.write_text("original\n")

    def boom(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        atomic_write_text(target, "new text that never lands\n")
    assert target.read_text() == "original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.yaml"]
