"""Span: half-open code-point ranges."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.core.span import Span

spans = st.tuples(st.integers(0, 50), st.integers(0, 50)).map(lambda p: Span(min(p), max(p)))


@pytest.mark.parametrize(("start", "end"), [(-1, 3), (5, 4)])
def test_invalid_spans_are_refused(start: int, end: int) -> None:
    with pytest.raises(ValueError, match="invalid span"):
        Span(start, end)


def test_text_of_counts_code_points() -> None:
    text = "😀 Dr Smith"
    start = len("😀 Dr ")
    assert Span(start, start + len("Smith")).text_of(text) == "Smith"


def test_touching_spans_do_not_overlap() -> None:
    assert not Span(0, 3).overlaps(Span(3, 5))
    assert Span(0, 4).overlaps(Span(3, 5))


@settings(max_examples=100, deadline=None)
@given(spans, spans)
def test_overlap_is_symmetric_and_means_a_shared_position(a: Span, b: Span) -> None:
    shared = set(range(a.start, a.end)) & set(range(b.start, b.end))
    assert a.overlaps(b) == b.overlaps(a) == bool(shared)


@settings(max_examples=100, deadline=None)
@given(spans, spans)
def test_contains_matches_set_inclusion(a: Span, b: Span) -> None:
    assert a.contains(b) == (a.start <= b.start and b.end <= a.end)


@settings(max_examples=100, deadline=None)
@given(spans, st.integers(0, 20))
def test_shift_keeps_length_and_order(a: Span, delta: int) -> None:
    moved = a.shifted(delta)
    assert len(moved) == len(a) and moved.start == a.start + delta
    assert (a < moved) == (delta > 0)


def test_an_empty_span_overlaps_nothing() -> None:
    assert not Span(1, 1).overlaps(Span(0, 2))
    assert not Span(0, 2).overlaps(Span(1, 1))


def test_offsets_problem_says_which_way_offsets_are_wrong() -> None:
    from annotator.core.span import offsets_problem

    assert offsets_problem(3, 7, 10) is None
    assert offsets_problem(10, 10, 10) is None
    assert offsets_problem(23, 13, 100) == "offsets 23-13 end before they start"
    assert offsets_problem(5, 11, 10) == "offsets 5-11 outside the text (length 10)"
    assert offsets_problem(-1, 2, 10) == "offsets -1-2 outside the text (length 10)"
