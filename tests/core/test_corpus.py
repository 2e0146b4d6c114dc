"""Corpus: documents grouped by patient, in record order."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.corpus import Corpus
from annotator.core.document import Document
from annotator.errors import AnnotatorError, InputError
from annotator.io.corpus import list_document_files, read_corpus
from annotator.io.i2b2 import write_i2b2


def _corpus() -> Corpus:
    return Corpus([Document(i, "x") for i in ["200-10", "101-02", "101-01", "200-02"]])


def test_documents_are_ordered_by_patient_then_record_number() -> None:
    assert _corpus().doc_ids == ["101-01", "101-02", "200-02", "200-10"]


def test_patients_group_their_records() -> None:
    groups = _corpus().patients()
    assert {p: [d.record for d in ds] for p, ds in groups.items()} == {"101": [1, 2], "200": [2, 10]}
    assert [d.doc_id for d in _corpus().records_of("200")] == ["200-02", "200-10"]


def test_duplicate_names_are_refused() -> None:
    with pytest.raises(AnnotatorError, match="two documents named 101-01"):
        Corpus([Document("101-01", "a"), Document("101-01", "b")])


def test_lookup() -> None:
    corpus = _corpus()
    assert corpus["101-02"].doc_id == "101-02" and "101-02" in corpus and len(corpus) == 4
    with pytest.raises(AnnotatorError, match="no document"):
        corpus["999-01"]


def test_read_corpus_skips_hidden_and_temporary_files(tmp_path: Path) -> None:
    for name in ("101-01", "101-02"):
        write_i2b2(Document(name, "text"), tmp_path / f"{name}.xml")
    (tmp_path / ".101-03.xml.tmp").write_text("partial")
    (tmp_path / "~lock.xml").write_text("x")
    assert [p.name for p in list_document_files(tmp_path)] == ["101-01.xml", "101-02.xml"]
    assert read_corpus(tmp_path).doc_ids == ["101-01", "101-02"]


def test_read_corpus_collects_errors_when_asked(tmp_path: Path) -> None:
    write_i2b2(Document("101-01", "text"), tmp_path / "101-01.xml")
    (tmp_path / "101-02.xml").write_text("<broken")
    errors: list[AnnotatorError] = []
    assert read_corpus(tmp_path, errors=errors).doc_ids == ["101-01"]
    assert len(errors) == 1 and "101-02.xml" in errors[0].one_line()
    with pytest.raises(InputError):
        read_corpus(tmp_path)


def test_read_corpus_needs_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a folder"):
        read_corpus(tmp_path / "missing")
