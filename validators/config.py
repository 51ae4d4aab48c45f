"""Which rules run: select/ignore by code prefix, group or name; preview rules opt-in;
per-bundle settings (``validate:`` in game.yaml) and per-scenario ``suppress:`` codes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

from model.diagnostics import Diagnostic
from validators.rule import Rule

if TYPE_CHECKING:  # pragma: no cover - typing only
    from model.bundle import Bundle


def _split(values: Iterable[str]) -> tuple[str, ...]:
    """``["CORE,GTS-DZ", "stacking"]`` → ``("CORE", "GTS-DZ", "stacking")``."""
    out: list[str] = []
    for v in values:
        out.extend(p.strip() for p in str(v).split(",") if p.strip())
    return tuple(out)


def matches(rule: type[Rule], key: str) -> bool:
    """A selector names a rule by code prefix (``CORE``, ``CORE-REF``, ``CORE-REF-001``),
    by group (``stacking``) or by name (``unit-reference-resolves``)."""
    return code_matches(rule.code, key) or key in rule.groups or key == rule.name


def code_matches(code: str, key: str) -> bool:
    """Prefixes match whole dash-separated parts: ``CORE-REF`` matches ``CORE-REF-001``, not ``CORE-REFX-001``."""
    k = key.upper()
    return code == k or code.startswith(k + "-")


@dataclass(frozen=True)
class Config:
    """Selection of rules. An empty ``select`` means every stable rule."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    preview: bool = False
    scenarios: tuple[str, ...] = ()  # restrict to these scenario ids (empty = all)
    use_bundle_settings: bool = True

    @classmethod
    def make(cls, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
             preview: bool = False, scenarios: Iterable[str] | None = None) -> "Config":
        return cls(_split(select or ()), _split(ignore or ()), preview, _split(scenarios or ()))

    def enabled(self, rule: type[Rule]) -> bool:
        if any(matches(rule, k) for k in self.ignore):
            return False
        if self.select and not any(matches(rule, k) for k in self.select):
            return False
        if rule.status == "preview" and not self.preview:
            # Naming a preview rule by its full code selects it without --preview (explicit opt-in).
            return any(k.upper() == rule.code for k in self.select)
        return True

    def for_bundle(self, bundle: "Bundle") -> "Config":
        """Merge the bundle's ``validate:`` settings: command-line select wins; ignores add up."""
        settings = getattr(bundle.game, "validation", None)
        if not self.use_bundle_settings or settings is None:
            return self
        select = self.select or _split(settings.select)
        return replace(self, select=select, ignore=self.ignore + _split(settings.ignore))

    def unknown_selectors(self, rules: Iterable[type[Rule]]) -> list[tuple[str, str]]:
        """``(option, key)`` for every ``--select``/``--ignore`` key that names no rule at all: a
        typo there would otherwise select nothing and report a clean run."""
        known = list(rules)
        return [(opt, k) for opt, keys in (("--select", self.select), ("--ignore", self.ignore))
                for k in keys if not any(matches(r, k) for r in known)]

    def rules(self, rules: Iterable[type[Rule]], system_id: str | None = None) -> list[type[Rule]]:
        return [r for r in rules if self.enabled(r) and (system_id is None or r.applies_to(system_id))]


def suppressed(diag: Diagnostic, codes: Iterable[str]) -> bool:
    """Whether a scenario's ``suppress:`` list (codes or code prefixes) hides ``diag``."""
    return any(code_matches(diag.code, c) for c in codes)


ALL = Config()
EVERYTHING = Config(preview=True)
