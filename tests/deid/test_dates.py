"""Date surrogates: each format written back in itself, intervals kept, ambiguity flagged."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from annotator.deid.dates import DateShift, draw_shift, parse_date, reference_date, shift_date

MONTH = DateShift(0, 1, 0, 31)
YEAR = DateShift(1, 0, 0, 365)


@pytest.mark.parametrize(
    ("original", "shift", "expected"),
    [
        ("2067-05-03", MONTH, "2067-06-03"),
        ("5/3/67", MONTH, "6/3/67"),
        ("05/03/2067", MONTH, "06/03/2067"),
        ("20670503", MONTH, "20670603"),
        ("May 3, 2067", MONTH, "June 3, 2067"),
        ("3 May 2067", MONTH, "3 June 2067"),
        ("03-MAY-67", MONTH, "03-JUN-67"),
        ("Sept. 14, 2067", MONTH, "Oct. 15, 2067"),
        ("MAY 3RD", MONTH, "JUNE 3RD"),
        ("the 3rd of May", MONTH, "the 3rd of June"),
        ("May 2067", MONTH, "June 2067"),
        ("05/2067", MONTH, "06/2067"),
        ("May", MONTH, "June"),
        ("'67", YEAR, "'68"),
        ("2067", YEAR, "2068"),
        ("Monday", MONTH, "Thursday"),
        ("Tue, 05/03/2067 10:30", MONTH, "Fri, 06/03/2067 10:30"),
        ("Christmas", MONTH, "January 25"),
        ("spring of 2067", DateShift(0, 3, 0, 92), "summer of 2067"),
        ("5/3", MONTH, "6/3"),
    ],
)
def test_shift_keeps_format(original: str, shift: DateShift, expected: str) -> None:
    parsed = parse_date(original)
    assert parsed is not None
    assert shift_date(parsed, shift, default_year=2067) == expected


@pytest.mark.parametrize("text", ["02/03", "mid-May", "13/13/2067", "Feb 30, 2067", "the 1960s", "5/3-5/7"])
def test_unsafe_dates_are_not_guessed(text: str) -> None:
    assert parse_date(text) is None


def test_short_dates_flagged_when_asked() -> None:
    assert parse_date("5/3", short_numeric="flag") is None
    parsed = parse_date("5/67", short_numeric="flag")
    assert parsed is not None and (parsed.month, parsed.year) == (5, 2067)


def test_intervals_are_kept() -> None:
    dates = ["01/30/2067", "2/28/2067", "March 1, 2067", "2068-02-29"]
    shift = draw_shift(random.Random(4), dt.date(2067, 1, 30))
    before = [reference_date(p) for p in map(parse_date, dates) if p]
    after = [reference_date(p) for p in (parse_date(shift_date(parse_date(d), shift)) for d in dates) if p]  # type: ignore[arg-type]
    assert None not in before and None not in after
    gaps_before = [(b - a).days for a, b in itertools.pairwise(before)]  # type: ignore[operator]
    gaps_after = [(b - a).days for a, b in itertools.pairwise(after)]  # type: ignore[operator]
    assert gaps_before == gaps_after
    assert (after[0] - before[0]).days == shift.total_days  # type: ignore[operator]


def test_draw_shift_is_seeded_and_forward() -> None:
    first = draw_shift(random.Random(7))
    assert first == draw_shift(random.Random(7))
    assert first.total_days > 300 and 1 <= first.years <= 10


FORMATS = [
    "%Y-%m-%d",
    "%m/%d/%Y",
    "%-m/%-d/%Y",
    "%B %-d, %Y",
    "%-d %b %Y",
    "%Y%m%d",
    "%A, %B %-d, %Y",
    "%a %m/%d/%Y",
]


@settings(max_examples=80, deadline=None)
@given(
    day=st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2150, 12, 31)),
    fmt=st.sampled_from(FORMATS),
    total=st.integers(1, 6000),
)
def test_full_dates_move_by_the_shift_in_their_format(day: dt.date, fmt: str, total: int) -> None:
    # "10/10/2067" does not say whether its writer pads ("11/01") or not ("11/1").
    assume("%m/%d" not in fmt or day.month < 10 or day.day < 10)
    # Nor does "May" say whether it is the full name or the abbreviation (read as full).
    assume("%b" not in fmt or day.month != 5)
    original = day.strftime(fmt)
    parsed = parse_date(original)
    assert parsed is not None and reference_date(parsed) == day
    shifted = shift_date(parsed, DateShift(0, 0, 0, total))
    moved = day + dt.timedelta(days=total)
    assert shifted == moved.strftime(fmt)
