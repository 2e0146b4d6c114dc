"""Pre-annotation never removes, changes or overlaps what is already annotated."""

from __future__ import annotations

import random

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.crf.preannotation import add_suggestions, non_overlapping, suggest
from annotator.crf.tagger import CrfTagger


def test_suggestions_overlapping_human_annotations_are_dropped(
    trained_tagger: CrfTagger, held_out: list[Document]
) -> None:
    gold = held_out[0]
    # A human annotated the first half of the gold spans, one of them with a different type.
    document = Document(gold.doc_id, gold.text)
    human = gold.annotations[: len(gold) // 2]
    for annotation in human:
        document.add(annotation.replace(type="OTHER", tag="OTHER") if annotation is human[0] else annotation)
    before = list(document.annotations)
    [result] = suggest(trained_tagger, [document])
    add_suggestions(document, result.kept)
    after = document.annotations
    assert after[: len(before)] == before
    added = after[len(before) :]
    assert added and all(a.source is Source.MODEL and a.pending for a in added)
    for suggestion in added:
        assert not any(suggestion.overlaps(h) for h in before)
    assert result.dropped > 0


def test_preannotating_twice_adds_nothing_new(trained_tagger: CrfTagger, held_out: list[Document]) -> None:
    document = Document(held_out[1].doc_id, held_out[1].text)
    [first] = suggest(trained_tagger, [document])
    add_suggestions(document, first.kept)
    [second] = suggest(trained_tagger, [document])
    assert second.kept == []


def test_non_overlapping_drops_suggestions_overlapping_each_other() -> None:
    document = Document("100-01", "Ora Hendrickson")
    a = document.make_annotation("NAME", "PATIENT", 0, len("Ora Hendrickson"), source=Source.MODEL)
    b = document.make_annotation("NAME", "DOCTOR", len("Ora "), len("Ora Hendrickson"), source=Source.MODEL)
    kept, dropped = non_overlapping(document, [a, b])
    assert kept == [a] and dropped == 1


def test_non_overlapping_matches_the_pairwise_definition() -> None:
    rng = random.Random(5)
    for _ in range(30):
        text = "x" * 400
        document = Document("d", text)
        for _ in range(rng.randint(0, 8)):
            start = rng.randrange(0, 290)
            document.add(document.make_annotation("NAME", "PATIENT", start, start + rng.randint(1, 30)))
        suggestions = []
        for _ in range(rng.randint(0, 25)):
            start = rng.randrange(0, 290)
            suggestions.append(document.make_annotation("DATE", "DATE", start, start + rng.randint(1, 12)))
        expected: list[Annotation] = []
        for s in sorted(suggestions, key=lambda a: (a.start, a.end)):
            if any(a.start < s.end and s.start < a.end for a in document.annotations):
                continue
            if any(k.start < s.end and s.start < k.end for k in expected):
                continue
            expected.append(s)
        kept, dropped = non_overlapping(document, suggestions)
        assert kept == expected and dropped == len(suggestions) - len(expected)
