"""Run every benchmark and print its figures: ``python -m tests.benchmarks [NAME ...]``.

Each ``bench_*.py`` module is a script that prints its own numbers; they run one after the
other in fresh processes so that one benchmark's memory or Qt state cannot skew the next.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> int:
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if names:
        modules = [m for m in modules if any(n in m for n in names)]
    failures = 0
    for module in modules:
        print(f"== {module}", flush=True)
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", f"tests.benchmarks.{module}"], cwd=HERE.parent.parent, check=False
        )
        print(f"   ({time.perf_counter() - started:.1f} s wall, exit {result.returncode})\n", flush=True)
        failures += result.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
