"""Game state: where every unit is, its steps and markers, the turn, the phase, VP.

Plain dataclasses that serialise to plain dicts (hexes as printed labels), so a game in
progress saves to a readable file and snapshots for undo are cheap copies.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, TypeVar

from model.hexes import Hex
from model.mapdata import HexMap

# Where a unit can be: on a map hex, in an off-map box, waiting off-map for its arrival,
# eliminated, or withdrawn from play.
WHERE = ("hex", "box", "offmap", "eliminated", "withdrawn")


@dataclass
class UnitState:
    id: str
    side: str
    where: str = "offmap"
    hex: Hex | None = None
    box: str | None = None
    steps: int = 1
    max_steps: int = 1
    reduced: bool = False
    markers: list[str] = field(default_factory=list)
    mp_spent: float = 0.0
    arrived: int | None = None

    @property
    def on_map(self) -> bool:
        return self.where == "hex" and self.hex is not None

    def to_dict(self, hmap: HexMap) -> dict[str, Any]:
        d = asdict(self)
        d["hex"] = hmap.label(self.hex) if self.hex is not None else None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], hmap: HexMap) -> "UnitState":
        d = dict(d)
        d["hex"] = hmap.parse(d["hex"]) if d.get("hex") else None
        return cls(**d)


S = TypeVar("S", bound="SystemState")


class SystemState(Protocol):
    """A plug-in's own part of the game state (its ``SystemPlugin.state`` class): a dataclass
    that starts empty, deep-copies for undo, and saves as plain JSON data."""

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls: type[S], d: dict[str, Any]) -> S:
        """``d``: the saved ``system`` part; a save written before the plug-in had typed state
        has none, and ``d`` is then that save's ``extra`` bag, so the plug-in can read the layout
        it kept there (play/gts/state.py does)."""
        ...


@dataclass
class CombatRecord:
    """This phase's attacks under the shared, data-driven combat (play/generic/attack.py): the
    units that attacked and the hexes attacked (labels), each once per phase."""

    attacked: list[str] = field(default_factory=list)
    defended: list[str] = field(default_factory=list)


@dataclass
class GameState:
    turn: int
    phase: int = 0
    units: dict[str, UnitState] = field(default_factory=dict)
    vp: dict[str, int] = field(default_factory=dict)
    # The plug-in's typed state (SystemPlugin.state). Saves from before it was typed kept it in
    # an untyped ``extra`` bag; loading one hands that bag to the plug-in (_system_state).
    system: SystemState | None = None
    combat: CombatRecord = field(default_factory=CombatRecord)
    over: bool = False

    def at(self, h: Hex) -> list[UnitState]:
        return [u for u in self.units.values() if u.on_map and u.hex == h]

    def occupied_by(self, side: str) -> set[Hex]:
        return {u.hex for u in self.units.values() if u.on_map and u.side == side and u.hex is not None}

    def to_dict(self, hmap: HexMap) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "over": self.over,
                "vp": dict(sorted(self.vp.items())),
                "units": {uid: u.to_dict(hmap) for uid, u in sorted(self.units.items())},
                **({"combat": asdict(self.combat)} if self.combat.attacked or self.combat.defended else {}),
                **({"system": self.system.to_dict()} if self.system is not None else {})}

    @classmethod
    def from_dict(cls, d: dict[str, Any], hmap: HexMap, system: type[SystemState] | None = None) -> "GameState":
        """``system``: the plug-in's state class; a save without its ``system`` part (written before
        the plug-in had one) gives it the save's ``extra`` instead (``SystemState.from_dict``)."""
        return cls(turn=int(d["turn"]), phase=int(d["phase"]), over=bool(d.get("over", False)),
                   vp={k: int(v) for k, v in d.get("vp", {}).items()},
                   units={uid: UnitState.from_dict(u, hmap) for uid, u in d["units"].items()},
                   combat=CombatRecord(**copy.deepcopy(d.get("combat") or (d.get("extra") or {}).get("generic_combat")
                                                       or {})),
                   system=None if system is None else _system_state(system, d))


def _system_state(system: type[SystemState], d: dict[str, Any]) -> SystemState:
    """The plug-in's state from a save. A save written before the plug-in's state was typed has
    no ``system`` part: a plug-in that defines ``from_extra`` reads its old ``extra`` with it;
    otherwise ``from_dict`` is given the old ``extra`` (GTS's ``from_dict`` reads both layouts)."""
    if "system" in d:
        return system.from_dict(copy.deepcopy(d.get("system") or {}))
    legacy = getattr(system, "from_extra", None)  # optional: not part of the SystemState protocol
    if legacy is not None:
        return legacy(copy.deepcopy(d.get("extra") or {}))
    return system.from_dict(copy.deepcopy(d.get("extra") or {}))
