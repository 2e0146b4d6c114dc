"""IAA figures checked number by number against hand counts (and scikit-learn for kappa).

Two short notes whose tokens are plain words, so every figure below is counted by hand:

    doc 1 "Amy Lee met Bob"       a: Amy Lee NAME/PATIENT     b: Amy Lee NAME/DOCTOR
    doc 2 "Seen in Boston today"  a: Boston LOCATION/CITY     b: Boston LOCATION/CITY, today DATE/DATE
"""

from __future__ import annotations

import math

import pytest
from sklearn.metrics import cohen_kappa_score

from annotator.core.document import Document
from annotator.core.mapping import Mapping, MappingRule
from annotator.evaluation.engine import Options
from annotator.evaluation.iaa import agreement
from tests.adjudication.helpers import version as doc

TEXT_1 = "Amy Lee met Bob"
TEXT_2 = "Seen in Boston today"


def annotator_a() -> list[Document]:
    return [
        doc("1", TEXT_1, ("Amy Lee", "NAME", "PATIENT")),
        doc("2", TEXT_2, ("Boston", "LOCATION", "CITY")),
    ]


def annotator_b() -> list[Document]:
    return [
        doc("1", TEXT_1, ("Amy Lee", "NAME", "DOCTOR")),
        doc("2", TEXT_2, ("Boston", "LOCATION", "CITY"), ("today", "DATE", "DATE")),
    ]


# token labels of the 8 tokens (Amy Lee met Bob | Seen in Boston today), by hand
LABELS_A = ["NAME/PATIENT", "NAME/PATIENT", "O", "O", "O", "O", "LOCATION/CITY", "O"]
LABELS_B = ["NAME/DOCTOR", "NAME/DOCTOR", "O", "O", "O", "O", "LOCATION/CITY", "DATE/DATE"]


def test_pair_dictionary_figures_against_hand_counts() -> None:
    report = agreement({"a": annotator_a(), "b": annotator_b()})
    data = report.pair("a", "b").to_dict()
    # strict, type level: doc 1 tp 0 fp 1 fn 1 (type differs); doc 2 tp 1 fp 1 fn 0
    # labelled kappa: agreement 5/8; marginals a {P 2, O 5, CITY 1}, b {D 2, O 4, CITY 1, DATE 1}
    # expected (5*4 + 1*1)/64 = 21/64, kappa (40 - 21)/(64 - 21) = 19/43
    # tag-blind: agreement 7/8, a {X 3, O 5}, b {X 4, O 4}, expected 32/64, kappa 3/4
    tagblind_a = ["O" if x == "O" else "X" for x in LABELS_A]
    tagblind_b = ["O" if x == "O" else "X" for x in LABELS_B]
    assert math.isclose(cohen_kappa_score(LABELS_A, LABELS_B), 19 / 43)
    assert math.isclose(cohen_kappa_score(tagblind_a, tagblind_b), 3 / 4)
    expected = {
        "reference": "a",
        "predicted": "b",
        "documents": 2,
        "tp": 1,
        "fp": 2,
        "fn": 1,
        "precision": pytest.approx(1 / 3),
        "recall": pytest.approx(1 / 2),
        "f1": pytest.approx(2 / 5),
        # Two documents resampled: both doc 1 (F1 0, p 1/4), one of each (2/5, p 1/2), both
        # doc 2 (2/3, p 1/4); the 2.5th and 97.5th percentiles are the ends.
        "f1_interval": [0.0, pytest.approx(2 / 3)],
        "kappa_tokens": pytest.approx(19 / 43),
        "kappa_tokens_tagblind": pytest.approx(3 / 4),
        # doc 1: P = R = F1 = 0; doc 2: P 1/2, R 1, F1 2/3
        "macro": {
            "precision": pytest.approx(1 / 4),
            "recall": pytest.approx(1 / 2),
            "f1": pytest.approx(1 / 3),
            "documents_scored": 2.0,
        },
        # per category (strict, type level): NAME is a type disagreement (fp 1, fn 1); LOCATION
        # agrees; DATE is only in b (fp 1, recall undefined)
        "per_category": {
            "DATE": {"tp": 0, "fp": 1, "fn": 0, "precision": 0.0, "recall": None, "f1": 0.0},
            "LOCATION": {"tp": 1, "fp": 0, "fn": 0, "precision": 1.0, "recall": 1.0, "f1": 1.0},
            "NAME": {"tp": 0, "fp": 1, "fn": 1, "precision": 0.0, "recall": 0.0, "f1": 0.0},
        },
        "skipped": [],
    }
    assert data == expected


def test_mapping_is_applied_to_both_sides() -> None:
    # merging every NAME type into NAME/NAME turns doc 1 into an agreement
    merge = Mapping("merge", "names merged", (MappingRule("NAME", "*", ("NAME", "NAME")),))
    report = agreement({"a": annotator_a(), "b": annotator_b()}, gold=annotator_a(), mapping=merge)
    micro = report.pair("a", "b").result.micro
    assert (micro.tp, micro.fp, micro.fn) == (2, 1, 0)
    versus = report.versus_gold[1].result.micro  # b against gold = a
    assert (versus.tp, versus.fp, versus.fn) == (2, 1, 0)


def test_options_beta_reaches_every_figure() -> None:
    options = Options(beta=2.0)
    report = agreement({"a": annotator_a(), "b": annotator_b()}, gold=annotator_a(), options=options)
    pair = report.pair("a", "b").to_dict()
    # F2 = 5 tp / (5 tp + 4 fn + fp) = 5 / (5 + 4 + 2)
    assert pair["f_beta"] == pytest.approx(5 / 11)
    # per category, F2 = 5 tp / (5 tp + 4 fn + fp): LOCATION 5/5, NAME 0/5, DATE 0/1
    per_category = pair["per_category"]
    assert isinstance(per_category, dict)
    assert {name: figures["f_beta"] for name, figures in per_category.items()} == {
        "DATE": 0.0,
        "LOCATION": 1.0,
        "NAME": 0.0,
    }
    average = report.average_versus_gold()
    # a vs gold(=a): P = R = 1; b vs gold: tp 1 fp 2 fn 1 as above
    assert average == {
        "precision": pytest.approx((1 + 1 / 3) / 2),
        "recall": pytest.approx((1 + 1 / 2) / 2),
        "f1": pytest.approx((1 + 2 / 5) / 2),
        "f_beta": pytest.approx((1 + 5 / 11) / 2),
    }
    data = report.to_dict()
    assert data["schema"] == "phi-annotator/iaa/1"
    assert data["options"] == {"match": "strict", "level": "type", "beta": 2.0}
    assert data["average_versus_gold"] == average
    other = agreement(
        {"a": annotator_a(), "b": annotator_b()}, options=Options(match="overlap", level="category")
    )
    assert other.to_dict()["options"] == {"match": "overlap", "level": "category", "beta": 1.0}


def test_beta_one_has_no_f_beta_key() -> None:
    report = agreement({"a": annotator_a(), "b": annotator_b()}, gold=annotator_a())
    assert set(report.average_versus_gold()) == {"precision", "recall", "f1"}
    assert "f_beta" not in report.pair("a", "b").to_dict()


def test_matrix_puts_each_pair_in_its_cells() -> None:
    # three annotators whose pairwise F1 values all differ
    a = [
        doc(
            "1",
            TEXT_2,
            ("Seen", "NAME", "PATIENT"),
            ("Boston", "LOCATION", "CITY"),
            ("today", "DATE", "DATE"),
        )
    ]
    b = [doc("1", TEXT_2, ("Boston", "LOCATION", "CITY"), ("today", "DATE", "DATE"))]
    c = [doc("1", TEXT_2, ("today", "DATE", "DATE"))]
    report = agreement({"a": a, "b": b, "c": c})
    # a-b: tp 2 fp 0 fn 1 -> 4/5; a-c: tp 1 fn 2 -> 1/2; b-c: tp 1 fn 1 -> 2/3
    assert report.matrix() == [
        [1.0, pytest.approx(4 / 5), pytest.approx(1 / 2)],
        [pytest.approx(4 / 5), 1.0, pytest.approx(2 / 3)],
        [pytest.approx(1 / 2), pytest.approx(2 / 3), 1.0],
    ]
    assert report.average_pairwise_f1() == pytest.approx((4 / 5 + 1 / 2 + 2 / 3) / 3)
    assert report.to_dict()["average_pairwise_f1"] == pytest.approx((4 / 5 + 1 / 2 + 2 / 3) / 3)
    assert [(p.reference, p.predicted) for p in report.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert report.pair("b", "c").result.micro.tp == 1
    with pytest.raises(KeyError) as missing:
        report.pair("c", "b")
    assert missing.value.args == (("c", "b"),)


def test_one_annotator_has_no_pairs_and_undefined_averages() -> None:
    report = agreement({"a": annotator_a()})
    assert report.pairs == [] and math.isnan(report.average_pairwise_f1())
    assert report.matrix() == [[1.0]]
    data = report.to_dict()
    assert data["average_pairwise_f1"] is None and data["f1_matrix"] == [[1.0]]


def test_undefined_scores_make_the_averages_undefined() -> None:
    empty = [Document("1", TEXT_1, [])]
    # a pair with no tag at all: F1 undefined, so the average of the pairs is too
    report = agreement({"a": empty, "b": empty}, gold=empty)
    assert math.isnan(report.pair("a", "b").result.micro.f1)
    assert math.isnan(report.average_pairwise_f1())
    assert report.matrix()[0][1] is not None and math.isnan(report.matrix()[0][1])
    data = report.to_dict()
    assert data["f1_matrix"] == [[1.0, None], [None, 1.0]]
    assert data["average_pairwise_f1"] is None
    average = report.average_versus_gold()
    assert set(average) == {"precision", "recall", "f1"} and all(math.isnan(v) for v in average.values())
    assert data["average_versus_gold"] == {"precision": None, "recall": None, "f1": None}
    # one defined and one undefined precision: the average is undefined, not the defined one
    mixed = agreement({"a": annotator_a(), "b": empty}, gold=annotator_a())
    averaged = mixed.average_versus_gold()
    assert math.isnan(averaged["precision"])  # b predicts nothing
    assert averaged["recall"] == pytest.approx((1 + 0) / 2)


def test_differing_text_is_skipped_and_listed() -> None:
    a = [*annotator_a(), doc("3", "Amy Lee met Bob", ("Bob", "NAME", "PATIENT"))]
    b = [*annotator_b(), doc("3", "Amy Lee met Rob", ("Rob", "NAME", "PATIENT"))]
    report = agreement({"a": a, "b": b}, gold=a)
    pair = report.pair("a", "b")
    assert pair.text_differs == ["3"]
    assert pair.to_dict()["skipped"] == ["3: reference and predicted TEXT differ"]
    assert pair.to_dict()["documents"] == 2
    assert report.versus_gold[0].text_differs == [] and report.versus_gold[0].result.skipped == []
    assert report.versus_gold[1].text_differs == ["3"]
    assert report.versus_gold[1].result.skipped == ["3: reference and predicted TEXT differ"]


def test_versus_gold_scores_only_the_documents_an_annotator_has() -> None:
    gold = annotator_a()
    partial = [annotator_a()[0], doc("9", TEXT_2, ("today", "DATE", "DATE"))]  # doc 2 missing, doc 9 extra
    report = agreement({"a": annotator_a(), "p": partial}, gold=gold)
    assert [(p.reference, p.predicted) for p in report.versus_gold] == [("gold", "a"), ("gold", "p")]
    micro = report.versus_gold[1].result.micro
    # doc 1 found; doc 2, not done yet, is no miss (its Boston would be); doc 9 is not in gold
    # and is not spurious
    assert (micro.tp, micro.fp, micro.fn) == (1, 0, 0)
    assert len(report.versus_gold[1].result.documents) == 1
    # between annotators only the shared document counts
    shared = report.pair("a", "p")
    assert len(shared.result.documents) == 1 and shared.result.micro.f1 == 1.0


def test_progress_counts_every_comparison() -> None:
    calls: list[tuple[int, int]] = []
    names = {"a": annotator_a(), "b": annotator_b(), "c": annotator_a()}
    agreement(names, gold=annotator_a(), progress=lambda done, total: calls.append((done, total)))
    assert calls == [(i, 6) for i in range(1, 7)]  # 3 pairs + 3 against gold
    assert all(type(total) is int for _, total in calls)
    calls.clear()
    agreement(names, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_options_match_mode_reaches_the_comparisons_with_gold() -> None:
    gold = [doc("1", TEXT_1, ("Amy Lee", "NAME", "PATIENT"))]
    shifted = [doc("1", TEXT_1, ("Amy", "NAME", "PATIENT"))]  # overlaps gold's tag, other offsets
    strict = agreement({"a": shifted, "b": gold}, gold=gold)
    overlap = agreement({"a": shifted, "b": gold}, gold=gold, options=Options(match="overlap"))
    strict_counts = strict.versus_gold[0].result.micro
    overlap_counts = overlap.versus_gold[0].result.micro
    assert (strict_counts.tp, strict_counts.fp, strict_counts.fn) == (0, 1, 1)
    assert (overlap_counts.tp, overlap_counts.fp, overlap_counts.fn) == (1, 0, 0)
    assert overlap.versus_gold[0].result.options.match == "overlap"
    assert overlap.pair("a", "b").result.micro.f1 == 1.0
