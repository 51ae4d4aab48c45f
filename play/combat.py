"""Combat: only where the rules provided give the table.

The CRT is data: ``params.crt`` in the scenario or the system file::

    crt:
      rule: "GTS 12.3"
      illustrative: true          # say so when the table is not from the rules text
      dice: 1d6
      attack_field: attack        # counter value summed for the attackers
      defense_field: defense
      columns: ["1:2", "1:1", "2:1", "3:1"]
      rows: {"1": [AE, AR, DR, DE], "2": […], …}   # die roll → result per column

This is the older, log-only form (``params.crt``); the typed ``combat.crt`` of the system file
(play/generic/crt.py) is played by play/generic/attack.py, which applies the results.
Without either, ``attack`` returns a refusal that says the rules provided have no CRT (the TKG
draft has none; the GTS CRT is not in the rules file). The result is logged; applying it
(step losses, retreats) is left to the players' follow-up actions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from play.generic.crt import ratio

if TYPE_CHECKING:
    from play.context import PlayContext
    from play.result import ActionResult


def crt_for(game: "PlayContext") -> dict[str, Any] | None:
    crt = game.scenario.params.get("crt") or game.system.params.get("crt")
    return crt if isinstance(crt, dict) and crt.get("columns") and crt.get("rows") else None


def unavailable_reason(game: "PlayContext") -> str | None:
    """None when the data gives a CRT; else what the engine says instead of inventing one."""
    if crt_for(game) is not None:
        return None
    typed = game.system.combat.crt if game.system.combat is not None else None
    if typed is not None and typed.kind == "fire":
        # A fire table resolves one shot (play/generic/crt.py); the battle around the shots is
        # a system's own procedure, which this system's plug-in does not provide.
        return (f"combat not available: the {game.system.short} data gives a fire table (combat.crt kind fire), "
                "which needs its system's own battle procedure; no plug-in provides one here")
    return f"combat not available: the rules provided have no CRT ({game.system.short})"


def _ratio(text: str) -> Fraction:
    a, _, b = str(text).partition(":")
    return Fraction(int(a), int(b or 1))


def _strength(game: "PlayContext", uid: str, fieldname: str) -> float:
    c = game.counters.get(uid)
    u = game.unit(uid)
    if c is None:
        return 0.0
    side = c.back if u.reduced and c.back is not None else c.front
    v = side.values.get(fieldname)
    return float(v) if isinstance(v, (int, float)) else 0.0


def resolve_attack(game: "PlayContext", action: dict[str, Any]) -> "ActionResult":
    from play.result import ActionResult

    crt = crt_for(game)
    if crt is None:
        return ActionResult(False, str(unavailable_reason(game)), policy="no-crt-no-combat")
    attackers = [str(a) for a in action.get("attackers", [])]
    target = game.hex_of(action.get("target"))
    defenders = [u.id for u in game.state.at(target)]
    if not attackers or not defenders:
        return ActionResult(False, "an attack needs attackers and an occupied target hex")
    far = [a for a in attackers if not game.unit(a).on_map or game.unit(a).hex is None
           or game.unit(a).hex.distance(target) != 1]
    if far:
        # Policy: attackers must be adjacent to the target hex unless the CRT data says otherwise.
        return ActionResult(False, f"{', '.join(far)} not adjacent to {game.label(target)}", crt.get("rule"),
                            policy="attack-from-adjacent-hexes")
    att = sum(_strength(game, a, str(crt.get("attack_field", "attack"))) for a in attackers)
    dfn = sum(_strength(game, d, str(crt.get("defense_field", "defense"))) for d in defenders)
    if dfn <= 0:
        return ActionResult(False, "the defenders have no defence strength in the counter data")
    odds = ratio(att, dfn)  # the shared odds (play/generic/crt.py): exact, rounded for the defender below
    columns = [str(c) for c in crt["columns"]]
    usable = [c for c in columns if _ratio(c) <= odds]
    if not usable:
        return ActionResult(False, f"odds {float(odds):.2f} are below the lowest CRT column", crt.get("rule"))
    col = max(usable, key=_ratio)
    spec = str(crt.get("dice", "1d6"))
    n, _, s = spec.partition("d")
    dice = game.dice.roll(int(n or 1), int(s or 6))
    row = crt["rows"].get(str(sum(dice))) or crt["rows"].get(sum(dice))
    result = row[columns.index(col)] if row else None
    game.emit("attack", attackers=attackers, target=game.label(target), defenders=defenders, column=col,
              dice=dice, result=result, rule=crt.get("rule"), illustrative=bool(crt.get("illustrative")) or None)
    tag = " (illustrative CRT)" if crt.get("illustrative") else ""
    return ActionResult(True, f"{col}, rolled {sum(dice)}: {result}{tag}", crt.get("rule"),
                        data={"column": col, "dice": dice, "result": result})
