"""Every file of a generated corpus saves byte-identical after read + write."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.io.i2b2 import document_to_i2b2, read_i2b2
from annotator.io.validate import validate_file
from annotator.synth.generator import generate_corpus, write_corpus


def _check_corpus(patients: int, out: Path) -> int:
    paths = write_corpus(generate_corpus(patients, seed=7), out)
    for path in paths:
        original = path.read_bytes()
        document = read_i2b2(path)
        assert document_to_i2b2(document) == original, path
        assert document_to_i2b2(document, reuse_original=False) == original, path
    return len(paths)


def test_generated_corpus_saves_byte_identical(tmp_path: Path) -> None:
    assert _check_corpus(20, tmp_path) > 150


def test_generated_corpus_is_valid(tmp_path: Path) -> None:
    from annotator.core.schema import load_schema

    schema = load_schema("i2b2-2014")
    paths = write_corpus(generate_corpus(5, seed=3), tmp_path)
    problems = [p for path in paths for p in validate_file(path, schema) if p.is_error]
    assert problems == []


@pytest.mark.slow
def test_300_patient_corpus_saves_byte_identical(tmp_path: Path) -> None:
    assert _check_corpus(300, tmp_path) > 2000
