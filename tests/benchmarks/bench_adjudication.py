"""Adjudication speed on a corpus of the size of the 2014 i2b2 release.

Run: ``python -m tests.benchmarks.bench_adjudication [PATIENTS]`` (default 360 patients:
about 1,300 documents and 30,000-37,000 tags per annotator). Prints seconds (wall and CPU)
for aligning every document (best of three), finding missed-PHI candidates, auto-merging,
and the gold consistency check.
"""

from __future__ import annotations

import sys
import time

from annotator.adjudication.consistency import check_consistency, missed_candidates
from annotator.adjudication.decisions import AdjudicationSession
from annotator.adjudication.units import add_candidates, align_documents
from annotator.synth.generator import generate_corpus


def main(patients: int = 360) -> None:
    corpus = generate_corpus(patients=patients, seed=2014)
    tags_a = sum(len(d) for d in corpus.annotator_a)
    tags_b = sum(len(d) for d in corpus.annotator_b)
    print(f"corpus: {len(corpus.gold)} documents, {tags_a} / {tags_b} tags (annotator a / b)")

    best_wall = best_cpu = float("inf")
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        alignments = [
            align_documents([a, b], ["annotator_a", "annotator_b"])
            for a, b in zip(corpus.annotator_a, corpus.annotator_b, strict=True)
        ]
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    units = sum(len(a.units) for a in alignments)
    print(f"align:       {best_wall:.3f} s wall, {best_cpu:.3f} s CPU  ({units} units; target < 1 s)")

    started = time.perf_counter()
    found = missed_candidates(alignments, scope="patient")
    for alignment in alignments:
        add_candidates(alignment, found[alignment.doc_id])
    print(
        f"candidates:  {time.perf_counter() - started:.3f} s  ({sum(len(v) for v in found.values())} found, patient scope)"
    )

    started = time.perf_counter()
    sessions = [AdjudicationSession(alignment, "bench") for alignment in alignments]
    resolved = sum(s.progress()[0] for s in sessions)
    print(f"auto-merge:  {time.perf_counter() - started:.3f} s  ({resolved} of {units} units auto-accepted)")

    started = time.perf_counter()
    findings = check_consistency(corpus.gold, scope="corpus")
    print(
        f"consistency: {time.perf_counter() - started:.3f} s  ({len(findings)} findings on the gold, corpus scope)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 360)
