"""Pydantic plumbing shared by the plug-ins' typed parameters and states.

- :class:`Params` — base of a parameter section: unknown keys are ignored (notes, sources and
  comments sit beside the values in ``params.yaml`` and system files) unless validation runs
  with ``context={"forbid_unknown": True}``, which the tests use to keep each plug-in's own
  ``params.yaml`` and its schema in step; an explicit null reads as "not given".
- :class:`Cited` / :class:`Citation` — a value with its rule case, ``{value: …, rule: …}``
  (a bare value is accepted too), and a rule case alone, ``{rule: …}``.
- :func:`problem_text` — a pydantic error as one line naming the key (``supply.marker``).

System files reach the engine through the located loader, which keeps scalars as text
(``max_divisions_per_day: '3'``); pydantic's lax mode reads such text as the number it spells.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, ValidationInfo, model_validator

from play.errors import GameError, show

T = TypeVar("T")


class ParamsError(GameError):
    """A plug-in parameter (system file ``params`` or the plug-in's ``params.yaml``) is unusable."""


def _unwrap(v: Any) -> Any:
    """``{value: x, …}`` -> x: a bare field also accepts the cited form."""
    return v.get("value") if isinstance(v, dict) and "value" in v else v


def _text(v: Any) -> Any:
    v = _unwrap(v)
    return str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v


Text = Annotated[str, BeforeValidator(_text)]          # an id or name; a number given for it reads as text
Int = Annotated[int, BeforeValidator(_unwrap)]
Num = Annotated[int | float, BeforeValidator(_unwrap)]  # keeps 1 an int and 1.5 a float, as written
TextList = Annotated[list[Text], BeforeValidator(_unwrap)]
IntList = Annotated[list[int], BeforeValidator(_unwrap)]


class Params(BaseModel):
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


def problem_text(exc: ValidationError, where: str = "") -> str:
    """The first problem of ``exc`` as one line: key path, message, the value given."""
    first = exc.errors()[0]
    key = ".".join(str(p) for p in first["loc"] if not str(p).startswith(("function-", "json-or-python")))
    key = ".".join(x for x in (where, key) if x) or "(top)"
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    got = first.get("input")
    return f"{key}: {first['msg']}" + ("" if isinstance(got, dict) else f" (got {show(got)})") + more
