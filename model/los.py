"""Line of sight, the reference implementation, with an explanation trace.

The line runs from the centre dot of the firer's (or spotter's) hex to the centre dot of the
target hex [GTS 15.4]. This module finds what the line meets segment by segment with shapely
in the exact LOS frame of :mod:`model.geometry` (:func:`trace_reference`), then applies the
game's rules to that geometry (:func:`evaluate`), which records every crossing with its
effect and rule case in a :class:`LosResult`. The rule cases are the system file's (a type's
``rule``, ``los.rule``, ``los.cases``; docs/system-file.md), never this module's: where the
file gives none, the crossing cites ``no case``. :mod:`model.los_fast` computes the same
geometry with integer templates and evaluates whole maps with numpy; the two are tested
against each other.

Policies where the rules are silent are named in ``LosResult.policies`` and documented in
docs/los.md:

* ``along-hexside-both-blocking``: a line along a hexside between two blocking hexes is
  blocked (INFERRED; system ``los.hexside_both_blocking``); one blocking + one open is open
  [GTS 15.4.1].
* ``vertex-default`` / ``vertex-strict`` (system ``los.vertex_policy``): where the line
  passes through a vertex without running along a side, *default* ignores the third hex it
  only touches and counts a crest/ridge as crossed only when crest/ridge sides meeting there
  lie on both sides of the line (they separate the points just before and after the
  vertex); *strict* counts the touched hex as passed through and every crest/ridge side
  meeting there as crossed.
* ``distance-grid``: "count the last hex but not the first" [GTS 15.4] is read as grid
  distance (counting hexes the line passes through can give 1–2 more).
* ``crest-one-crossing`` (system ``los.crest_rule: one_crossing``): at most one crest/ridge
  side may be crossed, and only a side of the firer's or target's hex [Utah Excl 2.2.1,
  Errata 2.2.2] (``crest-series``, ``crest_rule: series``: each such side is exempt); a spotter (OP, strongpoint, hill)
  may also spend its blocking budget on crest crossings beyond the one exempt crossing, and on
  running along a crest/ridge.
* ``bridge-graphic-is-hexside``: a bridge drawn on a hexside blocks where the line crosses or
  runs along that hexside [Utah Excl 2.4.4], never when it is a side of the firer's or target's hex.
* ``spotter-range-fallback``: a spotter whose range for the condition is not given (OP in a
  Storm) uses the normal range for that condition.
* ``spotter-best``: when several spotters apply, the one with the largest budget (then range) is used.
* ``second-crest-errata``: a crest/ridge crossing not beside the firer or target that blocks after
  another crest/ridge was crossed breaks both "crossing a crest blocks" [Utah Excl 2.2.1] and "no
  more than one may be crossed" [Errata 2.2.2]; the verdict cites the one-crossing case
  (``los.cases.one_crest_crossing``) with the crossing's own case in ``also``.
* ``blocker-within-range``: a line both out of range and blocked is decided by its first blocker
  only when the line meets that blocker without leaving the range (a hex at distance ≤ range, a
  hexside or vertex all of whose hexes are); otherwise range decides.

Every verdict names what decided it in ``LosResult.decided_by`` (a :class:`Decision`): range
(the ``los.range_rules`` row, or the spotter's own range case), a blocker, a crest (a second
crossing beside the firer or target: ``los.cases.one_crest_crossing``), a spotter's exception,
reciprocity, or the clear line (``los.rule``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Literal

from shapely.geometry import LineString, Point

from model.base import HexsideKey
from model.geometry import (MapShapes, VertexKey, _state_token, hex_sides, los_center, los_corners, map_state_changed,
                            shapes_for, terrain_view, vertex_key, vertex_sides)
from model.hexes import DIRECTION_NAMES, Hex
from model.mapdata import HexMap
from model.system import LOS_CONDITIONS, NO_CASE, GameSystem, LosCases

Purpose = Literal["direct", "spot", "self_spot"]


# --- inputs --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Conditions:
    night: bool = False
    storm: bool = False
    fog: bool = False

    def key(self) -> str:
        if self.fog:
            return "fog_rain"
        if self.night and self.storm:
            return "night_storm"
        if self.night:
            return "night"
        if self.storm:
            return "storm"
        return "day"


_ALIASES = LOS_CONDITIONS


def _range_row(table: Any, cond: str) -> tuple[int | None, str | None]:
    """(range, the table key it was read from) for the condition; a bare number is every
    condition's (key None)."""
    if isinstance(table, (int, float)):
        return int(table), None
    if isinstance(table, str) and table.isdigit():
        return int(table), None
    if isinstance(table, dict):
        for k in _ALIASES.get(cond, (cond,)):
            v = table.get(k)
            if isinstance(v, (int, float)) or (isinstance(v, str) and v.isdigit()):
                return int(v), k
    return None, None


def _range_for(table: Any, cond: str) -> int | None:
    return _range_row(table, cond)[0]


@dataclass(frozen=True)
class Spotter:
    id: str
    budget: int
    range: Any
    purpose: str
    reciprocal: bool
    rule: str
    feature: str | None
    terrain: str | None


def _norm_purpose(purpose: Any) -> str:
    """``spot`` (only when spotting for another unit), ``direct`` or ``any``."""
    if isinstance(purpose, list):
        purpose = "+".join(str(p) for p in purpose)
    p = str(purpose).lower()
    if p in ("spot", "spot_for_other", "spot_for_another", "spotting", "spot_only") or "other" in p:
        return "spot"
    if p in ("direct", "direct_fire", "direct_only"):
        return "direct"
    return "any"


def _range_table(spec: dict[str, Any]) -> dict[str, Any] | None:
    """A spotter's ranges by condition. A bare number is the clear-daylight range
    [GTS 15.4.2; Utah Excl 2.1.10]; ``<condition>_range`` keys add the others; ``normal``
    or ``unknown`` mean "use the normal range" (policy spotter-range-fallback)."""
    raw = spec.get("range", spec.get("ranges"))
    table: dict[str, Any] = {}
    if isinstance(raw, dict):
        table.update(raw)
    elif raw is not None and _range_for(raw, "day") is not None:
        table["day"] = raw
    for k, v in spec.items():
        if k.endswith("_range") and k != "max_range":
            table[k[: -len("_range")]] = v
    return table or None


def spotters_of(system: GameSystem) -> list[Spotter]:
    hit = _SPOTTERS.get(id(system))
    if hit is not None and hit[0] is system:
        return hit[1]
    out = _spotters(system)
    _SPOTTERS[id(system)] = (system, out)
    return out


_SPOTTERS: dict[int, tuple[GameSystem, list[Spotter]]] = {}


def _spotters(system: GameSystem) -> list[Spotter]:
    out = []
    for sid, spec in system.los.spotters.items():
        if not isinstance(spec, dict):
            continue
        budget = spec.get("budget", spec.get("through", spec.get("blocking", 0)))
        try:
            nbudget = int(budget or 0)
        except (TypeError, ValueError):
            nbudget = 0
        out.append(Spotter(sid, nbudget, _range_table(spec), _norm_purpose(spec.get("purpose", spec.get("purposes", "any"))),
                           bool(spec.get("reciprocal", False)), str(spec.get("rule", "")),
                           spec.get("feature", None if "terrain" in spec else sid), spec.get("terrain")))
    return out


@dataclass(frozen=True)
class LosStatic:
    """What the system says about LOS, indexed for the evaluator."""

    blocking_terrain: frozenset[str]
    crest_types: frozenset[str]
    bridge_types: frozenset[str]
    blocking_sides: frozenset[str]
    graphic_paths: frozenset[str]
    terrain_tags: dict[str, tuple[str, ...]]
    rules: dict[str, str]
    base: str                # the LOS rule itself (``los.rule``), cited for clear hexes
    cases: dict[str, str]    # LOS situation → cited case (``los.cases``; NO_CASE where left out)
    range_cases: dict[str, str]    # condition key → the cited case of its ``los.ranges`` row
    spotter_cases: dict[str, str]  # spotter id → its cited ``rule`` (NO_CASE where left out)


def los_static(system: GameSystem) -> LosStatic:
    hit = _STATIC.get(id(system))
    if hit is not None and hit[0] is system:
        return hit[1]
    def cite(rule: str | None) -> str:
        return system.cite(rule) if rule else ""

    rules = {t.id: cite(t.rule) for t in system.terrain}
    rules.update({t.id: cite(t.rule) for t in system.hexsides})
    rules.update({t.id: cite(t.rule) for t in system.paths})
    declared = system.los.cases
    st = LosStatic(
        frozenset(t.id for t in system.terrain if t.los == "blocks"),
        frozenset(t.id for t in system.hexsides if t.los in ("crest", "ridge")),
        frozenset(t.id for t in system.hexsides if t.los == "bridge"),
        frozenset(t.id for t in system.hexsides if t.los == "blocks"),
        frozenset(t.id for t in system.paths if t.los == "graphic_blocks"),
        {t.id: tuple(t.tags) for t in system.terrain},
        rules,
        system.cited(system.los.rule),
        {name: system.cited(getattr(declared, name)) for name in LosCases.model_fields},
        {cond: _row_case(system, cond) for cond in LOS_CONDITIONS},
        {sp.id: system.cited(sp.rule) for sp in spotters_of(system)},
    )
    if len(_STATIC) > 16:
        _STATIC.clear()
    _STATIC[id(system)] = (system, st)
    return st


_STATIC: dict[int, tuple[GameSystem, LosStatic]] = {}


def _row_case(system: GameSystem, cond: str) -> str:
    """The case of the ``los.ranges`` row read for ``cond`` (``los.range_rules``)."""
    _, key = _range_row(system.los.ranges, cond)
    return system.cited(system.los.range_rules.get(key)) if key is not None else NO_CASE


# --- geometry of one line --------------------------------------------------------------------

@dataclass
class VertexPass:
    t: float
    key: VertexKey
    left: list[HexsideKey]       # sides meeting here on one side of the line
    right: list[HexsideKey]      # ... and on the other (collinear sides are along-sides)
    touched: list[Hex]           # hexes met only at this point


@dataclass
class LosGeometry:
    """What the segment centre→centre meets, in order along it (t in 0..1)."""

    firer: Hex
    target: Hex
    hexes: list[tuple[float, Hex]] = field(default_factory=list)
    along: list[tuple[float, HexsideKey]] = field(default_factory=list)
    crossed: list[tuple[float, HexsideKey]] = field(default_factory=list)
    vertices: list[VertexPass] = field(default_factory=list)
    graphic_hits: set[Hex] = field(default_factory=set)

    def signature(self) -> tuple[Any, ...]:
        """Order-free content, for comparing implementations."""
        return (sorted(h for _, h in self.hexes), sorted(k for _, k in self.along),
                sorted(k for _, k in self.crossed),
                sorted((v.key, tuple(sorted(v.left)), tuple(sorted(v.right)), tuple(sorted(v.touched)))
                       for v in self.vertices),
                sorted(self.graphic_hits))


def _cross(ax: float, ay: float, bx: float, by: float) -> float:
    return ax * by - ay * bx


def trace_reference(hmap: HexMap, firer: Hex, target: Hex, shapes: MapShapes | None = None) -> LosGeometry:
    """Plain shapely tracing: relate the segment with every hex and side near the line."""
    o = hmap.grid.orientation
    shapes = shapes or shapes_for(hmap)
    fx, fy = los_center(firer, o)
    tx, ty = los_center(target, o)
    seg = LineString([(fx, fy), (tx, ty)])
    length = seg.length
    geo = LosGeometry(firer, target)
    if firer == target:
        return geo
    dx, dy = tx - fx, ty - fy
    cands: set[Hex] = set()
    for h in firer.line_to(target):
        cands.add(h)
        cands.update(h.neighbors())
    inter = []
    for h in cands - {firer, target}:
        poly = shapes.polygon(h)
        if seg.relate_pattern(poly, "T********"):
            chord = seg.intersection(poly)
            inter.append((seg.project(chord.centroid) / length, h))
    geo.hexes = sorted(inter)
    crossed_set = {h for _, h in inter} | {firer, target}
    sides: set[HexsideKey] = {k for h in cands for k in hex_sides(h)}
    along_pairs: set[Hex] = set()
    for key in sides:
        line = shapes.side(key)
        dim = seg.relate(line)[0]
        if dim == "1":
            geo.along.append((seg.project(line.centroid) / length, key))
            along_pairs.update(key.hexes())
        elif dim == "0":
            geo.crossed.append((seg.project(seg.intersection(line)) / length, key))
    geo.along.sort()
    geo.crossed.sort()
    seen: set[VertexKey] = set()
    for h in crossed_set | along_pairs:
        for i, (vx, vy) in enumerate(los_corners(h, o)):
            pt = Point(vx, vy)
            if not seg.contains(pt):
                continue
            vk = vertex_key(h, i, o)
            if vk in seen:
                continue
            seen.add(vk)
            left, right = [], []
            for sk in vertex_sides(vk):
                (ax, ay), (bx, by) = shapes.side(sk).coords
                wx, wy = (bx, by) if (ax, ay) == (vx, vy) else (ax, ay)
                c = _cross(dx, dy, wx - vx, wy - vy)
                if c > 0:
                    left.append(sk)
                elif c < 0:
                    right.append(sk)
            touched = [x for x in vk if x not in crossed_set and x not in along_pairs]
            geo.vertices.append(VertexPass(seg.project(pt) / length, vk, left, right, touched))
    geo.vertices.sort(key=lambda v: v.t)
    if shapes.graphics:
        for kind, h in shapes.query(seg):
            if kind == "graphic" and h not in (firer, target) and shapes.graphics[h].intersects(seg):
                geo.graphic_hits.add(h)
    return geo


# --- result -----------------------------------------------------------------------------------

@dataclass
class Crossing:
    t: float
    where: str
    kind: str          # hex | hexside | along | vertex | range
    feature: str
    effect: str        # clear | blocks | counts | exempt | ignored
    rule: str

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["t"] = round(self.t, 6)
        return d


DecisionKind = Literal["range", "blocker", "crest", "spotter", "reciprocal", "clear", "disabled"]


@dataclass(frozen=True)
class Decision:
    """What decided an LOS verdict, and the rule case that says so. ``rule`` is always a case
    of the system file (or :data:`model.system.NO_CASE` where the file gives none):

    * ``range``: the target is beyond the range for the condition (its ``los.range_rules``
      row, or the spotter's ``rule`` when the spotter has its own range);
    * ``blocker``: a blocking hex or hexside met within range (its case);
    * ``crest``: blocked by a crest/ridge crossing or run — a second crossing beside the firer
      or target cites ``los.cases.one_crest_crossing`` (with the exempt one's case in
      ``also``); on a visible line, the exemption of the crossing beside the firer or target;
    * ``spotter``: seen only thanks to a spotter's budget or range, or blocked because the line
      needs more than its budget (the spotter's ``rule``);
    * ``reciprocal``: seen because the target's spotter sees the firer;
    * ``clear``: nothing blocks and the target is in range (``los.rule``);
    * ``disabled``: the system has no LOS rules.
    """

    kind: DecisionKind
    rule: str
    detail: str
    where: str | None = None
    also: tuple[str, ...] = ()      # other cases the verdict leans on (the exempt crest, a blocker)
    policy: str | None = None      # the named policy applied, where the rules are silent

    def text(self) -> str:
        """One line: what decided, then its case (and policy)."""
        pol = f" (policy {self.policy})" if self.policy else ""
        return f"{self.detail} [{self.rule}]{pol}"


@dataclass
class LosResult:
    visible: bool
    firer: str
    target: str
    enabled: bool = True
    distance: int = 0
    range_limit: int | None = None
    condition: str = "day"
    purpose: str = "direct"
    observer: str | None = None
    budget: int = 0
    used: int = 0
    crossings: list[Crossing] = field(default_factory=list)
    first_blocker: Crossing | None = None
    policies: list[str] = field(default_factory=list)
    reason: str = ""                 # ``decided_by.text()``
    decided_by: Decision | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["crossings"] = [c.to_dict() for c in self.crossings]
        d["first_blocker"] = self.first_blocker.to_dict() if self.first_blocker else None
        if self.decided_by is not None:
            d["decided_by"]["also"] = list(self.decided_by.also)
        return d

    def explain(self) -> str:
        if not self.enabled:
            return f"LOS {self.firer} → {self.target}: not used by this game ({self.reason})"
        head = (f"LOS {self.firer} → {self.target}: {'VISIBLE' if self.visible else 'BLOCKED'} — {self.reason}\n"
                f"  distance {self.distance} (range {self.range_limit if self.range_limit is not None else 'unlimited'}, "
                f"{self.condition}), purpose {self.purpose}, observer {self.observer or 'ordinary unit'}, "
                f"blocking budget {self.used}/{self.budget}")
        lines = [head]
        dec = self.decided_by
        if dec is not None:
            also = f"; also {', '.join(dec.also)}" if dec.also else ""
            lines.append(f"  decided by {dec.kind} [{dec.rule}]{also}")
        for c in self.crossings:
            mark = "  *" if c is self.first_blocker else "   "
            lines.append(f"{mark} {c.kind:8} {c.where:22} {c.feature:28} {c.effect:8} [{c.rule}]")
        lines.append("  policies: " + ", ".join(self.policies))
        return "\n".join(lines)


_LABELS: dict[int, tuple[tuple[Any, ...], HexMap, dict[Hex, str]]] = {}


def labeller(hmap: HexMap) -> Any:
    """A memoised ``hmap.label`` (labels are asked for again and again in traces)."""
    hit = _LABELS.get(id(hmap))
    if hit is None or hit[1] is not hmap or map_state_changed(hmap, hit[0]):
        if len(_LABELS) > 16:
            _LABELS.clear()
        hit = (_state_token(hmap), hmap, {})
        _LABELS[id(hmap)] = hit
    cache = hit[2]

    def label(h: Hex) -> str:
        v = cache.get(h)
        if v is None:
            v = cache[h] = hmap.label(h)
        return v
    return label


def side_label(hmap: HexMap, key: HexsideKey, terr: Any = None, label: Any = None) -> str:
    """``hex/DIR`` of a hexside, named from its hex on the map. ``terr`` and ``label``: the
    caller's :func:`terrain_view` and :func:`labeller` of ``hmap`` (:func:`evaluate` passes
    its own: making them per side checked the map's state token on every side)."""
    h, d = key.hex, key.direction
    terr = terrain_view(hmap) if terr is None else terr
    if h not in terr and h.neighbor(d) in terr:
        h, d = h.neighbor(d), d + 3
    return f"{(label or labeller(hmap))(h)}/{DIRECTION_NAMES[hmap.grid.orientation][d % 6]}"


# --- rules applied to geometry ------------------------------------------------------------------

def observer_for(hmap: HexMap, system: GameSystem, h: Hex, purpose: str) -> Spotter | None:
    tid = terrain_view(hmap).get(h) or ""
    return observer_at(system, tid, frozenset(f.type for f in hmap.features_by_hex.get(h, ())), purpose)


def observer_at(system: GameSystem, tid: str, feats: frozenset[str], purpose: str) -> Spotter | None:
    """The best observer (highest budget, first listed on ties) in a hex of terrain ``tid``
    holding features of types ``feats``."""
    st = los_static(system)
    best: Spotter | None = None
    for sp in spotters_of(system):
        if sp.purpose == "spot" and purpose != "spot":
            continue
        if sp.purpose == "direct" and purpose != "direct":
            continue
        here = (sp.feature is not None and sp.feature in feats) or \
               (sp.terrain is not None and (tid == sp.terrain or sp.terrain in st.terrain_tags.get(tid, ())))
        if here and (best is None or sp.budget > best.budget):
            best = sp
    return best


class SidesOf:
    """``key in SidesOf(a, b)``: is the canonical hexside ``key`` a side of hex ``a`` or ``b``?
    The same answer as ``key in set(hex_sides(a)) | set(hex_sides(b))`` (tests/model/
    test_los.py), without making the twelve keys on every query (a side's two hexes are its key
    hex and the neighbour across its direction)."""

    __slots__ = ("a", "b")

    def __init__(self, a: Hex, b: Hex) -> None:
        self.a, self.b = a, b

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        h, d = key
        if d not in (0, 1, 2):  # canonical keys only, as hex_sides makes them
            return False
        if h == self.a or h == self.b:
            return True
        n = h.neighbor(d)
        return n == self.a or n == self.b


@dataclass
class _Met:
    """One thing the line meets, as the budget loop sees it: its crossing, its cost, and what
    it would decide (kind, case, policy), how far it lies (the largest distance from the firer
    of the hexes it belongs to) and the cases it leans on (``also``)."""

    t: float
    order: int
    crossing: Crossing
    cost: int
    kind: DecisionKind = "blocker"
    case: str = ""
    policy: str | None = None
    reach: int = 0
    also: tuple[str, ...] = ()


def evaluate(hmap: HexMap, system: GameSystem, geo: LosGeometry, *, conditions: Conditions = Conditions(),
             purpose: str = "direct", barrage: Iterable[Hex] = (), observer: Spotter | None | bool = True,
             base_rule: str | None = None) -> LosResult:
    """Apply the system's LOS rules to traced geometry. Every crossing cites the case the
    system file gives for it: its terrain/hexside/path type's ``rule``, else the situation's
    ``los.cases`` entry, else no case (``base_rule`` overrides ``los.rule``). The verdict's
    :class:`Decision` (``decided_by``) names the case that decided it."""
    F, T = geo.firer, geo.target
    cond = conditions.key()
    res = LosResult(False, hmap.label(F), hmap.label(T), condition=cond, purpose=purpose)
    los = system.los
    if not los.enabled:
        res.enabled = False
        res.reason = los.disabled_reason or "this game system has no line-of-sight rules"
        res.decided_by = Decision("disabled", system.cited(los.rule), res.reason)
        return res
    st = los_static(system)
    case = st.cases
    if base_rule is None:
        base_rule = st.base
    terr = terrain_view(hmap)
    label = labeller(hmap)
    barr = set(barrage)
    sp = observer_for(hmap, system, F, purpose) if observer is True else (observer or None)
    res.distance = F.distance(T)
    res.policies.append("distance-grid")
    normal = _range_for(los.ranges, cond)
    rng = normal
    range_case = st.range_cases[cond]
    range_policy: str | None = None
    if sp is not None:
        res.observer = sp.id
        res.budget = sp.budget
        own = _range_for(sp.range, cond) if sp.range is not None else None
        if own is not None:
            rng = own
            range_case = st.spotter_cases.get(sp.id, NO_CASE)
        elif sp.range is not None:
            res.policies.append("spotter-range-fallback")
            range_policy = "spotter-range-fallback"
    res.range_limit = rng
    res.policies.append(f"vertex-{los.vertex_policy}")
    ends = SidesOf(F, T)

    def reach(*hexes: Hex) -> int:
        return max(F.distance(h) for h in hexes)

    def hex_blockers(h: Hex) -> list[tuple[str, str]]:
        out = []
        tid = terr.get(h) or ""
        if tid in st.blocking_terrain:
            out.append((tid, st.rules.get(tid) or case["blocking_hex"]))
        if h in barr:
            out.append(("barrage", case["barrage"]))
        if h in geo.graphic_hits:
            names = sorted({p.type for p in hmap.paths_by_hex.get(h, ()) if p.type in st.graphic_paths})
            out.append((" ".join(names) + " graphic", case["graphic"]))
        return out

    def crest_case(features: Iterable[str]) -> str:
        first = sorted(set(features) & st.crest_types)
        return (st.rules.get(first[0]) if first else "") or case["crest"]

    items: list[_Met] = []
    for t, h in geo.hexes:
        b = hex_blockers(h)
        if b:
            items.append(_Met(t, 0, Crossing(t, label(h), "hex", ", ".join(x for x, _ in b), "blocks", b[0][1]), 1,
                              "blocker", b[0][1], reach=reach(h)))
        else:
            items.append(_Met(t, 0, Crossing(t, label(h), "hex", terr.get(h) or "off map", "clear", base_rule), 0))
    crest_x: list[tuple[_Met, bool]] = []  # crossings of crest/ridge sides: (met, exempt if first)
    for t, key in geo.along:
        feats = hmap.hexside_features(key)
        lab = side_label(hmap, key, terr, label)
        p, q = key.hexes()
        for f in feats:
            if f in st.crest_types:
                items.append(_Met(t, 1, Crossing(t, lab, "along", f, "blocks", case["along_crest"]), 1,
                                  "crest", case["along_crest"], reach=reach(p, q)))
            elif f in st.bridge_types:
                why = st.rules.get(f) or case["bridge"]
                items.append(_Met(t, 1, Crossing(t, lab, "along", f, "blocks", why), 1, "blocker", why,
                                  reach=reach(p, q)))
            elif f in st.blocking_sides:
                why = st.rules.get(f) or base_rule
                items.append(_Met(t, 1, Crossing(t, lab, "along", f, "blocks", why), 1, "blocker", why,
                                  reach=reach(p, q)))
        bp, bq = hex_blockers(p), hex_blockers(q)
        if bp and bq:
            if los.hexside_both_blocking == "blocked":
                items.append(_Met(t, 1, Crossing(t, lab, "along", f"between {label(p)} and {label(q)}, both blocking",
                                                 "blocks", f"{case['along_hexside']} (INFERRED)"), 1,
                                  "blocker", case["along_hexside"], "along-hexside-both-blocked", reach(p, q)))
            else:
                items.append(_Met(t, 1, Crossing(t, lab, "along", "both sides blocking", "clear",
                                                 f"{case['along_hexside']} (policy open)"), 0))
        else:
            why = "one side blocking" if (bp or bq) else "open"
            items.append(_Met(t, 1, Crossing(t, lab, "along", why, "clear", case["along_hexside"]), 0))
    res.policies.append(f"along-hexside-both-{los.hexside_both_blocking}")
    for t, key in geo.crossed:
        feats = hmap.hexside_features(key)
        lab = side_label(hmap, key, terr, label)
        for f in feats:
            if f in st.crest_types:
                why = st.rules.get(f) or case["crest"]
                crest_x.append((_Met(t, 2, Crossing(t, lab, "hexside", f, "", why), 1, "crest", why,
                                     reach=reach(*key.hexes())), key in ends))
            elif f in st.bridge_types:
                if key in ends:
                    items.append(_Met(t, 2, Crossing(t, lab, "hexside", f, "ignored", case["bridge_end"]), 0))
                else:
                    why = st.rules.get(f) or case["bridge"]
                    items.append(_Met(t, 2, Crossing(t, lab, "hexside", f, "blocks", why), 1, "blocker", why,
                                      reach=reach(*key.hexes())))
            elif f in st.blocking_sides:
                why = st.rules.get(f) or base_rule
                items.append(_Met(t, 2, Crossing(t, lab, "hexside", f, "blocks", why), 1, "blocker", why,
                                  reach=reach(*key.hexes())))
    for v in geo.vertices:
        vlab = "vertex " + "/".join(label(x) for x in v.key)
        lc = [k for k in v.left if set(hmap.hexside_features(k)) & st.crest_types]
        rc = [k for k in v.right if set(hmap.hexside_features(k)) & st.crest_types]
        if los.vertex_policy == "strict":
            for k in lc + rc:
                kinds = set(hmap.hexside_features(k)) & st.crest_types
                f = ",".join(sorted(kinds))
                klab = side_label(hmap, k, terr, label)
                crest_x.append((_Met(v.t, 2, Crossing(v.t, klab, "vertex", f, "", "policy vertex-strict"),
                                     1, "crest", crest_case(kinds), "vertex-strict", reach(*k.hexes())), k in ends))
            for h in v.touched:
                b = hex_blockers(h)
                if b:
                    items.append(_Met(v.t, 3, Crossing(v.t, label(h), "vertex", ", ".join(x for x, _ in b), "blocks",
                                                       "policy vertex-strict"), 1,
                                      "blocker", b[0][1], "vertex-strict", reach(h)))
        else:
            if lc and rc:
                kinds = {x for k in lc + rc for x in hmap.hexside_features(k) if x in st.crest_types}
                crest_x.append((_Met(v.t, 2, Crossing(v.t, vlab, "vertex", ",".join(sorted(kinds)), "",
                                                      "policy vertex-default"), 1,
                                     "crest", crest_case(kinds), "vertex-default", reach(*v.key)),
                                any(k in ends for k in lc + rc)))
            elif lc or rc:
                items.append(_Met(v.t, 3, Crossing(v.t, vlab, "vertex", "crest/ridge end touched", "clear",
                                                   "policy vertex-default"), 0))
    if crest_x:
        res.policies.append("crest-one-crossing" if los.crest_rule == "one_crossing" else "crest-series")
    exempt: _Met | None = None
    for met, beside_end in crest_x:
        c = met.crossing
        if beside_end and (los.crest_rule == "series" or exempt is None):
            exempt = exempt or met
            c.effect = "exempt"
            met.cost = 0
        else:
            c.effect = "blocks"
            if beside_end and los.crest_rule == "one_crossing":
                # Exempt by itself [the crest's case]; blocked only because another crossing
                # already took the one exemption: the one-crossing case decides.
                c.rule += f" (only one crest/ridge may be crossed, {case['one_crest_crossing']})"
                met.also = (exempt.case,) if exempt is not None else ()
                met.case = case["one_crest_crossing"]
        items.append(met)
    if los.crest_rule == "one_crossing" and len(crest_x) > 1:
        # A crossing that blocks after another crest/ridge was crossed also breaks "no more
        # than one ... may be crossed" [the one-crossing case]: that case decides (policy
        # second-crest-errata), the crossing's own case is leaned on.
        first = min(crest_x, key=lambda x: x[0].t)[0]
        for met, _ in crest_x:
            if met is not first and met.cost and met.case != case["one_crest_crossing"]:
                met.also = (met.case,)
                met.case = case["one_crest_crossing"]
                met.policy = ", ".join(p for p in (met.policy, "second-crest-errata") if p)
    items.sort(key=lambda x: (round(x.t, 9), x.order, x.crossing.where))
    used = 0
    decisive: _Met | None = None
    for met in items:
        c = met.crossing
        if met.cost:
            used += met.cost
            if used > res.budget:
                c.effect = "blocks"
                if decisive is None:
                    decisive = met
                    res.first_blocker = c
            else:
                c.effect = "counts"
        res.crossings.append(c)
    res.used = used
    in_range = rng is None or res.distance <= rng
    if rng is None:
        res.policies.append("range-unknown")
    res.visible = used <= res.budget and in_range
    spotter_case = st.spotter_cases.get(sp.id, NO_CASE) if sp is not None else NO_CASE
    out_of_range = f"out of range: {res.distance} > {rng} ({cond})"
    dec: Decision
    if not in_range and (decisive is None or decisive.reach > (rng or 0)):
        if decisive is not None:
            res.policies.append("blocker-within-range")
            out_of_range += f"; {decisive.crossing.feature} at {decisive.crossing.where} lies beyond the range"
        dec = Decision("range", range_case, out_of_range, policy=range_policy)
    elif decisive is not None:
        c = decisive.crossing
        also = decisive.also + ((range_case,) if not in_range else ())
        if not in_range:
            res.policies.append("blocker-within-range")
        blocked = f"blocked at {c.where} by {c.feature}" + (f" (also {out_of_range})" if not in_range else "")
        if sp is not None and res.budget > 0:
            dec = Decision("spotter", spotter_case,
                           f"{blocked}: {sp.id} sees through at most {res.budget} blocking hex(es)/hexside(s)",
                           c.where, (decisive.case,) + also, decisive.policy)
        else:
            dec = Decision(decisive.kind, decisive.case, blocked, c.where, also, decisive.policy)
    elif sp is not None and (used > 0 or (normal is not None and res.distance > normal)):
        thanks = []
        if used:
            thanks.append(f"sees through {used} blocking hex(es)/hexside(s)")
        if normal is not None and res.distance > normal:
            thanks.append(f"sees {res.distance} hexes, beyond the normal range {normal}")
        dec = Decision("spotter", spotter_case, f"{' and '.join(thanks)} as {sp.id}")
    elif exempt is not None:
        c = exempt.crossing
        dec = Decision("crest", exempt.case, f"clear; the {c.feature} at {c.where} is a side of the firer's or "
                                             f"target's hex, exempt", c.where, policy=exempt.policy)
    else:
        dec = Decision("clear", base_rule, "clear")
    for name in (dec.policy or "").split(", "):
        if name and name not in res.policies:
            res.policies.append(name)
    res.decided_by = dec
    res.reason = dec.text()
    return res


def _with_reciprocal(hmap: HexMap, system: GameSystem, geo: LosGeometry, res: LosResult, *,
                     conditions: Conditions, purpose: str, barrage: Iterable[Hex]) -> LosResult:
    """Hill visibility is reciprocal [Utah Excl 2.1.10]: if the target's hex has a reciprocal
    spotter that sees the firer, the firer sees it back."""
    if res.visible or not res.enabled:
        return res
    back = observer_for(hmap, system, geo.target, purpose)
    if back is None or not back.reciprocal:
        return res
    rev = evaluate(hmap, system, geo, conditions=conditions, purpose=purpose, barrage=barrage, observer=back)
    if rev.visible:
        rev.observer = f"{back.id} (reciprocal, seen from {res.target})"
        rule = system.cite(back.rule) if back.rule else los_static(system).cases["reciprocal"]
        seen_by = rev.decided_by
        also = (seen_by.rule,) if seen_by is not None and seen_by.rule != rule else ()
        rev.decided_by = Decision("reciprocal", rule, f"visible because {res.target} ({back.id}) sees {res.firer}",
                                  also=also)
        rev.reason = rev.decided_by.text()
        rev.policies.append("reciprocal")
        return rev
    return res


def line_of_sight(hmap: HexMap, system: GameSystem, firer: Hex, target: Hex, *, night: bool = False,
                  storm: bool = False, fog: bool = False, purpose: str = "direct", barrage: Iterable[Hex] = (),
                  ) -> LosResult:
    """Reference LOS from ``firer`` to ``target`` with the full explanation."""
    barr = frozenset(barrage)
    cond = Conditions(night, storm, fog)
    if not system.los.enabled:
        return evaluate(hmap, system, LosGeometry(firer, target), conditions=cond, purpose=purpose)
    st = los_static(system)
    geo = trace_reference(hmap, firer, target, shapes_for(hmap, set(st.graphic_paths)))
    res = evaluate(hmap, system, geo, conditions=cond, purpose=purpose, barrage=barr)
    return _with_reciprocal(hmap, system, geo, res, conditions=cond, purpose=purpose, barrage=barr)


__all__ = ["Conditions", "Crossing", "Decision", "LosGeometry", "LosResult", "Spotter", "VertexPass", "evaluate",
           "line_of_sight", "los_static", "observer_for", "side_label", "spotters_of", "trace_reference", "lru_cache"]
