"""Numeric dates written day first (``21/4/01``): read so, and a patient who writes them so has
the dates that read either way (``3/4/01``) read day first too, each surrogate written back day
first and every interval kept."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from annotator.core.document import Document
from annotator.deid.date_forms import readings
from annotator.deid.dates import DateShift, parse_date, shift_date, writes_day_first
from annotator.deid.export import deidentify_documents
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note

_NUMBERS = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{2})")


def _day_first(text: str) -> dt.date:
    match = _NUMBERS.fullmatch(text)
    assert match is not None, text
    day, month, year = (int(g) for g in match.groups())
    return dt.date(2000 + year, month, day)


def _month_first(text: str) -> dt.date:
    match = _NUMBERS.fullmatch(text)
    assert match is not None, text
    month, day, year = (int(g) for g in match.groups())
    return dt.date(2000 + year, month, day)


def _surrogates(*documents: Document, seed: int) -> dict[str, str]:
    result = deidentify_documents(list(documents), DeidOptions(seed=seed))
    return {r.original.text: r.new.text for items in result.replaced.values() for r in items if not r.review}


def test_a_first_number_that_cannot_be_a_month_is_the_day() -> None:
    parsed = parse_date("21/4/01")
    assert parsed is not None and (parsed.day, parsed.month, parsed.year) == (21, 4, 2001)
    # Written back day first, in the same form.
    assert shift_date(parsed, DateShift(0, 0, 10, 10)) == "1/5/01"
    short = parse_date("21/04")
    assert short is not None and (short.day, short.month) == (21, 4)
    assert parse_date("13/13/01") is None


def test_a_date_that_reads_either_way_is_day_first_only_for_a_day_first_writer() -> None:
    us = parse_date("3/4/01")
    day_first = parse_date("3/4/01", day_first=True)
    assert us is not None and (us.month, us.day) == (3, 4)
    assert day_first is not None and (day_first.month, day_first.day) == (4, 3)
    # One that reads only month first stays so.
    later = parse_date("4/21/01", day_first=True)
    assert later is not None and (later.month, later.day) == (4, 21)
    padded = readings("10/08", day_first=True)[0].parsed
    assert (padded.day, padded.month) == (10, 8)
    assert [text for name, text in padded.parts if name] == ["10", "08"]


def test_who_writes_day_first() -> None:
    assert writes_day_first(["21/4/01", "3/4/01"])
    assert writes_day_first(["3/4/01", "Apr 21, 2001", "25.12.2001 10:30"])
    assert not writes_day_first(["3/4/01", "5/6/01"])  # nothing says so: the US reading
    assert not writes_day_first(["21/4/01", "4/21/01"])  # both: the dates say nothing
    assert not writes_day_first(["2001-04-21", "21.4"])  # a year first; a decimal number


@pytest.mark.parametrize("seed", range(8))
def test_a_day_first_patient_keeps_intervals_and_writes_day_first(seed: int) -> None:
    admitted = note("610-01", "Admitted ", ("3/4/01", "DATE"), ", seen again ", ("5/4/01", "DATE"), ".")
    # Another note of the patient's says how they write dates.
    discharged = note("610-02", "Discharged ", ("21/4/01", "DATE"), "; clinic on ", ("2/5/01", "DATE"), ".")
    made = _surrogates(admitted, discharged, seed=seed)
    originals = ["3/4/01", "5/4/01", "21/4/01", "2/5/01"]
    before = [_day_first(text) for text in originals]
    after = [_day_first(made[text]) for text in originals]
    shift = after[0] - before[0]
    assert shift.days > 0
    assert [day + shift for day in before] == after


@pytest.mark.parametrize("seed", range(4))
def test_a_patient_without_a_day_first_date_keeps_the_us_reading(seed: int) -> None:
    first = note("611-01", "Admitted ", ("3/4/01", "DATE"), ", seen again ", ("5/4/01", "DATE"), ".")
    second = note("611-02", "Discharged ", ("4/21/01", "DATE"), ".")
    made = _surrogates(first, second, seed=seed)
    before = [_month_first(text) for text in ("3/4/01", "5/4/01", "4/21/01")]
    after = [_month_first(made[text]) for text in ("3/4/01", "5/4/01", "4/21/01")]
    shift = after[0] - before[0]
    assert [day + shift for day in before] == after


def test_no_surrogate_of_a_day_first_patient_writes_one_of_their_own_dates() -> None:
    # Every day of a January, zero-padded (which the parser alone leaves unread: April 2001?):
    # a shift of no whole month wrote one of them as another, which the leak check flags.
    january = [f"{day:02d}/01" for day in range(1, 29)]
    parts: list[str | tuple[str, str]] = ["Seen"]
    for text in january:
        parts += [" ", (text, "DATE")]
    days = note("612-01", *parts, ".")
    anchor = note("612-02", "Admitted ", ("13/05/90", "DATE"), ".")
    originals = {*january, "13/05/90"}
    repeated = []
    for seed in range(40):
        made = _surrogates(days, anchor, seed=seed)
        assert set(made) == originals  # each read, none left for review
        repeated += [(seed, made[text]) for text in originals if made[text] in originals]
    assert repeated == []
