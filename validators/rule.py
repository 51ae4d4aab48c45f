"""The :class:`Rule` base class: one game (or structural) rule, its metadata and its check.

A rule's class docstring IS its documentation. It must have a one-line summary followed by
the sections ``Rule case:``, ``Why:``, ``Violating example:`` and ``Correct example:``
(and ``Policy:`` where the rules are silent and Hexproof picked a named policy).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Iterable, Literal

from model.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:  # pragma: no cover - typing only
    from validators.context import RuleContext

CODE_PATTERN = re.compile(r"^[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d{3}$")
NAME_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
REQUIRED_SECTIONS: tuple[str, ...] = ("Rule case:", "Why:", "Violating example:", "Correct example:")
OPTIONAL_SECTIONS: tuple[str, ...] = ("Policy:",)

Scope = Literal["scenario", "bundle"]
Status = Literal["stable", "preview"]


class Rule:
    """Base class of every rule; subclasses set the ClassVars and implement :meth:`check`."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.ERROR
    status: ClassVar[Status] = "stable"
    groups: ClassVar[tuple[str, ...]] = ()
    rule_case: ClassVar[str] = ""
    systems: ClassVar[tuple[str, ...] | None] = None
    scope: ClassVar[Scope] = "scenario"

    def check(self, ctx: "RuleContext") -> Iterable[Diagnostic]:
        raise NotImplementedError

    # --- metadata helpers --------------------------------------------------------------

    @classmethod
    def pack(cls) -> str:
        """The pack a rule lives in: ``validators.packs.<pack>.<module>``."""
        parts = cls.__module__.split(".")
        if len(parts) >= 3 and parts[0] == "validators" and parts[1] == "packs":
            return parts[2]
        return ""

    @classmethod
    def doc(cls) -> str:
        """The docstring, dedented, or an empty string."""
        import inspect

        return inspect.cleandoc(cls.__doc__ or "") if cls.__doc__ and cls.__doc__ is not Rule.__doc__ else ""

    @classmethod
    def summary(cls) -> str:
        doc = cls.doc()
        return doc.splitlines()[0].strip() if doc else ""

    @classmethod
    def sections(cls) -> dict[str, str]:
        """``{"Rule case": text, "Why": text, ...}`` parsed from the docstring."""
        return parse_sections(cls.doc())

    @classmethod
    def applies_to(cls, system_id: str) -> bool:
        return cls.systems is None or system_id in cls.systems


def parse_sections(doc: str) -> dict[str, str]:
    """Split a rule docstring into its summary and named sections."""
    heads = {s[:-1] for s in REQUIRED_SECTIONS + OPTIONAL_SECTIONS}
    out: dict[str, str] = {}
    lines = doc.splitlines()
    if not lines:
        return out
    out["Summary"] = lines[0].strip()
    current: str | None = None
    buf: list[str] = []
    for line in lines[1:]:
        m = re.match(r"^([A-Z][A-Za-z ]+):\s*(.*)$", line)
        if m and m.group(1) in heads:
            if current is not None:
                out[current] = _tidy(buf)
            current, buf = m.group(1), [m.group(2)] if m.group(2) else []
        elif current is not None:
            buf.append(line)
    if current is not None:
        out[current] = _tidy(buf)
    return out


def _tidy(lines: list[str]) -> str:
    """Drop blank edge lines but keep indentation (examples are indented YAML)."""
    text = "\n".join(lines).strip("\n").rstrip()
    return text


def docstring_problems(rule: type[Rule]) -> list[str]:
    """What is missing from a rule's documentation (empty when complete)."""
    problems = []
    sections = rule.sections()
    if not sections.get("Summary"):
        problems.append("no one-line summary")
    for head in REQUIRED_SECTIONS:
        if not sections.get(head[:-1]):
            problems.append(f"no {head!r} section")
    return problems
