"""One record per game system's play code: its procedures and the data that goes with them.

A system file (``resources/systems/<id>.yaml``) names the plug-in that plays it
(``plugin: sfn``); a system that names none is played by the shared, data-driven
procedures alone (:data:`play.plugins.DATA_ONLY`). Plug-ins are listed in one literal
table, :data:`play.plugins.PLUGINS`: data only ever *selects* one of those already-imported
records, it never names code to load.

Everything a plug-in knows besides its Python lives in its folder (``play/<plug-in>/``):

- ``params.yaml`` — procedure parameters, each with its rule case; the system file's own
  ``params`` win (:func:`play.procedure.system_param`);
- ``optional_coverage.yaml`` — which optional rules its procedures play
  (:mod:`play.optional_coverage`);
- ``action_kinds.yaml`` — the phase permission each of its actions needs (the kind a phase's
  ``allows:`` names), or ``admin`` for the administrative ones any phase permits;
- ``actions.yaml`` — the Play-mode buttons for its actions and how each builds its action
  from the Actions dock (:class:`ActionSpec`, :mod:`play.plugin_ui`);
- ``events.yaml`` — one-line log templates for its event types (the syntax: ``editor/play/describe.py``);
  an entry is the template text, or ``{text: …, dice: true}`` for an event the Dice log shows.

A missing file means "none". ``play/generic/`` holds the shared rows of each file: the
templates of the events the shared engine emits (play/game.py, play/combat.py …), and the
buttons every game gets after its plug-in's. What Play mode shows besides buttons and log
lines (fields, panels, attack options, map overlays, LOS conditions) is the plug-in's
:class:`play.plugin_ui.PlayUI`, built on first use by its ``ui`` function.

The record is frozen; the data is read once, on first use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from model.formats.yamlio import read_package_data
from play.sequence import ADMIN

if TYPE_CHECKING:
    from play.analysis.plan import NotAnalysed, RandomStep
    from play.context import PlayContext
    from play.plugin_ui import PlayUI
    from play.procedure import Procedure
    from play.state import SystemState

# How far the engine plays an optional rule (play/<plug-in>/optional_coverage.yaml, whose
# header explains each status).
STATUSES = ("applied", "partial", "scenario-data-only", "not-applied")



class PluginDataError(ValueError):
    """A plug-in's own data file is malformed (a bug in Hexproof, not in the user's bundle)."""


@dataclass(frozen=True)
class ActionSpec:
    """A Play-mode button: it builds the engine action ``do`` from the selection and the
    Actions dock's fields, and is shown only when the game offers ``do``."""

    name: str        # objectName: play.action.<name>
    text: str
    do: str          # the engine action the button runs
    tip: str         # tooltip: the rule case first, then what the button does
    # The action's arguments: ``$input`` reads the dock, anything else is a constant
    # (play.plugin_ui.build_action); a button with a builder in the plug-in's PlayUI has none.
    args: Mapping[str, Any] = field(default_factory=dict, compare=False)
    refuse: str | None = None  # what a missing input says instead of the input's own message


def _read(path: Path) -> Any:
    """A plug-in data file, or None when the plug-in has none."""
    if not path.is_file():
        return None
    try:
        return read_package_data(path)
    except Exception as exc:  # a packaging bug: say which file, never half-load it
        raise PluginDataError(f"{path}: {exc}") from exc


def _at(path: Path, *keys: str | int) -> str:
    """``file:line:col`` of an entry of a plug-in data file, for an error about it (read again
    with positions only then: the normal read keeps none)."""
    from model.formats.yamlio import read_yaml

    try:
        _, source, _ = read_yaml(path)
    except Exception:  # unreadable: the file alone is all we can name
        return str(path)
    pos = source.find(tuple(keys))
    return f"{path}:{pos[0]}:{pos[1]}" if pos else str(path)


@dataclass(frozen=True)
class Coverage:
    id: str
    status: str
    rule: str | None = None
    module: str | None = None
    data: str | None = None
    note: str | None = None


def parse_coverage(raw: Any, path: Path) -> dict[str, Coverage]:
    """A plug-in's ``optional_coverage.yaml`` (already read): optional rule id -> coverage."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise PluginDataError(f"{path}: expected optional rule id: {{status: …}}")
    return {str(k): Coverage(str(k), str(v.get("status")), v.get("rule"), v.get("module"), v.get("data"), v.get("note"))
            for k, v in raw.items()}


@dataclass(frozen=True)
class SystemPlugin:
    id: str                                                  # what a system file's ``plugin:`` names
    title: str
    folder: Path                                             # play/<plug-in>/: its data files
    build: Callable[["PlayContext"], list["Procedure"]] = field(compare=False)  # in play order
    validator_pack: str | None = None                        # validators.registry.PACKS entry
    # The plug-in's typed part of the game state (a play.state.SystemState dataclass), made
    # empty when a game starts and kept in ``game.state.system``; None: it keeps none.
    state: "type[SystemState] | None" = None
    # What Play mode shows besides buttons and log lines (play/<plug-in>/ui.py), returned by a
    # function so its modules load only when a game is shown; None: nothing more.
    ui: "Callable[[], PlayUI] | None" = field(default=None, compare=False)
    # The random procedures its scenarios call for at the start of play, as engine actions
    # (play.analysis.plan.RandomStep), for ``hexproof analyze``; None: it lists none.
    analysis: "Callable[[PlayContext], list[RandomStep]] | None" = field(default=None, compare=False)
    # Levels the analysis reads off the game at the end of every turn it plays (a beach defence
    # track), by name; a value None is unknown in the data. None: it reads none. The names must
    # not depend on play: an empty reading at the start means none for the whole trial.
    analysis_levels: "Callable[[PlayContext], dict[str, float | None]] | None" = field(default=None, compare=False)
    # The random procedures of the scenario the analysis cannot play (a table not in the rules
    # file), each with its rule case and why (play.analysis.plan.NotAnalysed); None: it names none.
    analysis_gaps: "Callable[[PlayContext], list[NotAnalysed]] | None" = field(default=None, compare=False)

    @cached_property
    def play_ui(self) -> "PlayUI":
        from play.plugin_ui import PlayUI

        return self.ui() if self.ui is not None else PlayUI()

    @cached_property
    def defaults(self) -> dict[str, Any]:
        """``params.yaml``: parameter name -> value (cited)."""
        data = _read(self.folder / "params.yaml")
        if data is not None and not isinstance(data, dict):
            raise PluginDataError(f"{self.folder / 'params.yaml'}: expected a mapping of parameter names")
        return dict(data or {})

    @cached_property
    def coverage(self) -> dict[str, Coverage]:
        """``optional_coverage.yaml``: optional rule id -> how far the engine plays it."""
        return parse_coverage(_read(self.folder / "optional_coverage.yaml"), self.folder / "optional_coverage.yaml")

    @cached_property
    def actions(self) -> tuple[ActionSpec, ...]:
        """``actions.yaml``: the Play-mode buttons, in dock order."""
        path = self.folder / "actions.yaml"
        data = _read(path) or []
        if not isinstance(data, list):
            raise PluginDataError(f"{path}: expected a list of buttons")
        out: list[ActionSpec] = []
        for i, row in enumerate(data):
            try:
                args = row.get("args") or {}
                if not isinstance(args, dict):
                    raise TypeError("args must be a mapping of argument: value")
                out.append(ActionSpec(name=str(row["name"]), text=str(row["text"]), do=str(row.get("do", row["name"])),
                                      tip=str(row.get("tip", "")), args=dict(args),
                                      refuse=None if row.get("refuse") is None else str(row["refuse"])))
            except (KeyError, TypeError, AttributeError) as exc:
                raise PluginDataError(f"{_at(path, i)}: button {i + 1}: needs name and text ({exc})") from exc
        return tuple(out)

    @cached_property
    def action_kinds(self) -> dict[str, str]:
        """``action_kinds.yaml``: action name -> the kind a phase's ``allows:`` names to permit it
        (:meth:`play.sequence.Phase.permits`), or :data:`ADMIN` for an administrative action
        (a query, a declaration of a value the data lacks, a control of the sequence itself)
        that any phase permits. An action not listed is its own kind."""
        path = self.folder / "action_kinds.yaml"
        data = _read(path) or {}
        if not isinstance(data, dict):
            raise PluginDataError(f"{path}: expected action: kind (a kind a phase's allows: names, or {ADMIN})")
        for k, v in data.items():
            if not isinstance(v, str):
                raise PluginDataError(f"{_at(path, k)}: {k}: expected a kind (a kind a phase's allows: names, "
                                      f"or {ADMIN}), not {v!r}")
        return {str(k): str(v) for k, v in data.items()}

    @cached_property
    def _events(self) -> tuple[dict[str, str], frozenset[str]]:
        path = self.folder / "events.yaml"
        data = _read(path) or {}
        if not isinstance(data, dict):
            raise PluginDataError(f"{path}: expected event type: template text")
        templates: dict[str, str] = {}
        dice: set[str] = set()
        for k, v in data.items():
            if isinstance(v, dict) and isinstance(v.get("text"), str) and set(v) <= {"text", "dice"}:
                templates[str(k)] = v["text"]
                if v.get("dice"):
                    dice.add(str(k))
            elif isinstance(v, str):
                templates[str(k)] = v
            else:
                raise PluginDataError(f"{_at(path, k)}: {k}: expected the template text, or {{text: …, dice: true}}")
        return templates, frozenset(dice)

    @cached_property
    def templates(self) -> dict[str, str]:
        """``events.yaml``: event type -> log template."""
        return self._events[0]

    @cached_property
    def dice_events(self) -> frozenset[str]:
        """``events.yaml``: the event types the Dice log shows (marked ``dice: true``)."""
        return self._events[1]
