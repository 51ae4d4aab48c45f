"""Game-system definitions: the data a new game or variant starts from.

A system file (``resources/systems/<id>.yaml``) holds terrain types, hexside types, path
types, point features, movement classes, unit categories, sides, nationalities, the turn
calendar, LOS ranges and policies, stacking parameters and rule-pack parameters. Every
value that comes from a rulebook carries its rule case beside it (``rule: "GTS 15.4"``);
a value the rules do not give is written ``unknown`` (never silently invented) or is
flagged ``illustrative: true`` with a note. How the cases are cited, and the cases shared
code cites for situations no type carries, are data too (``citations:``, ``los.cases``;
docs/system-file.md), so shared code names no game.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from model.base import Node
from model.calendar import TurnDef, build_turns
from model.generic_rules import CombatRules, SequenceOfPlay, TypeLimit, ZocRules, located, reference_errors
from model.shipped import RESOURCES

UNKNOWN = "unknown"
#: What shared code cites where the system file declares no rule case for a situation: the
#: engine says so rather than inventing one.
NO_CASE = "no case"
# A movement cost: MP as a number, or one of these words.
CostWord = Literal["prohibited", "road_only", "column_only", "unknown", "all"]
Cost = float | CostWord


class Cited(Node):
    """Anything that can cite its rule case and say whether it is illustrative."""

    rule: str | None = None
    illustrative: bool = False
    note: str | None = None


class TerrainType(Cited):
    id: str
    name: str
    char: str = Field(..., min_length=1, max_length=1, description="character used in map rows")
    color: str = Field(..., pattern=r"^#[0-9a-fA-F]{6}$")
    dot_color: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$",
                                  description="printed centre-dot colour when it differs from color (map-art proofing)")
    los: Literal["blocks", "clear", "unknown", "n/a"] = "clear"
    move: dict[str, Cost] = Field(default_factory=dict, description="cost per movement class")
    fire: dict[str, float | str] = Field(default_factory=dict)
    drop_modifier: int | None = None
    stacking_limit: int | None = None
    tags: list[str] = Field(default_factory=list)

    @field_validator("move", mode="before")
    @classmethod
    def _costs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: _cost(v) for k, v in value.items()}
        return value

    @property
    def has_center_dot(self) -> bool:
        """A hex of this terrain is playable: it has a printed centre dot and is not wholly
        Impassable (tagged ``impassable``/``no_center_dot``, or prohibited for every movement
        class) [GTS Excl 2.1.14, 4.4.3]."""
        if {"impassable", "no_center_dot"} & set(self.tags):
            return False
        return not (self.move and all(v == "prohibited" for v in self.move.values()))


def _cost(v: Any) -> Any:
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return v
    return v


class HexsideType(Cited):
    id: str
    name: str
    color: str = Field("#000000", pattern=r"^#[0-9a-fA-F]{6}$")
    width: float = 0.12
    style: Literal["line", "double", "dashed", "arrow", "ticks"] = "line"
    los: Literal["crest", "ridge", "blocks", "bridge", "clear", "unknown", "n/a"] = "clear"
    move: dict[str, Cost] = Field(default_factory=dict, description="extra cost per class, or a word")
    fire: dict[str, float | str] = Field(default_factory=dict,
                                         description="combat effect of attacking across it, per key "
                                                     "(combat.terrain_effects, play/generic/terrain_combat.py)")
    tags: list[str] = Field(default_factory=list)

    @field_validator("move", mode="before")
    @classmethod
    def _costs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: _cost(v) for k, v in value.items()}
        return value


class PathType(Cited):
    id: str
    name: str
    color: str = Field("#000000", pattern=r"^#[0-9a-fA-F]{6}$")
    width: float = 0.1
    dash: bool = False
    los: Literal["clear", "graphic_blocks", "unknown", "n/a"] = "clear"
    move: dict[str, Cost] = Field(default_factory=dict, description="cost per hex along the path")
    requires: Literal["none", "column", "road_use"] = "none"
    tags: list[str] = Field(default_factory=list)

    @field_validator("move", mode="before")
    @classmethod
    def _costs(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: _cost(v) for k, v in value.items()}
        return value


class FeatureType(Cited):
    id: str
    name: str
    symbol: Literal["triangle", "star", "hill", "circle", "square", "flag", "dot", "text", "vp"] = "dot"
    color: str = Field("#000000", pattern=r"^#[0-9a-fA-F]{6}$")
    tags: list[str] = Field(default_factory=list)


class MovementClass(Cited):
    id: str
    name: str


class UnitCategory(Cited):
    id: str
    name: str
    symbol: str = "box"
    required_fields: list[str] = Field(default_factory=list)
    counts_for_stacking: bool = True
    tags: list[str] = Field(default_factory=list)


class Side(Cited):
    id: str
    name: str
    color: str = Field("#808080", pattern=r"^#[0-9a-fA-F]{6}$")
    nationalities: list[str] = Field(default_factory=list)


class Nationality(Cited):
    id: str
    name: str
    side: str
    color: str = Field("#808080", pattern=r"^#[0-9a-fA-F]{6}$")
    text_color: str = Field("#000000", pattern=r"^#[0-9a-fA-F]{6}$")


class CounterField(Cited):
    """One value printed on a counter (e.g. attack, FR, MA) and its type."""

    id: str
    name: str
    type: Literal["int", "str", "rating"] = "int"


class Calendar(Cited):
    """Turn calendar. ``daily``: one turn a day from ``start``; ``slots``: several turns a
    day (GTS 0700…2100 + Night); ``explicit``: the listed turns."""

    kind: Literal["daily", "slots", "explicit"] = "daily"
    start: dt.date | None = None
    first: int = 1
    count: int | None = Field(None, ge=1, le=100000)
    label_format: str = "GT {n} ({date:%d %b %Y})"
    days: list[dt.date] = Field(default_factory=list)
    slots: list[str] = Field(default_factory=list)
    night_slots: list[str] = Field(default_factory=list)
    first_slot: str | None = None
    turns: list[TurnDef] = Field(default_factory=list)

    @cached_property
    def all_turns(self) -> list[TurnDef]:
        return build_turns(self)


class LosCases(Node):
    """The rule case the LOS explanation cites for each situation that no terrain, hexside or
    path type of the file cites itself. Written like any ``rule:`` of the file (a bare number
    gets the citation prefix). A situation left out is explained as citing no case
    (:data:`NO_CASE`). The clear-hex case is ``los.rule`` itself."""

    blocking_hex: str | None = Field(None, description="a hex of blocking terrain whose type cites no rule")
    barrage: str | None = Field(None, description="a barraged hex the line passes through")
    graphic: str | None = Field(None, description="the line crosses a path graphic that blocks (raised road)")
    along_hexside: str | None = Field(None, description="the line runs along a hexside: open, one side or both "
                                                        "sides blocking")
    along_crest: str | None = Field(None, description="the line runs along a crest or ridge hexside")
    crest: str | None = Field(None, description="the line crosses a crest/ridge whose type cites no rule")
    one_crest_crossing: str | None = Field(None, description="crest_rule one_crossing: a second crest/ridge "
                                                             "crossing blocks even beside the firer or target")
    bridge: str | None = Field(None, description="a bridge hexside met along or across, whose type cites no rule")
    bridge_end: str | None = Field(None, description="a bridge on a side of the firer's or target's hex is ignored")
    reciprocal: str | None = Field(None, description="reciprocal sighting, for a spotter that cites no rule")


#: Former spellings of ``los.crest_rule`` values. Schema-1 system files written before the
#: values were named for what they do still load; the file is not rewritten.
CREST_RULE_ALIASES: dict[str, str] = {"utah_errata": "one_crossing"}


#: The condition words ``los.ranges`` and ``los.range_rules`` are keyed by, per condition the
#: evaluator asks for (``model.los.Conditions.key``): the first spelling the file uses wins.
LOS_CONDITIONS: dict[str, tuple[str, ...]] = {
    "day": ("day", "clear", "daylight", "clear_day"), "fog_rain": ("fog_rain", "fog", "rain"),
    "night_storm": ("night_storm", "night+storm", "storm_night"), "night": ("night", "clear_night"),
    "storm": ("storm",)}


class LosRules(Cited):
    enabled: bool = False
    ranges: dict[str, int] = Field(default_factory=dict, description="max range by condition")
    range_rules: dict[str, str] = Field(
        default_factory=dict, description="the rule case of each ranges row (same keys); an out-of-range verdict "
                                          "cites it")
    vertex_policy: Literal["default", "strict"] = "default"
    hexside_both_blocking: Literal["blocked", "open"] = "blocked"
    crest_rule: Literal["one_crossing", "series"] = Field(
        "one_crossing", description="one_crossing: at most one crest/ridge crossing is exempt, and only beside "
                                    "the firer or target; series: every crossing beside them is exempt")
    distance: Literal["grid"] = "grid"
    spotters: dict[str, dict[str, Any]] = Field(default_factory=dict)
    disabled_reason: str | None = None
    cases: LosCases = LosCases()

    @field_validator("crest_rule", mode="before")
    @classmethod
    def _former_crest_rule(cls, value: Any) -> Any:
        return CREST_RULE_ALIASES.get(value, value) if isinstance(value, str) else value

    @field_validator("range_rules")
    @classmethod
    def _known_conditions(cls, value: dict[str, str]) -> dict[str, str]:
        words = {w for spellings in LOS_CONDITIONS.values() for w in spellings}
        bad = sorted(set(value) - words)
        if bad:
            raise ValueError(f"unknown condition {', '.join(map(repr, bad))}; a range row is one of "
                             f"{', '.join(sorted(words))}")
        return value


def _book_word(value: str | None) -> str | None:
    """A citation prefix is one word that does not open with a digit (``GTS``, ``Excl``):
    cite() tells it from a bare case number by its first character."""
    if value is not None and (not value or value != value.strip() or len(value.split()) != 1 or value[0].isdigit()):
        raise ValueError(f"a citation prefix is one word that does not start with a digit (e.g. Excl), got {value!r}")
    return value


class CitationBook(Node):
    """Another book of the system (exclusive rules, an errata sheet) that citations open with."""

    prefix: str = Field(..., description="the word a citation of this book opens with, e.g. Excl")
    name: str
    note: str | None = None

    @field_validator("prefix")
    @classmethod
    def _one_word(cls, value: str) -> str:
        return _book_word(value) or value


class EngineCases(Node):
    """Rule cases shared code cites where no type or section of the system file carries one
    (LOS situations are under ``los.cases``). Written like any ``rule:``; a case left out is
    cited as no case."""

    impassable: str | None = Field(None, description="impassable terrain and grey impassable portions of hexes")
    map_art: str | None = Field(None, description="in-hex terrain is the colour of the printed centre dot "
                                                  "(map-art proofing)")


class Citations(Node):
    """How this system's rule cases are cited."""

    prefix: str | None = Field(None, description="the word a bare case number is cited with "
                                                 "(15.4.1 → <prefix> 15.4.1); default: short")
    books: list[CitationBook] = Field(default_factory=list, description="other books citations may open with")
    cases: EngineCases = EngineCases()

    @field_validator("prefix")
    @classmethod
    def _one_word(cls, value: str | None) -> str | None:
        return _book_word(value)

    @field_validator("books")
    @classmethod
    def _unique_books(cls, books: list[CitationBook]) -> list[CitationBook]:
        prefixes = [b.prefix for b in books]
        dupes = sorted({p for p in prefixes if prefixes.count(p) > 1})
        if dupes:
            raise ValueError(f"book prefix listed twice: {', '.join(dupes)}")
        return books


class StackingRules(Cited):
    max_units: int | None = None
    max_steps: int | None = None
    # Limits per unit type, enforced in play (play/generic/stacking.py) like max_units/max_steps.
    by_type: list[TypeLimit] = Field(default_factory=list)
    limits: dict[str, Any] = Field(default_factory=dict)


class GameSystem(Cited):
    schema_version: int = 1
    id: str
    name: str
    short: str = Field(..., description="short name; the default citation prefix")
    rulebook: str | None = None
    plugin: str | None = Field(None, description="the play plug-in with this system's own procedures "
                                                 "(play/plugins.py); none: the shared, data-driven ones only")
    scale: str | None = None
    grid: dict[str, Any] = Field(default_factory=dict, description="default orientation/stagger/labels")
    terrain: list[TerrainType]
    hexsides: list[HexsideType] = Field(default_factory=list)
    paths: list[PathType] = Field(default_factory=list)
    features: list[FeatureType] = Field(default_factory=list)
    movement_classes: list[MovementClass] = Field(default_factory=list)
    unit_categories: list[UnitCategory] = Field(default_factory=list)
    sides: list[Side] = Field(default_factory=list)
    nationalities: list[Nationality] = Field(default_factory=list)
    counter_fields: list[CounterField] = Field(default_factory=list)
    calendar: Calendar = Calendar()
    los: LosRules = LosRules()
    citations: Citations = Citations()
    stacking: StackingRules = StackingRules()
    # Generic rules as data (model/generic_rules.py; played by play/generic/ and play/sequence.py).
    zoc: ZocRules | None = None
    combat: CombatRules | None = None
    sequence_of_play: SequenceOfPlay | None = None
    optional_rules: dict[str, str] = Field(default_factory=dict, description="id → title (rule case)")
    params: dict[str, Any] = Field(default_factory=dict, description="rule-pack parameters")

    @model_validator(mode="after")
    def _unique(self) -> "GameSystem":
        for name in ("terrain", "hexsides", "paths", "features", "movement_classes",
                     "unit_categories", "sides", "nationalities", "counter_fields"):
            ids = [x.id for x in getattr(self, name)]
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"duplicate {name} ids: {', '.join(dupes)}")
        chars = [t.char for t in self.terrain]
        dupes = sorted({c for c in chars if chars.count(c) > 1})
        if dupes:
            raise ValueError(f"terrain characters used twice: {', '.join(dupes)}")
        # Ids the generic rule sections name must exist: each error at its own key.
        located(reference_errors(self))
        return self

    # Lookups -----------------------------------------------------------------------------

    @cached_property
    def terrain_by_id(self) -> dict[str, TerrainType]:
        return {t.id: t for t in self.terrain}

    @cached_property
    def hexside_by_id(self) -> dict[str, HexsideType]:
        return {t.id: t for t in self.hexsides}

    @cached_property
    def path_by_id(self) -> dict[str, PathType]:
        return {t.id: t for t in self.paths}

    @cached_property
    def feature_by_id(self) -> dict[str, FeatureType]:
        return {t.id: t for t in self.features}

    @cached_property
    def category_by_id(self) -> dict[str, UnitCategory]:
        return {t.id: t for t in self.unit_categories}

    @cached_property
    def side_by_id(self) -> dict[str, Side]:
        return {t.id: t for t in self.sides}

    def stacking_counted(self, categories: list[str | None]) -> list[bool]:
        """For the units in one hex (by category id), which count against its stacking limit.

        A category with ``counts_for_stacking: false`` never counts. With
        ``stacking.limits.lone_hq_free`` (TKG [6.1.3], [11.1.1]) a unit whose category is
        tagged ``hq`` is free while it is the only HQ in the hex; policy
        **hq-stacking-all-count-when-several**: when several HQs share the hex, every one
        of them counts ([11.1.1]: "free … if it is the only headquarters unit in the stack")."""
        cats = [self.category_by_id.get(c or "") for c in categories]
        out = [cat.counts_for_stacking if cat is not None else True for cat in cats]
        if self.stacking.limits.get("lone_hq_free") in (True, "true", "True"):
            hqs = [i for i, cat in enumerate(cats) if cat is not None and "hq" in cat.tags and out[i]]
            if len(hqs) == 1:
                out[hqs[0]] = False
        return out

    @property
    def citation_prefix(self) -> str:
        """The word a bare case number is cited with (``citations.prefix``, else ``short``)."""
        return self.citations.prefix or self.short

    @cached_property
    def citation_books(self) -> frozenset[str]:
        """Words a citation of this system may open with: the prefix and the declared books."""
        return frozenset([self.citation_prefix, *(b.prefix for b in self.citations.books)])

    def cite(self, case: str) -> str:
        """A rule case as the explanation prints it: a bare case number gets the citation
        prefix (``"3.4"`` → ``"SFN 3.4"``); a case that opens with a word — the prefix, a
        declared book (``"Excl 2.2.1"``), or any other form (``"[7.5.3]"``, ``"L28"``) — is kept
        as written."""
        case = case.strip()
        if case.split(" ", 1)[0] in self.citation_books or not case[:1].isdigit():
            return case
        return f"{self.citation_prefix} {case}"

    def cited(self, case: str | None) -> str:
        """:meth:`cite` for a case the file may leave out: :data:`NO_CASE` when it does."""
        return self.cite(case) if case and case.strip() else NO_CASE


SYSTEMS_DIR = RESOURCES / "systems"


def system_path(system_id: str) -> Path:
    return SYSTEMS_DIR / f"{system_id}.yaml"


def available_systems() -> list[str]:
    return sorted(p.stem for p in SYSTEMS_DIR.glob("*.yaml"))
