"""Annotate all on a word found thousands of times: the overlap questions answered from a
sorted index give what asking every annotation gave (tests/benchmarks/bench_scale.py times it).
"""

from __future__ import annotations

import random

from annotator.core.document import Document
from annotator.core.history import AddAnnotation
from annotator.core.propagation import (
    _SortedSpans,
    build_propagation_commands,
    find_occurrences,
)
from annotator.core.span import Span

WORDS = ("Mercy", "mercy", "Marcy", "Merci", "Hospital", "the", "Mercy-Hospital", "and")
TYPES = (("LOCATION", "HOSPITAL"), ("NAME", "PATIENT"), ("DATE", "DATE"))


def random_document(rng: random.Random, doc_id: str) -> Document:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 200)))
    document = Document(doc_id, text)
    for _ in range(rng.randint(0, 50)):
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.choice((0, 1, 3, 5, 14, 40, 400)))
        tag, kind = rng.choice(TYPES)
        document.add(document.make_annotation(tag, kind, start, end, pending=rng.random() < 0.3))
    return document


def test_overlapping_is_every_annotation_reaching_into_the_span() -> None:
    rng = random.Random(1)
    for _ in range(200):
        document = random_document(rng, "100-01")
        index = _SortedSpans(document.annotations)
        ordered = sorted(document.annotations, key=lambda a: (a.start, a.end))
        for _ in range(30):
            start = rng.randrange(len(document.text))
            end = start + rng.randint(0, 20)
            expected = [a for a in ordered if a.start < end and start < a.end]
            assert index.overlapping(start, end) == expected


def test_ticked_matches_never_tag_over_a_tag_nor_over_each_other() -> None:
    rng = random.Random(2)
    for round_ in range(150):
        documents = [random_document(rng, f"10{i}-01") for i in range(rng.randint(1, 3))]
        first = documents[0]
        at = first.text.find("Mercy")
        if at < 0:
            continue
        source = first.make_annotation("LOCATION", "HOSPITAL", at, at + 5)
        preview = find_occurrences(
            source, documents, origin_doc_id=first.doc_id, whole_word=round_ % 2 == 0, fuzzy=True
        )
        # Fuzzy windows overlapping an exact match are left out (the same name, a neighbour attached).
        exact = [(m.doc_id, m.start, m.end) for m in preview.matches + preview.suggested + preview.already]
        for window in preview.fuzzy:
            assert not any(d == window.doc_id and s < window.end and window.start < e for d, s, e in exact)
        everything = preview.matches + preview.fuzzy + preview.conflicts
        commands = build_propagation_commands(preview, {d.doc_id: d for d in documents}, source, everything)
        added = [
            (c.document.doc_id, c.annotation.start, c.annotation.end)
            for c in commands
            if isinstance(c, AddAnnotation)
        ]
        # What asking every tag and every tag added before says, in the same order.
        expected: list[tuple[str, int, int]] = []
        conflicting = {m.key for m in preview.conflicts}
        for document in documents:
            taken = [a.span for a in document.annotations]
            for match in sorted(
                (m for m in everything if m.doc_id == document.doc_id and m.key not in conflicting),
                key=lambda m: (m.start, m.end),
            ):
                span = Span(match.start, match.end)
                if not any(span.overlaps(other) for other in taken):
                    taken.append(span)
                    expected.append((document.doc_id, match.start, match.end))
        assert sorted(added) == sorted(expected)
        assert all(c.annotation.source == "propagated" for c in commands if isinstance(c, AddAnnotation))
