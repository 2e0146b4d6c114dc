"""Compare ``annotator evaluate --mode i2b2`` with a run of the official i2b2 2014 scorer.

The official scorer is NOT part of this project: fetch it yourself (kotfic/i2b2_evaluation_scripts,
master) into a folder outside the repository and pass that folder. It needs Python 2 with
lxml and numpy (see docs/evaluation.md).

Usage::

    python -m tests.benchmarks.compare_official_scorer SCORER_DIR --python PY27 \
        [--pythonpath LIBS] (--gold G --system S | --generate N [--seed S] [--out DIR])

Prints every table whose numbers differ (label, column, official, ours), then a summary,
and whether the whole stdout (WARNING lines dropped) is byte-identical. Exit code 0 when
every table matches.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from annotator.evaluation.official import evaluate_official_folders, format_runs

COLUMNS = ("header", "precision", "recall", "f1")


def parse_tables(stdout: str) -> dict[str, list[str]]:
    """Label -> the four printed rows (header, P, R, F1), whitespace-normalised."""
    lines = [line for line in stdout.splitlines() if not line.startswith("WARNING")]
    tables: dict[str, list[str]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if "Measure" in line and "Macro (SD)" in line:
            label = line.split("Measure")[0].strip()
            rows = [line, *lines[i + 2 : i + 5]]
            tables[label] = [" ".join(row.split()) for row in rows]
            i += 5
        else:
            i += 1
    return tables


def run_official(
    scorer: Path, python: str, pythonpath: str | None, gold: Path, system: Path
) -> tuple[str, float]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    started = time.perf_counter()
    result = subprocess.run(
        [python, "evaluate.py", "phi", str(system) + "/", str(gold) + "/"],
        cwd=scorer,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scorer", type=Path, help="folder holding the official evaluate.py")
    parser.add_argument("--python", default="python2", help="a Python 2.7 interpreter")
    parser.add_argument("--pythonpath", help="PYTHONPATH for the scorer (its lxml and numpy)")
    parser.add_argument("--gold", type=Path)
    parser.add_argument("--system", type=Path)
    parser.add_argument("--generate", type=int, help="generate a random corpus of N documents")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="where to write the generated corpus")
    args = parser.parse_args(argv)

    if args.generate:
        from tests.evaluation.random_corpus import write_random_corpus

        out = args.out or Path(tempfile.mkdtemp(prefix="i2b2cmp-"))
        gold, system = write_random_corpus(out, documents=args.generate, seed=args.seed)
    elif args.gold and args.system:
        gold, system = args.gold, args.system
    else:
        parser.error("give --gold and --system, or --generate N")
    official_out, official_seconds = run_official(args.scorer, args.python, args.pythonpath, gold, system)
    started = time.perf_counter()
    ours_out = format_runs(evaluate_official_folders(gold, system))
    ours_seconds = time.perf_counter() - started

    official = parse_tables(official_out)
    ours = parse_tables(ours_out)
    mismatches = 0
    for label in sorted(set(official) | set(ours)):
        if label not in ours or label not in official:
            print(f"MISSING {label!r}: official={label in official} ours={label in ours}")
            mismatches += 1
            continue
        for column, a, b in zip(COLUMNS, official[label], ours[label], strict=True):
            if a != b:
                print(f"MISMATCH {label} [{column}]\n  official: {a}\n  ours:     {b}")
                mismatches += 1
    cleaned = "".join(line + "\n" for line in official_out.splitlines() if not line.startswith("WARNING"))
    identical = cleaned == ours_out
    n_gold = len(list(Path(gold).glob("*.xml")))
    n_system = len(list(Path(system).glob("*.xml")))
    print(
        f"gold files {n_gold}, system files {n_system}; tables official {len(official)}, ours {len(ours)}; "
        f"mismatching rows {mismatches}; stdout byte-identical: {identical}"
    )
    print(
        f"official {official_seconds:.2f} s, ours {ours_seconds:.3f} s, ratio {official_seconds / ours_seconds:.0f}x"
    )
    return 0 if mismatches == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
