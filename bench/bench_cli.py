"""Cold command-line start: ``python -m bench cli`` (add ``--runs=N``, default 7).

Each run is a fresh process (``resource.getrusage(RUSAGE_CHILDREN)`` gives its CPU time; wall
time around ``subprocess.run``). Measured side by side, alternating, so a drift of the machine's
speed hits both alike:

* ``bare``: ``python -c pass`` — what any Python start costs here;
* ``help``: ``python -m hexproof --help`` — the parser lists every subcommand from
  ``hexproof.commands.COMMANDS`` and imports none of their modules;
* ``help-eager`` (reference): the same parser built the old way, every subcommand's module
  imported and registered (``build_parser(every=True)``), then ``--help``;
* ``validate``: ``python -m hexproof validate scenarios/utah-beach`` (only its own module).

Reported: median and range of CPU and wall seconds, and the ratio help / help-eager.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EAGER = ("import sys\nfrom hexproof.cli import build_parser\n"
         "try:\n    build_parser(every=True).parse_args(['--help'])\nexcept SystemExit:\n    pass\n")
CASES: dict[str, list[str]] = {
    "bare": [sys.executable, "-c", "pass"],
    "help": [sys.executable, "-m", "hexproof", "--help"],
    "help-eager": [sys.executable, "-c", EAGER],
    "validate": [sys.executable, "-m", "hexproof", "validate", "scenarios/utah-beach"],
}


def _run(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=REPO, capture_output=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main(argv: list[str]) -> dict[str, Any]:
    runs = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--runs=")), 7)
    for cmd in CASES.values():  # warm the disk cache and the .pyc files; not counted
        _run(cmd)
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in CASES}
    for _ in range(runs):
        for name, cmd in CASES.items():
            samples[name].append(_run(cmd))
    out: dict[str, Any] = {}
    for name, values in samples.items():
        cpu = [c for c, _ in values]
        wall = [w for _, w in values]
        out[name] = {"cpu_median_s": statistics.median(cpu), "cpu_min_s": min(cpu), "cpu_max_s": max(cpu),
                     "wall_median_s": statistics.median(wall)}
        print(f"{name:11} cpu {statistics.median(cpu):.3f} s ({min(cpu):.3f}–{max(cpu):.3f})   "
              f"wall {statistics.median(wall):.3f} s ({min(wall):.3f}–{max(wall):.3f})")
    ratio = [h[0] / e[0] for h, e in zip(samples["help"], samples["help-eager"]) if e[0] > 0]
    out["help_over_eager_cpu"] = statistics.median(ratio)
    print(f"help / help-eager cpu, run by run: median {statistics.median(ratio):.2f} "
          f"({min(ratio):.2f}–{max(ratio):.2f})")
    return out
