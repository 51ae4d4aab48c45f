"""Generate ``docs/rules/<CODE>.md`` and ``docs/rules/index.md`` from rule docstrings.

Run ``python -m validators.docs`` (or ``hexproof rules --write-docs``) after adding a rule;
a test fails when the committed pages differ from freshly generated ones.
"""

from __future__ import annotations

from pathlib import Path

from validators.registry import Registry, default_registry
from validators.rule import Rule

REPO = Path(__file__).resolve().parents[1]
DOCS_DIR = REPO / "docs" / "rules"
FIXTURES_DIR = REPO / "tests" / "fixtures" / "rules"
_ORDER = ("Rule case", "Why", "Policy", "Violating example", "Correct example")


def fixture_cases(code: str, fixtures_dir: Path = FIXTURES_DIR) -> list[tuple[str, str]]:
    """(expect, name) of each case in ``tests/fixtures/rules/<CODE>.yaml``."""
    import yaml

    path = fixtures_dir / f"{code}.yaml"
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [(str(c.get("expect", "")), str(c.get("name", ""))) for c in data.get("cases", []) if isinstance(c, dict)]


def _block(text: str) -> str:
    """Examples are YAML or prose; indent-led text becomes a code block."""
    lines = text.splitlines()
    if lines and all(not ln.strip() or ln.startswith("    ") for ln in lines):
        import textwrap

        return "```yaml\n" + textwrap.dedent(text).strip("\n") + "\n```"
    return text


def rule_markdown(rule: type[Rule]) -> str:
    sections = rule.sections()
    out = [f"# {rule.code} — {rule.name}", "", sections.get("Summary", ""), ""]
    out.append("| severity | status | pack | scope | systems | groups |")
    out.append("|---|---|---|---|---|---|")
    systems = ", ".join(rule.systems) if rule.systems else "all"
    out.append(f"| {rule.severity} | {rule.status} | {rule.pack()} | {rule.scope} | {systems} | "
               f"{', '.join(rule.groups) or '—'} |")
    out.append("")
    for head in _ORDER:
        if sections.get(head):
            out += [f"## {head}", "", _block(sections[head]), ""]
    cases = fixture_cases(rule.code)
    if cases:
        out += ["## Fixture cases", ""]
        out += [f"- {expect}: {name}" for expect, name in cases]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def index_markdown(registry: Registry) -> str:
    out = ["# Validation rules", "",
           "Generated from the rule docstrings by `python -m validators.docs`; do not edit by hand.", "",
           "| code | name | severity | status | rule case | summary |", "|---|---|---|---|---|---|"]
    for r in registry.rules():
        out.append(f"| [{r.code}]({r.code}.md) | {r.name} | {r.severity} | {r.status} | {r.rule_case} | "
                   f"{r.summary().replace('|', '/')} |")
    return "\n".join(out) + "\n"


def generate(registry: Registry | None = None) -> dict[str, str]:
    """File name → text for every page."""
    registry = registry or default_registry()
    pages = {f"{r.code}.md": rule_markdown(r) for r in registry.rules()}
    pages["index.md"] = index_markdown(registry)
    return pages


def write_docs(target: Path = DOCS_DIR, registry: Registry | None = None) -> list[Path]:
    """Write every page and remove pages of rules that no longer exist."""
    target.mkdir(parents=True, exist_ok=True)
    pages = generate(registry)
    written = []
    for name, text in pages.items():
        path = target / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    for stale in target.glob("*.md"):
        if stale.name not in pages:
            stale.unlink()
    return written


if __name__ == "__main__":
    print(f"wrote {len(write_docs())} file(s) under {DOCS_DIR}")
