"""Approximate randomisation: p values, reproducibility, Bonferroni threshold."""

from __future__ import annotations

import time

import numpy as np
import pytest

from annotator.errors import UsageError
from annotator.evaluation.engine import DocumentPair, Item, Options, evaluate_pairs
from annotator.evaluation.significance import compare_systems, randomisation_test


def test_identical_systems_are_never_significant() -> None:
    counts = np.array([[3, 1, 0], [2, 0, 1], [5, 2, 2]])
    difference, p = randomisation_test(counts, counts.copy(), 999)
    assert difference == 0.0
    assert p == 1.0


def test_clearly_different_systems_reach_the_smallest_p() -> None:
    good = np.array([[10, 0, 0]] * 40)
    bad = np.array([[0, 10, 10]] * 40)
    difference, p = randomisation_test(good, bad, 9999, np.random.default_rng(1))
    assert difference == 1.0
    assert p == 1 / 10000


def test_seeded_and_fast() -> None:
    rng = np.random.default_rng(5)
    a = rng.integers(0, 20, size=(1300, 3))
    b = rng.integers(0, 20, size=(1300, 3))
    started = time.perf_counter()
    first = randomisation_test(a, b, 9999, np.random.default_rng(42))
    elapsed = time.perf_counter() - started
    assert first == randomisation_test(a, b, 9999, np.random.default_rng(42))
    assert 0 < first[1] <= 1
    assert elapsed < 5


def test_compare_systems_per_category_with_bonferroni() -> None:
    text = "Amy Lee on Monday in Boston"
    name = Item("NAME", "PATIENT", 0, 7)
    date = Item("DATE", "DATE", 11, 17)
    pairs_a = [DocumentPair(str(i), text, [name, date], [name, date]) for i in range(30)]
    pairs_b = [DocumentPair(str(i), text, [name, date], [date]) for i in range(30)]
    a = evaluate_pairs(pairs_a, Options(), details=False)
    b = evaluate_pairs(pairs_b, Options(), details=False)
    report = compare_systems(a, b, shuffles=999, seed=3, alpha=0.05)
    names = [t.name for t in report.tests]
    assert names == ["overall", "DATE", "NAME"]
    assert report.threshold == pytest.approx(0.05 / 3)
    by_name = {t.name: t for t in report.tests}
    assert by_name["DATE"].p_value == 1.0  # both perfect on DATE
    assert by_name["NAME"].p_value == 1 / 1000
    data = report.to_dict()
    assert data["results"][2]["significant"] is True  # type: ignore[index]
    assert data["results"][1]["significant"] is False  # type: ignore[index]


def test_shuffles_must_be_positive() -> None:
    with pytest.raises(UsageError):
        randomisation_test(np.zeros((1, 3)), np.zeros((1, 3)), 0)
