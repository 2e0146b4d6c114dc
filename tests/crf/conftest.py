"""Shared fixtures: a small synthetic gold corpus and a tagger trained on it (once per run)."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger
from annotator.synth.generator import generate_corpus


@pytest.fixture(scope="session")
def gold_documents() -> list[Document]:
    return generate_corpus(patients=8, seed=11).gold


@pytest.fixture(scope="session")
def trained_tagger(gold_documents: list[Document]) -> CrfTagger:
    tagger = CrfTagger(max_iterations=10)
    tagger.train([d for d in gold_documents if d.patient_id != "107"])
    return tagger


@pytest.fixture(scope="session")
def held_out(gold_documents: list[Document]) -> list[Document]:
    return [d for d in gold_documents if d.patient_id == "107"]
