"""Shared pydantic plumbing: the model base class, hex-label fields and source positions.

Every object loaded from a file remembers where it came from (file and model path), so a
validator can point at ``scenario.yaml:42:7`` without the model knowing about validators.
Hex fields hold :class:`~model.hexes.Hex` values in memory; they are parsed from printed
labels and printed back through the grid passed as validation/serialisation context
(``context={"grid": GridSpec}``), so labels exist only at the file edge.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    PlainValidator,
    ConfigDict,
    PlainSerializer,
    PrivateAttr,
    SerializationInfo,
    ValidationInfo,
    WithJsonSchema,
)

from model.cached import DropsCachedOnCopy
from model.hexes import Hex, direction_index, DIRECTION_NAMES
from model.labels import GridSpec

SCHEMA_VERSION = 1


class Node(DropsCachedOnCopy):
    """Base of every file-backed model: forbids unknown keys, remembers its source; a copy
    (``model_copy``) computes its cached properties again (model/cached.py)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, populate_by_name=True)

    _src_file: str | None = PrivateAttr(default=None)
    _src_path: tuple[str | int, ...] = PrivateAttr(default=())

    def __eq__(self, other: object) -> bool:
        # Equality is about content: where a node was loaded from (private attributes)
        # and cached lookups must not make two equal documents differ.
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in type(self).model_fields)

    __hash__ = None  # type: ignore[assignment]

    def set_source(self, file: str | None, path: tuple[str | int, ...]) -> None:
        self._src_file = file
        self._src_path = path

    @property
    def source_file(self) -> str | None:
        return self._src_file

    @property
    def source_path(self) -> tuple[str | int, ...]:
        return self._src_path


def _grid(info: ValidationInfo | SerializationInfo) -> GridSpec | None:
    ctx = info.context
    if isinstance(ctx, dict):
        grid = ctx.get("grid")
        if isinstance(grid, GridSpec):
            return grid
    return None


def _parse_hex(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, Hex):
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return Hex(*value)
    if isinstance(value, bool) or value is None:
        raise ValueError(f"expected a hex label, got {value!r}")
    if isinstance(value, float):
        # A float means the label lost its leading/trailing zeros on the way in.
        raise ValueError(f"hex label {value!r} was read as a number; quote it, e.g. '28.050'")
    text = str(value)
    grid = _grid(info)
    if grid is None:
        if text.startswith("(") and text.endswith(")"):
            q, r = (int(v) for v in text[1:-1].split(","))
            return Hex(q, r)
        raise ValueError(f"hex label {text!r} cannot be read without a map")
    return grid.parse(text)


def _print_hex(value: Hex, info: SerializationInfo) -> str:
    grid = _grid(info)
    if grid is None:
        return f"({value.q},{value.r})"
    return grid.label(value)


HexField = Annotated[
    Hex,
    PlainValidator(_parse_hex),
    PlainSerializer(_print_hex, return_type=str),
    WithJsonSchema({"type": "string", "description": "printed hex label, e.g. 2412, 28.048 or N1511"}),
]


class HexsideKey(tuple):  # type: ignore[type-arg]
    """Canonical hexside key ``(hex, direction)`` with direction in 0..2.

    The side between A and B gets the same key from either hex (see
    :func:`hexside_key`).
    """

    __slots__ = ()

    def __new__(cls, h: Hex, direction: int) -> "HexsideKey":
        return super().__new__(cls, (h, direction))

    @property
    def hex(self) -> Hex:
        return self[0]  # type: ignore[no-any-return]

    @property
    def direction(self) -> int:
        return self[1]  # type: ignore[no-any-return]

    def other(self) -> Hex:
        return self.hex.neighbor(self.direction)

    def hexes(self) -> tuple[Hex, Hex]:
        return self.hex, self.other()

    def __getnewargs__(self) -> tuple[Hex, int]:
        return (self[0], self[1])


def hexside_key(h: Hex, direction: int) -> HexsideKey:
    direction %= 6
    if direction < 3:
        return HexsideKey(h, direction)
    return HexsideKey(h.neighbor(direction), direction - 3)


def hexside_between(a: Hex, b: Hex) -> HexsideKey | None:
    d = a.direction_to(b)
    return None if d is None else hexside_key(a, d)


def _parse_hexside(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, HexsideKey):
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[1], int):
        h = value[0] if isinstance(value[0], Hex) else Hex(*value[0])
        return hexside_key(h, value[1])
    text = str(value)
    if "/" not in text:
        raise ValueError(f"hexside {text!r} should read HEX/DIRECTION, e.g. 28.049/S")
    label, _, dname = text.rpartition("/")
    grid = _grid(info)
    orientation = grid.orientation if grid else "flat"
    h = _parse_hex(label, info)
    return hexside_key(h, direction_index(orientation, dname))


def _print_hexside(value: HexsideKey, info: SerializationInfo) -> str:
    grid = _grid(info)
    h, d = value.hex, value.direction
    if grid is None:
        return f"({h.q},{h.r})/{DIRECTION_NAMES['flat'][d]}"
    # Name the side from a hex on the map when only one of the two is.
    if not grid.in_sheets(h) and grid.in_sheets(h.neighbor(d)):
        h, d = h.neighbor(d), d + 3
    return f"{grid.label(h)}/{DIRECTION_NAMES[grid.orientation][d]}"


HexsideField = Annotated[
    HexsideKey,
    PlainValidator(_parse_hexside),
    PlainSerializer(_print_hexside, return_type=str),
    WithJsonSchema({"type": "string", "description": "hexside as HEX/DIRECTION, e.g. 28.049/S"}),
]


def walk_nodes(obj: Any, path: tuple[str | int, ...] = ()) -> Any:
    """Yield ``(node, path)`` for every :class:`Node` inside ``obj`` (depth first)."""
    if isinstance(obj, Node):
        yield obj, path
        for name in type(obj).model_fields:
            yield from walk_nodes(getattr(obj, name), path + (name,))
    elif isinstance(obj, (list, tuple)) and not isinstance(obj, (Hex, HexsideKey)):
        for i, item in enumerate(obj):
            yield from walk_nodes(item, path + (i,))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk_nodes(v, path + (str(k),))


def stamp_sources(root: Node, file: str, base: tuple[str | int, ...] = ()) -> None:
    """Record file and model path on every node, so diagnostics can locate it."""
    for node, path in walk_nodes(root, base):
        node.set_source(file, path)


def format_path(path: tuple[str | int, ...]) -> str:
    """``("setup", 3, "hex")`` → ``$.setup[3].hex``."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out
