"""The synthetic corpus: determinism, exact offsets, coverage, proportions, longitudinal names."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.io.i2b2 import read_i2b2
from annotator.synth.generator import SyntheticCorpus, generate_corpus, write_corpus

# Seed 001 Table 3 ranking of the frequent types (the rare ones are too rare to rank).
TABLE3_TOP = ["DATE", "DOCTOR", "HOSPITAL", "PATIENT", "AGE", "MEDICALRECORD"]


@pytest.fixture(scope="module")
def corpus50() -> SyntheticCorpus:
    return generate_corpus(50, seed=11)


def _keys(corpus_version: list[Document]) -> list[tuple[str, str, tuple[tuple[str, str, int, int], ...]]]:
    return [(d.doc_id, d.text, tuple(a.key for a in d)) for d in corpus_version]


def test_generate_corpus_same_seed_same_corpus() -> None:
    first, second = generate_corpus(6, seed=3), generate_corpus(6, seed=3)
    for name, documents in first.versions().items():
        assert _keys(documents) == _keys(second.versions()[name])


def test_generate_corpus_other_seed_other_people() -> None:
    first, second = generate_corpus(6, seed=3), generate_corpus(6, seed=4)
    names = {a.text for d in first.gold for a in d if a.type == "PATIENT"}
    other = {a.text for d in second.gold for a in d if a.type == "PATIENT"}
    assert names != other
    assert [d.text for d in first.gold] != [d.text for d in second.gold]


def test_versions_share_ids_and_text(corpus50: SyntheticCorpus) -> None:
    gold = [(d.doc_id, d.text) for d in corpus50.gold]
    for documents in corpus50.versions().values():
        assert [(d.doc_id, d.text) for d in documents] == gold


def test_doc_ids_are_patient_record(corpus50: SyntheticCorpus) -> None:
    per_patient = Counter(d.patient_id for d in corpus50.gold)
    assert len(per_patient) == 50
    assert all(len(p) == 3 and p.isdigit() for p in per_patient)
    assert all(2 <= n <= 5 for n in per_patient.values())
    assert all(len(d.doc_id.split("-")[1]) == 2 for d in corpus50.gold)


def test_every_offset_exact(corpus50: SyntheticCorpus) -> None:
    for documents in corpus50.versions().values():
        for document in documents:
            for annotation in document:
                assert 0 <= annotation.start < annotation.end <= len(document.text)
                assert document.text[annotation.start : annotation.end] == annotation.text


def test_tags_valid_in_schema_and_never_overlap(corpus50: SyntheticCorpus) -> None:
    schema = load_schema("i2b2-2014")
    for documents in corpus50.versions().values():
        for document in documents:
            ordered = document.sorted_annotations()
            assert all(schema.is_valid(a.tag, a.type) for a in ordered)
            assert all(a.end <= b.start for a, b in pairwise(ordered))


def test_every_type_present_in_50_patients(corpus50: SyntheticCorpus) -> None:
    present = {a.type for d in corpus50.gold for a in d}
    assert present == {t.name for t in load_schema("i2b2-2014").types}


def test_two_rare_types_per_patient_cover_the_scheme_in_ten_patients() -> None:
    corpus = generate_corpus(10, seed=21, rare_per_patient=2)
    present = {a.type for d in corpus.gold for a in d}
    assert present == {t.name for t in load_schema("i2b2-2014").types}


def test_type_ranking_follows_table3(corpus50: SyntheticCorpus) -> None:
    counts = Counter(a.type for d in corpus50.gold for a in d)
    ranked = [t for t, _ in counts.most_common()]
    assert ranked[0] == "DATE"
    assert ranked[1] == "DOCTOR"
    assert set(ranked[:5]) == set(TABLE3_TOP[:5])
    assert set(ranked[:6]) == set(TABLE3_TOP)
    total = sum(counts.values())
    assert 0.33 < counts["DATE"] / total < 0.5
    for rare in ("BIOID", "VEHICLE", "URL", "SSN", "IPADDR", "EMAIL"):
        assert counts[rare] / total < 0.005


def test_non_ascii_and_non_bmp_text_present() -> None:
    corpus = generate_corpus(60, seed=5)
    text = "".join(d.text for d in corpus.gold)
    assert any(ord(c) > 0xFFFF for c in text)
    assert any(0x7F < ord(c) <= 0xFFFF for c in text)
    assert not any(ord(c) < 0x20 and c not in "\n\t" for c in text)


def test_patient_name_and_mrn_recur_across_records(corpus50: SyntheticCorpus) -> None:
    by_patient: dict[str, list[Document]] = {}
    for document in corpus50.gold:
        by_patient.setdefault(document.patient_id, []).append(document)
    for documents in by_patient.values():
        # The patient's surname (or first name) appears in every record of the patient.
        patient_words = [
            {w.lower() for a in d for w in a.text.replace(",", " ").split() if a.type == "PATIENT"}
            for d in documents
        ]
        assert all(patient_words)
        shared = set.intersection(*patient_words)
        assert shared, "records of one patient should name the same patient"
        mrns = {a.text for d in documents for a in d if a.type == "MEDICALRECORD"}
        assert len(mrns) <= 1


def _strict_f1(reference: list[Document], predicted: list[Document]) -> float:
    gold = {(d.doc_id, *a.key) for d in reference for a in d}
    found = {(d.doc_id, *a.key) for d in predicted for a in d}
    both = len(gold & found)
    precision, recall = both / len(found), both / len(gold)
    return 2 * precision * recall / (precision + recall)


def test_annotators_agree_like_table2(corpus50: SyntheticCorpus) -> None:
    # Seed 001 Table 2: entity-level micro F1 0.895 between annotators.
    assert 0.85 <= _strict_f1(corpus50.annotator_a, corpus50.annotator_b) <= 0.92
    for annotator in (corpus50.annotator_a, corpus50.annotator_b):
        assert 0.9 <= _strict_f1(corpus50.gold, annotator) < 0.98


def test_annotators_disagree_in_realistic_ways(corpus50: SyntheticCorpus) -> None:
    gold = {(d.doc_id, a.start, a.end): a.type for d in corpus50.gold for a in d}
    confusions = boundary = split = false_positive = 0
    for document in corpus50.annotator_a:
        for a in document:
            key = (document.doc_id, a.start, a.end)
            if key in gold:
                confusions += gold[key] != a.type
            elif any((document.doc_id, a.start, e) in gold for e in range(a.end + 1, a.end + 40)):
                split += 1
            elif any(k[0] == document.doc_id and k[1] < a.end and a.start < k[2] for k in gold):
                boundary += 1
            else:
                false_positive += 1
    assert min(confusions, boundary, split, false_positive) > 0


def test_human_annotations_name_their_annotator(corpus50: SyntheticCorpus) -> None:
    assert {a.annotator for d in corpus50.annotator_a for a in d} == {"annotator_a"}
    assert {a.annotator for d in corpus50.annotator_b for a in d} == {"annotator_b"}
    assert all(a.source is Source.HUMAN and not a.pending for d in corpus50.gold for a in d)


def test_preannotations_look_like_a_model(corpus50: SyntheticCorpus) -> None:
    annotations = [a for d in corpus50.preannotated for a in d]
    assert all(a.source is Source.MODEL and a.pending for a in annotations)
    assert all(a.confidence is not None and 0.5 <= a.confidence <= 1.0 for a in annotations)
    gold = {(d.doc_id, *a.key) for d in corpus50.gold for a in d}
    found = {(d.doc_id, *a.key) for d in corpus50.preannotated for a in d}
    recall = len(gold & found) / len(gold)
    assert 0.82 <= recall <= 0.95
    assert found - gold


def test_written_files_read_back_equal(tmp_path: Path) -> None:
    corpus = generate_corpus(4, seed=8)
    paths = write_corpus(corpus, tmp_path)
    assert sorted(p.name for p in (tmp_path / "gold").iterdir()) == sorted(
        f"{d.doc_id}.xml" for d in corpus.gold
    )
    assert len(paths) == 4 * len(corpus.gold)
    for folder, documents in corpus.versions().items():
        for document in documents:
            back = read_i2b2(tmp_path / folder / f"{document.doc_id}.xml")
            assert back.text == document.text
            assert back.annotations == document.annotations


def test_progress_reports_every_patient() -> None:
    calls: list[tuple[int, int]] = []
    generate_corpus(3, seed=1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_ten_patients_under_a_second() -> None:
    import time

    started = time.perf_counter()
    generate_corpus(10, seed=99)
    assert time.perf_counter() - started < 1.0


def test_write_corpus_reports_progress_per_file(tmp_path: Path) -> None:
    corpus = generate_corpus(2, seed=6)
    calls: list[tuple[int, int]] = []
    write_corpus(corpus, tmp_path, progress=lambda done, total: calls.append((done, total)))
    total = 4 * len(corpus.gold)
    assert calls == [(done, total) for done in range(1, total + 1)]
