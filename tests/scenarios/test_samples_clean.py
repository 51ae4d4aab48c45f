"""Every sample bundle in scenarios/ validates with zero errors (all packs), and every warning
code it raises is explained in that bundle's README.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from model.diagnostics import Severity
from validators.config import Config
from validators.engine import validate_path

SAMPLES = sorted(p for p in (REPO / "scenarios").glob("*") if (p / "game.yaml").exists())


@pytest.mark.parametrize("bundle", SAMPLES, ids=lambda p: p.name)
def test_sample_validates_clean(bundle: Path) -> None:
    diags, unreadable = validate_path(str(bundle), Config(preview=False))
    assert not unreadable
    errors = [d.render() for d in diags if d.severity >= Severity.ERROR]
    assert errors == [], "\n".join(errors)
    warning_codes = sorted({d.code for d in diags if d.severity == Severity.WARNING})
    readme = bundle / "README.md"
    text = readme.read_text(encoding="utf-8") if readme.exists() else ""
    unexplained = [c for c in warning_codes if c not in text]
    assert unexplained == [], f"{bundle.name}: explain these warning codes in README.md: {unexplained}"
