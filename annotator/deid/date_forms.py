"""Dates as clinicians write them, beyond what :func:`~annotator.deid.dates.parse_date` reads.

``parse_date`` is strict and context-free (the leak check relies on that). Surrogates need
more: every reading a string can have, so the caller can choose one from the other dates of
the patient and the note. :func:`readings` gives them, best first, each with a note saying
why it is unusual (for the audit file):

* an impossible date (``2/31/14``) is read with its day moved to the month's last day;
* a month and a zero-padded number (``10/08``) is October 8th or October 2008;
* a decade (``1980S``, ``'80s``) is read as its middle year;
* a number or ordinal alone (``21``, ``2nd``) is a day (its month comes from the dates
  around it) or, for two digits, a year (``94``);
* a day-month date with a two-digit year after a comma (``21 Apr, 21``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from annotator.deid.dates import ParsedDate, parse_date

IMPOSSIBLE = "impossible date in the source: read with the day moved to the month's last day"
AMBIGUOUS_MONTH_DAY = "month and zero-padded number: read as month and day"
AMBIGUOUS_DAY_MONTH = "day and zero-padded number: read as day and month (the patient writes day first)"
AMBIGUOUS_MONTH_YEAR = "month and zero-padded number: read as month and two-digit year"
DAY_ALONE = "a day alone: month and year taken from the dates around it"
YEAR_ALONE = "a two-digit year alone"
DECADE = "a decade: shifted as its middle year"

_DECADE = re.compile(r"(?P<the>the\s+)?(?P<year>\d{3}0|'?\d0)(?P<suffix>'?s)", re.IGNORECASE)
_PART_OF = re.compile(
    r"(?P<part>(?:mid|early|late|end\s+of|beginning\s+of)(?:-|\s+))(?P<rest>\S.*)", re.IGNORECASE
)
_NUMBER = re.compile(r"(?P<value>\d{1,2})(?P<suffix>st|nd|rd|th)?", re.IGNORECASE)
_ZERO_PADDED = re.compile(r"(?P<month>\d{1,2})(?P<sep>[-/])(?P<second>0\d)")
_COMMA_YEAR = re.compile(r"(?P<head>.*\S)(?P<sep>,\s*)(?P<year>\d{2})")
_DAY_NUMBER = re.compile(r"(?<!\d)(29|30|31)(?!\d)")


@dataclass(frozen=True)
class Reading:
    """One way to read a date string; ``note`` says why it is unusual (None: it is not)."""

    parsed: ParsedDate
    note: str | None = None


def readings(text: str, short_numeric: str = "month-day", day_first: bool = False) -> list[Reading]:
    """Every reading of ``text``, best first (empty: the string is no date we can read);
    ``day_first``: the patient writes numeric dates day first (``3/4/01`` is 3 April)."""
    strict = parse_date(text, short_numeric, day_first)
    if strict is not None:
        return [Reading(strict)]
    found: list[Reading] = []
    for reader in (_decade, _alone, _zero_padded, _comma_year, _impossible, _part_of):
        found.extend(reader(text, short_numeric, day_first))
        if found:
            break
    return found


def names_no_day_of_a_year(text: str) -> bool:
    """Whether ``text`` is a decade or a part of a month, season or year (``the 1960s``,
    ``mid-October``, ``early 2067``): vaguer than a month or a year, and so, like a month's or a
    year's name alone, no identifying date element. The shift can leave it as it was."""
    if _decade(text, "month-day", False):
        return True
    vague = _part_of(text, "month-day", False)
    return bool(vague) and not any(reading.parsed.identifying for reading in vague)


def _decade(text: str, short_numeric: str, day_first: bool) -> list[Reading]:
    match = _DECADE.fullmatch(text)
    if match is None:
        return []
    digits = match["year"].lstrip("'")
    year = int(digits) if len(digits) == 4 else 1900 + int(digits)
    parts = [("", match["the"] or ""), ("year", match["year"]), ("", match["suffix"])]
    parts = [part for part in parts if part[1]]
    return [Reading(ParsedDate("decade", parts, year=year + 5, two_digit_year=len(digits) == 2), DECADE)]


def _part_of(text: str, short_numeric: str, day_first: bool) -> list[Reading]:
    """``mid-May``, ``early 2067``, ``late July 2067``: the date after the word, the word kept."""
    match = _PART_OF.fullmatch(text)
    if match is None:
        return []
    found = []
    for reading in readings(match["rest"], short_numeric, day_first):
        reading.parsed.parts = [("", match["part"]), *reading.parsed.parts]
        found.append(reading)
    return found


def _alone(text: str, short_numeric: str, day_first: bool) -> list[Reading]:
    match = _NUMBER.fullmatch(text)
    if match is None:
        return []
    value = int(match["value"])
    day = ParsedDate("day", [("day", text)], day=value)
    if match["suffix"]:
        return [Reading(day, DAY_ALONE)] if 1 <= value <= 31 else []
    year = ParsedDate("year", [("year", text)], year=2000 + value, two_digit_year=True)
    if len(text) == 2 and (value > 31 or text.startswith("0")):
        return [Reading(year, YEAR_ALONE)]
    options = [Reading(day, DAY_ALONE)] if 1 <= value <= 31 else []
    if len(text) == 2:
        options.append(Reading(year, YEAR_ALONE))
    return options


def _zero_padded(text: str, short_numeric: str, day_first: bool) -> list[Reading]:
    match = _ZERO_PADDED.fullmatch(text)
    if match is None or short_numeric != "month-day":
        return []
    month, second = int(match["month"]), match["second"]
    found = []
    as_day = parse_date(f"{month}{match['sep']}{int(second)}", short_numeric, day_first)
    if as_day is not None and as_day.day is not None:
        # The numbers as written, in order (day first or month first, as read).
        written = iter((match["month"], second))
        as_day.parts = [(name, next(written) if name else part) for name, part in as_day.parts]
        found.append(Reading(as_day, AMBIGUOUS_DAY_MONTH if day_first else AMBIGUOUS_MONTH_DAY))
    if 1 <= month <= 12:
        parts = [("month", match["month"]), ("", match["sep"]), ("year", second)]
        as_year = ParsedDate("my", parts, year=2000 + int(second), month=month, two_digit_year=True)
        found.append(Reading(as_year, AMBIGUOUS_MONTH_YEAR))
    return found


def _comma_year(text: str, short_numeric: str, day_first: bool) -> list[Reading]:
    """``21 Apr, 21``: a two-digit year is safe after a comma that follows a day and month."""
    match = _COMMA_YEAR.fullmatch(text)
    if match is None:
        return []
    head = parse_date(match["head"], short_numeric, day_first)
    if head is None or head.day is None or head.month is None or head.year is not None:
        return []
    head.parts = [*head.parts, ("", match["sep"]), ("year", match["year"])]
    head.year, head.two_digit_year = 2000 + int(match["year"]), True
    return [Reading(head)]


def _impossible(text: str, short_numeric: str, day_first: bool) -> list[Reading]:
    """``2/31/14``: a day of 29-31 the month does not have becomes the month's last day."""
    for match in _DAY_NUMBER.finditer(text):
        for day in range(int(match.group()) - 1, 27, -1):
            candidate = text[: match.start()] + str(day) + text[match.end() :]
            # "31 Apr, 21" is read like "30 Apr, 21" (a two-digit year after a comma).
            loose = _comma_year(candidate, short_numeric, day_first)
            parsed = parse_date(candidate, short_numeric, day_first) or (loose[0].parsed if loose else None)
            # 29 February only in a year that has one: without a year, the 28th.
            leap_guess = parsed is not None and parsed.year is None and (parsed.month, day) == (2, 29)
            if parsed is not None and parsed.day == day and not leap_guess:
                parsed.parts = [
                    (n, p.replace(str(day), match.group(), 1) if n == "day" else p) for n, p in parsed.parts
                ]
                return [Reading(parsed, IMPOSSIBLE)]
    return []
