"""Hypothesis round trips for every format over awkward texts and random spans."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from annotator.core.document import Document
from annotator.io.brat import read_brat, write_brat
from annotator.io.conll import conll_spans, document_to_conll, document_tokens
from annotator.io.i2b2 import document_to_i2b2, parse_i2b2, read_i2b2, write_i2b2
from annotator.io.inline2006 import documents_to_inline2006, parse_inline2006
from annotator.io.jsonl import documents_to_jsonl, parse_jsonl
from annotator.io.mae import document_to_mae, parse_mae
from tests.io.strategies import SCHEMA, documents

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _full(document: Document) -> list[tuple[object, ...]]:
    return [
        (
            a.id,
            a.tag,
            a.type,
            a.start,
            a.end,
            a.text,
            a.comment,
            a.source,
            a.confidence,
            a.annotator,
            a.pending,
            a.extra,
        )
        for a in document.annotations
    ]


@FAST
@given(documents())
def test_i2b2_roundtrip_keeps_every_field(document: Document) -> None:
    data = document_to_i2b2(document)
    again = parse_i2b2(data, "100-01.xml")
    assert again.text == document.text
    assert _full(again) == _full(document)
    # The canonical writer reproduces its own output byte for byte.
    assert document_to_i2b2(again, reuse_original=False) == data


@FAST
@given(documents())
def test_i2b2_file_roundtrip_through_disk(tmp_path: Path, document: Document) -> None:
    path = tmp_path / "100-01.xml"
    write_i2b2(document, path)
    again = read_i2b2(path)
    assert (again.text, _full(again)) == (document.text, _full(document))
    write_i2b2(again, path)
    assert path.read_bytes() == document_to_i2b2(document)


@FAST
@given(documents())
def test_mae_roundtrip_keeps_every_field(document: Document) -> None:
    again = parse_mae(document_to_mae(document, task="PHI"), "100-01.xml")
    assert again.text == document.text
    assert _full(again) == _full(document)


@FAST
@given(documents(extras=False))
def test_jsonl_roundtrip_keeps_fields_but_extras(document: Document) -> None:
    (again,) = parse_jsonl(documents_to_jsonl([document]), "c.jsonl")
    assert (again.doc_id, again.text) == (document.doc_id, document.text)
    assert _full(again) == _full(document)


@FAST
@given(documents(provenance=False, extras=False))
def test_brat_roundtrip_keeps_spans_types_and_comments(tmp_path: Path, document: Document) -> None:
    path = tmp_path / "100-01.txt"
    write_brat(document, path)
    again = read_brat(path, SCHEMA)
    assert again.text == document.text
    expected = [(a.tag, a.type, a.start, a.end, a.text) for a in document.sorted_annotations()]
    assert [(a.tag, a.type, a.start, a.end, a.text) for a in again.sorted_annotations()] == expected
    comments = [" ".join(a.comment.split()) for a in document.sorted_annotations()]
    assert [" ".join(a.comment.split()) for a in again.sorted_annotations()] == comments


@FAST
@given(documents(extras=False))
def test_inline2006_reads_back_what_we_write(document: Document) -> None:
    (again,) = parse_inline2006(documents_to_inline2006([document]), "c.xml", SCHEMA)
    assert (again.doc_id, again.text) == (document.doc_id, document.text)

    def key(d: Document) -> list[tuple[object, ...]]:
        return [
            (a.tag, a.type, a.start, a.end, a.text, a.comment, a.source, a.confidence, a.annotator, a.pending)
            for a in d.sorted_annotations()
        ]

    assert key(again) == key(document)


@FAST
@given(documents(provenance=False, extras=False))
def test_conll_labels_are_consistent_with_the_spans(document: Document) -> None:
    content = document_to_conll(document)
    expected = []
    for annotation in document.sorted_annotations():
        tokens = [
            t
            for sentence in document_tokens(document)
            for t in sentence
            if annotation.start <= t.start < annotation.end
        ]
        if tokens:
            expected.append((tokens[0].start, tokens[-1].end, annotation.type))
            # Each token is exactly the slice it claims, inside the span, and carries no space.
            assert all(document.text[t.start : t.end] == t.text and t.end <= annotation.end for t in tokens)
        else:
            assert not annotation.text.strip()
    assert conll_spans(content) == {document.doc_id: expected}
