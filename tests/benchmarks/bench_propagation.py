"""Annotate-all search + preview over a ~2,000-document project; consistency check.

Run: ``python -m tests.benchmarks.bench_propagation``. Goal: search + preview < 200 ms for
a typical name (SPEC §4, issue 3). Prints milliseconds: the median of several runs with the
per-document caches warm (as in the GUI after the first search or after
``prepare_indexes``), and the first, cold search.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Literal

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.propagation import (
    PropagationPreview,
    clear_indexes,
    find_occurrences,
    find_unannotated_occurrences,
    prepare_indexes,
    scope_documents,
)

PATIENTS = 570  # about 2,000 records (2-5 per patient)
RUNS = 7


def timed(function: Callable[[], object], runs: int = RUNS) -> tuple[float, object]:
    times = []
    result: object = None
    for _ in range(runs):
        started = time.perf_counter()
        result = function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), result


def project_documents() -> tuple[list[Document], str]:
    """The synthetic project (the synth generator), or a crude stand-in if it fails."""
    try:
        from annotator.synth.generator import generate_corpus

        for seed in (1, 2, 3):
            try:
                return generate_corpus(patients=PATIENTS, seed=seed).gold, f"annotator.synth, seed {seed}"
            except ValueError:
                continue
    except ImportError:
        pass
    print("(synth generator unavailable; using a stand-in corpus)")
    rng = random.Random(1)
    words = [f"word{i}" for i in range(3000)]
    names = ["Marissa Jones", "Kai Yamamoto", "Terry Reilly", "Ann Baird"]
    documents = []
    for patient in range(PATIENTS):
        for record in range(1, rng.randint(2, 5) + 1):
            tokens = [rng.choice(words) for _ in range(600)]
            document = Document(f"{patient + 100:03d}-{record:02d}", "")
            for _ in range(5):
                tokens.insert(rng.randrange(len(tokens)), rng.choice(names))
            document.text = " ".join(tokens)
            for name in names:
                at = document.text.find(name)
                if at >= 0:
                    document.add(document.make_annotation("NAME", "DOCTOR", at, at + len(name)))
            documents.append(document)
    return documents, "stand-in"


def pick_source(documents: list[Document], type_: str) -> tuple[Document, Annotation] | None:
    for document in documents:
        for annotation in document.annotations:
            if annotation.type == type_ and " " in annotation.text:
                return document, annotation
    return None


def main() -> None:
    started = time.perf_counter()
    documents, origin = project_documents()
    chars = sum(len(d.text) for d in documents)
    tags = sum(len(d) for d in documents)
    print(
        f"project ({origin}): {len(documents)} documents, {chars / 1e6:.1f} M characters, {tags} tags "
        f"(made in {time.perf_counter() - started:.1f} s)"
    )
    clear_indexes()
    prepare_ms, _ = timed(lambda: prepare_indexes(documents), runs=1)
    print(f"prepare_indexes (all caches, cold): {prepare_ms:.0f} ms")
    for type_ in ("DOCTOR", "PATIENT", "HOSPITAL"):
        picked = pick_source(documents, type_)
        if picked is None:
            continue
        current, source = picked
        scope = scope_documents("project", current, documents)

        def search(
            fuzzy: bool,
            scope: list[Document] = scope,
            current: Document = current,
            source: Annotation = source,
        ) -> PropagationPreview:
            return find_occurrences(source, scope, origin_doc_id=current.doc_id, fuzzy=fuzzy)

        clear_indexes()
        cold_ms, _ = timed(lambda: search(False), runs=1)
        exact_ms, preview = timed(lambda: search(False))
        clear_indexes()
        fuzzy_cold_ms, _ = timed(lambda: search(True), runs=1)
        fuzzy_ms, fuzzy_preview = timed(lambda: search(True))
        assert isinstance(preview, PropagationPreview) and isinstance(fuzzy_preview, PropagationPreview)
        counts = fuzzy_preview.counts()
        print(
            f"annotate all, project scope, a {type_} ({len(source.text.split())} words): "
            f"exact {exact_ms:.1f} ms (cold {cold_ms:.1f}); with fuzzy {fuzzy_ms:.1f} ms (cold {fuzzy_cold_ms:.1f}); "
            f"{counts['matches']} new, {counts['already']} already, {counts['conflicts']} conflicts, "
            f"{counts['fuzzy']} fuzzy"
        )
        patient_scope = scope_documents("patient", current, documents)
        patient_ms, _ = timed(
            functools.partial(
                find_occurrences, source, patient_scope, origin_doc_id=current.doc_id, fuzzy=True
            )
        )
        print(f"   patient scope ({len(patient_scope)} records), with fuzzy: {patient_ms:.2f} ms")
    scope_name: Literal["patient", "corpus"]
    for scope_name in ("patient", "corpus"):

        def check(scope: Literal["patient", "corpus"] = scope_name) -> object:
            return find_unannotated_occurrences(documents, scope=scope)

        ms, found = timed(check, runs=3)
        assert isinstance(found, list)
        print(f"consistency check ({scope_name} scope): {ms:.0f} ms, {len(found)} unannotated occurrences")


if __name__ == "__main__":
    main()
