"""Batch pre-annotation on a local dask cluster: notes/s with 1 and 2 workers, peak memory per
worker, scaling efficiency, and the projection to 10 million notes.

Run: ``python -m tests.benchmarks.bench_batch [NOTES]`` (default 10,000 synthetic notes; the
model is trained on 40 other patients). On a machine with more cores, raise ``WORKERS``.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

from annotator.batch.cluster import open_client
from annotator.batch.jobs import BatchRun, ClusterOptions, batch_preannotate
from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger
from annotator.io.i2b2 import write_i2b2
from annotator.synth.generator import generate_corpus

WORKERS = (1, 2)
NOTES_PER_PATIENT = 3.4  # a little under the generator's average, so enough notes come out
PARTITION = 50
ARCHIVE = 10_000_000


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _notes(count: int) -> list[Document]:
    """``count`` untagged synthetic notes; the generator makes at most 900 patients a call, so
    batches get their own seeds and patient-id prefixes."""
    notes: list[Document] = []
    batch = 0
    while len(notes) < count:
        wanted = min(800, int((count - len(notes)) / NOTES_PER_PATIENT) + 1)
        for document in generate_corpus(patients=wanted, seed=99 + batch).gold:
            notes.append(Document(f"{batch}{document.doc_id}", document.text))
        batch += 1
    return notes[:count]


def main(notes: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        corpus = _notes(notes)
        source = root / "notes"
        source.mkdir()
        for document in corpus:
            write_i2b2(document, source / f"{document.doc_id}.xml")
        tagger = CrfTagger(max_iterations=50)
        tagger.train(generate_corpus(patients=40, seed=7).gold)
        model = root / "model.crf"
        tagger.save(model)
        print(f"{len(corpus)} notes, {sum(len(d.text) for d in corpus) / 1e6:.1f} M characters")
        rates: dict[int, float] = {}
        for workers in WORKERS:
            started = time.perf_counter()
            with open_client(None, workers) as client:
                spin_up = time.perf_counter() - started
                cluster = ClusterOptions(client.scheduler_info()["address"], workers, PARTITION)
                started = time.perf_counter()
                report = batch_preannotate(model, source, root / f"out-{workers}", run=BatchRun(cluster))
                seconds = time.perf_counter() - started
                peaks = client.run(_peak_rss_mb)
            rates[workers] = report.documents / seconds
            print(
                f"{workers} worker(s): {seconds:.1f} s, {rates[workers]:.0f} notes/s "
                f"({report.partitions} partitions; cluster start {spin_up:.1f} s), "
                f"peak RSS per worker {max(peaks.values()):.0f} MB"
            )
        best = max(WORKERS)
        efficiency = rates[best] / (best * rates[1])
        print(f"scaling efficiency at {best} workers: {efficiency:.0%}")
        for cores in (2, 32, 256):
            hours = ARCHIVE / (rates[1] * cores * efficiency) / 3600
            print(f"projected for {ARCHIVE:,} notes on {cores} worker cores: {hours:.1f} h")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
