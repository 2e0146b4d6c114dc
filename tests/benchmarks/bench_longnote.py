"""Memory and speed on one very long note: peak RSS and tokens/s of tagging and training.

Run: ``python -m tests.benchmarks.bench_longnote [MEGABYTES] [--tag-only]`` (9 MB by default). The note is
synthetic gold (``annotator synth`` notes, one after the other, annotations shifted) of at
least that many megabytes. Each measurement runs in a fresh child process that reports its
own peak resident set size (``resource.getrusage``), so the parent's memory does not count:

* tag:   ``annotator preannotate`` (the workflow) with a small model: the whole file read,
         tagged, post-processed and written; peak RSS, wall time, tokens/s;
* train: ``annotator train --iterations 1`` on a folder holding only that note (peak RSS,
         wall time); and, for comparison, on the same note cut into its original notes, so
         the figure shows what one note's length adds beyond its number of tokens.

Targets (issue 13): tagging < 1 GB peak RSS at >= 20,000 tokens/s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import iter_tokens
from annotator.io.i2b2 import write_i2b2
from annotator.synth.generator import generate_corpus

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
started = time.perf_counter()
learnt = 0
mode, model, source, out = sys.argv[1:5]
if mode == "tag":
    from annotator.workflows.preannotate import files_request, preannotate
    preannotate(files_request(Path(model), Path(source), Path(out), force=True))
else:
    from annotator.workflows.train import TrainRequest, train
    learnt = train(TrainRequest(Path(source), Path(out), iterations=1)).metadata.tokens
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"seconds": time.perf_counter() - started, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_mb": usage.ru_maxrss / 1024, "learnt": learnt}))
"""


def long_note(megabytes: float) -> tuple[Document, list[Document]]:
    """Synthetic gold notes joined into one note of at least ``megabytes`` MB, and the notes."""
    notes = generate_corpus(patients=60, seed=31).gold
    target = int(megabytes * 1_000_000)
    parts: list[str] = []
    annotations = []
    size = 0
    used: list[Document] = []
    while size < target:
        for note in notes:
            for annotation in note.annotations:
                annotations.append((annotation, size))
            parts.append(note.text + "\n\n")
            size += len(note.text) + 2
            used.append(note)
            if size >= target:
                break
    document = Document("longnote", "".join(parts))
    for annotation, shift in annotations:
        document.add(
            document.make_annotation(
                annotation.tag, annotation.type, annotation.start + shift, annotation.end + shift
            )
        )
    return document, used


def run_child(mode: str, model: Path, source: Path, out: Path) -> dict[str, float]:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(model), str(source), str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    tag_only = "--tag-only" in argv
    numbers = [a for a in argv if a != "--tag-only"]
    megabytes = float(numbers[0]) if numbers else 9.0
    document, notes = long_note(megabytes)
    tokens = sum(1 for _ in iter_tokens(document.text))
    print(
        f"long note: {len(document.text) / 1e6:.1f} MB, {tokens:,} tokens, {len(document.annotations):,} tags"
    )
    with tempfile.TemporaryDirectory(prefix="bench-longnote-") as folder:
        root = Path(folder)
        tagger = CrfTagger(max_iterations=5)
        tagger.train(generate_corpus(patients=15, seed=32).gold)
        model = root / "small.model"
        tagger.save(model)
        plain = root / "plain"
        gold = root / "gold"
        split = root / "split"
        for path in (plain, gold, split):
            path.mkdir()
        write_i2b2(Document(document.doc_id, document.text), plain / "longnote.xml")
        write_i2b2(document, gold / "longnote.xml")
        for index, note in enumerate(notes):
            write_i2b2(
                Document(f"{note.doc_id}-{index}", note.text, list(note.annotations)), split / f"n{index}.xml"
            )
        del document, notes
        started = time.perf_counter()
        tag = run_child("tag", model, plain / "longnote.xml", root / "tagged.xml")
        print(
            f"tag:   peak RSS {tag['peak_mb']:,.0f} MB, {tag['seconds']:.1f} s wall, {tag['cpu']:.1f} s CPU: "
            f"{tokens / tag['seconds']:,.0f} tokens/s wall, {tokens / tag['cpu']:,.0f} tokens/s CPU "
            f"(child wall {time.perf_counter() - started:.1f} s)"
        )
        # Tokens learnt count the upper-cased copy of every third note (of the one note, itself).
        for label, folder_path in () if tag_only else (("one note", gold), ("same text as notes", split)):
            run = run_child("train", model, folder_path, root / "trained.model")
            print(
                f"train, {label}, 1 iteration: peak RSS {run['peak_mb']:,.0f} MB, {run['seconds']:.1f} s wall, "
                f"{run['learnt']:,.0f} tokens learnt ({run['peak_mb'] / run['learnt'] * 1e6:,.0f} MB per million)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
