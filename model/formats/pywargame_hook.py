"""pywargame, importable on Python 3.11 too (the import hook), and the hint when it is missing.

pywargame 0.8 and Python < 3.12: three of its modules (``vassal/traits/sheet.py``,
``vassal/merger.py``, ``zuntzu/exporter.py``) use f-string syntax that only Python 3.12
accepts, and importing the package imports them. On older Pythons a meta-path hook
substitutes stubs for exactly those three (the property-sheet trait, module merging and
the ZunTzu exporter — none used here); everything else is pywargame's own code.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from types import ModuleType
from typing import Any

INSTALL_HINT = "pywargame is not installed: pip install 'pywargame>=0.8' (or pip install -e '.[test]')"
_STUBBED = ("pywargame.vassal.traits.sheet", "pywargame.vassal.merger", "pywargame.zuntzu.exporter")


class _Needs312:
    """Stand-in for a pywargame class whose module needs Python 3.12 to compile."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} needs Python 3.12 (pywargame 0.8)")


class MissingPywargame(ImportError):
    pass


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        # Plain attribute assignments (no code compiled from text): the names the rest of
        # pywargame imports from these modules.
        if module.__name__.endswith(".sheet"):
            from pywargame.vassal.trait import Trait

            module.SheetTrait = type("SheetTrait", (Trait,), {"ID": "propertysheet"})  # type: ignore[attr-defined]
        elif module.__name__.endswith(".merger"):
            module.Merger = type("Merger", (_Needs312,), {})  # type: ignore[attr-defined]
        else:
            module.ZTExporter = type("ZTExporter", (_Needs312,), {})  # type: ignore[attr-defined]


class _StubFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name in _STUBBED:
            return importlib.util.spec_from_loader(name, _StubLoader(), is_package=False)
        return None


def pywargame_vassal() -> ModuleType:
    """``pywargame.vassal``, importable on Python 3.11 too; MissingPywargame if absent."""
    if importlib.util.find_spec("pywargame") is None:
        raise MissingPywargame(INSTALL_HINT)
    if sys.version_info < (3, 12) and not any(isinstance(f, _StubFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _StubFinder())
    try:
        import pywargame.vassal as vassal
    except SyntaxError:
        # Someone imported pywargame before the hook was in place: forget the half-imported
        # package and import it again through the hook.
        for name in [n for n in sys.modules if n == "pywargame" or n.startswith("pywargame.")]:
            del sys.modules[name]
        import pywargame.vassal as vassal

    return vassal
