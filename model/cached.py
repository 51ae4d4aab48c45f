"""Values a model computes once (``functools.cached_property``) and copies that must not keep them.

A ``cached_property`` stores its value in the instance ``__dict__``; pydantic's ``model_copy``
copies that dict, so ``model_copy(update=...)`` kept the values computed from the old fields: a
label scheme given another prefix printed the old labels, a map given other rows answered from
its old terrain index. :class:`DropsCachedOnCopy` is the base that forgets them on a copy;
:func:`drop_cached` is the same forgetting for a model whose fields were changed in place
(``HexMap.invalidate``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, cached_property
from typing import Any, Self

from pydantic import BaseModel


@cache
def cached_names(cls: type) -> tuple[str, ...]:
    """The names of every ``cached_property`` of ``cls`` and its bases (the MRO's, in order)."""
    names: list[str] = []
    for klass in cls.__mro__:
        for name, value in vars(klass).items():
            if isinstance(value, cached_property) and name not in names:
                names.append(name)
    return tuple(names)


def drop_cached(obj: object) -> None:
    """Forget every value ``obj``'s cached properties stored (each is computed again on use)."""
    state = obj.__dict__
    for name in cached_names(type(obj)):
        state.pop(name, None)


class DropsCachedOnCopy(BaseModel):
    """A pydantic model whose copies compute their cached properties again."""

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied; with an ``update``, none of the values this model's
        cached properties stored (they may have been computed from a field it replaced). A copy
        with no update keeps them: its fields are the same, and an immutable index stays shared
        (a map's deep copy does not build its terrain index again, tests/model/test_terrain_index.py)."""
        out = super().model_copy(update=update, deep=deep)
        if update:
            drop_cached(out)
        return out
