"""Every scripted playtest's event log, pinned by its sha256 (issue #16: a refactor of the
engine or a plug-in must leave every log byte-identical).

A deliberate rule change that changes a log updates the pin in the same commit, with the
reason in the commit message: ``HEXPROOF_PIN_LOGS=1 python -m pytest tests/play/test_playtest_logs.py``
rewrites tests/fixtures/playtests/logs.sha256 (then ``git diff`` it)."""

from __future__ import annotations

import hashlib
import os
from typing import Any

import pytest

from conftest import FIXTURES
from play.script import run_script

PIN = FIXTURES / "playtests" / "logs.sha256"
SCRIPTS = sorted(p for p in (FIXTURES / "playtests").glob("*.yaml") if p.stem != "failing")


def _digest(path: Any) -> str:
    result = run_script(path)
    assert result.game is not None, result.report()
    return hashlib.sha256(result.game.log_json().encode("utf-8")).hexdigest()


def _pinned() -> dict[str, str]:
    if not PIN.is_file():
        return {}
    pairs = (line.split() for line in PIN.read_text(encoding="utf-8").splitlines() if line.strip())
    return {name: digest for digest, name in pairs}


def test_pin_rewrite_when_asked() -> None:
    if not os.environ.get("HEXPROOF_PIN_LOGS"):
        pytest.skip("set HEXPROOF_PIN_LOGS=1 to rewrite the pinned digests")
    PIN.write_text("".join(f"{_digest(p)}  {p.name}\n" for p in SCRIPTS), encoding="utf-8")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_log_is_byte_identical_to_its_pin(script: Any) -> None:
    pinned = _pinned()
    assert script.name in pinned, f"{script.name} has no pinned digest: HEXPROOF_PIN_LOGS=1 (see the docstring)"
    assert _digest(script) == pinned[script.name]


def test_every_pin_has_its_script() -> None:
    assert set(_pinned()) == {p.name for p in SCRIPTS}
