"""model/formats/yamlpatch: a patched scalar reads back as exactly the value written, in any context,
and keeps its own quoting style; edits outside it leave the text alone."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from model.formats.yamlio import parse_yaml
from model.formats.yamlpatch import patch_text

AWKWARD = ["<<", "null", "~", "true", "a: b", "#x", "-", "x, y", "it's", "- a", "2413", "0332", "28.050",
           "  lead", "trail ", "tab\there", "ü", "*star", "&amp", "!bang", "%p", "@at", "`tick", "?q", "{a}", "[b]"]


def _patched(text: str, old: dict[str, Any], new: dict[str, Any]) -> Any:
    out = patch_text(text, old, new, lambda: new)
    return out, parse_yaml(out, "t.yaml")[0]


@pytest.mark.parametrize("value", AWKWARD)
def test_awkward_text_reads_back_in_block_and_flow(value: str) -> None:
    out, data = _patched("k: old  # keep me\n", {"k": "old"}, {"k": value})
    assert data["k"] == value and out.endswith("  # keep me\n")
    out, data = _patched("k: [old, b]\n", {"k": ["old", "b"]}, {"k": [value, "b"]})
    assert data["k"] == [value, "b"]


@given(st.text(max_size=40))
def test_any_text_reads_back(value: str) -> None:
    out, data = _patched("a: 1\nk: old\nz: 2\n", {"a": "1", "k": "old", "z": "2"}, {"a": "1", "k": value, "z": "2"})
    assert data == {"a": "1", "k": value, "z": "2"}
    assert out.startswith("a: 1\n") and out.endswith("z: 2\n")


def test_quoting_style_is_kept() -> None:
    out, _ = _patched("hex: '28.050'\nname: \"Ste-Mère\"\nvalue: 30\n",
                      {"hex": "28.050", "name": "Ste-Mère", "value": 30},
                      {"hex": "28.051", "name": "Ste-Marie", "value": 31})
    assert out == "hex: '28.051'\nname: \"Ste-Marie\"\nvalue: 31\n"


def test_literal_block_changes_only_its_changed_rows() -> None:
    text = "rows: |-\n  ....\n  .ww.\n  ....\nafter: 1\n"
    out, data = _patched(text, {"rows": "....\n.ww.\n....", "after": "1"}, {"rows": "....\n.wm.\n....", "after": "1"})
    assert out == "rows: |-\n  ....\n  .wm.\n  ....\nafter: 1\n" and data["rows"] == "....\n.wm.\n...."


@pytest.mark.parametrize("text", ["0808", "1510", "30.027", "1e3", "0x1f", "0o17", "-3", ".inf"])
def test_strings_a_yaml_1_2_reader_takes_for_numbers_are_quoted(text: str) -> None:
    """A hex label ``0808`` written plain reads as text to PyYAML (YAML 1.1) but as the integer
    808 to a YAML 1.2 tool (found by the end-to-end authoring test); it is written quoted."""
    from model.formats.yamlio import dump_yaml, reads_as_number_in_yaml12

    assert reads_as_number_in_yaml12(text)
    assert dump_yaml({"hex": text}).strip() in (f"hex: '{text}'",)


@pytest.mark.parametrize("text", ["N1511", "0909a", "hello", "1.2.3", "GT 3"])
def test_other_strings_stay_plain(text: str) -> None:
    from model.formats.yamlio import dump_yaml, reads_as_number_in_yaml12

    assert not reads_as_number_in_yaml12(text)
    assert dump_yaml({"hex": text}).strip() == f"hex: {text}"
