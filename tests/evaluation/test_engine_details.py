"""The engine's details: confusion matrix, disagreement list, progress and cancel, flags,
and the JSON form, each checked as whole values (written to kill the mutants mutmut found)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from annotator.core.annotation import Annotation
from annotator.errors import UsageError
from annotator.evaluation.counts import Counts
from annotator.evaluation.engine import (
    DocumentPair,
    Item,
    Options,
    cohen_kappa,
    evaluate_pairs,
    f_beta,
    item_from_annotation,
    max_overlap_matching,
)

TEXT = "aa bb cc dd ee ff gg hh"
PATIENT = ("NAME", "PATIENT")
DATE = ("DATE", "DATE")


def it(label: tuple[str, str], start: int, end: int) -> Item:
    return Item(label[0], label[1], start, end, TEXT[start:end])


def test_confusion_matrix_as_a_whole() -> None:
    reference = [it(PATIENT, 0, 5), it(DATE, 6, 8), it(PATIENT, 12, 14)]
    predicted = [it(PATIENT, 0, 5), it(PATIENT, 6, 8), it(DATE, 18, 20)]
    result = evaluate_pairs([DocumentPair("d", TEXT, reference, predicted)])
    assert result.confusion.to_dict() == {
        "labels": ["DATE/DATE", "NAME/PATIENT", "(none)"],
        "matrix": [
            [0, 1, 0],  # the DATE was read as a PATIENT
            [0, 1, 1],  # one PATIENT found, one missed
            [1, 0, 0],  # a spurious DATE
        ],
    }
    assert result.confusion.count("NAME/PATIENT", "DATE/DATE") == 0


def test_confusion_pairs_the_prediction_sharing_most_characters() -> None:
    # ref 0-10 overlaps a PATIENT on 9 characters and a DATE on 2: the PATIENT is its pair
    text = "abcdefghijkl"
    reference = [Item("NAME", "PATIENT", 0, 10)]
    predicted = [Item("DATE", "DATE", 8, 12), Item("NAME", "PATIENT", 0, 9)]
    result = evaluate_pairs([DocumentPair("d", text, reference, predicted)])
    assert result.confusion.cells == {("NAME/PATIENT", "NAME/PATIENT"): 1, ("(none)", "DATE/DATE"): 1}
    assert [(d.kind, d.predicted.type if d.predicted else None) for d in result.disagreements] == [
        ("boundary", "PATIENT"),
        ("spurious", "DATE"),
    ]


def test_an_empty_item_matches_only_an_item_at_the_same_place() -> None:
    assert max_overlap_matching([Item("X", "X", 5, 5)], [Item("X", "X", 3, 8), Item("X", "X", 5, 5)]) == [
        (0, 1)
    ]
    assert max_overlap_matching([Item("X", "X", 5, 5)], [Item("X", "X", 3, 8)]) == []


def test_disagreements_with_duplicates_as_a_whole() -> None:
    a = it(PATIENT, 0, 2)
    result = evaluate_pairs([DocumentPair("doc-7", TEXT, [a, a, a], [a, a, it(DATE, 9, 11)])])
    assert [d.to_dict() for d in result.disagreements] == [
        {
            "document": "doc-7",
            "kind": "missed",
            "reference": {"category": "NAME", "type": "PATIENT", "start": 0, "end": 2},
            "predicted": None,
        },
        {
            "document": "doc-7",
            "kind": "spurious",
            "reference": None,
            "predicted": {"category": "DATE", "type": "DATE", "start": 9, "end": 11},
        },
    ]
    kinds = evaluate_pairs([DocumentPair("doc-8", TEXT, [it(DATE, 3, 5)], [it(PATIENT, 3, 5)])]).disagreements
    assert [(d.doc_id, d.kind) for d in kinds] == [("doc-8", "type")]


def test_progress_cancel_and_categories() -> None:
    pairs = [DocumentPair(str(k), TEXT, [it(PATIENT, 0, 2)], [it(DATE, 3, 5)]) for k in range(3)]
    seen: list[tuple[int, int]] = []
    evaluate_pairs(pairs, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    calls = iter([False, True])
    stopped = evaluate_pairs(pairs, cancelled=lambda: next(calls))
    assert [d.doc_id for d in stopped.documents] == ["0"]
    assert evaluate_pairs(pairs).category_of == {"NAME/PATIENT": "NAME", "DATE/DATE": "DATE"}
    assert evaluate_pairs(pairs, Options(level="category")).category_of == {"NAME": "NAME", "DATE": "DATE"}


@pytest.mark.parametrize("match", ["token", "tagblind", "strict", "overlap"])
def test_counts_do_not_depend_on_the_details(match: str) -> None:
    pair = DocumentPair("d", TEXT, [it(PATIENT, 0, 5), it(DATE, 9, 14)], [it(PATIENT, 3, 8), it(DATE, 9, 11)])
    with_details = evaluate_pairs([pair], Options(match=match))
    without = evaluate_pairs([pair], Options(match=match), details=False)
    assert without.per_label == with_details.per_label
    assert without.micro != Counts()


def test_present_flags_and_f_beta_reach_the_json() -> None:
    pairs = [
        DocumentPair("a", TEXT, [it(PATIENT, 0, 2)], [], predicted_present=False),
        DocumentPair("b", TEXT, [], [it(DATE, 3, 5)], reference_present=False),
    ]
    data: Any = evaluate_pairs(pairs, Options(beta=2.0)).to_dict()
    rows = data["per_document"]
    assert [(r["document"], r["reference_present"], r["predicted_present"]) for r in rows] == [
        ("a", True, False),
        ("b", False, True),
    ]
    assert all("f_beta" in r for r in rows)
    assert all("f_beta" in v for v in data["per_category"].values())
    assert all("f_beta" in v for v in data["per_type"].values())
    assert data["options"] == {"match": "strict", "level": "type", "beta": 2.0, "relaxed_distance": 2}
    assert data["schema"] == "phi-annotator/evaluation/1"
    assert data["kappa"]["labelled"]["tokens"] == 16  # type: ignore[index]


def test_macro_takes_an_explicit_beta() -> None:
    pair = DocumentPair("d", TEXT, [it(PATIENT, 0, 2), it(DATE, 3, 5)], [it(PATIENT, 0, 2)])
    result = evaluate_pairs([pair])
    assert "f_beta" not in result.macro()
    assert result.macro(beta=2.0)["f_beta"] == pytest.approx(Counts(1, 0, 1).f_beta(2.0))


def test_f_beta_helper_and_empty_kappa() -> None:
    assert f_beta(Counts(6, 10, 1), 10) == pytest.approx(606 / 716)
    assert f_beta(Counts(1, 2, 3), 1) == pytest.approx(2 / 7)
    empty = cohen_kappa([])
    assert empty.tokens == 0 and math.isnan(empty.observed) and math.isnan(empty.expected)


def test_items_from_annotations() -> None:
    annotation = Annotation("P1", "NAME", "patient", 3, 5, "bb")
    assert item_from_annotation(annotation) == Item("NAME", "PATIENT", 3, 5, "bb")
    pair = DocumentPair.from_annotations("d", TEXT, [annotation], [])
    assert (pair.doc_id, pair.text, pair.reference, pair.predicted) == (
        "d",
        TEXT,
        [Item("NAME", "PATIENT", 3, 5, "bb")],
        [],
    )
    assert pair.reference_present and pair.predicted_present
    other = DocumentPair.from_annotations("d", TEXT, [], [annotation], False, False)
    assert other.predicted == [Item("NAME", "PATIENT", 3, 5, "bb")] and other.reference == []
    assert (other.reference_present, other.predicted_present) == (False, False)


def test_bad_match_mode_names_the_choices() -> None:
    with pytest.raises(UsageError, match=r"choose from strict, relaxed, overlap, token, tagblind\)"):
        Options(match="fuzzy")


def test_repeated_confusion_cells_add_up() -> None:
    reference = [it(PATIENT, 0, 2), it(PATIENT, 3, 5), it(DATE, 6, 8), it(DATE, 9, 11)]
    predicted = [it(DATE, 0, 2), it(DATE, 3, 5), it(PATIENT, 15, 17), it(PATIENT, 18, 20)]
    cells = evaluate_pairs([DocumentPair("d", TEXT, reference, predicted)]).confusion.cells
    assert cells == {
        ("NAME/PATIENT", "DATE/DATE"): 2,
        ("DATE/DATE", "(none)"): 2,
        ("(none)", "NAME/PATIENT"): 2,
    }


def test_relaxed_with_many_items_at_one_start() -> None:
    reference = [Item("NAME", "PATIENT", 0, end) for end in (3, 6, 9, 12)]
    predicted = [Item("NAME", "PATIENT", 0, end) for end in (4, 7, 10, 13)]
    result = evaluate_pairs([DocumentPair("d", TEXT, reference, predicted)], Options(match="relaxed"))
    assert result.micro == Counts(4, 0, 0)
    shifted = [Item("NAME", "PATIENT", 0, end) for end in (1, 2, 5, 8, 11)]
    result = evaluate_pairs([DocumentPair("d", TEXT, reference, shifted)], Options(match="relaxed"))
    assert result.micro == Counts(4, 1, 0)
    # identical items: each side's pointer must move on from every pair it made
    three, four = [Item("NAME", "PATIENT", 0, 5)] * 3, [Item("NAME", "PATIENT", 0, 6)] * 4
    assert evaluate_pairs([DocumentPair("d", TEXT, three, four)], Options(match="relaxed")).micro == Counts(
        3, 1, 0
    )
    assert evaluate_pairs([DocumentPair("d", TEXT, four, three)], Options(match="relaxed")).micro == Counts(
        3, 0, 1
    )
    far = [Item("NAME", "PATIENT", 0, 1), Item("NAME", "PATIENT", 0, 2), *four]
    assert evaluate_pairs([DocumentPair("d", TEXT, three, far)], Options(match="relaxed")).micro == Counts(
        3, 3, 0
    )
    # the reference side moves on over several items too short for the one prediction
    lone = [Item("NAME", "PATIENT", 0, 12)]
    assert evaluate_pairs([DocumentPair("d", TEXT, shifted, lone)], Options(match="relaxed")).micro == Counts(
        1, 0, 4
    )


def test_overlap_matching_reassigns_when_a_longer_overlap_is_taken() -> None:
    # r0 overlaps only p0; r1 overlaps p0 most, but p1 too: the maximum pairs r1 with p1
    reference = [Item("X", "X", 0, 2), Item("X", "X", 2, 10)]
    predicted = [Item("X", "X", 0, 10), Item("X", "X", 9, 12)]
    assert max_overlap_matching(reference, predicted) == [(0, 0), (1, 1)]
