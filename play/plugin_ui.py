"""What a plug-in shows in Play mode besides its procedures: plain data and functions, no Qt.

The editor draws all of it the same way for every system (``editor/play/actions.py``,
``editor/play/layer.py``) and names no system itself. A plug-in builds one :class:`PlayUI`
in ``play/<plug-in>/ui.py`` and hands its record a function returning it
(``SystemPlugin(ui=...)``), so nothing of it is imported before a game needs it; a plug-in
without one gets the empty :class:`PlayUI`.

The Actions dock, top to bottom:

- **Target** — a hex label or ``box:ID``, in every game.
- :attr:`PlayUI.fields` — the plug-in's form rows: combo boxes (:class:`Choice`) and turn boxes
  (:class:`TurnBox`).
- **Buttons** — the :class:`play.plugin.ActionSpec` rows of the plug-in's ``actions.yaml``
  (then the shared ones of ``play/generic/actions.yaml``: :func:`play.plugins.dock_actions`),
  each shown only while a procedure
  offers its ``do``. A row's ``args`` say how the action is built (:func:`build_action`); a
  button whose action needs the game to build it (the first enemy in a hex, a pending target)
  has a :data:`Builder` in :attr:`PlayUI.builders`, under the button's name.
- :attr:`PlayUI.panels` — read-only sections (:class:`Panel`), shown while they have text,
  each with an optional combo of its own.
- :attr:`PlayUI.attack_options` — check boxes (:class:`AttackOption`) adding ``<key>: true``
  to the next map attack.

On the map: :attr:`PlayUI.overlays` (hex markers, :class:`Overlay`, drawn in one of
:data:`OVERLAY_STYLES`). For the sight line: :attr:`PlayUI.los_conditions`, the turn's
conditions (night, storm…) passed to ``model.los.line_of_sight`` so the line the editor draws
agrees with the engine's ``los`` query.

``args`` values (``actions.yaml``): a string starting with ``$`` reads the dock, anything else
is a constant, and a list is built item by item (``attackers: [$unit]``). Inputs:

=============== ===================================================================
``$units``      the selected unit ids (none: "select a unit first")
``$unit``       the first selected unit id (none: "select a unit first")
``$target``     the Target field (empty: "type a target hex first")
``$box``        the Target field without its ``box:`` prefix (empty: "type a target box first")
``$<field>``    a plug-in field or panel combo of that name (nothing chosen: "choose a <label>")
``$…?``         optional: the argument is left out when the input is empty
=============== ===================================================================

A missing input refuses with the row's ``refuse`` text, else the message above; arguments are
checked in the order the row lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Union

if TYPE_CHECKING:
    from model.hexes import Hex
    from play.context import PlayContext
    from play.plugin import ActionSpec

# The looks an overlay may ask for; the editor has one drawing for each (a test checks it).
#   hatch        sparse diagonal hatching (orange), a thin outline
#   cross-hatch  dense cross-hatching (red), a thick outline
OVERLAY_STYLES = ("hatch", "cross-hatch")


@dataclass(frozen=True)
class DockInput:
    """What the Actions dock holds when a button is pressed."""

    selection: tuple[str, ...] = ()                      # the selected unit ids, in order
    target: str = ""                                     # the Target field, stripped
    values: Mapping[str, Any] = field(default_factory=dict)  # field / panel combo name -> value (None: none chosen)


# Builds a button's engine action, or says why it cannot yet ("select a ship first").
Builder = Callable[["PlayContext", DockInput], Union[dict[str, Any], str]]


@dataclass(frozen=True)
class Choice:
    """A combo box: ``options(game)`` gives (text, value) rows; ``$<name>`` reads the value."""

    name: str                                            # objectName play-action-<name>
    label: str                                           # its form label ("Division:")
    tip: str
    options: Callable[["PlayContext"], list[tuple[str, str]]]
    # The engine action whose offer enables the box; None: enabled whenever it is shown.
    enabled_by: str | None = None
    # A first row meaning "none chosen" (the builder falls back to the selection); None: no
    # such row, the first option is chosen.
    none_text: str | None = None

    @property
    def missing(self) -> str:
        return f"choose a {self.label.rstrip(':').lower()}"


@dataclass(frozen=True)
class TurnBox:
    """A game-turn box (``$<name>``), set to the next turn when a game starts."""

    name: str                                            # objectName play-action-<name>
    label: str                                           # its form label ("Drop turn:")
    tip: str = ""


Field = Union[Choice, TurnBox]


@dataclass(frozen=True)
class Panel:
    """A read-only section of the dock: ``text(game)`` (None: the section is hidden), and an
    optional combo above it whose value the plug-in's builders read (``DockInput.values``)."""

    name: str                                            # objectName play-<name>-display
    tip: str
    text: Callable[["PlayContext"], str | None]
    choice: Choice | None = None


@dataclass(frozen=True)
class AttackOption:
    """A check box that adds ``<key>: true`` to the next map attack while ``offered(game)``;
    it unticks once an attack succeeds."""

    key: str                                             # the attack argument; objectName play-action-<key>
    text: str
    tip: str
    offered: Callable[["PlayContext"], bool]


@dataclass(frozen=True)
class Overlay:
    """Hexes the map marks: hatching in ``style`` under the counters, and ``label`` as a badge
    at each hex's stack."""

    kind: str                                            # what it is ("light barrage"): tooltips, tests
    hexes: tuple["Hex", ...]
    style: str                                           # one of OVERLAY_STYLES
    label: str = ""                                      # a few letters ("LB")


def _no_overlays(game: "PlayContext") -> list[Overlay]:
    return []


def _no_conditions(game: "PlayContext") -> dict[str, bool]:
    return {}


@dataclass(frozen=True)
class PlayUI:
    builders: Mapping[str, Builder] = field(default_factory=dict)  # button name -> its builder
    fields: tuple[Field, ...] = ()
    panels: tuple[Panel, ...] = ()
    attack_options: tuple[AttackOption, ...] = ()
    overlays: Callable[["PlayContext"], list[Overlay]] = _no_overlays
    los_conditions: Callable[["PlayContext"], Mapping[str, bool]] = _no_conditions

    def choices(self) -> dict[str, Choice]:
        """Every combo by name: the form's and the panels'."""
        out = {f.name: f for f in self.fields if isinstance(f, Choice)}
        out.update({p.choice.name: p.choice for p in self.panels if p.choice is not None})
        return out

    def input_names(self) -> set[str]:
        """What ``$<name>`` may read in this plug-in's ``actions.yaml``."""
        return set(DOCK_INPUTS) | {f.name for f in self.fields} | set(self.choices())


# The dock's own inputs and what a button says when one is empty.
DOCK_INPUTS = {"units": "select a unit first", "unit": "select a unit first",
               "target": "type a target hex first", "box": "type a target box first"}


class _Missing(Exception):
    """An input the action needs is empty: the button refuses with this message."""


_OMIT = object()  # an optional input that is empty: the argument is left out


def _input(name: str, ui: PlayUI, inp: DockInput) -> Any:
    if name == "units":
        return list(inp.selection)
    if name == "unit":
        return inp.selection[0] if inp.selection else None
    if name == "target":
        return inp.target
    if name == "box":
        return inp.target.removeprefix("box:")
    if name in ui.input_names():
        return inp.values.get(name)
    raise KeyError(name)


def _missing_message(name: str, ui: PlayUI) -> str:
    if name in DOCK_INPUTS:
        return DOCK_INPUTS[name]
    choice = ui.choices().get(name)
    return choice.missing if choice is not None else f"set {name} first"


def _resolve(value: Any, ui: PlayUI, inp: DockInput) -> Any:
    if isinstance(value, list):
        return [_resolve(v, ui, inp) for v in value]
    if not (isinstance(value, str) and value.startswith("$")):
        return value  # a constant (contest: true)
    name = value[1:]
    optional = name.endswith("?")
    name = name.removesuffix("?")
    got = _input(name, ui, inp)
    if got is None or got == "" or got == []:
        if optional:
            return _OMIT
        raise _Missing(_missing_message(name, ui))
    return got


def build_action(spec: "ActionSpec", ui: PlayUI, game: "PlayContext", inp: DockInput) -> dict[str, Any] | str:
    """The engine action a button runs, or why it cannot be built yet (nothing selected…)."""
    builder = ui.builders.get(spec.name)
    if builder is not None:
        return builder(game, inp)
    action: dict[str, Any] = {"do": spec.do}
    for key, value in spec.args.items():
        try:
            got = _resolve(value, ui, inp)
        except _Missing as exc:
            return spec.refuse or str(exc)
        if got is not _OMIT:
            action[key] = got
    return action


def arg_inputs(spec: "ActionSpec") -> set[str]:
    """The ``$<name>`` inputs a row's ``args`` read (the test checks each plug-in has them)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str) and v.startswith("$"):
            out.add(v[1:].removesuffix("?"))

    for v in spec.args.values():
        walk(v)
    return out

