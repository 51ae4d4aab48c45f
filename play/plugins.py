"""The plug-in table: every game system's play code, listed once.

A system file selects its plug-in by id (``plugin: gts``); one with no ``plugin:`` is played by
:data:`DATA_ONLY`, the shared procedures alone, driven by what the system file declares.
Adding a system with code of its own means one folder (``play/<id>/`` with its
``plugin.py``) and one row here. Nothing is ever imported by a name read from data: data
only chooses among the records below.

This table is the one shared module that names each system; tests/test_architecture.py
checks that no other shared module does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from play.errors import GameError
from play.gts.plugin import PLUGIN as GTS
from play.plugin import ActionSpec, SystemPlugin
from play.sfn.plugin import PLUGIN as SFN
from play.tkg.plugin import PLUGIN as TKG

if TYPE_CHECKING:
    from model.system import GameSystem

DATA_ONLY = SystemPlugin(id="data-only", title="shared procedures only", folder=Path(__file__).parent / "generic",
                         build=lambda game: [])

PLUGINS: tuple[SystemPlugin, ...] = (SFN, GTS, TKG)

_BY_ID = {p.id: p for p in PLUGINS}
if len(_BY_ID) != len(PLUGINS):  # a packaging bug, caught by the first import in any test
    raise RuntimeError("two plug-ins share an id: " + ", ".join(p.id for p in PLUGINS))


def plugin_for(system: "GameSystem") -> SystemPlugin:
    """The plug-in the system file names, or :data:`DATA_ONLY` when it names none."""
    if system.plugin is None:
        return DATA_ONLY
    found = _BY_ID.get(system.plugin)
    if found is None:
        raise GameError(f"system {system.id!r} names play plug-in {system.plugin!r}, which this Hexproof does not "
                        f"have (it has: {', '.join(sorted(_BY_ID))}); leave out 'plugin:' to play it with the "
                        "shared procedures alone")
    return found


def dock_actions(plugin: SystemPlugin) -> tuple[ActionSpec, ...]:
    """The Play-mode buttons a game of ``plugin`` shows: its own, then the shared ones
    (:data:`DATA_ONLY`'s, ``play/generic/actions.yaml``), in file order."""
    return plugin.actions if plugin is DATA_ONLY else plugin.actions + DATA_ONLY.actions
