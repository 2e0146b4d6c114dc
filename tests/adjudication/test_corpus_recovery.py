"""Corpus scale: on a generated two-annotator corpus, auto-merge plus missed-PHI candidates
recover the planted gold wherever the annotators agree, and the consistency check finds every
planted inconsistency."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from annotator.adjudication.consistency import check_consistency, missed_candidates
from annotator.adjudication.decisions import AdjudicationSession
from annotator.adjudication.units import Alignment, UnitKind, add_candidates, align_documents
from annotator.core.document import Document
from annotator.core.history import History, RemoveAnnotation
from annotator.core.span import Span
from annotator.synth.generator import SyntheticCorpus, generate_corpus

Key = tuple[str, str, int, int]


@pytest.fixture(scope="module")
def corpus() -> SyntheticCorpus:
    return generate_corpus(patients=20, seed=11)


@pytest.fixture(scope="module")
def planted(corpus: SyntheticCorpus) -> tuple[list[Document], list[Document], dict[str, set[Key]]]:
    """Copies of both annotators' versions where both missed some gold tags whose text is
    tagged elsewhere in the patient's records (the PHI that only a candidate can recover)."""
    rng = random.Random(7)
    a_docs = [d.copy() for d in corpus.annotator_a]
    b_docs = [d.copy() for d in corpus.annotator_b]
    tagged: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for document in corpus.gold:
        for tag in document:
            tagged[document.patient_id][document.text[tag.start : tag.end].lower()] += 1
    removed: dict[str, set[Key]] = defaultdict(set)
    history = History()
    for gold, a, b in zip(corpus.gold, a_docs, b_docs, strict=True):
        a_by_key = {x.key: x.id for x in a}
        b_by_key = {x.key: x.id for x in b}
        for tag in gold:
            text = gold.text[tag.start : tag.end].lower()
            if (
                tag.key in a_by_key
                and tag.key in b_by_key
                and tagged[gold.patient_id][text] >= 3  # still tagged elsewhere after removal
                and _word_bounded(gold.text, tag.start, tag.end)
                and rng.random() < 0.05
            ):
                history.push(RemoveAnnotation(a, a_by_key[tag.key]))
                history.push(RemoveAnnotation(b, b_by_key[tag.key]))
                tagged[gold.patient_id][text] -= 1
                removed[gold.doc_id].add(tag.key)
    return a_docs, b_docs, removed


@pytest.fixture(scope="module")
def merged(
    planted: tuple[list[Document], list[Document], dict[str, set[Key]]],
) -> list[tuple[Alignment, AdjudicationSession]]:
    a_docs, b_docs, _ = planted
    alignments = [
        align_documents([a, b], ["annotator_a", "annotator_b"]) for a, b in zip(a_docs, b_docs, strict=True)
    ]
    found = missed_candidates(alignments, scope="patient")
    for alignment in alignments:
        add_candidates(alignment, found[alignment.doc_id])
    return [(alignment, AdjudicationSession(alignment, "adjudicator")) for alignment in alignments]


def _word_bounded(text: str, start: int, end: int) -> bool:
    before = start > 0 and text[start - 1].isalnum() and text[start].isalnum()
    after = end < len(text) and text[end].isalnum() and text[end - 1].isalnum()
    return not (before or after)


def test_auto_merge_recovers_gold_wherever_annotators_agree(
    corpus: SyntheticCorpus,
    planted: tuple[list[Document], list[Document], dict[str, set[Key]]],
    merged: list[tuple[Alignment, AdjudicationSession]],
) -> None:
    agreed = recovered = auto_tags = auto_correct = 0
    for gold, a, b, (_, session) in zip(corpus.gold, planted[0], planted[1], merged, strict=True):
        gold_keys = {x.key for x in gold}
        both = gold_keys & {x.key for x in a} & {x.key for x in b}
        merged_keys = {x.key for x in session.gold}
        agreed += len(both)
        recovered += len(both & merged_keys)
        auto_tags += len(merged_keys)
        auto_correct += len(merged_keys & gold_keys)
    assert agreed > 500
    assert recovered == agreed  # every gold tag both annotators made is in the auto-merged gold
    # Auto-merged tags are gold unless both annotators fell for the same lookalike.
    assert auto_correct / auto_tags > 0.98


def test_candidates_recover_gold_both_annotators_missed(
    corpus: SyntheticCorpus,
    planted: tuple[list[Document], list[Document], dict[str, set[Key]]],
    merged: list[tuple[Alignment, AdjudicationSession]],
) -> None:
    removed = planted[2]
    planted_count = sum(len(keys) for keys in removed.values())
    assert planted_count >= 20
    span_found = right_type = 0
    for gold, (alignment, session) in zip(corpus.gold, merged, strict=True):
        candidates = [u for u in alignment.units if u.kind is UnitKind.MISSED_CANDIDATE]
        for key in removed.get(gold.doc_id, ()):
            # A longer string tagged elsewhere ("Dr. Miller" for "Miller") may cover it.
            unit = next((u for u in candidates if u.span.contains(Span(key[2], key[3]))), None)
            if unit is None:
                continue
            span_found += 1
            session.accept(unit.id)
            right_type += key in {x.key for x in session.gold}
    # Every planted miss comes back as a candidate; accepting it mostly restores the gold
    # tag exactly (not when a longer string covers it, or a string tagged with two types
    # elsewhere suggests the more frequent one).
    assert span_found == planted_count
    assert right_type >= 0.9 * planted_count


def _plant_inconsistencies(gold: list[Document], rng: random.Random) -> dict[str, set[tuple[int, int]]]:
    """Remove some tags whose text stays annotated elsewhere in the patient's records."""
    by_patient: dict[str, list[Document]] = defaultdict(list)
    for document in gold:
        by_patient[document.patient_id].append(document)
    removed: dict[str, set[tuple[int, int]]] = defaultdict(set)
    history = History()
    for documents in by_patient.values():
        places: dict[str, list[tuple[Document, str]]] = defaultdict(list)
        for document in documents:
            for tag in document:
                text = document.text[tag.start : tag.end]
                if len(text.strip()) >= 2 and _word_bounded(document.text, tag.start, tag.end):
                    places[text.lower()].append((document, tag.id))
        for occurrences in places.values():
            if len(occurrences) < 2 or rng.random() < 0.5:
                continue
            # Keep the first: the string must still be annotated somewhere.
            for document, tag_id in occurrences[1:]:
                tag = document.get(tag_id)
                if rng.random() < 0.5:
                    history.push(RemoveAnnotation(document, tag_id))
                    removed[document.doc_id].add((tag.start, tag.end))
    return removed


def test_consistency_check_finds_every_planted_inconsistency(corpus: SyntheticCorpus) -> None:
    gold = [document.copy() for document in corpus.gold]
    removed = _plant_inconsistencies(gold, random.Random(5))
    planted = sum(len(spans) for spans in removed.values())
    assert planted >= 30
    found: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for finding in check_consistency(gold, scope="patient"):
        found[finding.doc_id].add((finding.start, finding.end))
    missing = {doc_id: spans - found[doc_id] for doc_id, spans in removed.items() if spans - found[doc_id]}
    # Only a short number may be missed, and only where no word beside it says what it is
    # ("Husband alive at 72"): such a number is PHI by its context, not by itself.
    by_id = {document.doc_id: document for document in gold}
    left = [by_id[doc_id].text[start:end] for doc_id, spans in missing.items() for start, end in spans]
    assert all(text.isdigit() and len(text) < 4 for text in left), left
    assert len(left) <= 0.05 * planted
    # Planting adds no finding outside the removed tags (parts of them, e.g. a last name
    # annotated alone elsewhere, may be reported too).
    before = {(f.doc_id, f.start, f.end) for f in check_consistency(corpus.gold, scope="patient")}
    after = {(doc_id, start, end) for doc_id, spans in found.items() for start, end in spans}
    for doc_id, start, end in after - before:
        assert any(s <= start and end <= e for s, e in removed[doc_id]), (doc_id, start, end)
