"""Read + validate speed: a 2,000-document synthetic corpus, one core.

Run: ``python -m tests.benchmarks.bench_io``. Goal: at least 2,000 documents/s. Prints
documents/s, tags/s and peak memory (tracemalloc on a second pass, and the process's
maximum resident set size).
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.validate import read_and_validate, validate_file
from annotator.synth.generator import generate_corpus

DOCUMENTS = 2000
SEED = 2006


def make_corpus(folder: Path) -> list[Path]:
    corpus = generate_corpus(DOCUMENTS * 2 // 7 + 20, SEED)
    paths = []
    for document in corpus.gold[:DOCUMENTS]:
        path = folder / f"{document.doc_id}.xml"
        write_i2b2(document, path)
        paths.append(path)
    return paths


def read_validate_all(paths: list[Path]) -> tuple[int, int, int]:
    schema = load_schema("i2b2-2014")
    tags = errors = 0
    for path in paths:
        document, problems = read_and_validate(path, schema)
        assert document is not None
        tags += len(document)
        errors += sum(p.is_error for p in problems)
    return len(paths), tags, errors


def large_record(folder: Path, characters: int = 200_000) -> tuple[Path, int]:
    """One record of about 200,000 characters with thousands of tags, from generated notes."""
    corpus = generate_corpus(80, SEED + 1)
    pieces: list[str] = []
    annotations: list[Annotation] = []
    offset = 0
    for note in corpus.gold:
        for a in note.annotations:
            annotations.append(
                a.replace(id=f"P{len(annotations)}", start=a.start + offset, end=a.end + offset)
            )
        pieces.append(note.text + "\n")
        offset += len(note.text) + 1
        if offset >= characters:
            break
    document = Document("999-01", "".join(pieces), annotations)
    path = folder / "999-01.xml"
    write_i2b2(document, path)
    return path, len(annotations)


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        paths = make_corpus(Path(name))
        size = sum(p.stat().st_size for p in paths)
        print(f"documents {len(paths)}, {size / 1e6:.1f} MB on disk")
        read_validate_all(paths[:50])  # warm the file cache and imports
        best = best_cpu = float("inf")
        for _ in range(3):
            started, started_cpu = time.perf_counter(), time.process_time()
            count, tags, errors = read_validate_all(paths)
            best = min(best, time.perf_counter() - started)
            best_cpu = min(best_cpu, time.process_time() - started_cpu)
        print(
            f"read + validate (one parse): {count / best:,.0f} documents/s wall, "
            f"{count / best_cpu:,.0f} documents/s of CPU time, {tags / best_cpu:,.0f} tags/s "
            f"({best:.2f} s wall, {best_cpu:.2f} s CPU for {count} documents, {tags} tags, {errors} errors)"
        )
        started = time.perf_counter()
        for path in paths:
            read_i2b2(path)
            validate_file(path)
        separate = time.perf_counter() - started
        print(f"read_i2b2 + validate_file (two parses): {len(paths) / separate:,.0f} documents/s")
        tracemalloc.start()
        read_validate_all(paths)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        schema = load_schema("i2b2-2014")
        kept = [read_and_validate(path, schema)[0] for path in paths]
        _current, peak_all = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"peak traced memory, streaming read + validate: {peak / 1e6:.1f} MB")
        print(f"peak traced memory, all {len(kept)} documents kept in memory: {peak_all / 1e6:.1f} MB")
        path, tags = large_record(Path(name))
        started = time.perf_counter()
        document, problems = read_and_validate(path, load_schema("i2b2-2014"))
        elapsed = time.perf_counter() - started
        assert document is not None and not [p for p in problems if p.is_error]
        print(
            f"one record of {len(document.text):,} characters and {tags:,} tags: "
            f"read + validate in {elapsed * 1000:.0f} ms"
        )
    scale = 1024 if sys.platform != "darwin" else 1024 * 1024
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale:.0f} MB")


if __name__ == "__main__":
    main()
