"""model/formats/pywargame_hook.py stays only while it is needed: this test fails the day the
installed pywargame's three stubbed modules compile on this Python (a fixed pywargame, or
Python 3.12+), saying that the hook can go. Checked 2026-12-02: `pip index versions pywargame`
lists 0.8.0 as the latest, so the workaround stays."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from model.formats.pywargame_hook import _STUBBED, pywargame_vassal

if importlib.util.find_spec("pywargame") is None:
    pytest.skip("pywargame not installed (the [test] extra)", allow_module_level=True)


def _source(module: str) -> Path:
    root = Path(importlib.util.find_spec("pywargame").origin).parent  # type: ignore[arg-type, union-attr]
    return root.joinpath(*module.split(".")[1:]).with_suffix(".py")


@pytest.mark.parametrize("module", _STUBBED)
def test_the_stubbed_modules_still_need_the_hook(module: str) -> None:
    source = _source(module).read_text(encoding="utf-8")
    try:
        compile(source, str(_source(module)), "exec")
    except SyntaxError:
        assert sys.version_info < (3, 12)
        return
    pytest.fail(f"{module} compiles on Python {sys.version.split()[0]}: the hook in "
                "model/formats/pywargame_hook.py is no longer needed for it; remove it from _STUBBED "
                "(and the hook when none is left)")


def test_pywargame_imports_through_the_hook() -> None:
    vassal = pywargame_vassal()
    assert hasattr(vassal, "BuildFile") and hasattr(vassal, "VSav")
