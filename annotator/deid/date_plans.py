"""How each date tag of a note is read: alone, or as one date with the tags beside it.

Real notes tag a date in parts (``21`` ``Apr`` ``21``; ``July`` ``29th``; a night shift
``1->2 nov, 96`` in four tags). Shifting each part alone contradicts the note (``nov`` became
``may`` while the day beside it was masked), so tags separated only by a short gap on one line
are read together as one date (:class:`DatePlan`), shifted once, and the shifted text cut back
into the tags. A day alone takes its month from the nearest date of its note, and a number
that may be a day or a year is read by its context (``'79``, ``CVA in 94``).
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.deid.date_forms import DAY_ALONE, Reading, readings
from annotator.deid.dates import MONTHS, DateShift, ParsedDate, shift_parts, shifted_day
from annotator.deid.tag_runs import adjacent_runs
from annotator.deid.textcase import apply_case

# What may stand between two parts of one date: blanks, a comma, a dash or arrow, "of".
_GAP = re.compile(r"[ \t]*(?:,|->|-|–|/|\.|of|the)?[ \t]*", re.IGNORECASE)
_RANGE_SEPARATOR = re.compile(r"\s*(?:->|-|–|/|\bto\b|\bthru\b|\bthrough\b)\s*", re.IGNORECASE)
MOST_PARTS = 6
# Every reading of a date string, best first: readings() with the patient's conventions.
Reader = Callable[[str], list[Reading]]
_YEAR_BEFORE = re.compile(r"(?:'|\b(?:in|since|of|from|year)\s+)$", re.IGNORECASE)


@dataclass
class Segment:
    """One date inside a plan's text, from ``offset``; a range's first day names ``anchor``
    (the segment it takes its month from), a day alone the ``neighbour`` date it does."""

    offset: int
    parsed: ParsedDate
    anchor: int | None = None
    neighbour: ParsedDate | None = None


@dataclass
class DatePlan:
    """The date tags read as one: their text (with the gaps), their spans in it, the dates."""

    text: str
    spans: list[tuple[int, int]]
    keys: list[tuple[int, int]]  # each tag's (start, end) in the document, blanks stripped
    segments: list[Segment]
    notes: list[str] = field(default_factory=list)

    @property
    def note(self) -> str | None:
        return "; ".join(dict.fromkeys(self.notes)) or None

    def full_dates(self) -> list[dt.date]:
        found = []
        for segment in self.segments:
            p = segment.parsed
            if p.year is not None and p.month is not None and p.day is not None and segment.anchor is None:
                found.append(dt.date(p.year, p.month, p.day))
        return found


def plan_document(
    document: Document, tags: Iterable[Annotation], short_numeric: str = "month-day", day_first: bool = False
) -> list[DatePlan]:
    """The plans of a note's date tags (a tag with no date reading is in none); ``day_first``:
    the patient writes numeric dates day first (:func:`~annotator.deid.dates.writes_day_first`)."""
    plans: list[DatePlan] = []
    read = partial(readings, short_numeric=short_numeric, day_first=day_first)
    for run in adjacent_runs(document.text, tags, _GAP):
        cores = [(start, end, document.text[start:end]) for start, end in run]
        plans.extend(_plan_run(document.text, cores, read))
    _fill_days(plans)
    return plans


def _plan_run(text: str, run: list[tuple[int, int, str]], read: Reader) -> list[DatePlan]:
    """Longest readable stretches first: the whole run, else its parts. A date has at most
    ``MOST_PARTS`` tags (weekday, day, month, year, a range's first day ...), so a long run
    of dates side by side (``3/4, 3/5, 3/6``) costs linear time."""
    plans: list[DatePlan] = []
    # Two tags that are whole dates alone (a month and a day) are two dates ("3/4, 3/5").
    whole = [bool((r := read(core)) and r[0].parsed.month and r[0].parsed.day) for *_, core in run]
    index = 0
    while index < len(run):
        for stop in range(min(len(run), index + MOST_PARTS), index, -1):
            if stop - index > 1 and sum(whole[index:stop]) > 1:
                continue
            plan = _read(text, run[index:stop], read)
            if plan is not None:
                plans.append(plan)
                index = stop
                break
        else:
            index += 1
    return plans


def _read(text: str, cores: list[tuple[int, int, str]], read: Reader) -> DatePlan | None:
    start = cores[0][0]
    joined = text[start : cores[-1][1]]
    spans = [(s - start, e - start) for s, e, _ in cores]
    keys = [(s, e) for s, e, _ in cores]
    before = text[max(0, start - 12) : start]
    choice = _choose(read(joined), before)
    plan: DatePlan | None
    if choice is not None:
        plan = DatePlan(
            joined, spans, keys, [Segment(0, choice.parsed)], [choice.note] if choice.note else []
        )
    else:
        plan = _range(joined, spans, keys, read)
    if plan is None or not _fields_inside(plan):
        return None
    return plan


def _choose(found: list[Reading], before: str) -> Reading | None:
    """The first reading, but a number after ``'`` or ``in`` is a year (``'79``, ``in 94``)."""
    if not found:
        return None
    if len(found) > 1 and found[0].note == DAY_ALONE and _YEAR_BEFORE.search(before):
        return found[1]
    return found[0]


def _range(
    joined: str, spans: list[tuple[int, int]], keys: list[tuple[int, int]], read: Reader
) -> DatePlan | None:
    """Two dates in one stretch: ``1->2 nov, 96`` (the first a day of the second's month),
    ``6/30-7/2`` or ``10/15-10/16`` (two dates of their own)."""
    splits = [(s, read(joined[: s.start()]), read(joined[s.end() :]))
              for s in _RANGE_SEPARATOR.finditer(joined)]  # fmt: skip
    # Two whole dates first ("10/03/10/04" is October 3rd to 4th, not the 10th of March 2004).
    ordered = sorted(splits, key=lambda split: not (split[1] and split[1][0].parsed.month is not None))
    for separator, first, later in ordered:
        if not later or not first or later[0].parsed.day is None or later[0].parsed.month is None:
            continue
        main, day = later[0].parsed, first[0].parsed
        if day.kind == "day":
            day.month, day.year, day.two_digit_year = main.month, main.year, main.two_digit_year
            start = Segment(0, day, anchor=1)
        elif day.month is not None and day.day is not None:
            start = Segment(0, day)
        else:
            continue
        notes = [r.note for r in (first[0], later[0]) if r.note and r.note != DAY_ALONE]
        return DatePlan(joined, spans, keys, [start, Segment(separator.end(), main)], notes)
    return None


def _fields_inside(plan: DatePlan) -> bool:
    """Every field of the reading lies inside one tag (none in the untagged gaps)."""
    for start, end, _, is_field in _pieces(plan, [list(_original(s)) for s in plan.segments]):
        if is_field and not any(s <= start and end <= e for s, e in plan.spans):
            return False
    return True


def _original(segment: Segment) -> Iterable[str]:
    return (part for _, part in segment.parsed.parts)


def _pieces(plan: DatePlan, rendered: list[list[str]]) -> list[tuple[int, int, str, bool]]:
    """``(start, end, new text, is a field)`` over the plan's text, gaps included."""
    pieces: list[tuple[int, int, str, bool]] = []
    position = 0
    for segment, texts in zip(plan.segments, rendered, strict=True):
        if segment.offset > position:
            pieces.append((position, segment.offset, plan.text[position : segment.offset], False))
        position = segment.offset
        for (name, original), new in zip(segment.parsed.parts, texts, strict=True):
            pieces.append((position, position + len(original), new, bool(name)))
            position += len(original)
    if position < len(plan.text):
        pieces.append((position, len(plan.text), plan.text[position:], False))
    return pieces


def _fill_days(plans: list[DatePlan]) -> None:
    """A day alone is read in the month (and year) of the nearest date of its note (the one
    before it when two are as near)."""
    with_month = [i for i, p in enumerate(plans) if p.segments[-1].parsed.month is not None]
    for index, plan in enumerate(plans):
        parsed = plan.segments[0].parsed
        if parsed.kind != "day" or parsed.month is not None:
            continue
        if not with_month:
            plan.segments.clear()
            continue
        place = bisect_left(with_month, index)
        near = [with_month[i] for i in (place - 1, place) if 0 <= i < len(with_month)]
        nearest = plans[min(near, key=lambda i: (abs(i - index), i > index))].segments[-1].parsed
        parsed.month, parsed.year, parsed.two_digit_year = nearest.month, nearest.year, nearest.two_digit_year
        plan.segments[0].neighbour = nearest
    plans[:] = [p for p in plans if p.segments]


def render_plan(plan: DatePlan, shift: DateShift, year_for: Callable[[ParsedDate], int]) -> list[str]:
    """Each tag's new text: the plan's dates shifted as one and cut back at the tags."""
    rendered: list[list[str]] = []
    years = [year_for(s.parsed) for s in plan.segments]
    for index, segment in enumerate(plan.segments):
        year = years[segment.anchor] if segment.anchor is not None else years[index]
        texts = shift_parts(segment.parsed, shift, year)
        if segment.anchor is not None:
            texts = _range_start(segment, plan.segments[segment.anchor], texts, shift, year)
        if segment.neighbour is not None:
            texts = _day_alone(segment, texts, shift, year, year_for(segment.neighbour))
        rendered.append(texts)
    pieces = _pieces(plan, rendered)
    out = []
    for start, end in plan.spans:
        text = ""
        for p_start, p_end, new, is_field in pieces:
            if is_field and start <= p_start and p_end <= end:
                text += new
            elif not is_field and p_start < end and start < p_end:
                text += plan.text[max(start, p_start) : min(end, p_end)]
        out.append(text)
    return out


def _day_alone(
    segment: Segment, texts: list[str], shift: DateShift, year: int, neighbour_year: int
) -> list[str]:
    """A day alone is read in its neighbour's month; when the shift puts it in another month
    than the neighbour's, it is written with its month (``13`` -> ``8/26``), or it would be
    read a month off."""
    neighbour = segment.neighbour
    moved = shifted_day(segment.parsed, shift, year)
    if neighbour is None or neighbour.month is None or moved is None:
        return texts
    probe = ParsedDate("day", [], month=neighbour.month, day=neighbour.day or 15)
    beside = shifted_day(probe, shift, neighbour_year)
    if beside is None or beside.month == moved.month:
        return texts
    return [f"{moved.month}/{texts[0]}", *texts[1:]]


def _range_start(
    segment: Segment, anchor: Segment, texts: list[str], shift: DateShift, year: int
) -> list[str]:
    """``1->2 nov``: when the shift puts the first day in the month before, it says so."""
    first, last = shifted_day(segment.parsed, shift, year), shifted_day(anchor.parsed, shift, year)
    if first is None or last is None or first.month == last.month:
        return texts
    month_text = next((part for name, part in anchor.parsed.parts if name == "month"), "")
    if not month_text.isalpha():
        return texts
    name = MONTHS[first.month - 1]
    name = name[: len(month_text)] if len(month_text) <= 4 else name
    return [texts[0] + " " + apply_case(month_text, name.capitalize()), *texts[1:]]


def resolve_centuries(plans: Iterable[DatePlan]) -> None:
    """Two-digit years (``3-12-99``) in the century nearest to the patient's latest
    four-digit year; without one, nearest to the first two-digit year (read as 19yy above 30,
    20yy up to 30). The written form keeps two digits either way; the century only makes
    intervals, weekdays and 29 February right, and a reader of the notes decides the same."""
    segments = [s.parsed for plan in plans for s in plan.segments]
    two = [p for p in segments if p.two_digit_year and p.year is not None]
    if not two:
        return
    four = [p.year for p in segments if p.year is not None and not p.two_digit_year]
    if four:
        anchor = max(four)
    else:
        first = (two[0].year or 0) % 100
        anchor = (2000 if first <= 30 else 1900) + first
    for parsed in two:
        short = (parsed.year or 0) % 100
        parsed.year = min((c + short for c in (1800, 1900, 2000, 2100)), key=lambda y: (abs(y - anchor), y))
