"""Chunked tagging: bounded pieces of a note give the tokens and the tags of the whole note."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.crf.chunks import AnnotationIndex, iter_chunks
from annotator.crf.tagger import CrfTagger
from annotator.crf.tokenizer import tokenize


@pytest.mark.parametrize("size", [1, 40, 300, 5_000])
def test_chunk_cores_are_the_notes_tokens(gold_documents: list[Document], size: int) -> None:
    text = gold_documents[0].text
    chunks = list(iter_chunks(text, max_chars=size, context=5))
    assert [t for c in chunks for t in c.core] == tokenize(text)
    if size < len(text) // 2:
        assert len(chunks) > 1
        # Five tokens of context on both sides (fewer only at the note's ends).
        tokens = tokenize(text)
        seen = 0
        for chunk in chunks:
            assert chunk.tokens == tokens[max(0, seen - 5) : seen + len(chunk.core) + 5]
            seen += len(chunk.core)


def test_a_line_without_breaks_is_cut_at_spaces() -> None:
    text = "word " * 2_000
    chunks = list(iter_chunks(text, max_chars=100))
    assert len(chunks) > 20
    assert all(c.core[-1].end - c.core[0].start < 300 for c in chunks)
    assert [t for c in chunks for t in c.core] == tokenize(text)


def _whole_and_chunked(trained_tagger: CrfTagger, tmp_path: Path) -> tuple[CrfTagger, CrfTagger]:
    """Two copies of one model: one tags whole notes, the other 250-character chunks."""
    path = tmp_path / "m.model"
    trained_tagger.save(path)
    whole = CrfTagger.load(path)
    chunked = CrfTagger.load(path)
    chunked.chunk_chars = 250
    return whole, chunked


def test_small_chunks_tag_like_the_whole_note(
    trained_tagger: CrfTagger, held_out: list[Document], tmp_path: Path
) -> None:
    whole, chunked = _whole_and_chunked(trained_tagger, tmp_path)
    assert any(len(list(chunked.chunks(d.text))) > 3 for d in held_out)
    for bias in (None, 0.95):
        expected = whole.predict_spans(held_out, bias)
        found = chunked.predict_spans(held_out, bias)
        for document in held_out:
            assert expected[document.doc_id], "the held-out notes hold PHI"
            pairs = zip(expected[document.doc_id], found[document.doc_id], strict=True)
            for a, b in pairs:
                assert (a.type, a.start, a.end, a.origin) == (b.type, b.start, b.end, b.origin)
                assert a.confidence == pytest.approx(b.confidence, abs=1e-6)


def test_annotation_index_finds_overlaps(gold_documents: list[Document]) -> None:
    document = gold_documents[0]
    index = AnnotationIndex(document.annotations)
    for start, end in ((0, 50), (100, 400), (len(document.text) - 80, len(document.text))):
        expected = {a.id for a in document.annotations if a.start < end and a.end > start}
        assert {a.id for a in index.overlapping(start, end)} == expected


def test_scoring_in_small_chunks_covers_every_token_of_the_note(
    trained_tagger: CrfTagger, held_out: list[Document], tmp_path: Path
) -> None:
    whole, chunked = _whole_and_chunked(trained_tagger, tmp_path)
    document = max(held_out, key=lambda d: len(d.text))
    assert len(list(chunked.chunks(document.text))) > 3
    expected, found = whole.score(document), chunked.score(document)
    assert found.tokens == expected.tokens == tokenize(document.text)
    assert [s.label for s in found.scores] == [s.label for s in expected.scores]
    assert [s.p_outside for s in found.scores] == pytest.approx(
        [s.p_outside for s in expected.scores], abs=1e-6
    )


@pytest.mark.parametrize("enabled", [True, False])
def test_scoring_a_chunk_leaves_the_garbage_collector_as_it_was(
    trained_tagger: CrfTagger, held_out: list[Document], enabled: bool
) -> None:
    # Scoring pauses the collector while a chunk's features are built; it must come back on
    # (and stay off for a caller that had turned it off).
    document = held_out[0]
    chunk = next(iter(trained_tagger.chunks(document.text)))
    (gc.enable if enabled else gc.disable)()
    try:
        assert trained_tagger.score_chunk(document.text, chunk)
        assert trained_tagger.chunk_attributes(document.text, chunk)
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
