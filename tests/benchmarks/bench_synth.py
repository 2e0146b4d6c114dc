"""Synthetic corpus speed: generate and write 300 patients (about 1,050 records x 4 versions).

Run: ``python -m tests.benchmarks.bench_synth``. Goal: well under 20 s in all. Also prints
the gold type counts and the agreement between the two simulated annotators.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter

from annotator.synth.generator import SyntheticCorpus, generate_corpus, write_corpus

PATIENTS = 300
SEED = 2014


def strict_f1(corpus: SyntheticCorpus) -> float:
    a = {(d.doc_id, *t.key) for d in corpus.annotator_a for t in d}
    b = {(d.doc_id, *t.key) for d in corpus.annotator_b for t in d}
    both = len(a & b)
    return 2 * both / (len(a) + len(b))


def main() -> None:
    started = time.perf_counter()
    corpus = generate_corpus(PATIENTS, SEED)
    generated = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        paths = write_corpus(corpus, folder)
        written = time.perf_counter() - started
    documents = len(corpus.gold)
    tags = sum(len(d) for d in corpus.gold)
    tokens = sum(len(d.text.split()) for d in corpus.gold)
    print(f"patients {PATIENTS}, documents {documents}, files {len(paths)}")
    print(f"generate {generated:.2f} s, write {written:.2f} s, total {generated + written:.2f} s")
    print(f"gold tags {tags} ({tags / documents:.1f}/doc), tokens {tokens} ({tokens / documents:.0f}/doc)")
    print(f"annotator A vs B strict entity F1 {strict_f1(corpus):.3f}")
    counts = Counter(a.type for d in corpus.gold for a in d)
    for type_, count in counts.most_common():
        print(f"  {type_:<15}{count:>7}  {100 * count / tags:5.1f}%")


if __name__ == "__main__":
    main()
