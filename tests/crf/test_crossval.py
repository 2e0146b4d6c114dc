"""Cross-validation folds hold whole patients; results come from the evaluation engine."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.crf.crossval import cross_validate, patient_folds
from annotator.crf.tagger import CrfTagger
from annotator.errors import UsageError


def test_folds_never_split_a_patient(gold_documents: list[Document]) -> None:
    folds = patient_folds(gold_documents, 3, seed=1)
    assert sorted(d.doc_id for fold in folds for d in fold) == sorted(d.doc_id for d in gold_documents)
    patients = [{d.patient_id for d in fold} for fold in folds]
    assert all(fold for fold in patients)
    for i, first in enumerate(patients):
        for second in patients[i + 1 :]:
            assert not first & second


def test_too_few_patients_for_the_folds(gold_documents: list[Document]) -> None:
    with pytest.raises(UsageError, match="patients"):
        patient_folds(gold_documents[:2], 5)


def test_cross_validation_reports_per_type_and_curve(gold_documents: list[Document]) -> None:
    progress: list[tuple[int, int]] = []
    documents = [d for d in gold_documents if d.patient_id in ("100", "101", "102", "103")]
    result = cross_validate(
        documents,
        2,
        lambda: CrfTagger(max_iterations=8),
        thresholds=(0.5, 0.99),
        progress=lambda d, t: progress.append((d, t)),
    )
    # Thousandths of the folds: each fold's training moves the bar, each fold's end lands on
    # its boundary, and it never goes back.
    assert {total for _, total in progress} == {2000}
    assert (1000, 2000) in progress and progress[-1] == (2000, 2000)
    done = [d for d, _ in progress]
    assert done == sorted(done) and len(set(done)) > 2
    gold_count = sum(len(d) for d in documents)
    assert result.micro.tp + result.micro.fn == gold_count
    assert "DATE/DATE" in result.result.per_type
    assert [p.threshold for p in result.curve] == [None, 0.5, 0.99]
    # a recall bias of 0.99 turns tokens the model was unsure about into PHI: more PHI tokens
    # found (strict recall may fall: the extra tokens stretch spans), another operating point
    assert result.curve[-1].token_recall > result.curve[0].token_recall
    assert result.curve[-1].precision != result.curve[0].precision
    data = result.to_dict()
    assert data["micro"]["f1"] == pytest.approx(result.micro.f1)
    assert len(data["fold_f1"]) == 2


def test_a_fold_whose_training_notes_hold_no_phi_is_named() -> None:
    # Said of the whole gold, "the training documents hold no annotation" would read as wrong:
    # the gold has PHI, one fold's training share has none.
    text = "Seen by Dr Lee today."
    tagged = Document("100-01", text)
    tagged.add(tagged.make_annotation("NAME", "DOCTOR", 11, 14))
    untagged = Document("200-01", text)
    with pytest.raises(
        UsageError, match=r"cross-validation fold [12] of 2 \(trained on 1 of the 2 documents\)"
    ):
        cross_validate([tagged, untagged], k=2, make_tagger=lambda: CrfTagger(max_iterations=2))
