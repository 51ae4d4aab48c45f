"""Helpers shared by subcommands: loading with located errors, output files."""

from __future__ import annotations

import sys
from pathlib import Path

from model.bundle import Bundle, LoadResult, load_bundle
from model.diagnostics import Diagnostic, Severity, sort_diagnostics
from model.shipped import default_sample

# The bundle a command reads without a path: the shipped default sample (resources/editor.yaml),
# in a checkout or an installed copy alike; None when none is configured (bundle_path says so).
DEFAULT_BUNDLE = default_sample()


def bundle_path(command: str, path: str | None) -> str | None:
    """``path``, else the default sample; None (having said why on stderr) when neither: a
    missing setting must not quietly read whatever folder the command runs in."""
    if path is not None:
        return path
    if DEFAULT_BUNDLE is None:
        print(f"hexproof {command}: no bundle given and no default sample configured "
              f"(default_sample in resources/editor.yaml): give a bundle folder", file=sys.stderr)
        return None
    return str(DEFAULT_BUNDLE)


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
        from model.formats.yamlio import atomic_write_text

        atomic_write_text(Path(output), text, keep_backup=False)
    else:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")


def load_for_los(path: str | Path, as_json: bool, output: str | None) -> tuple[Bundle | None, int]:
    """Load a bundle for ``los``/``viewshed``: (bundle, 0), or (None, exit code) when the
    bundle is unreadable (2) or its system has no LOS rules (0, after saying why)."""
    import json

    result = load_or_report(path)
    bundle = result.bundle
    if bundle is None:
        return None, 2
    system = bundle.system
    if not system.los.enabled:
        why = system.los.disabled_reason or "the rules define no line of sight"
        write_output(json.dumps({"enabled": False, "reason": why}) if as_json
                     else f"LOS is not used by {system.name}: {why}", output)
        return None, 0
    return bundle, 0
