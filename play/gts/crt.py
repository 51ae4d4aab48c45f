"""The GTS Combat Results Table as data, and one fire roll on it [GTS 15.5].

The rules file has no CRT. A bundle may ship one (``crt: crt.yaml`` in game.yaml; the Utah
sample ships an ILLUSTRATIVE one); ``params.crt`` of the scenario wins if it has ``lines``.
Format: ``{illustrative, rule, die: {always_hit, always_miss}, lines: {colour: {name, rule,
armored: [result for roll 0..9], unarmored: [...]}}}``.

A roll: one d10 read 0–9; a hit when the roll ≤ the modified Fire Rating, 0 always hits,
9 always misses [15.5 step 4]; on a hit the same roll reads the result [15.5 step 5].
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from play.context import PlayContext

ILLUSTRATIVE = "illustrative CRT"


@lru_cache(maxsize=8)
def _read(path: str, mtime: float) -> dict[str, Any]:
    """The CRT file's data ({} when it cannot be read: the loader reports why, located at
    game.yaml ``crt:``). Read through model/formats/yamlio → model/safefile: a regular file only
    (a FIFO or /dev/zero refused at once), bounded, alias- and depth-limited."""
    from model.formats.yamlio import YamlError, read_yaml

    try:
        data, _, _ = read_yaml(Path(path))
    except YamlError:
        return {}
    return data if isinstance(data, dict) else {}


def crt_for(game: "PlayContext") -> dict[str, Any] | None:
    """The fire CRT of this game (scenario ``params.crt`` with lines, else the bundle's file)."""
    p = game.scenario.params.get("crt")
    if isinstance(p, dict) and isinstance(p.get("lines"), dict):
        return p
    ref = getattr(game.bundle.game, "crt", None)
    if not ref:
        return None
    from model.safefile import SafeFileError, resolve_inside

    try:
        path = resolve_inside(game.bundle.root, ref, what="CRT file")  # inside the bundle after symlinks
        if not path.is_file():
            return None
        data = _read(str(path), path.stat().st_mtime)
    except (SafeFileError, OSError):
        return None
    return data if isinstance(data.get("lines"), dict) else None


@dataclass
class FireRoll:
    die: int
    fr: int
    hit: bool
    result: str | None
    line: str
    armored: bool
    illustrative: bool
    rule: str | None

    def text(self) -> str:
        outcome = f"hit: {self.result}" if self.hit else "miss"
        tag = f" ({ILLUSTRATIVE})" if self.illustrative else ""
        return f"FR {self.fr}, {self.line} line, {'armored' if self.armored else 'unarmored'}, rolled {self.die}: {outcome}{tag}"

    def event(self) -> dict[str, Any]:
        return {"die": self.die, "fr": self.fr, "hit": self.hit, "result": self.result, "line": self.line,
                "armored": self.armored, "illustrative": self.illustrative or None, "crt_rule": self.rule}


def roll(game: "PlayContext", crt: dict[str, Any], line: str, armored: bool, fr: int) -> FireRoll:
    """One d10 on the CRT; raises KeyError for a line the table does not have."""
    spec = crt["lines"][line]
    die_cfg = crt.get("die") or {}
    d = game.dice.roll(1, 10)[0] % 10  # faces 1..10, the 10 reads 0
    always_hit, always_miss = int(die_cfg.get("always_hit", 0)), int(die_cfg.get("always_miss", 9))
    hit = d == always_hit or (d != always_miss and d <= fr)
    row = spec.get("armored" if armored else "unarmored") or []
    result = str(row[d]) if hit and d < len(row) else None
    if result == "-":
        result = None
    return FireRoll(d, fr, hit, result, line, armored, bool(crt.get("illustrative")), spec.get("rule") or crt.get("rule"))
