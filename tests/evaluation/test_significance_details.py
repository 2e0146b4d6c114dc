"""Significance details: seeding, categories, documents on one side, the JSON form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from annotator.errors import UsageError
from annotator.evaluation.counts import Counts
from annotator.evaluation.engine import DocumentPair, Item, Options, evaluate_pairs
from annotator.evaluation.significance import SignificanceTest, compare_systems, randomisation_test

TEXT = "Amy Lee on Monday in Boston"
NAME, DATE = Item("NAME", "PATIENT", 0, 7), Item("DATE", "DATE", 11, 17)
CITY = Item("LOCATION", "CITY", 21, 27)


def results(match: str = "strict"):  # type: ignore[no-untyped-def]
    gold = [NAME, DATE, CITY]
    a = [DocumentPair(str(i), TEXT, gold, gold if i % 3 else [NAME]) for i in range(9)]
    b = [DocumentPair(str(i), TEXT, gold, [DATE, CITY] if i % 2 else gold) for i in range(9)]
    return evaluate_pairs(a, Options(match=match), details=False), evaluate_pairs(
        b, Options(match=match), details=False
    )


def p_values(report) -> list[float]:  # type: ignore[no-untyped-def]
    return [t.p_value for t in report.tests]


def test_seeding_defaults_and_streams() -> None:
    a, b = results()
    default = compare_systems(a, b, shuffles=199)
    assert (default.seed, default.alpha, default.shuffles) == (0, 0.05, 199)
    assert p_values(default) == p_values(compare_systems(a, b, shuffles=199, seed=0))
    assert p_values(compare_systems(a, b, shuffles=199, seed=5)) == p_values(
        compare_systems(a, b, shuffles=199, seed=5)
    )
    # one stream seeded once: other seeds move the sampled p values
    assert p_values(compare_systems(a, b, shuffles=199, seed=5)) != p_values(
        compare_systems(a, b, shuffles=199, seed=6)
    )
    assert all(t.shuffles == 199 for t in default.tests)
    rng = np.random.default_rng(3)
    counts, other = rng.integers(0, 6, size=(30, 3)), rng.integers(0, 6, size=(30, 3))
    unseeded = randomisation_test(counts, other, 999)
    assert 0.01 < unseeded[1] < 0.99  # a p value that moves with the shuffles drawn
    assert unseeded == randomisation_test(counts, other, 999, np.random.default_rng(0))
    assert unseeded != randomisation_test(counts, other, 999, np.random.default_rng(1))
    assert randomisation_test(counts, other, 1)[1] in (0.5, 1.0)
    with pytest.raises(UsageError, match=r"^the number of shuffles must be at least 1$"):
        randomisation_test(counts, other, 0)


def test_tagblind_has_no_category_tests() -> None:
    a, b = results("tagblind")
    assert [t.name for t in compare_systems(a, b, shuffles=9).tests] == ["overall"]
    a, b = results()
    assert [t.name for t in compare_systems(a, b, shuffles=9).tests] == [
        "overall",
        "DATE",
        "LOCATION",
        "NAME",
    ]


def test_documents_and_categories_on_one_side_only() -> None:
    only_a = evaluate_pairs(
        [DocumentPair("1", TEXT, [NAME], [NAME]), DocumentPair("2", TEXT, [DATE], [DATE])], details=False
    )
    only_b = evaluate_pairs(
        [DocumentPair("2", TEXT, [DATE], []), DocumentPair("3", TEXT, [CITY], [CITY])], details=False
    )
    report = compare_systems(only_a, only_b, shuffles=9)
    by_name = {t.name: t for t in report.tests}
    assert set(by_name) == {"overall", "DATE", "LOCATION", "NAME"}
    assert by_name["overall"].counts_a == Counts(2, 0, 0)
    assert by_name["overall"].counts_b == Counts(1, 0, 1)
    assert by_name["LOCATION"].counts_b == Counts(1, 0, 0)
    # a type holding a slash still belongs to the category before the first slash
    slash = Item("ID", "A/B", 0, 3)
    x = evaluate_pairs([DocumentPair("1", TEXT, [slash], [slash])], details=False)
    y = evaluate_pairs([DocumentPair("1", TEXT, [slash], [])], details=False)
    assert {t.name: t.counts_a for t in compare_systems(x, y, shuffles=9).tests}["ID"] == Counts(1, 0, 0)


def test_json_of_one_test() -> None:
    test = SignificanceTest("NAME", Counts(1, 0, 0), Counts(0, 1, 1), 1.0, 0.025, 99)
    assert test.to_dict(0.025) == {
        "name": "NAME",
        "a": Counts(1, 0, 0).to_dict(),
        "b": Counts(0, 1, 1).to_dict(),
        "f1_difference": 1.0,
        "p_value": 0.025,
        "significant": False,  # p must be below the threshold, not equal to it
    }
    assert test.to_dict(0.03)["significant"] is True
    undefined = SignificanceTest("overall", Counts(), Counts(), 0.0, math.nan, 9)
    assert undefined.to_dict(0.05)["significant"] is False
    assert undefined.to_dict(0.05)["p_value"] is None
    a, b = results()
    data = compare_systems(a, b, shuffles=9).to_dict()
    assert data["schema"] == "phi-annotator/significance/1"
    assert (
        data["method"]
        == "approximate randomisation (document-level swaps), statistic |F1(A) - F1(B)| (micro)"
    )
