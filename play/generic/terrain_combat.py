"""Terrain effects on combat, as data: ``combat.terrain_effects`` plus the ``fire`` maps of the
terrain and hexside types.

The values live on the types themselves (the Terrain Key of the rules): each terrain type's
``fire`` map gives the effect of attacking *into* a hex of it, each hexside type's ``fire`` map
the effect of attacking *across* it, one value per key. The section says how they apply::

    terrain:
    - {id: woods, name: Woods, char: W, color: '#3f8f3f', move: {foot: 2}, fire: {all: -1}}
    hexsides:
    - {id: river, name: River, move: {foot: 1}, fire: {all: -1}}
    combat:
      terrain_effects:
        rule: "EX 7.3"
        effect: shift             # shift: CRT columns (odds, differential) | modifier: added to a fire
                                  #   value (kind fire) or to the die roll (odds, differential)
        applies_to: attack        # kind fire: attack | defense | both (whose fire is modified)
        keys:                     # which key of a fire map applies; first match, the last has no tags
        - {tags: [armor], key: armor}
        - {key: all}
        hexsides_when: all        # odds/differential: a hexside counts when all (any) attackers attack across it
        hexside_exempt_tags: [artillery]   # units with these category tags ignore hexside effects

Kind fire (one firer at one target): the key is the firer's; the terrain of the
target's hex and every hexside between the two hexes apply. Odds and differential CRTs (one
attack on one hex): the key is the first whose tags every attacker has; the terrain of the
defenders' hex applies, and a hexside type applies once when every attacker (``any``: some
attacker) attacks across it. A value of ``unknown`` (or any non-number) is not invented: it
gives no effect and the policy **terrain-combat-unknown-not-invented** is reported.

Each effect is returned under a stable name, ``terrain:<id>`` or ``hexside:<id>``, in that
order (terrain first, then hexsides as the map lists them), so logs stay byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from model.base import hexside_between
from model.generic_rules import TerrainEffects
from model.hexes import Hex
from model.mapdata import HexMap
from model.system import GameSystem

UNKNOWN_POLICY = "terrain-combat-unknown-not-invented: a terrain or hexside combat value is not a number; no effect"


def key_for(effects: TerrainEffects, tag_sets: Sequence[set[str]]) -> str:
    """The ``fire`` map key for these units: the first entry whose tags every unit has."""
    for entry in effects.keys:
        if all(set(entry.tags) <= tags for tags in tag_sets):
            return entry.key
    return effects.keys[-1].key


def _number(v: object) -> int | float | None:
    try:
        x = float(str(v))
    except ValueError:
        return None
    return int(x) if x.is_integer() else x


def effects_between(system: GameSystem, hmap: HexMap, effects: TerrainEffects, firers: Iterable[tuple[Hex, set[str]]],
                    target: Hex, policies: set[str] | None = None) -> dict[str, int | float]:
    """Terrain and hexside effects on an attack into ``target`` by units in the given hexes with
    the given category tags: ``{"terrain:woods": -1, "hexside:river": -1}`` (zeros left out).

    One firer is the kind-fire case; several are one attack on an odds/differential CRT."""
    units = list(firers)
    if not units:
        return {}
    key = key_for(effects, [tags for _, tags in units])
    out: dict[str, int | float] = {}
    t = system.terrain_by_id.get(hmap.terrain_at(target) or "")
    if t is not None and key in t.fire:
        m = _number(t.fire[key])
        if m is None and policies is not None:
            policies.add(UNKNOWN_POLICY)
        elif m:
            out[f"terrain:{t.id}"] = m
    exempt = set(effects.hexside_exempt_tags)
    crossed: list[list[str]] = []
    for here, tags in units:
        k = hexside_between(here, target)
        crossed.append([] if k is None or tags & exempt else list(hmap.hexside_features(k)))
    seen: list[str] = []
    for sides in crossed:
        for sid in sides:
            if sid not in seen:
                seen.append(sid)
    for sid in seen:
        share = sum(1 for sides in crossed if sid in sides)
        if share < len(units) and effects.hexsides_when == "all":
            continue
        st = system.hexside_by_id.get(sid)
        if st is None or key not in st.fire:
            continue
        m = _number(st.fire[key])
        if m is None and policies is not None:
            policies.add(UNKNOWN_POLICY)
        elif m:
            out[f"hexside:{sid}"] = m
    return out


def applies(effects: TerrainEffects, attacking: bool) -> bool:
    """Kind fire: whether the effects modify this fire (attacking or defensive)."""
    return effects.applies_to == "both" or (effects.applies_to == "attack") == attacking
