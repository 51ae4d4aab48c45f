"""Plain-text lines for game log events (Qt-free formatting used by the Play docks).

Every event type the engine emits (``game.emit(...)`` under play/) has a one-line template:
the shared engine's in ``play/generic/events.yaml``, each plug-in's in its own
``play/<plug-in>/events.yaml`` (:attr:`play.plugin.SystemPlugin.templates`); a game reads
both (:func:`wording_for` its plug-in). A line reads ``T2 Reinforcement allied · barrage:
light Barrage marker in 23.024 (fire of dd-uts-1, FR 5) [GTS 16.6.2.1] (policy
barrage-size-from-printed-fr)`` — the event type first (the key scripts and ``log_contains``
use), then the sentence, the event's rule case and the names of the policies it applied. An
event type without a template falls back to ``type key=value …`` (:func:`generic`), so nothing
is ever hidden; a test runs every scripted playtest and fails on any event type that only gets
the fallback.

Template syntax: ``{field}`` is the event's field (lists joined with ", "), ``{field?yes|no}``
picks a word by the field's truth, and ``<…>`` is an optional part, dropped when a field in it
is missing or empty. An entry ``{text: …, dice: true}`` is also a Dice log line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from play.plugin import SystemPlugin
from play.plugins import DATA_ONLY

# Fields that hold a roll: an event with one of them is a dice event whatever its type.
DICE_FIELDS = ("dice", "die", "d6", "d10", "roll")
_SKIP = ("seq", "turn", "phase", "side", "type")


@dataclass(frozen=True)
class Wording:
    """The log templates and dice event types of one game: the shared ones and its plug-in's."""

    templates: Mapping[str, str]
    dice_events: frozenset[str]

    def has_description(self, event_type: str) -> bool:
        """True when the event type has its own wording (not the generic fallback)."""
        return event_type in self.templates or event_type in ("refused", "move")

    def is_dice(self, event: dict[str, Any]) -> bool:
        return event.get("type") in self.dice_events or any(k in event for k in DICE_FIELDS)


@lru_cache(maxsize=None)
def wording_for(plugin: SystemPlugin) -> Wording:
    """The wording of a game played by ``plugin``: the shared templates, then its own (an
    event type is the engine's or one plug-in's, never both: a test checks it)."""
    parts = (DATA_ONLY,) if plugin is DATA_ONLY else (DATA_ONLY, plugin)
    return Wording({t: text for p in parts for t, text in p.templates.items()},
                   frozenset().union(*(p.dice_events for p in parts)))


_FIELD = re.compile(r"\{(\w+)(?::([^}?]*))?(?:\?([^|}]*)\|([^}]*))?\}")
_OPTIONAL = re.compile(r"<([^<>]*)>")
_POLICY_NAME = re.compile(r"(?:^|;\s*)([a-z][a-z0-9]*(?:-[a-z0-9.]*[a-z0-9])+):")


class _Missing(Exception):
    """A field of an optional part is absent: the part is dropped."""


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list):
        return ", ".join(_fmt(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_fmt(x)}" for k, x in v.items())
    return str(v)


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {}


def _fill(text: str, e: dict[str, Any], strict: bool) -> str:
    def one(m: re.Match[str]) -> str:
        name, spec, yes, no = m.group(1), m.group(2), m.group(3), m.group(4)
        v = e.get(name)
        if yes is not None:  # {field?yes|no}: a word by truth; a missing flag reads as false
            return yes if v and v not in ("false", "False") else (no or "")
        if _empty(v):
            if strict:
                raise _Missing(name)
            return "?"
        if spec:
            try:
                return format(float(v), spec.replace("+", "+g") if spec == "+" else spec)
            except (TypeError, ValueError):
                return _fmt(v)
        return _fmt(v)

    return _FIELD.sub(one, text)


def render(template: str, e: dict[str, Any]) -> str:
    """Fill ``template`` from the event: optional ``<…>`` parts first, then the rest."""

    def optional(m: re.Match[str]) -> str:
        try:
            return _fill(m.group(1), e, strict=True)
        except _Missing:
            return ""

    text = _OPTIONAL.sub(optional, template)
    return re.sub(r"\s{2,}", " ", _fill(text, e, strict=False)).strip()


def policy_names(policy: Any) -> list[str]:
    """The policy names in an event's policy text ("name: why; other-name: why")."""
    if not policy:
        return []
    names = _POLICY_NAME.findall(str(policy))
    return names or [str(policy)]


def _suffix(e: dict[str, Any]) -> str:
    out = ""
    rule = e.get("rule")
    if rule:
        rule = str(rule)
        out += f" [{rule}]" if "[" not in rule else f" {rule}"
    names = policy_names(e.get("policy"))
    if names:
        out += f" (policy {', '.join(names)})"
    return out


def _head(e: dict[str, Any]) -> str:
    return f"T{e.get('turn')} {e.get('phase')}{' ' + str(e['side']) if e.get('side') else ''} · "


def generic(e: dict[str, Any]) -> str:
    """The fallback: the event type and its fields."""
    rest = " ".join(f"{k}={_fmt(v)}" for k, v in e.items() if k not in _SKIP)
    return f"{e.get('type')} {rest}".strip()


def describe_dice(e: dict[str, Any], wording: Wording) -> str:
    """"T1 Movement allied · roll: 2d6 for drop table: 3, 5 = 8" — purpose and result."""
    head = _head(e)
    t = e.get("type")
    if t == "roll":
        return head + (f"{e.get('dice')} for {e.get('reason') or 'a free roll'}: {_fmt(e.get('result'))} "
                       f"= {e.get('total')}{_suffix(e)}")
    if t == "attack":
        rolled = f": rolled {_fmt(e.get('dice'))}" if e.get("dice") else ""  # a result below the table: no roll
        return head + (f"attack on {e.get('target')} at {e.get('column')}{rolled} "
                       f"→ {e.get('result')}{' (illustrative CRT)' if e.get('illustrative') else ''}{_suffix(e)}")
    # Every other dice event reads as in the full log (its template, rule case and policies).
    return head + describe(e, wording, with_head=False)


def describe(e: dict[str, Any], wording: Wording, with_head: bool = True) -> str:
    """One log line: ``type: sentence [rule case] (policy names)``; refusals read
    ``REFUSED action: why [rule] (policy …)``."""
    head = _head(e) if with_head else ""
    t = str(e.get("type"))
    if t == "refused":
        rule = f" [{e['rule']}]" if e.get("rule") else ""
        pol = f" (policy {e['policy']})" if e.get("policy") else ""
        return head + f"REFUSED {e.get('action')}: {e.get('message')}{rule}{pol}"
    if t == "move":
        return head + (f"move {_fmt(e.get('units'))} to {e.get('to')} for {e.get('cost'):g} MP "
                       f"via {_fmt(e.get('path'))}{_suffix(e)}")
    template = wording.templates.get(t)
    if template is None:
        return head + generic(e)
    return head + f"{t}: {render(template, e)}{_suffix(e)}"
