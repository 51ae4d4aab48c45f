"""The benchmark generator writes a real, clean, canonical bundle (so the load benchmark
measures the loader on valid data, not the error path)."""

from __future__ import annotations

from pathlib import Path

from bench.gen_map import generate
from model.bundle import load_bundle


def test_generated_bundle_loads_clean_and_is_canonical(tmp_path: Path) -> None:
    root = generate(tmp_path / "b", cols=60, rows=40, seed=3)
    result = load_bundle(root)
    assert result.ok, [d.render() for d in result.diagnostics]
    assert result.bundle is not None
    hmap = result.bundle.default_map
    assert hmap.size() == (60, 40)
    assert len(hmap.hexes()) == 60 * 40
    assert {hmap.terrain_at(h) for h in hmap.hexes()} >= {"clear", "woods", "sea"}
    assert hmap.hexsides["river"] and len(hmap.paths) >= 2 and hmap.features
    before = (root / "maps" / "bench.yaml").read_bytes()
    result.bundle.save()
    assert (root / "maps" / "bench.yaml").read_bytes() == before  # already canonical


def test_generation_is_deterministic(tmp_path: Path) -> None:
    a = generate(tmp_path / "a", cols=30, rows=20, seed=7)
    b = generate(tmp_path / "b", cols=30, rows=20, seed=7)
    assert (a / "maps" / "bench.yaml").read_bytes() == (b / "maps" / "bench.yaml").read_bytes()
