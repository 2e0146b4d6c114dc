"""Compare ``annotator evaluate --mode i2b2`` with a run of the official i2b2 2014 scorer.

The official scorer is NOT part of this project: fetch it yourself (kotfic/i2b2_evaluation_scripts,
master) into a folder outside the repository and pass that folder. It needs Python 2 with
lxml and numpy (see docs/evaluation.md).

Usage::

    python -m tests.benchmarks.compare_official_scorer SCORER_DIR --python PY27 \
        [--pythonpath LIBS] (--gold G --system S | --generate N [--seed S] [--out DIR]
                             | --edge-cases [--out DIR] [--only NAME,...])

Prints every table whose numbers differ (label, column, official, ours), then a summary,
and whether the whole stdout (the script's WARNING lines included) is byte-identical. Exit code 0 when
every table matches.

``--edge-cases`` writes the small odd and hostile folder pairs of
tests/evaluation/edge_corpus.py (each once as is and once with ``-v``), runs the official
script and ``annotator evaluate --mode i2b2`` on each, and compares the whole stdout (the
script's WARNING lines included) and whether it failed. Where the script crashes, ours must
exit 1 with one line on stderr and nothing on stdout. One line per case, then a summary;
exit code 0 when every case agrees.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from annotator.evaluation.official import format_runs, official_warnings, read_official_sides, score_official

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


def _argument(path: Path) -> str:
    """The script joins folder and file names by concatenation: a folder needs its slash."""
    return str(path) + "/" if path.is_dir() else str(path)


def _official_process(
    scorer: Path,
    python: str,
    pythonpath: str | None,
    gold: Path,
    system: Path,
    verbose: bool,
    options: Sequence[str] = (),
) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    flags = ["-v"] if verbose else []
    return subprocess.run(
        [python, "evaluate.py", "phi", *flags, *options, _argument(system), _argument(gold)],
        cwd=scorer,
        env=env,
        capture_output=True,
        check=False,
    )


def _our_process(
    gold: Path, system: Path, verbose: bool, options: Sequence[str] = ()
) -> subprocess.CompletedProcess[bytes]:
    flags = ["-v", *options] if verbose else list(options)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "annotator",
            "evaluate",
            "--mode",
            "i2b2",
            *flags,
            "--gold",
            str(gold),
            "--system",
            str(system),
        ],
        env=env,
        capture_output=True,
        check=False,
    )


def compare_edge_case(
    scorer: Path,
    python: str,
    pythonpath: str | None,
    gold: Path,
    system: Path,
    verbose: bool,
    deliberate: str = "",
    options: tuple[str, ...] = (),
    our_options: Sequence[str] = (),
) -> tuple[bool, str]:
    """(agrees, what happened) for one folder pair. ``deliberate``: why we refuse a case the
    script scores (then a one-line refusal agrees)."""
    official = _official_process(scorer, python, pythonpath, gold, system, verbose, options)
    ours = _our_process(gold, system, verbose, our_options)
    err = ours.stderr.decode("utf-8", "replace").strip()
    refused = ours.returncode == 1 and not ours.stdout and len(err.splitlines()) == 1
    if official.returncode != 0:
        last = official.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
        return refused, f"official crashes ({last[0][:90]}); ours exit {ours.returncode}: {err[:160]}"
    if deliberate:
        return refused, f"official exit 0; ours refuses on purpose ({deliberate}): {err[:120]}"
    warnings = sum(1 for line in official.stdout.splitlines() if line.startswith(b"WARNING"))
    same = ours.returncode == 0 and official.stdout == ours.stdout
    what = f"official exit 0 ({warnings} WARNING lines); ours exit {ours.returncode}"
    if ours.returncode:
        what += f": {err[:160]}"
    elif not same:
        what += ", stdout differs"
    return same, what


def run_edge_cases(
    scorer: Path, python: str, pythonpath: str | None, out: Path, only: set[str] | None = None
) -> int:
    from tests.evaluation.edge_corpus import write_edge_cases

    differing = 0
    compared = 0
    for case, gold, system in write_edge_cases(out):
        if only and case.name not in only and case.name.removesuffix("+v") not in only:
            continue
        compared += 1
        agrees, what = compare_edge_case(
            scorer,
            python,
            pythonpath,
            gold,
            system,
            case.verbose,
            case.deliberate,
            case.options,
            case.our_options(),
        )
        differing += not agrees
        print(f"{'ok  ' if agrees else 'DIFF'} {case.name}: {what}", flush=True)
    print(
        f"edge cases compared {compared}, agreeing {compared - differing}, differing {differing} (folders in {out})"
    )
    return 0 if differing == 0 else 1


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
    parser.add_argument(
        "--edge-cases", action="store_true", help="compare on the odd and hostile cases of edge_corpus.py"
    )
    parser.add_argument("--only", help="with --edge-cases: only these cases (comma-separated names)")
    args = parser.parse_args(argv)

    if args.edge_cases:
        out = args.out or Path(tempfile.mkdtemp(prefix="i2b2edge-"))
        only = set(args.only.split(",")) if args.only else None
        return run_edge_cases(args.scorer, args.python, args.pythonpath, out, only)

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
    from annotator.evaluation.official_verbose import in_script_order

    gold_docs, system_docs = read_official_sides(gold, system)
    runs = in_script_order(Path(system), score_official(gold_docs, system_docs))
    ours_out = official_warnings(gold_docs, system_docs) + format_runs(runs)
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
    identical = official_out == ours_out
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
