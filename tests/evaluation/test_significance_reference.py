"""Approximate randomisation against an exact permutation count on tiny inputs.

With n documents there are 2^n ways to swap the two systems' outputs; the exact p value
is the share of them whose |F1(A) - F1(B)| reaches the observed one. The sampled test's
(r + 1) / (R + 1) must land within a few standard errors of it (seeded, so not flaky).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.evaluation.counts import Counts
from annotator.evaluation.engine import DocumentPair, Item, Options, evaluate_pairs
from annotator.evaluation.significance import compare_systems, randomisation_test
from tests.evaluation.reference import exact_permutation_p, f1_or_zero

SHUFFLES = 4000

document_counts = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(document_counts, document_counts), min_size=1, max_size=6), st.integers(0, 1000))
def test_sampled_p_is_close_to_the_exact_permutation_p(
    documents: list[tuple[tuple[int, int, int], tuple[int, int, int]]], seed: int
) -> None:
    a = [list(x) for x, _ in documents]
    b = [list(y) for _, y in documents]
    exact_difference, exact_p = exact_permutation_p(a, b)
    difference, p = randomisation_test(np.array(a), np.array(b), SHUFFLES, np.random.default_rng(seed))
    assert difference == pytest.approx(float(exact_difference), abs=1e-12)
    standard_error = math.sqrt(float(exact_p) * (1 - float(exact_p)) / SHUFFLES)
    assert abs(p - float(exact_p)) <= 5 * standard_error + 2 / (SHUFFLES + 1)


def test_ties_count_as_reached() -> None:
    """Two documents mirror each other: every swap gives the observed difference or more."""
    a = np.array([[2, 0, 0], [0, 2, 2]])
    b = np.array([[0, 2, 2], [2, 0, 0]])
    difference, p = randomisation_test(a, b, 999, np.random.default_rng(0))
    assert difference == 0.0
    assert p == 1.0
    # exactly half of the swaps of one decisive document reach the observed difference
    a = np.array([[3, 0, 0]])
    b = np.array([[0, 3, 3]])
    exact = exact_permutation_p(a.tolist(), b.tolist())
    assert exact == (Fraction(1), Fraction(1))  # a swap only mirrors the difference: every swap reaches it
    assert randomisation_test(a, b, 999)[1] == 1.0


def test_an_empty_system_scores_zero_not_nan() -> None:
    a = np.array([[0, 0, 0], [0, 0, 0]])
    b = np.array([[2, 1, 0], [1, 0, 1]])
    difference, _ = randomisation_test(a, b, 99)
    assert difference == pytest.approx(float(f1_or_zero(3, 1, 1)))


def test_no_documents_gives_no_p_value() -> None:
    difference, p = randomisation_test(np.zeros((0, 3)), np.zeros((0, 3)), 10)
    assert difference == 0.0
    assert math.isnan(p)


def test_per_category_counts_and_threshold_by_hand() -> None:
    text = "Amy Lee on Monday in Boston"
    name, date, city = (
        Item("NAME", "PATIENT", 0, 7),
        Item("DATE", "DATE", 11, 17),
        Item("LOCATION", "CITY", 21, 27),
    )
    gold = [name, date, city]
    pairs_a = [DocumentPair(str(i), text, gold, [name, date] if i % 2 else gold) for i in range(6)]
    pairs_b = [DocumentPair(str(i), text, gold, [name, Item("DATE", "DATE", 11, 14)]) for i in range(6)]
    a = evaluate_pairs(pairs_a, Options(), details=False)
    b = evaluate_pairs(pairs_b, Options(), details=False)
    report = compare_systems(a, b, shuffles=200, seed=1, alpha=0.01)
    by_name = {t.name: t for t in report.tests}
    assert [t.name for t in report.tests] == ["overall", "DATE", "LOCATION", "NAME"]
    assert by_name["overall"].counts_a == Counts(15, 0, 3)
    assert by_name["overall"].counts_b == Counts(6, 6, 12)
    assert by_name["DATE"].counts_b == Counts(0, 6, 6)
    assert by_name["LOCATION"].counts_a == Counts(3, 0, 3)
    assert by_name["NAME"].difference == 0.0
    assert by_name["overall"].difference == pytest.approx(30 / 33 - 12 / 30)
    assert report.threshold == pytest.approx(0.01 / 4)
    data = report.to_dict()
    assert data["bonferroni_threshold"] == pytest.approx(0.0025)
    assert data["tests"] == 4
    assert data["shuffles"] == 200 and data["seed"] == 1 and data["alpha"] == 0.01
    overall = data["results"][0]  # type: ignore[index]
    assert overall["p_value"] == by_name["overall"].p_value
    # every swap pattern and its mirror image reach the observed difference: p >= 2 / 64
    assert by_name["overall"].p_value > 0.0025
    assert overall["significant"] is False
    assert data["results"][3]["p_value"] == 1.0  # type: ignore[index]
    assert overall["a"] == Counts(15, 0, 3).to_dict()
    no_categories = compare_systems(a, b, shuffles=10, per_category=False)
    assert [t.name for t in no_categories.tests] == ["overall"]
