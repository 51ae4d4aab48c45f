"""Helpers shared by subcommands: loading with located errors, output files."""

from __future__ import annotations

import sys
from pathlib import Path

from model.bundle import LoadResult, load_bundle
from model.diagnostics import Diagnostic, Severity, sort_diagnostics

DEFAULT_BUNDLE = Path(__file__).resolve().parents[2] / "scenarios" / "utah-beach"


def load_or_report(path: str | Path, *, quiet: bool = False) -> LoadResult:
    """Load a bundle; print its structural diagnostics to stderr unless ``quiet``."""
    result = load_bundle(path)
    if not quiet:
        for d in sort_diagnostics(result.diagnostics):
            print(d.render(), file=sys.stderr)
    return result


def errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity >= Severity.ERROR]


def write_output(text: str, output: str | None) -> None:
    if output:
        from model.yamlio import atomic_write_text

        atomic_write_text(Path(output), text, keep_backup=False)
    else:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")
