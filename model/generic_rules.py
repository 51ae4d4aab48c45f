"""Typed schemas of the generic rule sections of a system file (issue 16, "generic rules as data").

What many hex-and-counter games share is declared in ``resources/systems/<id>.yaml`` and
played by the shared procedures of ``play/generic/`` with no Python per game. The sections:

=====================  ==================================  ===================================
section                schema here                         played by
=====================  ==================================  ===================================
``stacking.by_type``   :class:`TypeLimit`                  ``play/generic/stacking.py``
``zoc``                :class:`ZocRules`                   ``play/generic/zoc.py``
``combat.crt``         :class:`CrtTable`                   ``play/generic/crt.py``, ``attack.py``
``combat.terrain_``    :class:`TerrainEffects` (values in  ``play/generic/terrain_combat.py``
``effects``            terrain / hexside ``fire`` maps)
``sequence_of_play``   :class:`SequenceOfPlay`             ``play/sequence.py``
=====================  ==================================  ===================================

docs/new-system.md walks a designer through each with examples; every module of
``play/generic/`` documents its section's data in its docstring.

Bad input never raises out of a load: a wrong type or value is a pydantic error located at its
key, and the cross-references that need the whole system (a category, hexside or side id that
does not exist) are checked by :func:`reference_errors`, which :class:`model.system.GameSystem`
turns into located errors (``file:line:col message``) through :func:`located`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from model.base import Node

if TYPE_CHECKING:
    from model.system import GameSystem

DICE = re.compile(r"^(\d{1,2})d(\d{1,3})$")
ODDS = re.compile(r"^(\d{1,4}):(\d{1,4})$")
DIFFERENTIAL = re.compile(r"^[+-]?\d{1,4}$")
MAX_DICE_TOTAL = 1000


class _Cited(Node):
    rule: str | None = None
    illustrative: bool = False
    note: str | None = None


def parse_dice(spec: str) -> tuple[int, int]:
    """``"2d6"`` → ``(2, 6)``; ValueError for anything else (1-20 dice of 2-100 faces)."""
    m = DICE.match(spec.strip().lower())
    if m is None:
        raise ValueError(f"dice {spec!r}: write NdS, e.g. 1d6 or 2d6")
    n, s = int(m.group(1)), int(m.group(2))
    if not (1 <= n <= 20 and 2 <= s <= 100):
        raise ValueError(f"dice {spec!r}: 1 to 20 dice of 2 to 100 faces")
    return n, s


def column_value(kind: str, label: str) -> Fraction:
    """The number a CRT column stands for: ``"3:2"`` → 3/2 (odds), ``"+2"`` → 2 (differential)."""
    text = str(label).strip()
    if kind == "odds":
        m = ODDS.match(text)
        if m is None or int(m.group(1)) == 0 or int(m.group(2)) == 0:
            raise ValueError(f"odds column {label!r}: write attacker:defender, e.g. 1:2 or 3:1")
        return Fraction(int(m.group(1)), int(m.group(2)))
    if not DIFFERENTIAL.match(text):
        raise ValueError(f"differential column {label!r}: write a whole number, e.g. -2, 0 or +3")
    return Fraction(int(text))


# --- stacking -------------------------------------------------------------------------------


class TypeLimit(_Cited):
    """At most ``max`` units (or steps) of the listed categories / category tags in one hex."""

    categories: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    max: int = Field(..., ge=0, le=1000)
    count: Literal["units", "steps"] = "units"

    @model_validator(mode="after")
    def _selects(self) -> "TypeLimit":
        if not self.categories and not self.tags:
            raise ValueError("a by_type limit names the unit categories or category tags it counts")
        return self

    def selects(self, category: str | None, category_tags: list[str] | set[str]) -> bool:
        """Whether a unit of this category (with these category tags) counts against the limit."""
        return category in self.categories or bool(set(category_tags) & set(self.tags))

    @property
    def what(self) -> str:
        """The selection as written, for messages: ``armor`` or ``armor, artillery``."""
        return ", ".join(self.categories + self.tags)


# --- zones of control -----------------------------------------------------------------------


class ZocExerters(Node):
    """Which units exert a ZOC: categories or category tags (empty: every unit)."""

    categories: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)


class ZocRules(_Cited):
    kind: Literal["stop", "cost", "none"]
    enter_cost: float = Field(default=0.0, ge=0, le=100, description="extra MP to enter an enemy ZOC hex")
    leave_cost: float = Field(default=0.0, ge=0, le=100, description="extra MP to leave an enemy ZOC hex")
    zoc_to_zoc: bool = Field(default=True, description="kind stop: may a unit that starts in an enemy ZOC step "
                                               "straight into another enemy ZOC hex")
    exerted_by: ZocExerters = Field(default_factory=ZocExerters)
    negated_by_hexsides: list[str] = Field(default_factory=list, description="hexside ids or tags")
    not_into_terrain: list[str] = Field(default_factory=list, description="terrain ids or tags")
    retreat: Literal["prohibited", "allowed"] = Field(
        default="prohibited", description="may a unit retreat after combat into an enemy ZOC")

    @model_validator(mode="after")
    def _costs(self) -> "ZocRules":
        if self.kind == "cost" and not (self.enter_cost or self.leave_cost):
            raise ValueError("kind cost needs enter_cost or leave_cost (extra MP)")
        if self.kind == "none" and (self.enter_cost or self.leave_cost):
            raise ValueError("kind none has no enter_cost or leave_cost")
        return self


# --- combat results table -------------------------------------------------------------------


class SideEffect(Node):
    """What one result does to one side's units in the combat."""

    eliminated: bool = False
    steps: int = Field(default=0, ge=0, le=100, description="steps the side loses")
    retreat: int = Field(default=0, ge=0, le=10, description="hexes every surviving unit of the side retreats")

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if value == "eliminated":
            return {"eliminated": True}
        return value


class CrtResult(_Cited):
    """One result code of the CRT (``DR``, ``AE``, ``EX`` …) and its effects."""

    name: str | None = None
    attacker: SideEffect = Field(default_factory=SideEffect)
    defender: SideEffect = Field(default_factory=SideEffect)
    exchange: bool = Field(default=False, description="the defender is eliminated; the attacker loses at least as "
                                              "much attack strength as the defender's defence strength")


class ColumnShift(_Cited):
    """A column shift (odds and differential CRTs) when a condition holds; + favours the attacker."""

    shift: int = Field(..., ge=-20, le=20)
    attacker_marker: str | None = None
    defender_marker: str | None = None
    attackers_tag: str | None = Field(default=None, description="every attacking unit has this category tag")
    defenders_tag: str | None = Field(default=None, description="some defending unit has this category tag")

    @model_validator(mode="after")
    def _one_condition(self) -> "ColumnShift":
        conds = [c for c in (self.attacker_marker, self.defender_marker, self.attackers_tag, self.defenders_tag)
                 if c is not None]
        if len(conds) != 1:
            raise ValueError("a shift has exactly one condition: attacker_marker, defender_marker, "
                             "attackers_tag or defenders_tag")
        return self


class ValueField(_Cited):
    """Kind ``fire``: the counter value a unit fires with at a target with these tags."""

    target_tags: list[str] = Field(default_factory=list)
    field: str


class CrtTable(_Cited):
    kind: Literal["odds", "differential", "fire"]
    dice: str = "1d6"
    # odds / differential
    attack_field: str = "attack"
    defense_field: str = "defense"
    columns: list[str] = Field(default_factory=list)
    rows: dict[int, list[str]] = Field(default_factory=dict, description="die total → result per column")
    results: dict[str, CrtResult] = Field(default_factory=dict)
    below: str = Field(default="refused", description="odds below the first column: 'refused' or a result code")
    shifts: list[ColumnShift] = Field(default_factory=list)
    # fire
    hit: Literal["at_or_below", "at_or_above"] = "at_or_below"
    no_hit_at_or_below: float | None = None
    value_fields: list[ValueField] = Field(default_factory=list)

    @field_validator("dice")
    @classmethod
    def _dice(cls, value: str) -> str:
        parse_dice(value)
        return value

    @model_validator(mode="after")
    def _table(self) -> "CrtTable":
        errors: list[tuple[tuple[str | int, ...], str]] = []
        if self.kind == "fire":
            if not self.value_fields:
                errors.append((("value_fields",), "kind fire needs value_fields (which counter value fires)"))
            elif all(v.target_tags for v in self.value_fields):
                errors.append((("value_fields",), "one value_fields entry needs no target_tags (the default)"))
            for key in ("columns", "rows", "results", "shifts"):
                if getattr(self, key):
                    errors.append(((key,), f"kind fire has no {key} (a shot hits or misses)"))
            located(errors)
            return self
        if not self.columns:
            errors.append((("columns",), f"kind {self.kind} needs columns"))
        values: list[Fraction] = []
        for i, c in enumerate(self.columns):
            try:
                values.append(column_value(self.kind, c))
            except ValueError as exc:
                errors.append((("columns", i), str(exc)))
        if len(values) == len(self.columns) and any(b <= a for a, b in zip(values, values[1:])):
            errors.append((("columns",), "columns must go from the lowest to the highest, each once"))
        if not self.rows:
            errors.append((("rows",), f"kind {self.kind} needs rows (die total → one result per column)"))
        for total, row in self.rows.items():
            if len(row) != len(self.columns):
                errors.append((("rows", total), f"row {total} has {len(row)} results for {len(self.columns)} columns"))
            for j, code in enumerate(row):
                if code not in self.results:
                    errors.append((("rows", total, j), f"result {code!r} is not in results"))
        n, s = parse_dice(self.dice)
        missing = [t for t in range(n, n * s + 1) if t not in self.rows] if n * s <= MAX_DICE_TOTAL else []
        if self.rows and missing:
            errors.append((("rows",), f"no row for die total(s) {', '.join(map(str, missing))} of {self.dice}"))
        if self.below != "refused" and self.below not in self.results:
            errors.append((("below",), f"below is 'refused' or a result code; {self.below!r} is not in results"))
        if self.value_fields:
            errors.append((("value_fields",), "value_fields are for kind fire"))
        located(errors)
        return self

    @property
    def column_values(self) -> list[Fraction]:
        return [column_value(self.kind, c) for c in self.columns]

    @property
    def dice_count_sides(self) -> tuple[int, int]:
        return parse_dice(self.dice)


# --- terrain effects on combat --------------------------------------------------------------


class EffectKey(Node):
    """Which key of a terrain's or hexside's ``fire`` map applies: the first entry whose ``tags``
    the firing unit has (kind fire), or every attacking unit has (odds, differential)."""

    tags: list[str] = Field(default_factory=list)
    key: str


class TerrainEffects(_Cited):
    effect: Literal["shift", "modifier"]
    applies_to: Literal["attack", "defense", "both"] = "attack"
    keys: list[EffectKey] = Field(default_factory=lambda: [EffectKey(key="all")])
    hexsides_when: Literal["all", "any"] = "all"
    hexside_exempt_tags: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _default_key(self) -> "TerrainEffects":
        if not self.keys or self.keys[-1].tags:
            raise ValueError("the last keys entry has no tags: it is the key for every other unit")
        return self


class CombatRules(_Cited):
    crt: CrtTable | None = None
    terrain_effects: TerrainEffects | None = None
    once_per_phase: bool = Field(default=True, description="each unit attacks, and each hex is attacked, at most "
                                                   "once per phase (odds and differential CRTs)")


# --- sequence of play -----------------------------------------------------------------------

PhaseKind = Literal["reinforcement", "movement", "combat", "end", "other"]
# What a phase allows when its data gives no ``allows:``: moves in a movement phase, attacks in
# a combat phase, nothing gated in the others (arrivals and the turn's end are the engine's).
DEFAULT_ALLOWS: dict[str, tuple[str, ...]] = {"movement": ("move",), "combat": ("attack",)}
ACTION_KIND = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
ITEM_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class StepDef(_Cited):
    """A sub-step the rules print inside a phase (SFN A.1-A.5, TKG segments), cited by case.
    ``kind`` says when the engine itself plays it (the arrivals of a reinforcement step, the
    moves of a movement step …); any other step is played only by a procedure that declares it
    (:attr:`play.procedure.Procedure.plays`)."""

    id: str
    name: str
    kind: PhaseKind | None = None

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not ITEM_ID.match(value):
            raise ValueError(f"step id {value!r}: letters, digits, '_', '.' or '-', at most 40")
        return value


class PhaseDef(_Cited):
    id: str | None = None
    name: str | None = None
    side: str | None = Field(default=None, description="first | second | each | both | a side id")
    kind: PhaseKind | None = None
    allows: list[str] | None = Field(default=None, description="the action kinds the phase permits (move, "
                                                               "attack, fire …); default from kind")
    steps: list[StepDef] = Field(default_factory=list, max_length=100)

    @model_validator(mode="before")
    @classmethod
    def _name_only(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _named(self) -> "PhaseDef":
        if not self.id and not self.name:
            raise ValueError("a phase needs an id or a name")
        errors: list[tuple[tuple[str | int, ...], str]] = []
        for i, a in enumerate(self.allows or []):
            if not ACTION_KIND.match(a):
                errors.append((("allows", i), f"{a!r} is not an action kind (move, attack, fire …)"))
        seen: set[str] = set()
        for i, st in enumerate(self.steps):
            if st.id in seen:
                errors.append((("steps", i, "id"), f"step id {st.id!r} twice in this phase"))
            seen.add(st.id)
        located(errors)
        return self

    @property
    def phase_id(self) -> str:
        """The id as given, else from the name (``"Command & Action"`` → ``command_&_action``)."""
        return self.id or str(self.name).lower().replace(" ", "_")

    @property
    def allowed(self) -> tuple[str, ...]:
        """``allows`` when given, else what the kind allows (:data:`DEFAULT_ALLOWS`)."""
        if self.allows is not None:
            return tuple(self.allows)
        return DEFAULT_ALLOWS.get(self.kind or "", ())


class SequenceOfPlay(_Cited):
    player_turns: list[str] = Field(default_factory=list, description="first | second | a side id; the phases "
                                                                      "are played once per player turn")
    phases: list[PhaseDef] = Field(..., min_length=1, max_length=200)

    @model_validator(mode="after")
    def _player_turn_sides(self) -> "SequenceOfPlay":
        errors: list[tuple[tuple[str | int, ...], str]] = []
        if self.player_turns:
            errors += [(("phases", i, "side"), "within player_turns a phase takes the player's side; leave side out")
                       for i, p in enumerate(self.phases) if p.side is not None]
        seen: dict[tuple[str, str | None], int] = {}
        for i, p in enumerate(self.phases):
            key = (p.phase_id, p.side)
            if key in seen:
                errors.append((("phases", i, "id"), f"phase {p.phase_id!r} of side {p.side or 'both'} is also phase "
                                                     f"{seen[key] + 1}: give each phase its own id"))
            seen.setdefault(key, i)
        located(errors)
        return self


# --- located errors and cross-references -----------------------------------------------------


def located(errors: list[tuple[tuple[str | int, ...], str]]) -> None:
    """Raise the errors as one pydantic ValidationError, each at its own key path (relative to
    the model being validated), so the loader reports ``file:line:col message`` for each."""
    if not errors:
        return
    details = [InitErrorDetails(type=PydanticCustomError("reference", msg.replace("{", "(").replace("}", ")")),
                                loc=loc, input=None) for loc, msg in errors]
    raise ValidationError.from_exception_data("system", details)


def _ids_or_tags(items: list[Any]) -> set[str]:
    out: set[str] = set()
    for x in items:
        out.add(x.id)
        out.update(getattr(x, "tags", []))
    return out


def reference_errors(system: "GameSystem") -> list[tuple[tuple[str | int, ...], str]]:
    """Ids in the generic sections that name nothing in the system, and sections declared twice
    (the typed section and its older ``params`` spelling), as (key path, message)."""
    errors: list[tuple[tuple[str | int, ...], str]] = []
    cats = {c.id for c in system.unit_categories}
    sides = {s.id for s in system.sides}
    for i, lim in enumerate(system.stacking.by_type):
        for j, c in enumerate(lim.categories):
            if c not in cats:
                errors.append((("stacking", "by_type", i, "categories", j), f"no unit category {c!r}"))
    z = system.zoc
    if z is not None:
        hexsides, terrain = _ids_or_tags(system.hexsides), _ids_or_tags(system.terrain)
        for j, h in enumerate(z.negated_by_hexsides):
            if h not in hexsides:
                errors.append((("zoc", "negated_by_hexsides", j), f"no hexside id or tag {h!r}"))
        for j, t in enumerate(z.not_into_terrain):
            if t not in terrain:
                errors.append((("zoc", "not_into_terrain", j), f"no terrain id or tag {t!r}"))
        for j, c in enumerate(z.exerted_by.categories):
            if c not in cats:
                errors.append((("zoc", "exerted_by", "categories", j), f"no unit category {c!r}"))
    crt = system.combat.crt if system.combat is not None else None
    fields = {f.id for f in system.counter_fields}
    if crt is not None and fields:
        used = [("attack_field", crt.attack_field), ("defense_field", crt.defense_field)] \
            if crt.kind != "fire" else [(("value_fields", i, "field"), v.field) for i, v in enumerate(crt.value_fields)]
        for key, f in used:
            if f not in fields:
                path = key if isinstance(key, tuple) else (key,)
                errors.append((("combat", "crt", *path), f"no counter field {f!r} in counter_fields"))
    seq = system.sequence_of_play
    if seq is not None:
        words = {"first", "second"}
        for i, p in enumerate(seq.player_turns):
            if p not in words | sides:
                errors.append((("sequence_of_play", "player_turns", i), f"{p!r} is first, second or a side id"))
        for i, ph in enumerate(seq.phases):
            if ph.side is not None and ph.side not in words | {"each", "both"} | sides:
                errors.append((("sequence_of_play", "phases", i, "side"),
                               f"{ph.side!r} is first, second, each, both or a side id"))
    legacy = {"zoc": system.zoc is not None, "sequence_of_play": seq is not None, "crt": crt is not None}
    for key, typed in legacy.items():
        if typed and key in system.params:
            where = "combat.crt" if key == "crt" else key
            errors.append((("params", key), f"declared twice: {where} and params.{key} (the older spelling); "
                                            f"keep {where}"))
    return errors
