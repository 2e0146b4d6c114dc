"""Date surrogates: one shift per patient, every date re-written in its own format.

A date string is matched against a fixed set of patterns (ISO, numeric month/day/year,
month names, day-month, month-year, years, weekdays, seasons, holidays). The match splits
the string into *fields* (weekday, month name or number, day, year, season, holiday) and
literal text between them; the shifted date is written back field by field in the style of
the original (zero padding, ordinal suffixes, abbreviations, case, two-digit years), so the
output format equals the input format. Anything that does not match a pattern completely, or
is ambiguous (``02/03``: February 3rd, March 2nd or February 2003?), is not guessed: the
caller flags it for review.

The shift is drawn as years, months and days (seed 001 §5.2) but applied as the fixed number
of days it spans from the patient's reference date, so intervals between dates are kept
exactly.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

from dateutil.easter import easter
from dateutil.relativedelta import MO, TH, relativedelta

from annotator.deid.textcase import apply_case

MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTH_ABBREVIATIONS = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_ABBREVIATIONS = {d[:3]: i for i, d in enumerate(WEEKDAYS)} | {
    "tues": 1, "thur": 3, "thurs": 3,
}  # fmt: skip
SEASONS = {"winter": 1, "spring": 4, "summer": 7, "fall": 10, "autumn": 10}
# Holidays: a fixed (month, day), or a rule for the ones that move. The shifted date is
# written as "Month D", since a shifted holiday is no longer that holiday.
HOLIDAYS: dict[str, tuple[int, int] | str] = {
    "christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25),
    "new year's eve": (12, 31), "new years eve": (12, 31), "new year's day": (1, 1),
    "new year's": (1, 1), "new years": (1, 1), "halloween": (10, 31),
    "valentine's day": (2, 14), "independence day": (7, 4), "fourth of july": (7, 4),
    "4th of july": (7, 4), "veterans day": (11, 11), "veterans' day": (11, 11),
    "thanksgiving": "thanksgiving", "thanksgiving day": "thanksgiving", "easter": "easter",
    "easter sunday": "easter", "memorial day": "memorial", "labor day": "labor",
}  # fmt: skip


def holiday_date(name: str, year: int) -> dt.date:
    """The date of a holiday in a year (moving holidays by their rule)."""
    rule = HOLIDAYS[name.lower()]
    if isinstance(rule, tuple):
        return dt.date(year, *rule)
    if rule == "easter":
        return easter(year)
    if rule == "thanksgiving":  # fourth Thursday of November
        return dt.date(year, 11, 1) + relativedelta(weekday=TH(+4))
    if rule == "memorial":  # last Monday of May
        return dt.date(year, 5, 31) + relativedelta(weekday=MO(-1))
    return dt.date(year, 9, 1) + relativedelta(weekday=MO(+1))  # Labor Day


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_MONTH = rf"(?:{_alternation(list(MONTHS) + list(_MONTH_ABBREVIATIONS))})\.?"
_WEEKDAY = rf"(?:{_alternation(list(WEEKDAYS) + list(_WEEKDAY_ABBREVIATIONS))})\.?"
_OPT_WEEKDAY = rf"(?:(?P<weekday>{_WEEKDAY})(?P<wsep>,?\s+))?"
_DAY = r"(?P<day>\d{1,2}(?:st|nd|rd|th)?)"
_YEAR4_OR_APOS = r"(?P<year>\d{4}|'\d{2})"
_TIME = r"(?P<time>(?:,?\s+(?:at\s+)?|\s*@\s*)\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)?"
_HOLIDAY = _alternation(list(HOLIDAYS))

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "iso",
            _OPT_WEEKDAY + r"(?P<year>\d{4})(?P<s1>[-/.])(?P<month>\d{1,2})(?P=s1)(?P<day>\d{1,2})" + _TIME,
        ),
        (
            "mdy",
            _OPT_WEEKDAY
            + r"(?P<month>\d{1,2})(?P<s1>[-/.])(?P<day>\d{1,2})(?P=s1)(?P<year>\d{4}|\d{2})"
            + _TIME,
        ),
        ("my", r"(?P<month>\d{1,2})(?P<s1>[-/])(?P<year>\d{4})"),
        ("short", r"(?P<month>\d{1,2})(?P<s1>[-/])(?P<second>\d{1,2})"),
        (
            "dmy-dash",
            rf"(?P<day>\d{{1,2}})(?P<s1>[- ])(?P<month>{_MONTH})(?P=s1)(?P<year>\d{{4}}|\d{{2}})" + _TIME,
        ),
        (
            "text-mdy",
            _OPT_WEEKDAY
            + rf"(?P<month>{_MONTH})(?P<s1>\s+|\s*-\s*){_DAY}(?:(?P<s2>,?\s+|,\s*){_YEAR4_OR_APOS})?"
            + _TIME,
        ),
        (
            "text-dmy",
            _OPT_WEEKDAY
            + rf"(?P<the>the\s+)?{_DAY}(?P<s1>\s+of\s+|\s+)(?P<month>{_MONTH})(?:(?P<s2>,?\s+){_YEAR4_OR_APOS})?"
            + _TIME,
        ),
        ("month-year", rf"(?P<month>{_MONTH})(?P<s1>,?\s+|\s+of\s+|-|\s*/\s*){_YEAR4_OR_APOS}"),
        ("month", rf"(?P<month>{_MONTH})"),
        ("compact", r"(?P<year>\d{4})(?P<month>\d{2})(?P<day>\d{2})"),
        ("year", _YEAR4_OR_APOS),
        ("weekday", rf"(?P<weekday>{_WEEKDAY})" + _TIME),
        (
            "season",
            rf"(?P<season>spring|summer|fall|autumn|winter)(?:(?P<s1>\s+of\s+|,?\s+){_YEAR4_OR_APOS})?",
        ),
        ("holiday", rf"(?P<holiday>(?:the\s+)?(?:{_HOLIDAY}))(?:(?P<s1>,?\s+){_YEAR4_OR_APOS})?"),
    )
)
_FIELDS = ("weekday", "month", "day", "year", "second", "season", "holiday")
# Formats whose written form identifies a day or a month of a given year (HIPAA date elements).
IDENTIFYING_KINDS = frozenset(
    {"iso", "compact", "mdy", "my", "dmy-dash", "text-mdy", "text-dmy", "month-year", "holiday"}
)
# Single words that name a day, month or season: ordinary vocabulary, never identifying alone.
DATE_WORDS = frozenset(
    list(MONTHS) + list(_MONTH_ABBREVIATIONS) + list(WEEKDAYS) + list(_WEEKDAY_ABBREVIATIONS) + list(SEASONS)
    + [h for h in HOLIDAYS if " " not in h]
)  # fmt: skip


@dataclass(frozen=True)
class DateShift:
    """A patient's date shift: drawn as years, months, days; applied as ``total_days``."""

    years: int
    months: int
    days: int
    total_days: int

    def to_dict(self) -> dict[str, int]:
        return {"years": self.years, "months": self.months, "days": self.days, "total_days": self.total_days}


def draw_shift(rng: random.Random, reference: dt.date | None = None) -> DateShift:
    """A random forward shift of 1-10 years, 0-11 months and 1-28 days."""
    years, months, days = rng.randint(1, 10), rng.randint(0, 11), rng.randint(1, 28)
    reference = reference or dt.date(2000, 1, 1)
    total = (reference + relativedelta(years=years, months=months, days=days) - reference).days
    return DateShift(years, months, days, total)


@dataclass
class ParsedDate:
    """A date string split into fields: ``(field, value)`` parts and literal strings."""

    kind: str
    parts: list[tuple[str, str]]  # (field name or "" for a literal, original text)
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    season: str | None = None
    holiday: str | None = None
    two_digit_year: bool = False

    @property
    def identifying(self) -> bool:
        return self.kind in IDENTIFYING_KINDS


def _month_number(token: str) -> int | None:
    word = token.lower().rstrip(".")
    if word in MONTHS:
        return MONTHS.index(word) + 1
    return _MONTH_ABBREVIATIONS.get(word)


def _weekday_number(token: str) -> int | None:
    word = token.lower().rstrip(".")
    if word in WEEKDAYS:
        return WEEKDAYS.index(word)
    return _WEEKDAY_ABBREVIATIONS.get(word)


def _split(match: re.Match[str]) -> list[tuple[str, str]]:
    text = match.string
    spans = sorted(
        (match.start(name), match.end(name), name)
        for name in _FIELDS
        if name in match.re.groupindex and match.group(name) is not None
    )
    parts: list[tuple[str, str]] = []
    position = 0
    for start, end, name in spans:
        if start > position:
            parts.append(("", text[position:start]))
        parts.append((name, text[start:end]))
        position = end
    if position < len(text):
        parts.append(("", text[position:]))
    return parts


def parse_date(text: str, short_numeric: str = "month-day", day_first: bool = False) -> ParsedDate | None:
    """Split a date string into fields, or None when it cannot be parsed safely.

    Parameters
    ----------
    text:
        The date as annotated, without surrounding blanks.
    short_numeric:
        What ``5/3`` means: ``"month-day"`` (the US clinical convention; the default) or
        ``"flag"`` (not parsed). A second number above 31 is always a two-digit year, and
        one written with a leading zero (``02/03``: February 3rd or February 2003?) is
        always ambiguous, so never parsed.
    day_first:
        Whether a numeric date that reads either way (``3/4/01``) is day first: the writer's
        other dates say so (:func:`writes_day_first`). One whose first number cannot be a
        month (``21/4/01``) is day first in any case.
    """
    for kind, pattern in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        parsed = ParsedDate(kind, _split(match))
        groups = match.groupdict()
        if groups.get("weekday"):
            parsed.weekday = _weekday_number(groups["weekday"])
        if groups.get("month"):
            month_text = groups["month"]
            parsed.month = int(month_text) if month_text.isdigit() else _month_number(month_text)
        if groups.get("day"):
            parsed.day = int(re.sub(r"\D", "", groups["day"]))
        if groups.get("year"):
            digits = groups["year"].lstrip("'")
            parsed.two_digit_year = len(digits) == 2
            parsed.year = 2000 + int(digits) if parsed.two_digit_year else int(digits)
        if groups.get("season"):
            parsed.season = groups["season"].lower()
        if groups.get("holiday"):
            parsed.holiday = re.sub(r"^the\s+", "", groups["holiday"].lower())
        if kind == "short":
            second = int(groups["second"])
            if second > 31 and len(groups["second"]) == 2:
                parsed.kind = "my"
                parsed.year, parsed.two_digit_year = 2000 + second, True
                parsed.parts = [("year", p[1]) if p[0] == "second" else p for p in parsed.parts]
            elif short_numeric == "month-day" and (
                not groups["second"].startswith("0") or int(groups["month"]) > 12
            ):
                # "21/04": no month 21, so no month and year either; day first (below).
                parsed.kind = "mdy"
                parsed.day = second
                parsed.parts = [("day", p[1]) if p[0] == "second" else p for p in parsed.parts]
            else:
                return None
        if parsed.kind == "mdy" and groups["month"].isdigit():
            _read_day_first(parsed, day_first)
        if not _valid(parsed):
            return None
        return parsed
    return None


def _read_day_first(parsed: ParsedDate, day_first: bool) -> None:
    """A numeric month/day read the other way round when it is day first: its first number
    cannot be a month (``21/4/01``), or the writer writes day first and it reads either way.
    The parts are renamed, not reordered, so the surrogate is written day first too."""
    month, day = parsed.month, parsed.day
    if month is None or day is None or day > 12 or not (month > 12 or day_first):
        return
    parsed.month, parsed.day = day, month
    swapped = {"month": "day", "day": "month"}
    parsed.parts = [(swapped.get(name, name), text) for name, text in parsed.parts]


def writes_day_first(texts: Iterable[str]) -> bool:
    """Whether the writer of these dates writes numeric dates day first: one of them can only
    be read so (``21/4/01``) and none can only be read month first (``4/21/01``). A writer
    who does both leaves the dates that read either way in the US reading, the default."""
    firsts = [order for text in texts if (order := _numeric_order(text.strip())) is not None]
    return "day" in firsts and "month" not in firsts


def _numeric_order(text: str) -> str | None:
    """``day`` or ``month``: which comes first in a numeric date that can only be read one
    way (``21/4/01``, ``4/21``); None for any other date. The parser decides what a numeric
    date is: read day first where it can be, one still month first has a day over 12."""
    parsed = parse_date(text, day_first=True)
    if parsed is None or parsed.kind != "mdy":
        return None
    numbers = [(name, part) for name, part in parsed.parts if name in ("month", "day") and part.isdigit()]
    if len(numbers) != 2:
        return None
    (first, written), _ = numbers
    if first == "month":
        return "month"
    return "day" if int(written) > 12 else None


def _valid(parsed: ParsedDate) -> bool:
    if parsed.month is not None and not 1 <= parsed.month <= 12:
        return False
    if parsed.day is not None:
        if parsed.month is None:
            return False
        try:
            dt.date(parsed.year or 2000, parsed.month, parsed.day)
        except ValueError:
            return False
    return not (parsed.weekday is None and any(name == "weekday" for name, _ in parsed.parts))


def reference_date(parsed: ParsedDate) -> dt.date | None:
    """The full date a string names, when it names one (year, month and day)."""
    if parsed.year is not None and parsed.month is not None and parsed.day is not None:
        return dt.date(parsed.year, parsed.month, parsed.day)
    return None


def shift_date(parsed: ParsedDate, shift: DateShift, default_year: int = 2000) -> str:
    """The date shifted by ``shift.total_days``, written in the original's format."""
    return "".join(shift_parts(parsed, shift, default_year))


def shift_parts(parsed: ParsedDate, shift: DateShift, default_year: int = 2000) -> list[str]:
    """The shifted date's text part by part (one string for each of ``parsed.parts``)."""
    delta = dt.timedelta(days=shift.total_days)
    year = parsed.year if parsed.year is not None else default_year
    new: dict[str, object] = {}
    if parsed.holiday is not None:
        moved = holiday_date(parsed.holiday, year) + delta
        new.update(holiday=moved, year=moved.year)
    elif parsed.day is not None and parsed.month is not None:
        moved = _safe_date(year, parsed.month, parsed.day) + delta
        new.update(year=moved.year, month=moved.month, day=moved.day)
    elif parsed.month is not None:
        # A month without a day moves by one number of months for the patient, so two months
        # stay two months and their distance is kept: moved by days from a day of theirs,
        # September and October could both land in one month of 31 days.
        index = year * 12 + parsed.month - 1 + shift_months(shift)
        new.update(year=index // 12, month=index % 12 + 1)
    elif parsed.season is not None:
        moved = dt.date(year, SEASONS[parsed.season], 15) + delta
        new.update(year=moved.year, season=_season_of(moved.month, parsed.season))
    elif parsed.year is not None:
        new.update(year=(dt.date(year, 7, 1) + delta).year)
    if parsed.weekday is not None:
        new["weekday"] = (parsed.weekday + shift.total_days) % 7
    return [_render(field, original, new, parsed) for field, original in parsed.parts]


def shift_months(shift: DateShift) -> int:
    """The patient's shift in whole months: where it moves the middle of a month of 31 days
    (January 15th; 16 days leave it in January, 17 move it to February)."""
    moved = _MONTH_ANCHOR + dt.timedelta(days=shift.total_days)
    return (moved.year - _MONTH_ANCHOR.year) * 12 + moved.month - 1


_MONTH_ANCHOR = dt.date(2001, 1, 15)


def shifted_day(parsed: ParsedDate, shift: DateShift, year: int) -> dt.date | None:
    """The shifted calendar day of a date that names a month and a day (else None)."""
    if parsed.month is None or parsed.day is None:
        return None
    return _safe_date(year, parsed.month, parsed.day) + dt.timedelta(days=shift.total_days)


def _safe_date(year: int, month: int, day: int) -> dt.date:
    # A February 29th without a year of its own: fall back to a leap year.
    try:
        return dt.date(year, month, day)
    except ValueError:
        return dt.date(2000, month, day)


def _season_of(month: int, original: str) -> str:
    for name in ("winter", "spring", "summer", "fall"):
        start = SEASONS[name]
        if month in {(start - 2) % 12 + 1, start, start % 12 + 1}:
            return "autumn" if name == "fall" and original == "autumn" else name
    return original


def _render(field: str, original: str, new: dict[str, object], parsed: ParsedDate) -> str:
    if not field:
        return original
    if field == "weekday":
        return _name_like(original, WEEKDAYS[int(new["weekday"])])  # type: ignore[call-overload]
    if field == "month":
        month = int(new["month"])  # type: ignore[call-overload]
        if original.isdigit():
            return _number_like(original, month, _padded(parsed))
        # "03-MAY-67": in the dashed style a three-letter May stands for an abbreviation
        # (a longer name, "03-June-2067", is written in full).
        dashed_may = ("", "-") in parsed.parts and len(original.rstrip(".")) == 3
        return _name_like(original, MONTHS[month - 1], abbreviated=dashed_may)
    if field == "day":
        return _day_like(original, int(new["day"]), _padded(parsed))  # type: ignore[call-overload]
    if field == "year":
        year = int(new["year"])  # type: ignore[call-overload]
        if parsed.kind == "decade":
            year -= year % 10
        if original.startswith("'"):
            return f"'{year % 100:02d}"
        return f"{year % 100:02d}" if len(original) == 2 else f"{year:04d}"
    if field == "season":
        return apply_case(
            original, str(new["season"]).capitalize() if original[0].isupper() else str(new["season"])
        )
    if field == "holiday":
        moved = new["holiday"]
        assert isinstance(moved, dt.date)
        return apply_case(original, f"{MONTHS[moved.month - 1].capitalize()} {moved.day}")
    return original


def _padded(parsed: ParsedDate) -> bool:
    # One zero-padded number means the writer pads them all ("05/15/2067"); year-first
    # dates with two-digit month and day are ISO style, which always pads.
    numbers = [text for name, text in parsed.parts if name in ("month", "day") and text.isdigit()]
    if parsed.kind == "compact" or (parsed.kind == "iso" and all(len(t) == 2 for t in numbers)):
        return True
    return any(name in ("month", "day") and len(text) >= 2 and text[0] == "0" for name, text in parsed.parts)


def _number_like(original: str, value: int, padded: bool) -> str:
    return f"{value:02d}" if padded else str(value)


def _day_like(original: str, value: int, padded: bool) -> str:
    digits = re.match(r"\d+", original)
    suffix = original[digits.end() :] if digits else ""
    text = f"{value:02d}" if padded else str(value)
    if suffix:
        text += apply_case(suffix, _ordinal_suffix(value))
    return text


def _ordinal_suffix(value: int) -> str:
    if 11 <= value % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")


def _name_like(original: str, full_name: str, abbreviated: bool = False) -> str:
    """A month or weekday name in the original's style: abbreviation, trailing dot, case."""
    word = original.rstrip(".")
    dot = original[len(word) :]
    is_full = not abbreviated and (word.lower() in MONTHS or word.lower() in WEEKDAYS) and not dot
    text = full_name if is_full else full_name[:3]
    text = text.capitalize()
    return apply_case(word, text) + dot
