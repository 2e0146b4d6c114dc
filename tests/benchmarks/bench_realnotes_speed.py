"""Tagging speed on real clinical notes: the bundled default model over PhysioNet nursing notes.

Run: ``PHYSIONET_DEID=/path/to/deid-1.1 python -m tests.benchmarks.bench_realnotes_speed
[--notes N] [--repeats R]``. The corpus (2,434 MIMIC-II nursing notes; see bench_realnotes) is
read from ``$PHYSIONET_DEID`` or ``--physionet`` and never copied; without it the benchmark
says so and stops.

Target (issue 24): 20,000 tokens/s of CPU time with post-processing on. CPU time
(``time.process_time``) rather than wall time, because the machine may be shared: other
processes slow the wall clock, much less this process's own CPU time. Each setting is timed
``R`` times, alternating, after one untimed pass that fills the per-word caches (a session
tags many notes); the best pass is the figure, the median says how steady it was. The first
pass of a fresh process (caches empty) is printed too.

Then what a user waits for: the whole ``annotator preannotate default`` command (start-up,
reading and writing the files included) on the test patients' 550 notes, in wall time, with
one process and with the processes it chooses itself (``--workers``; one per core, up to
four, for this much text). This figure depends on the cores and on what else runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from annotator.core.document import Document
from annotator.crf.default_model import load_default_model
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize
from annotator.io.i2b2 import write_i2b2
from annotator.io.physionet import read_physionet
from annotator.io.site_lists import SiteLists
from tests.benchmarks.bench_realnotes import corpus_site_lists

PHYSIONET_ENV = "PHYSIONET_DEID"
TARGET = 20_000
TEST_FIRST_PATIENT = 111
WARM_UP_NOTES = 30
BIAS = 0.9
LISTS_SETTING = "post-processing on, deid.pl's site lists"
# (name, post-processing, recall bias)
SETTINGS: tuple[tuple[str, bool, float | None], ...] = (
    ("model only (post-processing off)", False, None),
    ("post-processing on", True, None),
    (f"post-processing on, recall bias {BIAS}", True, BIAS),
)


def cpu_seconds(
    tagger: CrfTagger,
    notes: Sequence[Document],
    postprocess: bool,
    bias: float | None,
    lists: SiteLists | None = None,
) -> float:
    tagger.postprocess = postprocess
    tagger.site_lists = lists
    started = time.process_time()
    tagger.predict_spans(notes, recall_bias=bias)
    return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--physionet", type=Path, default=os.environ.get(PHYSIONET_ENV))
    parser.add_argument("--notes", type=int, default=800, help="how many notes to tag (from the first)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if args.physionet is None or not (Path(args.physionet) / "id.text").is_file():
        print(f"skipped: set {PHYSIONET_ENV} (or --physionet) to the PhysioNet deid 1.1 folder (id.text)")
        return 0
    notes = read_physionet(args.physionet)[: args.notes]
    tokens = sum(len(tokenize(note.text)) for note in notes)
    tagger = load_default_model()
    tagger.predict_spans(notes[:WARM_UP_NOTES])
    first = cpu_seconds(tagger, notes, True, None)
    timings: dict[str, list[float]] = {name: [] for name, _, _ in SETTINGS}
    lists = corpus_site_lists(args.physionet)
    if lists is not None:
        timings[LISTS_SETTING] = []
    for _ in range(args.repeats):
        for name, postprocess, bias in SETTINGS:
            timings[name].append(cpu_seconds(tagger, notes, postprocess, bias))
        if lists is not None:
            timings[LISTS_SETTING].append(cpu_seconds(tagger, notes, True, None, lists))
    print(f"{len(notes)} notes, {tokens:,} tokens; bundled default model; CPU time; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")  # fmt: skip
    print(f"{'setting':42s} {'best tokens/s':>14s} {'median':>9s} {'best s':>7s}")
    for name, seconds in timings.items():
        best = min(seconds)
        print(f"{name:42s} {tokens / best:14,.0f} {tokens / statistics.median(seconds):9,.0f} {best:7.2f}")
    print(
        f"{'post-processing on, first pass (cold caches)':42s} {tokens / first:14,.0f} {'':9s} {first:7.2f}"
    )
    on = tokens / min(timings[SETTINGS[1][0]])
    print(f"\ntarget {TARGET:,} tokens/s with post-processing on: {'met' if on >= TARGET else 'NOT met'}")
    test = [note for note in read_physionet(args.physionet) if int(note.patient_id) >= TEST_FIRST_PATIENT]
    command_timings(test)
    return 0


def command_timings(notes: Sequence[Document]) -> None:
    """Wall time of the whole command over ``notes`` (written as i2b2 files, without tags)."""
    tokens = sum(len(tokenize(note.text)) for note in notes)
    print(f"\nthe whole command, wall time ({len(notes)} notes of the test patients, {tokens:,} tokens, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}):")  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "notes"
        source.mkdir()
        for note in notes:
            write_i2b2(Document(note.doc_id, note.text), source / f"{note.doc_id}.xml")
        for label, workers in (
            ("one process (--workers 1)", ["--workers", "1"]),
            ("processes it chooses", []),
        ):
            output = Path(scratch) / f"out{len(workers)}"
            started = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "annotator",
                    "preannotate",
                    "default",
                    str(source),
                    "-o",
                    str(output),
                    *workers,
                ],
                check=True,
                capture_output=True,
            )
            seconds = time.perf_counter() - started
            print(f"  {label:40s} {tokens / seconds:14,.0f} tokens/s {seconds:7.2f} s")


if __name__ == "__main__":
    sys.exit(main())
