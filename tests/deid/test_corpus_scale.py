"""Must-show corpus checks on the synthetic generator: zero leaks, every output file valid."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from annotator.core.document import split_record_name
from annotator.deid.dates import parse_date, reference_date
from annotator.deid.export import deidentify_documents, export_deidentified
from annotator.deid.names import is_title, name_tokens
from annotator.deid.surrogates import CorpusContext, DeidOptions
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


def test_no_original_name_reused_and_dates_consistent() -> None:
    corpus = generate_corpus(patients=12, seed=8)
    result = deidentify_documents(corpus.gold, DeidOptions(seed=8))
    original_tokens = CorpusContext.from_documents(corpus.gold).name_tokens
    surrogate_tokens = {
        token.lower()
        for items in result.replaced.values()
        for r in items
        if r.original.type in ("PATIENT", "DOCTOR") and not r.review
        for token in name_tokens(r.new.text)
        if not is_title(token) and len(token) > 1
    }
    assert surrogate_tokens and not surrogate_tokens & original_tokens
    # One shift per patient: every full date with a 4-digit year moves by exactly that shift.
    checked = 0
    for doc_id, items in result.replaced.items():
        shift = result.shifts[split_record_name(doc_id)[0]]
        for r in items:
            before = parse_date(r.original.text.strip())
            after = parse_date(r.new.text.strip())
            if before and after and before.year and not before.two_digit_year and reference_date(before):
                assert (reference_date(after) - reference_date(before)).days == shift.total_days  # type: ignore[operator]
                checked += 1
    assert checked > 50


@pytest.mark.slow
def test_the_275_patient_corpus_of_the_issue_exports_with_no_finding() -> None:
    # synth --patients 275 --seed 5 once failed: "J. Le" kept its surname ("le" is also a
    # particle), and later year-less dates read in their note's year repeated an original.
    from annotator.deid.leakcheck import find_leaks
    from annotator.synth.generator import generate_corpus

    gold = generate_corpus(patients=275, seed=5).gold
    result = deidentify_documents(gold, DeidOptions(seed=0))
    assert find_leaks(gold, result.documents) == []
