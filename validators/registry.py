"""The rule registry: discovers the packs in :data:`PACKS`, checks codes are unique and
well formed, and maps code → rule.

A pack is a package ``validators.packs.<pack>`` whose ``get_rules()`` returns its Rule
classes. A pack that does not exist yet is skipped (packs are written in parallel).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from types import ModuleType

from validators.rule import CODE_PATTERN, NAME_PATTERN, Rule

PACKS: tuple[str, ...] = ("core", "sfn", "gts", "tkg", "proof")


class RegistryError(Exception):
    """Two rules share a code, or a code/name is malformed."""


def discover_pack_rules(package: ModuleType) -> list[type[Rule]]:
    """Every Rule subclass defined in the modules of ``package`` (for a pack's get_rules)."""
    rules: list[type[Rule]] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{package.__name__}.{info.name}")
        for obj in vars(mod).values():
            if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule and obj.__module__ == mod.__name__ \
                    and obj.code:
                rules.append(obj)
    return rules


def load_pack(pack: str) -> list[type[Rule]]:
    """The rules of one pack, or [] when the pack package does not exist yet."""
    try:
        mod = importlib.import_module(f"validators.packs.{pack}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"validators.packs.{pack}", "validators.packs"):
            return []
        raise
    get_rules = getattr(mod, "get_rules", None)
    if get_rules is None:
        return discover_pack_rules(mod) if hasattr(mod, "__path__") else []
    return list(get_rules())


class Registry:
    """Rules by code, in code order."""

    def __init__(self, rules: list[type[Rule]]) -> None:
        self._rules: dict[str, type[Rule]] = {}
        for rule in rules:
            self.add(rule)

    def add(self, rule: type[Rule]) -> None:
        if not CODE_PATTERN.match(rule.code):
            raise RegistryError(f"{rule.__module__}.{rule.__qualname__}: code {rule.code!r} is not PACK-AREA-NNN")
        if not NAME_PATTERN.match(rule.name):
            raise RegistryError(f"{rule.code}: name {rule.name!r} is not kebab-case")
        if rule.scope not in ("scenario", "bundle"):
            raise RegistryError(f"{rule.code}: scope {rule.scope!r} is not 'scenario' or 'bundle'")
        if rule.status not in ("stable", "preview"):
            raise RegistryError(f"{rule.code}: status {rule.status!r} is not 'stable' or 'preview'")
        other = self._rules.get(rule.code)
        if other is not None and other is not rule:
            raise RegistryError(f"code {rule.code} is used by both {other.__module__} and {rule.__module__}")
        self._rules[rule.code] = rule

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.rules())

    def __len__(self) -> int:
        return len(self._rules)

    def __contains__(self, code: object) -> bool:
        return code in self._rules

    def rules(self) -> list[type[Rule]]:
        return [self._rules[c] for c in sorted(self._rules)]

    def get(self, code: str) -> type[Rule] | None:
        return self._rules.get(code)

    def by_name(self, name: str) -> type[Rule] | None:
        return next((r for r in self._rules.values() if r.name == name), None)

    def lookup(self, key: str) -> type[Rule] | None:
        """A rule by code (any case) or by name."""
        return self.get(key.upper()) or self.by_name(key)


def build_registry(packs: tuple[str, ...] = PACKS) -> Registry:
    rules: list[type[Rule]] = []
    for pack in packs:
        rules.extend(load_pack(pack))
    return Registry(rules)


@lru_cache(maxsize=1)
def default_registry() -> Registry:
    """The registry of every installed pack (cached)."""
    return build_registry()


def get_rule(code: str) -> type[Rule] | None:
    return default_registry().lookup(code)


def all_rules() -> list[type[Rule]]:
    return default_registry().rules()
