"""Must-show corpus checks on the synthetic generator: zero leaks, every output file valid."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from annotator.deid.export import export_deidentified
from annotator.deid.surrogates import DeidOptions
from annotator.io.corpus import read_corpus
from annotator.io.i2b2 import write_i2b2
from annotator.synth.generator import generate_corpus


def export_synthetic(
    tmp_path: Path, patients: int, seed: int, method: str = "surrogate"
) -> tuple[Path, Path, float]:
    corpus = generate_corpus(patients=patients, seed=seed)
    gold = tmp_path / "gold"
    for document in corpus.gold:
        write_i2b2(document, gold / f"{document.doc_id}.xml")
    out = tmp_path / "out"
    started = time.perf_counter()
    report = export_deidentified(gold, out, DeidOptions(method=method, seed=seed))
    assert report.leaks == [] and report.documents == len(corpus.gold)
    return gold, out, time.perf_counter() - started


def check_outputs(gold: Path, out: Path) -> None:
    originals = read_corpus(gold)
    outputs = read_corpus(out)
    assert outputs.doc_ids == originals.doc_ids
    for document in outputs:
        original = originals[document.doc_id]
        assert [a.id for a in document] == [a.id for a in original]
        assert all(document.text[a.start : a.end] == a.text for a in document)
        assert document.text != original.text


@pytest.mark.parametrize("method", ["surrogate", "mask"])
def test_twenty_patients_zero_leaks_valid_files(tmp_path: Path, method: str) -> None:
    gold, out, _ = export_synthetic(tmp_path, patients=20, seed=3, method=method)
    check_outputs(gold, out)


@pytest.mark.slow
def test_three_hundred_patients_zero_leaks_valid_files(tmp_path: Path) -> None:
    gold, out, seconds = export_synthetic(tmp_path, patients=300, seed=1)
    check_outputs(gold, out)
    assert seconds < 120
