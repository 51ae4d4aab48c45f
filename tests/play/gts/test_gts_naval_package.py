"""The shape of the ``play.gts.naval`` package (split from one module): its callers' names stay
functions, and every module imports on its own (no import cycle between the steps)."""

from __future__ import annotations

import inspect
import pkgutil
import subprocess
import sys
import types

import pytest

from conftest import REPO
from play.gts import naval

MODULES = sorted(m.name for m in pkgutil.iter_modules(naval.__path__))


def test_every_re_exported_name_is_the_function_not_a_module() -> None:
    # A submodule named like a function it holds would shadow it after a late import.
    for name in naval.__all__:
        obj = getattr(naval, name)
        assert not isinstance(obj, types.ModuleType), name
        if name != "LAST_STEP":
            assert inspect.isfunction(obj) or inspect.isclass(obj), name
            assert obj.__module__.startswith("play.gts.naval."), (name, obj.__module__)


def test_the_callers_names_are_re_exported() -> None:
    # What procedure.py, events.py and the editor's naval actions call as naval.X.
    used = {"Hooks", "at_step", "battery_fire", "box_number", "close", "craft_loads", "first_chit", "force_of_box",
            "forces", "landing_wave_range", "marker_hex", "move_assault_force", "move_ship", "naval_next",
            "naval_step", "nsop", "self_spots", "ship_fire", "ship_range", "start", "state", "step_g",
            "_is_battery", "_kind", "_los", "_step_spec"}
    assert used <= set(naval.__all__)


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    # Imported first, the module must come back as itself and leave every re-exported name a
    # function (a late-loaded submodule sets its own name on the package).
    code = (f"import types, play.gts.naval.{module} as m, play.gts.naval as n; "
            f"assert m.__name__ == 'play.gts.naval.{module}', m; "
            "bad = [x for x in n.__all__ if isinstance(getattr(n, x), types.ModuleType)]; assert not bad, bad")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
