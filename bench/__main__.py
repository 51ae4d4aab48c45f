"""Run the benchmarks: ``python -m bench`` (all) or ``python -m bench load los``."""

from __future__ import annotations

import importlib
import json
import os
import platform
import sys
from pathlib import Path


def machine() -> dict[str, object]:
    info: dict[str, object] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split()[1]
        info["memory_gib"] = round(int(mem) / 1024 / 1024, 1)
    except OSError:
        pass
    return info


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")]
    here = Path(__file__).parent
    available = sorted(p.stem[len("bench_"):] for p in here.glob("bench_*.py"))
    chosen = names or available
    print("machine:", json.dumps(machine()))
    results = {}
    for name in chosen:
        if name not in available:
            print(f"unknown benchmark {name!r}; available: {', '.join(available)}", file=sys.stderr)
            return 2
        print(f"\n== {name}")
        module = importlib.import_module(f"bench.bench_{name}")
        results[name] = module.main([a for a in argv if a.startswith("-")])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
