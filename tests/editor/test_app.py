"""Which bundle ``hexproof edit`` opens without a path, and that an installed sample is never
saved over (editor/app.py ``default_bundle``, ``user_copy``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import editor.app as app
from model.bundle import find_bundle_root


def test_a_checkout_opens_its_own_sample() -> None:
    bundle, note = app.default_bundle()
    assert note is None and bundle == app.DEFAULT_SAMPLE
    assert bundle is not None and find_bundle_root(bundle)[0] == bundle


def test_an_installed_copy_opens_the_users_copy_of_the_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed (not a checkout), the shipped sample is copied to the user's data folder and the
    copy is opened: Save writes there, never into the installation."""
    monkeypatch.setattr(app, "IS_CHECKOUT", False)
    monkeypatch.setattr(app, "_data_dir", lambda: tmp_path)
    bundle, note = app.default_bundle()
    assert bundle == tmp_path / "samples" / app.DEFAULT_SAMPLE.name
    assert note is not None and str(bundle) in note
    assert find_bundle_root(bundle)[0] == bundle
    shipped = sorted(p.relative_to(app.DEFAULT_SAMPLE) for p in app.DEFAULT_SAMPLE.rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts)
    assert sorted(p.relative_to(bundle) for p in bundle.rglob("*") if p.is_file()) == shipped


def test_the_users_copy_is_never_overwritten(tmp_path: Path) -> None:
    """Once copied, the sample is the user's work: a second start opens it as the user left it."""
    first = app.user_copy(app.DEFAULT_SAMPLE, tmp_path)
    game = first / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "# my note\n", encoding="utf-8")
    again = app.user_copy(app.DEFAULT_SAMPLE, tmp_path)
    assert again == first and game.read_text(encoding="utf-8").endswith("# my note\n")


def test_a_copy_cut_short_is_not_opened(tmp_path: Path) -> None:
    """A copy lands whole or not at all: a partial copy left by a crash is replaced."""
    partial = tmp_path / "samples" / f".{app.DEFAULT_SAMPLE.name}.partial"
    partial.mkdir(parents=True)
    (partial / "half.yaml").write_text("x", encoding="utf-8")
    copy = app.user_copy(app.DEFAULT_SAMPLE, tmp_path)
    assert not partial.exists() and not (copy / "half.yaml").exists()
    assert (copy / "game.yaml").is_file()


def test_with_no_sample_at_all_the_window_opens_empty_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "DEFAULT_SAMPLE", tmp_path / "missing")
    monkeypatch.setattr(app, "FALLBACK_SAMPLE", tmp_path / "also-missing")
    bundle, note = app.default_bundle()
    assert bundle is None and note is not None and "File ▸ Open" in note


def test_make_window_with_no_sample_has_no_document(qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "DEFAULT_SAMPLE", tmp_path / "missing")
    monkeypatch.setattr(app, "FALLBACK_SAMPLE", tmp_path / "also-missing")
    window, note = app.make_window(None)
    try:
        assert window.doc is None and note is not None
        assert note in window.statusBar().currentMessage()
    finally:
        window.close()
        window.deleteLater()
