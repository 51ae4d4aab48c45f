"""Pydantic plumbing shared by the plug-ins' typed parameters and states.

- :class:`Params` — base of a parameter section: unknown keys are ignored (notes, sources and
  comments sit beside the values in ``params.yaml`` and system files) unless validation runs
  with ``context={"forbid_unknown": True}``, which the tests use to keep each plug-in's own
  ``params.yaml`` and its schema in step; an explicit null reads as "not given".
- :class:`Cited` / :class:`Citation` — a value with its rule case, ``{value: …, rule: …}``
  (a bare value is accepted too), and a rule case alone, ``{rule: …}``.
- :func:`problem_text` — a pydantic error as one line naming the key (``supply.marker``).
- :func:`validate_sections` — a plug-in's parameter model from its sections, each from the
  system file's ``params`` when it carries the key, else from the plug-in's own data (the rule
  of :func:`play.procedure.system_param`), a bad value refused with the key and the file.
- :class:`PerGame` — one validated value per game, made on first use: the procedures of a game
  and the helpers they call share it (``PlayContext`` has no slot for a plug-in's data).

System files reach the engine through the located loader, which keeps scalars as text
(``max_divisions_per_day: '3'``); pydantic's lax mode reads such text as the number it spells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Callable, Generic, TypeVar
from weakref import WeakKeyDictionary

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, ValidationInfo, model_validator
from pydantic_core import PydanticUseDefault

from model.cached import DropsCachedOnCopy
from play.errors import GameError, show

if TYPE_CHECKING:
    from play.context import PlayContext

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class ParamsError(GameError):
    """A plug-in parameter (system file ``params`` or the plug-in's ``params.yaml``) is unusable."""


def _unwrap(v: Any) -> Any:
    """``{value: x, …}`` -> x: a bare field also accepts the cited form."""
    return v.get("value") if isinstance(v, dict) and "value" in v else v


def _text(v: Any) -> Any:
    v = _unwrap(v)
    return str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


def _empty_is_default(v: Any) -> Any:
    if not v:
        raise PydanticUseDefault()  # the field's default, as ``cfg.get(key) or default`` read it
    return v


Text = Annotated[str, BeforeValidator(_text)]          # an id or name; a number given for it reads as text
Int = Annotated[int, BeforeValidator(_unwrap)]
PosInt = Annotated[int, Field(gt=0), BeforeValidator(_unwrap)]  # a cycle length or a die: 0 would break the arithmetic
Num = Annotated[int | float, BeforeValidator(_unwrap)]  # keeps 1 an int and 1.5 a float, as written
TextList = Annotated[list[Text], BeforeValidator(_unwrap)]
# A list whose empty form means "the default list" (the engine read these with ``or [...]``).
TextListOr = Annotated[list[Text], BeforeValidator(_empty_is_default), BeforeValidator(_unwrap)]


class Params(DropsCachedOnCopy):  # a copy with other fields derives its cached values again
    model_config = ConfigDict(extra="ignore", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, dict):
            return data
        data = {k: v for k, v in data.items() if v is not None}
        if isinstance(info.context, dict) and info.context.get("forbid_unknown"):
            known = set(cls.model_fields) | {f.alias for f in cls.model_fields.values() if f.alias}
            unknown = sorted(str(k) for k in data if k not in known and k not in cls._free_keys())
            if unknown:
                raise ValueError(f"unknown key(s) {', '.join(unknown)}")
        return data

    @classmethod
    def _free_keys(cls) -> frozenset[str]:
        """Keys a section may carry for people, not for the engine."""
        return frozenset({"note", "source"})


class Citation(Params):
    """A rule case (``{rule: …}``) for a rule the engine applies with no number of its own."""

    rule: Text | None = None


class Cited(Params, Generic[T]):
    """A value with its rule case: ``{value: …, rule: …, note: …}``, or the bare value."""

    value: T
    rule: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _bare(cls, data: Any) -> Any:
        return data if isinstance(data, dict) else {"value": data}


def validate_sections(model: type[M], title: str, sections: dict[str, tuple[Any, str]],
                      context: dict[str, Any] | None = None) -> M:
    """``model`` from ``sections`` (section key -> (its data, the file it came from)); a
    section whose data is None or an empty mapping is left out (the model's default: for an
    optional section "none", as the engine read ``cfg(key) or {}``)."""
    data = {k: v for k, (v, _) in sections.items() if v is not None and v != {}}
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        first = exc.errors()[0]["loc"]
        src = sections.get(str(first[0]), (None, "?"))[1] if first else "?"
        raise ParamsError(f"{title} parameter {problem_text(exc)} — in {src}") from None


def validate_block(model: type[M], title: str, key: str, data: Any, source: str,
                   context: dict[str, Any] | None = None) -> M:
    """``model`` from one block of data (``key`` names it in a message); None: the defaults."""
    try:
        return model.model_validate({} if data is None else data, context=context)
    except ValidationError as exc:
        raise ParamsError(f"{title} parameter {problem_text(exc, key)} — in {source}") from None


class PerGame(Generic[T]):
    """``make(game)`` once per game, kept while the game lives (weakly keyed by it)."""

    def __init__(self, make: Callable[["PlayContext"], T]) -> None:
        self._make = make
        self._by_game: WeakKeyDictionary[Any, T] = WeakKeyDictionary()

    def __call__(self, game: "PlayContext") -> T:
        try:
            return self._by_game[game]
        except KeyError:
            out = self._by_game[game] = self._make(game)
            return out


def problem_text(exc: ValidationError, where: str = "") -> str:
    """The first problem of ``exc`` as one line: key path, message, the value given."""
    first = exc.errors()[0]
    key = ".".join(str(p) for p in first["loc"] if not str(p).startswith(("function-", "json-or-python")))
    key = ".".join(x for x in (where, key) if x) or "(top)"
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    got = first.get("input")
    return f"{key}: {first['msg']}" + ("" if isinstance(got, dict) else f" (got {show(got)})") + more


def load_saved_state(adapter: Any, data: Any, what: str) -> Any:
    """A plug-in's typed state from its saved form through its pydantic ``adapter``; a bad value
    is a :class:`GameError` naming the field (``saved SFN state: …``)."""
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise GameError(f"saved {what} state: {problem_text(exc)}") from None
