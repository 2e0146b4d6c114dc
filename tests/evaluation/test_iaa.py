"""IAA: pairwise P/R swap, symmetric F1, matrix, each annotator against gold and the average."""

from __future__ import annotations

import math

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.evaluation.engine import Options
from annotator.evaluation.iaa import agreement

TEXT = "Amy Lee met John Smith in Boston on Monday."


def doc(doc_id: str, *needles: str) -> Document:
    annotations = []
    for i, needle in enumerate(needles):
        start = TEXT.index(needle)
        annotations.append(Annotation(f"P{i}", "NAME", "PATIENT", start, start + len(needle), needle))
    return Document(doc_id, TEXT, annotations)


def test_pairwise_and_versus_gold() -> None:
    gold = [doc("1-01", "Amy Lee", "John Smith", "Boston")]
    a = [doc("1-01", "Amy Lee", "John Smith", "Boston")]  # perfect
    b = [doc("1-01", "Amy Lee", "Monday")]  # 1 of 3, one spurious
    c = [doc("1-01", "Amy Lee", "John Smith")]
    report = agreement({"a": a, "b": b, "c": c}, gold, Options())
    ab = report.pair("a", "b").result.micro
    assert (ab.tp, ab.fp, ab.fn) == (1, 1, 2)
    assert math.isclose(ab.precision, 0.5) and math.isclose(ab.recall, 1 / 3)
    # with b as reference, P and R swap and F1 stays
    assert math.isclose(ab.swapped().precision, ab.recall)
    assert math.isclose(ab.swapped().f1, ab.f1)
    matrix = report.matrix()
    assert matrix[0][1] == matrix[1][0] == ab.f1
    assert matrix[2][2] == 1.0
    scores = [item.result.micro.f1 for item in report.versus_gold]
    assert math.isclose(scores[0], 1.0)
    assert math.isclose(scores[1], 2 / 5)  # tp 1, fp 1, fn 2
    assert math.isclose(scores[2], 0.8)  # tp 2, fn 1
    assert math.isclose(report.average_versus_gold()["f1"], (1.0 + 0.4 + 0.8) / 3)
    data = report.to_dict()
    assert data["annotators"] == ["a", "b", "c"]
    assert len(data["pairs"]) == 3  # type: ignore[arg-type]


def test_pairs_use_only_documents_both_annotators_have() -> None:
    a = [doc("1-01", "Amy Lee"), doc("1-02", "Boston")]
    b = [doc("1-01", "Amy Lee")]  # 1-02 not done yet: not a disagreement
    report = agreement({"a": a, "b": b})
    assert report.pair("a", "b").result.micro.f1 == 1.0
    assert report.versus_gold == []
    assert report.average_versus_gold() == {}
