"""Dates as nursing notes write them (issue 29): in parts, loosely, impossibly.

Every note here is written for the test in the style of ICU nursing notes; none is real.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.deid.date_forms import AMBIGUOUS_MONTH_DAY, IMPOSSIBLE, readings
from annotator.deid.date_plans import plan_document
from annotator.deid.dates import MONTHS, DateShift, parse_date, reference_date, shift_date
from annotator.deid.export import DeidResult, deidentify_documents, export_deidentified
from annotator.deid.surrogates import DeidOptions
from annotator.io.i2b2 import write_i2b2
from tests.deid.builders import note, texts_by_type


def run(*documents: Document, seed: int = 3) -> DeidResult:
    return deidentify_documents(list(documents), DeidOptions(seed=seed))


def out(result: DeidResult, doc_id: str) -> Document:
    return next(d for d in result.documents if d.doc_id == doc_id)


def shift_of(result: DeidResult, patient: str) -> dt.timedelta:
    return dt.timedelta(days=result.shifts[patient].total_days)


def test_a_date_tagged_in_three_parts_is_shifted_as_one() -> None:
    # "21 Apr, 21" tagged day, month and year apart, beside a full date of the same note
    document = note(
        "501-01", "Nursing Progress Note\n", ("21", "DATE"), " ", ("Apr", "DATE"), ", ", ("21", "DATE"),
        " 0700->1930\nWBC 28.0 (11.5 on ", ("4/19/21", "DATE"), ").",
    )  # fmt: skip
    result = run(document)
    day, month, year, full = texts_by_type(out(result, "501-01"), "DATE")
    expected = dt.date(2021, 4, 21) + shift_of(result, "501")
    assert (int(day), month, int(year)) == (
        expected.day,
        MONTHS[expected.month - 1][:3].capitalize(),
        expected.year % 100,
    )
    assert reference_date(parse_date(full)) == dt.date(2021, 4, 19) + shift_of(result, "501")  # type: ignore[arg-type]
    assert not result.review()


def test_a_month_beside_its_day_moves_with_the_day_not_alone() -> None:
    # Shifted alone, "July" would move from July 15th; with "29th" it moves from July 29th.
    document = note("502-01", "stated it was ", ("July", "DATE"), " ", ("29th", "DATE"), ". Pt s/p repair ", ("7/29/20", "DATE"), ".")  # fmt: skip
    result = run(document)
    month, day, _ = texts_by_type(out(result, "502-01"), "DATE")
    expected = dt.date(2020, 7, 29) + shift_of(result, "502")
    assert (month, day) == (MONTHS[expected.month - 1].capitalize(), f"{expected.day}{_suffix(expected.day)}")


def _suffix(day: int) -> str:
    return "th" if 11 <= day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def test_a_night_shift_written_as_a_range_keeps_both_days() -> None:
    document = note(
        "503-01", "nursing progress note\n", ("1", "DATE"), "->", ("2", "DATE"), " ", ("nov", "DATE"), ", ",
        ("96", "DATE"), "\n1900 - 0700\n",
    )  # fmt: skip
    result = run(document)
    first, second, month, year = texts_by_type(out(result, "503-01"), "DATE")
    last = dt.date(1996, 11, 2) + shift_of(result, "503")
    assert (second, month, year) == (str(last.day), MONTHS[last.month - 1][:3], f"{last.year % 100:02d}")
    start = dt.date(1996, 11, 1) + shift_of(result, "503")
    # the first day says its month only when the shift put it in another one
    assert first == (
        str(start.day) if start.month == last.month else f"{start.day} {MONTHS[start.month - 1][:3]}"
    )


@pytest.mark.parametrize("seed", range(12))
def test_a_range_across_a_month_end_names_the_first_month(seed: int) -> None:
    document = note("504-01", "\n", ("30", "DATE"), "->", ("31", "DATE"), " ", ("Jan", "DATE"), ", ", ("2096", "DATE"), "\n")  # fmt: skip
    result = run(document, seed=seed)
    first, second, month, _ = texts_by_type(out(result, "504-01"), "DATE")
    start, end = (dt.date(2096, 1, d) + shift_of(result, "504") for d in (30, 31))
    assert second == str(end.day) and month == MONTHS[end.month - 1][:3].capitalize()
    if start.month != end.month:
        assert first == f"{start.day} {MONTHS[start.month - 1][:3].capitalize()}"
    else:
        assert first == str(start.day)


def test_two_digit_years_alone_are_years_in_the_patients_century() -> None:
    document = note(
        "505-01", "PMHX CVA in ", ("94", "DATE"), " and ", ("00", "DATE"), ". CABGx4 '", ("79", "DATE"),
        ". Admitted ", ("3/12/1999", "DATE"), ".",
    )  # fmt: skip
    result = run(document)
    a, b, c, full = texts_by_type(out(result, "505-01"), "DATE")
    new_full = reference_date(parse_date(full))  # type: ignore[arg-type]
    assert new_full is not None
    years = new_full.year - 1999  # every date moved by the same number of years, or one more
    for original, new in ((1994, a), (2000, b), (1979, c)):
        assert re.fullmatch(r"\d\d", new)
        assert (int(new) - original % 100) % 100 in (years % 100, (years + 1) % 100)
    notes = {r.original.text: r.note for r in result.replaced["505-01"]}
    assert notes["94"] == notes["00"] == notes["79"] == "a two-digit year alone"


def test_a_day_alone_reads_in_the_month_of_the_dates_beside_it() -> None:
    document = note("506-01", "admitted on ", ("July", "DATE"), " ", ("1", "DATE"), " from osh; to OR ", ("7/8/20", "DATE"), ". Seen again on the ", ("2nd", "DATE"), ".")  # fmt: skip
    result = run(document)
    month, day, _, alone = texts_by_type(out(result, "506-01"), "DATE")
    shift = shift_of(result, "506")
    first = dt.date(2020, 7, 1) + shift
    assert (month, day) == (MONTHS[first.month - 1].capitalize(), str(first.day))
    second = dt.date(2020, 7, 2) + shift
    beside = dt.date(2020, 7, 8) + shift
    expected = f"{second.day}{_suffix(second.day)}"
    assert alone == (expected if second.month == beside.month else f"{second.month}/{expected}")


def test_impossible_dates_get_a_plausible_date_of_the_same_shape_and_a_note() -> None:
    document = note("507-01", "ON ", ("2/31/14", "DATE"), " PT PRESENTED TO ED. d/c integrelin ", ("2/31", "DATE"), ".")  # fmt: skip
    result = run(document)
    full, short = texts_by_type(out(result, "507-01"), "DATE")
    expected = dt.date(2014, 2, 28) + shift_of(result, "507")
    assert full == f"{expected.month}/{expected.day}/{expected.year % 100:02d}"
    assert short == f"{expected.month}/{expected.day}"
    assert {r.note for r in result.replaced["507-01"]} == {IMPOSSIBLE}
    assert not result.review()


def test_a_decade_and_a_month_with_a_padded_number() -> None:
    document = note("508-01", "MI IN ", ("1980S", "DATE"), ". Valve repl (", ("10/08", "DATE"), "), admitted ", ("12/9", "DATE"), ".")  # fmt: skip
    result = run(document)
    decade, padded, _ = texts_by_type(out(result, "508-01"), "DATE")
    assert re.fullmatch(r"19[89]0S|2000S", decade)
    assert re.fullmatch(r"\d\d/\d\d", padded)
    assert [r.note for r in result.replaced["508-01"]][1] == AMBIGUOUS_MONTH_DAY


def test_two_dates_in_one_tag() -> None:
    document = note("509-01", "lines out ", ("6/30-7/2", "DATE"), "; cultures ", ("10/15-10/16", "DATE"), ".")  # fmt: skip
    result = run(document)
    first, second = texts_by_type(out(result, "509-01"), "DATE")
    assert re.fullmatch(r"\d{1,2}/\d{1,2}-\d{1,2}/\d{1,2}", first)
    assert re.fullmatch(r"\d{1,2}/\d{1,2}-\d{1,2}/\d{1,2}", second)
    a, b = (dt.date(2002, *map(int, part.split("/"))) for part in first.split("-"))
    assert (b - a).days % 365 == 2  # June 30th to July 2nd, still two days apart


def test_only_a_string_with_no_date_reading_is_masked_and_counted() -> None:
    document = note("510-01", "seen ", ("sometime", "DATE"), " and ", ("4/2", "DATE"), ".")
    result = run(document)
    assert texts_by_type(out(result, "510-01"), "DATE")[0] == "[**DATE**]"
    assert [r["reason"] for r in result.review()] == ["date format not recognised or ambiguous"]


def test_readings_of_loose_forms() -> None:
    assert [r.parsed.kind for r in readings("21")] == ["day", "year"]
    assert [r.parsed.kind for r in readings("94")] == ["year"]
    assert [r.parsed.kind for r in readings("2nd")] == ["day"]
    assert [r.parsed.kind for r in readings("10/08")] == ["mdy", "my"]
    assert readings("2/30/2067")[0].parsed.day == 28
    assert readings("sometime") == [] and readings("13/45") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [("mid-May", "mid-June"), ("the 1960s", "the 1960s"), ("early 2067", "early 2068"),
     ("late July 2067", "late August 2068"), ("'60s", "'60s"), ("1965 ", None)],
)  # fmt: skip
def test_parts_of_months_years_and_decades(text: str, expected: str | None) -> None:
    found = readings(text)
    if expected is None:
        assert found == []
        return
    assert shift_date(found[0].parsed, DateShift(1, 1, 0, 400), 2067) == expected


def test_a_number_after_an_apostrophe_is_a_year_even_when_it_could_be_a_day() -> None:
    document = note("511-01", "CABG '", ("21", "DATE"), ", admitted ", ("4/2/2030", "DATE"), ".")
    plans = plan_document(document, list(document))
    assert plans[0].segments[0].parsed.kind == "year"


def test_the_audit_map_says_why_a_replacement_is_unusual(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    document = note(
        "512-01", "ON ", ("2/31/14", "DATE"), " PT PRESENTED TO ED; seen ", ("4/2/14", "DATE"), "."
    )
    write_i2b2(document, gold / "512-01.xml")
    map_path = tmp_path / "private" / "map.json"
    map_path.parent.mkdir()
    report = export_deidentified(gold, tmp_path / "out", DeidOptions(seed=1), map_path=map_path)
    assert report.review == []
    items = json.loads(map_path.read_text(encoding="utf-8"))["patients"]["512"]["replacements"]
    assert [(i["original"], i["note"]) for i in items] == [("2/31/14", IMPOSSIBLE), ("4/2/14", None)]
