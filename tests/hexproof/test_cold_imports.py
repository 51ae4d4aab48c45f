"""A cold ``hexproof validate`` imports only what the rules need (issue #21 item 5): no numpy
(the terrain index answers per-hex look-ups from its lines; its arrays, and numpy, come with
the first whole-map query), no shapely, no Qt. Timing is in bench/bench_cli.py, not here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO

PROBE = """
import json, runpy, sys
sys.argv = ["hexproof", *sys.argv[1:]]
try:
    runpy.run_module("hexproof", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in ("numpy", "shapely", "PySide6") if m in sys.modules)))
"""


@pytest.mark.parametrize("sample", ["utah-beach", "second-front-now", "killing-ground"])
def test_validate_imports_no_numpy_shapely_or_qt(sample: str) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE, "validate", f"scenarios/{sample}"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


def test_a_whole_map_query_still_brings_numpy() -> None:
    # The lazy arrays are there when asked for (and only then).
    code = ("import sys\nfrom model.bundle import load_bundle\n"
            "b = load_bundle('scenarios/utah-beach').bundle\nm = b.default_map\n"
            "m.terrain_at(m.parse('30.027'))\nbefore = 'numpy' in sys.modules\n"
            "n = m.terrain_index.count()\nprint(before, 'numpy' in sys.modules, n == len(m.hexes()) > 0)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True"]
