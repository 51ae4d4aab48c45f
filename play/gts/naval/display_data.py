"""The Naval Display as data [Excl 4.4]: the scenario's ``params.naval_display`` (which range
boxes belong to which Assault Force, the Landing Wave force, the En Route and Loading boxes) and
``params.af_markers`` (start hexes of the Assault Force markers); each range box's number is the
``number`` of its game.yaml box. Ranges to ships and craft [Excl 4.4.4(a), 4.4.7(a), 4.7.2]."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from model.hexes import Hex

from play.gts import beach
from play.gts.state import NavalState, gts_state
from play.procedure import param_value

if TYPE_CHECKING:
    from play.context import PlayContext


def display(game: "PlayContext") -> dict[str, Any]:
    d = game.scenario.params.get("naval_display")
    return d if isinstance(d, dict) else {}


def forces(game: "PlayContext") -> dict[str, list[str]]:
    f = display(game).get("forces") or {}
    return {str(k): [str(b) for b in v] for k, v in f.items()} if isinstance(f, dict) else {}


def force_of_box(game: "PlayContext", box_id: str | None) -> str | None:
    return next((f for f, boxes in forces(game).items() if box_id in boxes), None)


def box_number(game: "PlayContext", box_id: str) -> int | None:
    b = game.bundle.box(box_id)
    return b.number if b is not None else None


def state(game: "PlayContext") -> NavalState:
    st = gts_state(game).naval
    if st.markers is None:  # the scenario's start hexes, read when the display is first used
        af = game.scenario.params.get("af_markers") or {}
        st.markers = {str(f): str(spec.get("hex")) for f, spec in af.items()
                      if isinstance(spec, dict) and spec.get("hex") is not None}
    return st


def markers(game: "PlayContext") -> dict[str, str]:
    """The Assault Force markers: force -> hex label [Excl 4.4.3]."""
    m = state(game).markers
    assert m is not None  # state() sets them
    return m


def marker_hex(game: "PlayContext", force: str) -> Hex | None:
    label = markers(game).get(force)
    return game.hex_of(label) if label else None


def ship_range(game: "PlayContext", force: str, box_id: str, target: Hex) -> int | None:
    """Hexes from ``target`` to ``force``'s marker + the range box number [Excl 4.4.4(a), 4.4.7(a)];
    None when the marker or the box number is not in the data."""
    m, n = marker_hex(game, force), box_number(game, box_id)
    return None if m is None or n is None else target.distance(m) + n


def landing_wave_range(game: "PlayContext", source: Hex) -> int | None:
    """Range from ``source`` to any craft in a Landing Wave box: hexes to the Landing Wave
    force's marker (Utah South) [Excl 4.4.7(a), 4.7.2]."""
    m = marker_hex(game, str(param_value(display(game).get("landing_wave_force")) or "UtS"))
    return None if m is None else source.distance(m)


def has_center_dot(game: "PlayContext", h: Hex) -> bool:
    """Playable in the sense of [Excl 4.4.3, 2.1.14] (the same test as GTS-NAV-001)."""
    tid = game.hmap.terrain_at(h)
    if tid is None:
        return False
    t = game.system.terrain_by_id.get(tid)
    return True if t is None else t.has_center_dot


def overlays_in_play(game: "PlayContext") -> list[Any]:
    return [ov for ov in beach.overlays(game) if not beach.state(game, ov).cleared]
