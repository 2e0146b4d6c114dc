"""Benchmark: all 42 official i2b2 tables for ~1,300 documents / ~30,000 tags per side.

Run: ``python -m tests.benchmarks.bench_evaluation [--official SCORER_DIR --python PY27 --pythonpath LIBS]``

The corpus comes from annotator.synth (gold against the preannotated "system"). Figures:
reading both folders, scoring all 42 tables, formatting them, and the clean-mode engine.
With ``--official`` the original script is timed on the same folders; without it the ratio
uses the reference figure (29 s for 500 documents with ~22,000 tags, scaled linearly by tag
count), and says so.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from annotator.evaluation.official import format_runs, read_official_folder, score_official

REFERENCE_SECONDS = 29.0  # the original script, 500 documents, 22,571 gold tags (reference doc, 6.6)
REFERENCE_TAGS = 22_571
TARGET_SECONDS = 1.0


def _corpus(out: Path, patients: int, seed: int) -> tuple[Path, Path]:
    from annotator.synth.generator import generate_corpus, write_corpus

    corpus = generate_corpus(patients=patients, seed=seed)
    write_corpus(corpus, out)
    return out / "gold", out / "preannotated"


def _best_of(repeats: int, func):  # type: ignore[no-untyped-def]
    """(best wall seconds, best CPU seconds of this process, value)."""
    best = best_cpu = float("inf")
    value = None
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        value = func()
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - started_cpu)
    return best, best_cpu, value


def _whole_command(gold_dir: Path, system_dir: Path, repeats: int = 3) -> float:
    """CPU seconds (user + system) of the best of ``repeats`` runs of the command itself."""
    import resource

    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "annotator", "evaluate", "--gold", str(gold_dir), "--system", str(system_dir),
             "--mode", "i2b2"],
            check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="i2b2 evaluation benchmark")
    parser.add_argument(
        "--patients", type=int, default=365, help="synthetic patients (365 ~ 1,300 documents)"
    )
    parser.add_argument("--seed", type=int, default=2014)
    parser.add_argument("--official", type=Path, help="folder of the official evaluate.py, to time it too")
    parser.add_argument("--python", default="python2")
    parser.add_argument("--pythonpath")
    parser.add_argument("--keep", type=Path, help="write the corpus here instead of a temporary folder")
    args = parser.parse_args(argv)

    out = args.keep or Path(tempfile.mkdtemp(prefix="bench-eval-"))
    gold_dir, system_dir = _corpus(out, args.patients, args.seed)

    read_s, read_cpu, docs = _best_of(
        3, lambda: (read_official_folder(gold_dir), read_official_folder(system_dir))
    )
    gold, system = docs
    n_gold_tags = sum(len(d.tags) for d in gold)
    n_system_tags = sum(len(d.tags) for d in system)
    score_s, score_cpu, runs = _best_of(3, lambda: score_official(gold, system))
    format_s, format_cpu, text = _best_of(3, lambda: format_runs(runs))
    total = read_s + score_s + format_s
    total_cpu = read_cpu + score_cpu + format_cpu
    n_tables = sum(len(run.tables) for run in runs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"documents: gold {len(gold)}, system {len(system)}; tags: gold {n_gold_tags}, system {n_system_tags}"
    )
    print(
        f"all {n_tables} i2b2 tables (single thread), wall: read {read_s:.3f} s + score {score_s:.3f} s + "
        f"format {format_s:.3f} s = {total:.3f} s"
    )
    print(
        f"  CPU time of this process: read {read_cpu:.3f} s + score {score_cpu:.3f} s + format {format_cpu:.3f} s "
        f"= {total_cpu:.3f} s; target < {TARGET_SECONDS:.0f} s: {'OK' if total_cpu < TARGET_SECONDS else 'MISSED'} "
        f"(load average {load:.1f} on {os.cpu_count()} CPUs; wall time suffers when the machine is busy)"
    )

    whole = _whole_command(gold_dir, system_dir)
    print(
        f"the whole command (annotator evaluate --mode i2b2, start-up and imports included): best of 3, "
        f"{whole:.3f} s CPU; target < 0.8 s for ~940 documents (--patients 263)"
    )

    from annotator.evaluation.engine import Options, evaluate_pairs
    from annotator.evaluation.loading import load_pairs

    load_s, _, loaded = _best_of(1, lambda: load_pairs(gold_dir, system_dir))
    for match in ("strict", "token"):
        clean_s, clean_cpu, _ = _best_of(1, lambda m=match: evaluate_pairs(loaded.pairs, Options(match=m)))
        print(
            f"clean mode, {match}, with confusion/kappa/disagreements: {clean_s:.3f} s wall, {clean_cpu:.3f} s CPU "
            f"(+ {load_s:.3f} s reading)"
        )

    if args.official:
        env = dict(os.environ)
        if args.pythonpath:
            env["PYTHONPATH"] = args.pythonpath
        started = time.perf_counter()
        result = subprocess.run(
            [args.python, "evaluate.py", "phi", f"{system_dir}/", f"{gold_dir}/"],
            cwd=args.official,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        official_s = time.perf_counter() - started
        cleaned = "".join(
            line + "\n" for line in result.stdout.splitlines() if not line.startswith("WARNING")
        )
        print(
            f"official script on the same folders: {official_s:.1f} s wall; ratio {official_s / total:.0f}x (wall to "
            f"wall); output byte-identical: {cleaned == text}"
        )
    else:
        estimate = REFERENCE_SECONDS * n_gold_tags / REFERENCE_TAGS
        print(
            f"official script not run; reference figure {REFERENCE_SECONDS:.0f} s per {REFERENCE_TAGS} gold tags "
            f"scales to ~{estimate:.0f} s here: ratio ~{estimate / total_cpu:.0f}x against our CPU time (estimate)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
