"""Date surrogates in detail: every pattern's fields, holidays, seasons, ordinals, styles.

Expected values are calendar facts or worked out by hand (a 100-day shift: 14 Jul + 100 days
= 22 Oct, 22 May + 100 = 30 Aug, 4 Jul + 100 = 12 Oct, 3 May + 100 = 11 Aug).
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from annotator.deid.dates import (
    DATE_WORDS,
    DateShift,
    draw_shift,
    holiday_date,
    parse_date,
    reference_date,
    shift_date,
)

HUNDRED = DateShift(0, 3, 8, 100)


def days(n: int) -> DateShift:
    return DateShift(0, 0, n, n)


def shifted(text: str, shift: DateShift, default_year: int = 2067) -> str:
    parsed = parse_date(text)
    assert parsed is not None, text
    return shift_date(parsed, shift, default_year)


FIXED_HOLIDAYS = {
    "christmas eve": (12, 24),
    "christmas day": (12, 25),
    "christmas": (12, 25),
    "new year's eve": (12, 31),
    "new years eve": (12, 31),
    "new year's day": (1, 1),
    "new year's": (1, 1),
    "new years": (1, 1),
    "halloween": (10, 31),
    "valentine's day": (2, 14),
    "independence day": (7, 4),
    "fourth of july": (7, 4),
    "4th of july": (7, 4),
    "veterans day": (11, 11),
    "veterans' day": (11, 11),
}

# moving holidays, from a calendar
MOVING_HOLIDAYS = [
    ("Thanksgiving", 2024, dt.date(2024, 11, 28)),
    ("thanksgiving day", 2023, dt.date(2023, 11, 23)),
    ("Easter", 2024, dt.date(2024, 3, 31)),
    ("easter sunday", 2025, dt.date(2025, 4, 20)),
    ("Memorial Day", 2024, dt.date(2024, 5, 27)),
    ("memorial day", 2025, dt.date(2025, 5, 26)),
    ("Labor Day", 2024, dt.date(2024, 9, 2)),
    ("labor day", 2025, dt.date(2025, 9, 1)),
]


@pytest.mark.parametrize(("name", "month_day"), FIXED_HOLIDAYS.items())
def test_fixed_holidays(name: str, month_day: tuple[int, int]) -> None:
    assert holiday_date(name.upper(), 2067) == dt.date(2067, *month_day)
    parsed = parse_date(name.title() + " 2067")
    assert parsed is not None and parsed.year == 2067
    if name == "4th of july":  # read as day-of-month "4th of July 2067": the same day
        assert (parsed.kind, parsed.month, parsed.day) == ("text-dmy", 7, 4)
    else:
        assert parsed.kind == "holiday" and parsed.holiday == name


@pytest.mark.parametrize(("name", "year", "day"), MOVING_HOLIDAYS)
def test_moving_holidays(name: str, year: int, day: dt.date) -> None:
    assert holiday_date(name, year) == day


def test_shifted_holidays_are_written_as_month_and_day() -> None:
    assert shifted("Thanksgiving 2024", days(1)) == "November 29 2024"
    assert shifted("the Fourth of July", days(1)) == "July 5"
    assert shifted("christmas eve, 2066", days(8)) == "january 1, 2067"
    assert shifted("Halloween '66", days(1)) == "November 1 '66"
    assert shifted("LABOR DAY", days(0), default_year=2025) == "SEPTEMBER 1"


# text -> (kind, year, month, day, weekday, season, two-digit year)
FIELDS = [
    ("2067-05-03", ("iso", 2067, 5, 3, None, None, False)),
    ("Tue 2067/5/3", ("iso", 2067, 5, 3, 1, None, False)),
    ("5/3/67", ("mdy", 2067, 5, 3, None, None, True)),
    ("Wednesday, 12-31-2067 at 10:30 pm", ("mdy", 2067, 12, 31, 2, None, False)),
    ("05/2067", ("my", 2067, 5, None, None, None, False)),
    ("5/45", ("my", 2045, 5, None, None, None, True)),
    ("5/3", ("mdy", None, 5, 3, None, None, False)),
    ("14-Jul-2067", ("dmy-dash", 2067, 7, 14, None, None, False)),
    ("3 may 67", ("dmy-dash", 2067, 5, 3, None, None, True)),
    ("Thurs., Sept 14th, '67 @ 9:05", ("text-mdy", 2067, 9, 14, 3, None, True)),
    ("MAY 3", ("text-mdy", None, 5, 3, None, None, False)),
    ("the 22nd of May, 2067", ("text-dmy", 2067, 5, 22, None, None, False)),
    ("Sun 1 Dec", ("text-dmy", None, 12, 1, 6, None, False)),
    ("June-2067", ("month-year", 2067, 6, None, None, None, False)),
    ("sept. of '67", ("month-year", 2067, 9, None, None, None, True)),
    ("Feb", ("month", None, 2, None, None, None, False)),
    ("20671231", ("compact", 2067, 12, 31, None, None, False)),
    ("'99", ("year", 2099, None, None, None, None, True)),
    ("1987", ("year", 1987, None, None, None, None, False)),
    ("tues 14:45", ("weekday", None, None, None, 1, None, False)),
    ("Autumn of 2067", ("season", 2067, None, None, None, "autumn", False)),
    ("winter", ("season", None, None, None, None, "winter", False)),
    ("Christmas, 2067", ("holiday", 2067, None, None, None, None, False)),
]


@pytest.mark.parametrize(("text", "expected"), FIELDS)
def test_every_pattern_reads_its_fields(text: str, expected: tuple[object, ...]) -> None:
    parsed = parse_date(text)
    assert parsed is not None
    got = (
        parsed.kind,
        parsed.year,
        parsed.month,
        parsed.day,
        parsed.weekday,
        parsed.season,
        parsed.two_digit_year,
    )
    assert got == expected
    assert "".join(original for _, original in parsed.parts) == text


def test_parts_split_fields_from_literal_text() -> None:
    parsed = parse_date("the 3rd of May, 2067 at 10:30")
    assert parsed is not None
    assert parsed.parts == [
        ("", "the "),
        ("day", "3rd"),
        ("", " of "),
        ("month", "May"),
        ("", ", "),
        ("year", "2067"),
        ("", " at 10:30"),
    ]
    parsed = parse_date("5/45")
    assert parsed is not None and parsed.parts == [("month", "5"), ("", "/"), ("year", "45")]
    parsed = parse_date("5/3")
    assert parsed is not None and parsed.parts == [("month", "5"), ("", "/"), ("day", "3")]


@pytest.mark.parametrize(
    "text", ["13/2067", "0/2067", "2/31", "2/30/2067", "2067-13-01", "2067-00-10", "5/03", "32 May 2067"]
)
def test_impossible_or_ambiguous_dates_are_refused(text: str) -> None:
    assert parse_date(text) is None


def test_short_numeric_dates_when_flagging() -> None:
    assert parse_date("5/3", short_numeric="flag") is None
    parsed = parse_date("5/35", short_numeric="flag")
    assert parsed is not None and (parsed.kind, parsed.month, parsed.year) == ("my", 5, 2035)
    # "5/099": three digits are neither a day nor a two-digit year
    assert parse_date("5/099") is None


def test_identifying_kinds() -> None:
    identifying = [
        "2067-05-03",
        "20670503",
        "5/3/67",
        "05/2067",
        "3 May 2067",
        "May 3",
        "3 May",
        "May 2067",
        "Easter",
    ]
    plain = ["May", "2067", "'67", "Monday", "spring 2067", "winter"]
    assert [parse_date(t).identifying for t in identifying] == [True] * len(identifying)  # type: ignore[union-attr]
    assert [parse_date(t).identifying for t in plain] == [False] * len(plain)  # type: ignore[union-attr]


def test_date_words_are_single_names_only() -> None:
    for word in (
        "may",
        "sept",
        "dec",
        "tues",
        "thurs",
        "sunday",
        "autumn",
        "christmas",
        "halloween",
        "easter",
    ):
        assert word in DATE_WORDS
    for phrase in ("new years", "labor day", "christmas eve", "2067"):
        assert phrase not in DATE_WORDS


def test_reference_date_needs_year_month_and_day() -> None:
    assert reference_date(parse_date("5/3/67")) == dt.date(2067, 5, 3)  # type: ignore[arg-type]
    for text in ("May 3", "May 2067", "2067", "Monday"):
        assert reference_date(parse_date(text)) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14-Jul-2067", "22-Oct-2067"),
        ("the 22nd of May, 2067", "the 30th of August, 2067"),
        ("7/4/67 @ 10:30pm", "10/12/67 @ 10:30pm"),
        ("2067.5.3", "2067.8.11"),
        ("2067-10-10", "2068-01-18"),
        ("20671010", "20680118"),
        ("5/03/2067", "08/11/2067"),  # one padded number: the writer pads them all
        ("June-2067", "September-2067"),
        ("3-June-2067", "11-September-2067"),
        ("SEPT 2067", "DEC 2067"),
        ("sept. '67", "dec. '67"),
        ("september", "december"),
        ("Tues 10:30", "Thu 10:30"),
        ("MON.", "WED."),
        ("wednesday", "friday"),
        ("winter 2067", "spring 2067"),
        ("Autumn of 2067", "Winter of 2068"),
        ("fall", "winter"),
    ],
)
def test_hundred_days_later_in_the_same_style(text: str, expected: str) -> None:
    assert shifted(text, HUNDRED) == expected


def test_two_digit_years_roll_over_the_century() -> None:
    assert shifted("12/31/99", days(1)) == "1/1/00"
    assert shifted("'99", days(200)) == "'00"
    assert shifted("Dec 31, '99", days(1)) == "Jan 1, '00"


def test_a_year_alone_moves_when_its_middle_crosses_new_year() -> None:
    # a year stands for its 1 July: 183 days later is 31 December, 184 is 1 January
    assert shifted("2067", days(183)) == "2067"
    assert shifted("2067", days(184)) == "2068"


def test_a_month_alone_moves_when_its_middle_crosses_the_month() -> None:
    # a month stands for its 15th, read in a month of 31 days: 15 + 16 = 31, + 17 = the 1st
    assert shifted("May", days(16)) == "May"
    assert shifted("May", days(17)) == "June"
    assert shifted("Dec 2067", days(17)) == "Jan 2068"


@pytest.mark.parametrize("total", [16, 17, 45, 46, 200, 1234, 3653])
def test_months_alone_move_by_one_number_of_months(total: int) -> None:
    # Two months stay two months, as far apart: moved by days from their own 15th, September
    # and October could both land in March (a patient's "9/2069" and "10/2069" read as one).
    months = [f"{month}/2069" for month in range(1, 13)] + [f"{month}/2070" for month in range(1, 13)]
    moved = [shifted(month, days(total)) for month in months]
    as_index = [int(m.split("/")[1]) * 12 + int(m.split("/")[0]) for m in moved]
    assert [b - a for a, b in itertools.pairwise(as_index)] == [1] * 23


def test_february_29_without_a_year_falls_back_to_a_leap_year() -> None:
    assert shifted("Feb 29", days(1), default_year=2067) == "Mar 1"
    assert shifted("Feb 29", days(1), default_year=2068) == "Mar 1"
    assert shifted("Feb 28", days(1), default_year=2068) == "Feb 29"


SEASON_OF_MONTH = {
    1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring", 6: "summer",
    7: "summer", 8: "summer", 9: "fall", 10: "fall", 11: "fall", 12: "winter",
}  # fmt: skip


@pytest.mark.parametrize("month", range(1, 13))
def test_seasons_follow_the_month(month: int) -> None:
    # winter stands for 15 January; shift it to the 15th of each month of 2067
    delta = (dt.date(2067, month, 15) - dt.date(2067, 1, 15)).days
    assert shifted("winter 2067", days(delta)) == f"{SEASON_OF_MONTH[month]} 2067"
    assert shifted("Winter", days(delta)) == SEASON_OF_MONTH[month].capitalize()
    # "autumn" stays "autumn" where "fall" would be written
    autumn_delta = (dt.date(2068, month, 15) - dt.date(2067, 10, 15)).days
    expected = "autumn" if SEASON_OF_MONTH[month] == "fall" else SEASON_OF_MONTH[month]
    assert shifted("autumn 2067", days(autumn_delta)) == f"{expected} 2068"


SUFFIX = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}


def test_ordinal_suffixes_follow_the_new_day() -> None:
    for day in range(1, 32):
        suffix = SUFFIX.get(day, "th")
        assert shifted("May 1st, 2067", days(day - 1)) == f"May {day}{suffix}, 2067"
        assert shifted("MAY 1ST", days(day - 1)) == f"MAY {day}{suffix.upper()}"


def test_ordinals_of_hundreds_use_the_last_two_digits() -> None:
    from annotator.deid.dates import _ordinal_suffix

    assert [_ordinal_suffix(n) for n in (101, 111, 112, 113, 121, 122, 123, 100)] == [
        "st", "th", "th", "th", "st", "nd", "rd", "th",
    ]  # fmt: skip


def test_weekday_moves_with_the_shift() -> None:
    names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    for n in range(15):
        assert shifted("Monday", days(n)) == names[n % 7]
        assert shifted("mon", days(n)) == names[n % 7][:3].lower()


def test_shift_dictionary() -> None:
    assert DateShift(1, 2, 3, 430).to_dict() == {"years": 1, "months": 2, "days": 3, "total_days": 430}


class ScriptedRandom:
    """Answers randint with given values and records the ranges asked for."""

    def __init__(self, *answers: int) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        self.asked.append((low, high))
        return self.answers.pop(0)


def test_draw_shift_ranges_and_total_days() -> None:
    rng = ScriptedRandom(1, 0, 1)
    shift = draw_shift(rng)  # type: ignore[arg-type]
    assert rng.asked == [(1, 10), (0, 11), (1, 28)]
    # from 1 January 2000 (the default reference): a leap year of 366 days, then one day
    assert shift == DateShift(1, 0, 1, 367)
    # 31 January 2067 + 2 years = 31 January 2069 (731 days, 2068 is a leap year); + 1 month
    # = 28 February 2069 (28 days, the month is cut short); + 1 day = 1 March: 760 days
    assert draw_shift(ScriptedRandom(2, 1, 1), dt.date(2067, 1, 31)) == DateShift(2, 1, 1, 760)  # type: ignore[arg-type]


def test_alternation_puts_longer_words_first_and_escapes() -> None:
    from annotator.deid.dates import _alternation

    # longest first (so "sept" is tried before "sep"); words of one length keep their order
    assert _alternation(["may", "b.c", "mayday", "z"]) == r"mayday|may|b\.c|z"


def test_default_reference_date_is_the_first_of_january_2000() -> None:
    # 1 year, 1 month, 1 day from 1 January 2000: 366 + 31 (January) + 1 = 398 days
    # (from 1 February it would be 366 + 28 + 1)
    assert draw_shift(ScriptedRandom(1, 1, 1)).total_days == 398  # type: ignore[arg-type]


def test_iso_dates_pad_only_when_both_numbers_are_padded() -> None:
    assert shifted("2067-10-5", days(1)) == "2067-10-6"
    assert shifted("2067-5-10", days(1)) == "2067-5-11"
    assert shifted("2067-05-10", days(1)) == "2067-05-11"


def test_thanksgiving_when_november_starts_on_a_thursday() -> None:
    assert holiday_date("thanksgiving", 2018) == dt.date(2018, 11, 22)
    assert holiday_date("thanksgiving", 2029) == dt.date(2029, 11, 22)


def test_a_second_number_of_32_is_a_year() -> None:
    parsed = parse_date("5/32")
    assert parsed is not None and (parsed.kind, parsed.month, parsed.year) == ("my", 5, 2032)


def test_default_year_is_the_leap_year_2000() -> None:
    parsed = parse_date("Feb 28")
    assert parsed is not None and shift_date(parsed, days(1)) == "Feb 29"


def test_a_season_stands_for_the_15th_of_its_first_month() -> None:
    # winter = 15 January: + 44 days = 28 February (winter), + 45 = 1 March (spring)
    assert shifted("winter 2067", days(44)) == "winter 2067"
    assert shifted("winter 2067", days(45)) == "spring 2067"


def test_mixed_case_seasons_starting_lower_case_are_written_lower_case() -> None:
    assert shifted("wINTER 2067", days(0)) == "winter 2067"
    assert shifted("aUTUMN 2067", days(0)) == "autumn 2067"
