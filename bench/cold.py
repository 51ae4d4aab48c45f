"""Cold runs: one measurement per fresh ``python`` subprocess (first use in a process), beside
warm ones, summarised side by side (not a benchmark itself, so not named ``bench_*``).

A child is ``python -m bench.<module> --child NAME``; it prints one JSON line (prefixed
``COLD-JSON``) with its figures in seconds. The parent gives it a temporary XDG settings folder
(no user's Qt settings are read or written) and passes the environment on otherwise.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MARK = "COLD-JSON "


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def run_children(module: str, name: str, n: int, timeout: float = 300) -> list[dict[str, float]]:
    out: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="hexproof-bench-") as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        for sub in ("config", "data", "cache", "state"):
            (Path(tmp) / sub).mkdir()
            env[f"XDG_{sub.upper()}_HOME"] = str(Path(tmp) / sub)
        env["HEXPROOF_RECOVERY_DIR"] = str(Path(tmp) / "recovery")
        for _ in range(n):
            p = subprocess.run([sys.executable, "-m", f"bench.{module}", "--child", name], cwd=REPO, env=env,
                               capture_output=True, text=True, timeout=timeout)
            lines = [ln for ln in p.stdout.splitlines() if ln.startswith(MARK)]
            if p.returncode != 0 or not lines:
                raise RuntimeError(f"cold child {module} {name} failed ({p.returncode}): {p.stderr[-2000:]}")
            out.append(json.loads(lines[-1][len(MARK):]))
    return out


def emit(figures: dict[str, Any]) -> None:
    print(MARK + json.dumps(figures), flush=True)


def summary(xs: list[float]) -> str:
    """median [min–max] in ms, n."""
    ms = sorted(x * 1000 for x in xs)
    return f"{statistics.median(ms):.2f} ms [{ms[0]:.2f}–{ms[-1]:.2f}] (n={len(ms)})"


def table(rows: list[tuple[str, list[float] | None, list[float] | None, str]]) -> list[str]:
    """Markdown rows: measure | cold | warm | target."""
    lines = ["| measure | cold (first in a fresh process) | warm | target |", "|---|---|---|---|"]
    for name, cold, warm, target in rows:
        lines.append(f"| {name} | {summary(cold) if cold else '—'} | {summary(warm) if warm else '—'} | {target} |")
    return lines


def verdict(xs: list[float], limit_s: float) -> str:
    med, worst = statistics.median(xs), max(xs)
    if worst <= limit_s:
        return "met (every run)"
    if med <= limit_s:
        return "met at the median, not every run"
    return "**not met**"
