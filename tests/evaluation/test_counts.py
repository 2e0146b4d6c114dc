"""Counts and the scores derived from them, against the definitions written out by hand."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.evaluation.counts import Counts, f_beta_from_counts, f_beta_from_scores, ratio, score_text


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.sampled_from([0.5, 1.0, 2.0, 10.0]))
def test_scores_match_their_definitions(tp: int, fp: int, fn: int, beta: float) -> None:
    counts = Counts(tp, fp, fn)
    b2 = Fraction(beta) ** 2
    if tp + fp:
        assert counts.precision == pytest.approx(float(Fraction(tp, tp + fp)))
    else:
        assert math.isnan(counts.precision)
    if tp + fn:
        assert counts.recall == pytest.approx(float(Fraction(tp, tp + fn)))
    else:
        assert math.isnan(counts.recall)
    if tp + fp + fn:
        expected = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
        assert counts.f_beta(beta) == pytest.approx(float(expected))
        assert f_beta_from_counts(tp, fp, fn) == pytest.approx(float(Fraction(2 * tp, 2 * tp + fp + fn)))
    else:
        assert math.isnan(counts.f_beta(beta)) and math.isnan(counts.f1)
    if tp:
        # the F-beta of precision and recall equals the F-beta of the counts
        assert f_beta_from_scores(counts.precision, counts.recall, beta) == pytest.approx(counts.f_beta(beta))
        assert f_beta_from_scores(counts.precision, counts.recall) == pytest.approx(counts.f1)


def test_f_beta_from_scores_edge_cases() -> None:
    assert f_beta_from_scores(0.5, 1.0) == pytest.approx(2 / 3)
    assert f_beta_from_scores(0.5, 1.0, 2.0) == pytest.approx(5 * 0.5 / (4 * 0.5 + 1.0))
    assert math.isnan(f_beta_from_scores(math.nan, 1.0))
    assert math.isnan(f_beta_from_scores(1.0, math.nan))
    assert math.isnan(f_beta_from_scores(0.0, 0.0))
    assert f_beta_from_scores(0.0, 1.0) == 0.0


def test_counts_arithmetic_and_json() -> None:
    assert Counts(1, 2, 3) + Counts(4, 5, 6) == Counts(5, 7, 9)
    assert Counts(1, 2, 3).swapped() == Counts(1, 3, 2)
    assert (Counts(1, 2, 3).reference, Counts(1, 2, 3).predicted) == (4, 3)
    assert Counts().is_empty and not Counts(0, 0, 1).is_empty
    assert ratio(1, 0) != ratio(1, 0)  # nan
    assert Counts(1, 1, 0).to_dict() == {
        "tp": 1,
        "fp": 1,
        "fn": 0,
        "precision": 0.5,
        "recall": 1.0,
        "f1": pytest.approx(2 / 3),
    }
    assert Counts(1, 1, 0).to_dict(2.0)["f_beta"] == pytest.approx(5 / 6)
    assert "f_beta" not in Counts(1, 1, 0).to_dict(1.0)
    assert Counts().to_dict() == {"tp": 0, "fp": 0, "fn": 0, "precision": None, "recall": None, "f1": None}


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [(None, 4, "n/a"), (math.nan, 4, "n/a"), (0.5, 4, "0.5000"), (1 / 3, 2, "0.33"), (0.0, 4, "0.0000")],
)
def test_score_text_gives_fixed_decimals_or_one_undefined_marker(
    value: float | None, digits: int, shown: str
) -> None:
    assert score_text(value, digits) == shown
    if digits == 4:
        assert score_text(value) == shown  # four decimals unless told
