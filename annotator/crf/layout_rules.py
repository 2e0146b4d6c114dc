"""Fields a hospital's record layout puts in fixed places: where the layout says what they are.

Discharge summaries and emergency notes printed by a hospital's record system (the i2b2 2014
corpus's, for one) open and close with fields whose place on the line names them, whatever the
words look like:

* a visit's header line, the patient's name in capitals and the record number after a wide gap
  (``OROZCO,KYLE   560-40-78-5        VISIT DATE: 07/20/83``);
* a pipe-separated header (``740215983 | NWMC | 20573184 | | 8830291 | 3/14/2004 12:00:00 AM |
  Discharge Summary | ...``: record number, hospital, medical record number, encounter
  number, date), or the same cells a line each (``027716413 FMH`` / ``5823104`` / ``61034/82kl``
  / ``4/11/1998 12:00:00 AM``), and the header's hospital wherever the note names it again
  (``CORINNE OSTRANDER , M.D. FMH``);
* a caret-separated header (``EDVISIT^40213377^TALBOT, HENRY^11/02/88^VANTERPOOL, LUCIA``:
  record number, patient, visit date, clinician);
* the hospital heading an emergency visit (``SILVER RIDGE EMERGENCY DEPT VISIT``);
* a clinician's login after the signature and degree, before the dictation date
  (``FILBERT BRIGHT, M.D.    FB59          D:07/20/83``);
* a dictation system's number after its label (``Dictation ID 2204817``, ``Job #: 40213``,
  ``eScription document:7-4410293``, ``Batch : 81290``, ``Index No. TQXWBN5 KD``), and the
  typist's login before a job number (``RH62 QM315/4402``);
* the typists' names after the author's initials on a line of their own (``GPP/church/olinger``,
  ``GQ/NV/whalen``);
* a US address's last line, town, state and ZIP code (``Lowell, MA 01852``, ``75 Francis St,
  Boston MA 02115``), wherever it stands in a sentence.

The record system's codes have shapes of their own, each an IDNUM wherever it stands: a
dictation's job number (``XW277/90683``, ``BE249/3185``), colon-separated codes
(``CCL:FG:1879``, ``CH:18306:0077``), a number after a one- or two-digit prefix
(``5-0269342``) and letters before six or more digits (``EO25834097``); digit groups written
3-2-2 (``981-40-48``) are a record number. The pipe-separated header's numbers and date are
codes in their cells. A code takes over the model's pieces inside it (``1879`` read as a
record number, ``EO`` and ``25834097`` as a state and a zip). A span the model drew wider or
across it stays as it is, and so does one over the same characters read as the same kind of
thing (a labelled ``MRN`` keeps its type; ``981-40-48`` read as a phone does not).

The shapes come from the i2b2 2014 corpus as seed 003 describes it (its visit header
``HUNTINGTON EMERGENCY DEPT VISIT`` / ``THOMAS-YOSEF, JULIA 840-91-51-9``, the caret header,
``GQ/NV/whalen`` and its table of IDNUM shapes) and from the five notes of that corpus that
philter-ucsf publishes; the pipe-separated header is the one the same hospitals' discharge
summaries open with in the earlier i2b2 corpora (no gold of ours holds one: its cells' types
are our reading).

A model trained on nursing notes reads these words by themselves: ``KYLE`` of the header as a
state, ``560`` as a zip code, the job number as a login and a street. The layout is surer than
the words, so a field takes its bounds and type over whatever the model or a rule found there.
None of these shapes occurs in the 1,884 nursing notes of PhysioNet patients 1-110 nor in the
synthetic styles' notes (``python -m tests.benchmarks.bench_measured_rules`` counts them), so
they cost those notes nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from functools import cache

from annotator.crf.features import is_public
from annotator.crf.id_rules import IDENTIFIER_TYPES, SIGNATURE_CREDENTIALS
from annotator.crf.labels import Prediction
from annotator.crf.lexicons import LEXICON_DIR, read_entries
from annotator.crf.measured_rules import MeasuredMatch, first_group_span
from annotator.crf.placeholder_rules import PLACEHOLDER_FIELD, placeholder_fields

LAYOUT_ORIGIN = "layout-field"
LAYOUT_CONFIDENCE = 0.97

# The fields, by name (each match carries one; the benchmark counts them by it).
_HEADER_NAME = "name and record number heading a visit"
_LOGIN = "login before the dictation fields"
_CARET = "caret-separated visit header"
_VISIT_HOSPITAL = "hospital heading an emergency visit"
_PIPE = "hospital in a pipe-separated header"
_PIPE_NUMBERS = "numbers of a pipe-separated header"
_DICTATION = "dictation number after its label"
_JOB = "dictation job number"
_COLON = "colon-separated record code"
_PREFIXED = "number after a short prefix"
_LETTERED = "letters before six or more digits"
_GROUPED = "record number in digit groups"
_TYPIST = "typists after the author's initials"
_ADDRESS = "town, state and ZIP code of an address"
_LINES = "cells of a header a line each"
_HEADER_HOSPITAL_AGAIN = "the header's hospital named again"
_TYPIST_LOGIN = "login before a job number"
LAYOUT_PATTERNS = (
    PLACEHOLDER_FIELD,
    _ADDRESS,
    _LINES,
    _HEADER_HOSPITAL_AGAIN,
    _TYPIST_LOGIN,
    _HEADER_NAME,
    _LOGIN,
    _CARET,
    _VISIT_HOSPITAL,
    _TYPIST,
    _PIPE,
    _DICTATION,
    _PIPE_NUMBERS,
    _JOB,
    _COLON,
    _PREFIXED,
    _LETTERED,
    _GROUPED,
)
# The codes: they take the model's pieces inside them, and yield to a span it drew wider,
# across them, or over the same characters as the same kind of thing.
_CODES = frozenset({_PIPE_NUMBERS, _JOB, _COLON, _PREFIXED, _LETTERED, _GROUPED, _LINES})

_CAPS_WORD = r"[A-Z](?:[A-Z'-]*[A-Z])?"
_HOSPITAL_WORD = r"[A-Z][A-Z'.&-]*"
_RECORD_NUMBER = r"\d{3}-\d{2}-\d{2}-\d|\d{2,3}-\d{2}-\d{2}|\d{6,10}"
# Another field after a wide gap, or the end of the line.
_FIELD_END = r"(?=[ \t]{2,}\S|[ \t]*$)"
_NAME_AND_RECORD = re.compile(
    rf"(?m)^[ \t]*({_CAPS_WORD}(?:[ ]{_CAPS_WORD}){{0,2}},[ ]?{_CAPS_WORD}(?:[ ][A-Z]\.?)?)"
    rf"[ \t]{{2,}}({_RECORD_NUMBER}){_FIELD_END}"
)
_CARET_FIELD = r"([A-Za-z][^\^\n]{0,58}[A-Za-z.])"
_CARET_HEADER = re.compile(
    rf"(?m)^[ \t]*[A-Z]{{2,12}}\^(\d{{5,10}})\^{_CARET_FIELD}\^(\d{{1,2}}/\d{{1,2}}/(?:\d{{4}}|\d{{2}}))"
    rf"\^{_CARET_FIELD}[ \t]*$"
)
_VISIT_HEADER = re.compile(
    rf"(?m)^[ \t]*({_HOSPITAL_WORD}(?:[ ]{_HOSPITAL_WORD}){{0,4}}?)[ ]+EMERGENCY[ ]+(?:DEPT\.?|DEPARTMENT)[ ]+VISIT[ \t]*$"
)
# Words that head an emergency visit's title without naming the hospital.
_NOT_A_HOSPITAL = frozenset({"ADULT", "PEDIATRIC", "PEDIATRICS", "NEW", "FOLLOW-UP", "REPEAT", "RETURN"})
# Two letters and three digits, as the dictation system writes them: "T12/2010" is a vertebra
# and a year.
_JOB_NUMBER = re.compile(r"(?<![\w/])([A-Z]{2}\d{3}/\d{4,5})(?![\w/])")
_COLON_CODE = re.compile(r"(?<![\w:])([A-Z]{2,3}:[A-Z]{2}:[ ]?\d{4}|[A-Z]{2}:\d{5}:\d{2,4})(?![\w:])")
# Not a range of round numbers nor of units ("10-100000 units"), nor after a clock time's
# colon; after a label's colon it is ("eScription document:7-4410293").
_PREFIXED_NUMBER = re.compile(
    r"(?<![\w/.-])(?<!\d:)(\d{1,2}-\d{4,6}(?<!00)\d\d)(?![\w/-]|[.:]\d)(?![ \t]*(?i:units?|u|mg|mcg|ml|cc|k)\b)"
)
# "EO25834097", "CK759182": the model reads the letters and the digits apart (a state, a zip).
_LETTERED_NUMBER = re.compile(r"(?<![\w-])([A-Z]{2,4}\d{6,10})(?![\w-])")
# "981-40-48", "948-59-58-0": no telephone number is written 3-2-2.
_GROUPED_NUMBER = re.compile(r"(?<![\w/.-])(\d{3}-\d{2}-\d{2}(?:-\d)?)(?![\w/-]|\.\d)")
# The dictation system's own numbers, named by their label: an IDNUM, whatever the model
# took them for ("Dictation ID 2204817" read as a medical record number).
_DICTATION_NUMBER = re.compile(
    r"(?i:\b(?:dictation|transcription|document|job)[ \t]*(?:id|no\.?|number|#)|\bescription[ \t]+document)"
    r"[ \t]*[:#]?[ \t]*(\d(?:[\d-]{2,14}\d))(?![\w/-])"
    # The batch a transcription came in, on the label's line or the next ("Batch :\n81290").
    r"|(?m:^[ \t]*Batch[ \t]*:?[ \t]*\n?[ \t]*(\d{3,10})[ \t]*$)"
    # "Index No. TQXWBN5 KD": the transcription's index code and its two letters.
    r"|\bIndex[ \t]+No\.?[ \t]*:?[ \t]*([A-Z0-9]*\d[A-Z0-9]*(?:[ ][A-Z]{2})?)(?![\w-])"
)
# The typist's login on the job number's line ("RH62 QM315/4402").
_LOGIN_BEFORE_JOB = re.compile(r"(?m)^[ \t]*([A-Z]{2,4}\d{1,3})[ \t]+(?=[A-Z]{2}\d{3}/\d{4,5}[ \t]*$)")
# The pipe header's cells a line each, the note's first lines: record number and hospital,
# one to four numbers (medical record, encounter ...), the date with the clock's midnight.
_LINES_HEADER = re.compile(
    r"\A\s*(\d{5,12})[ \t]+([A-Z][A-Z&]{1,9})[ \t]*\n((?:[ \t]*[0-9][0-9A-Za-z/-]{3,20}[ \t]*\n){1,4})"
    r"[ \t]*(\d{1,2}/\d{1,2}/\d{4})[ \t]+12:00:00[ \t]+AM\b"
)
# A header's hospital: the letters of its cell, standing alone.
_HOSPITAL_LETTERS = re.compile(r"(?<![\w&-])[A-Z][A-Z&]{1,9}(?![\w&-])")
_LINE_CELL = re.compile(r"[0-9][0-9A-Za-z/-]{3,20}")
_LOGIN_BEFORE_FIELDS = re.compile(
    rf"(?m)^[^\n,]*[A-Za-z],[ \t]*{SIGNATURE_CREDENTIALS}\.?[ \t]{{2,}}([A-Z]{{2,4}}\d{{1,3}})[ \t]{{2,}}(?=[A-Z]{{1,2}}:)"
)
_PIPE_CELL = r"[ \t]*\|[ \t]*"
# "740215983 | NWMC | 20573184 | | 8830291 | 3/14/2004 12:00:00 AM | Discharge Summary | ...":
# record number, hospital, medical record number, encounter number, date.
_PIPE_HEADER = re.compile(
    rf"(?m)^[ \t]*(\d{{5,12}}){_PIPE_CELL}([A-Z][A-Z&]{{1,9}}){_PIPE_CELL}(\d{{5,12}}){_PIPE_CELL}"
    rf"{_PIPE_CELL}(\d{{5,12}}){_PIPE_CELL}(\d{{1,2}}/\d{{1,2}}/\d{{4}})\b"
)
# A ZIP code's digits: the address pattern is not run on a note without five in a row.
_ZIP_DIGITS = re.compile(r"\d{5}")
# Two names after the initials: one lower-case word after capitals is also "PT/ot".
_TYPISTS = re.compile(r"(?m)^[ \t]*[A-Z]{2,4}/([a-z]{3,15})/([a-z]{3,15})[ \t]*$")
# "GQ/NV/whalen": initials, then one name no dictionary knows ("PT/OT/speech" is no name).
_INITIALS_THEN_TYPIST = re.compile(r"(?m)^[ \t]*[A-Z]{2,4}(?:/[A-Z]{2,4})+/([a-z]{3,15})[ \t]*$")

# Words an address's line holds before its town: the street's kind, a facility's ("75 Francis
# St Boston MA", "General Hospital, Boston, MA").
_BEFORE_TOWN = frozenset(re.findall(r"[a-z]+", """
    street st road rd avenue ave lane ln drive dr way court ct place pl terrace boulevard blvd
    parkway pkwy highway hwy square sq circle cir hospital center centre clinic medical building
    floor suite"""))  # fmt: skip


@cache
def _address_line() -> re.Pattern[str]:
    """Town, US state (postal code or name) and ZIP code: "Lowell, MA 01852"."""
    codes = sorted(read_entries(LEXICON_DIR / "us_state_abbreviations.txt"))
    names = sorted(read_entries(LEXICON_DIR / "us_states.txt"), key=len, reverse=True)
    state = "|".join([*codes, *(re.escape(n) for n in names)])
    town = r"[A-Z][a-z'’-]+(?:[ ][A-Z][a-z'’-]+){0,2}|[A-Z]{2,}(?:[ ][A-Z]{2,}){0,2}"
    return re.compile(
        rf"(?m)(?:^|(?<=,)|(?<=[a-z\d.][ \t]))[ \t]*({town}),?[ \t]+({state})\.?,?[ \t]+(\d{{5}}(?:-\d{{4}})?)(?![\w-])"
    )


def _addresses(text: str) -> Iterator[MeasuredMatch]:
    for match in _address_line().finditer(text):
        start, end = match.span(1)
        words = list(re.finditer(r"\S+", match.group(1)))
        last_before = max(
            (i for i, w in enumerate(words) if w.group().lower().rstrip(".") in _BEFORE_TOWN), default=-1
        )
        if last_before == len(words) - 1:
            continue  # "General Hospital MA 02114": no town
        yield MeasuredMatch(_ADDRESS, "CITY", start + words[last_before + 1].start(), end)
        yield from _cells(match, _ADDRESS, {2: "STATE", 3: "ZIP"})


# (a character the text must hold, "" for none; pattern, name, kind): one field per match,
# its first group.
_ONE_FIELD_PATTERNS = (
    (",", _LOGIN_BEFORE_FIELDS, _LOGIN, "USERNAME"),
    ("", _DICTATION_NUMBER, _DICTATION, "IDNUM"),
    ("/", _LOGIN_BEFORE_JOB, _TYPIST_LOGIN, "USERNAME"),
    ("/", _JOB_NUMBER, _JOB, "IDNUM"),
    (":", _COLON_CODE, _COLON, "IDNUM"),
    ("-", _PREFIXED_NUMBER, _PREFIXED, "IDNUM"),
    ("", _LETTERED_NUMBER, _LETTERED, "IDNUM"),
    ("-", _GROUPED_NUMBER, _GROUPED, "MEDICALRECORD"),
)


def layout_matches(text: str) -> Iterator[MeasuredMatch]:
    """Every field of a record layout in ``text``: an earlier de-identification's placeholders
    (:mod:`annotator.crf.placeholder_rules`), then the other fields, in pattern order, that
    overlap none of them (``[**Job Number 40213**]`` is one placeholder, not a job number)."""
    placeholders = list(placeholder_fields(text))
    yield from placeholders
    if not placeholders:
        yield from _record_fields(text)
        return
    ends = [p.end for p in placeholders]
    for field in _record_fields(text):
        index = bisect_right(ends, field.start)
        if index == len(placeholders) or placeholders[index].start >= field.end:
            yield field


def _record_fields(text: str) -> Iterator[MeasuredMatch]:
    if "," in text:
        for match in _NAME_AND_RECORD.finditer(text):
            yield from _cells(match, _HEADER_NAME, {1: "PATIENT", 2: "MEDICALRECORD"})
    hospitals = []
    if "|" in text:
        for match in _PIPE_HEADER.finditer(text):
            yield from _cells(match, _PIPE, {2: "HOSPITAL"})
            yield from _cells(match, _PIPE_NUMBERS, {1: "IDNUM", 3: "MEDICALRECORD", 4: "IDNUM", 5: "DATE"})
            hospitals.append(match.span(2))
    if "12:00:00" in text:
        lines = _LINES_HEADER.match(text)
        if lines:
            yield from _line_cells(lines)
            hospitals.append(lines.span(2))
    yield from _hospital_again(text, hospitals)
    if "^" in text:
        for match in _CARET_HEADER.finditer(text):
            yield from _cells(match, _CARET, {1: "MEDICALRECORD", 2: "PATIENT", 3: "DATE", 4: "DOCTOR"})
    if "EMERGENCY" in text:
        for match in _VISIT_HEADER.finditer(text):
            if match.group(1).split()[0] not in _NOT_A_HOSPITAL:
                yield from _cells(match, _VISIT_HOSPITAL, {1: "HOSPITAL"})
    if "/" in text:
        for match in _TYPISTS.finditer(text):
            yield from _cells(match, _TYPIST, {1: "DOCTOR", 2: "DOCTOR"})
        for match in _INITIALS_THEN_TYPIST.finditer(text):
            if not is_public(match.group(1)):
                yield from _cells(match, _TYPIST, {1: "DOCTOR"})
    if _ZIP_DIGITS.search(text):
        yield from _addresses(text)
    for needed, pattern, name, kind in _ONE_FIELD_PATTERNS:
        if needed in text:
            for match in pattern.finditer(text):
                yield MeasuredMatch(name, kind, *first_group_span(match))


def _line_cells(match: re.Match[str]) -> Iterator[MeasuredMatch]:
    """A header a cell per line: the record number, the hospital, the numbers (a medical record
    number first), the date."""
    yield MeasuredMatch(_PIPE, "HOSPITAL", *match.span(2))
    yield MeasuredMatch(_LINES, "IDNUM", *match.span(1))
    for index, cell in enumerate(_LINE_CELL.finditer(match.group(3))):
        start = match.start(3) + cell.start()
        yield MeasuredMatch(
            _LINES, "MEDICALRECORD" if index == 0 else "IDNUM", start, start + len(cell.group())
        )
    yield MeasuredMatch(_LINES, "DATE", *match.span(4))


def _hospital_again(text: str, headers: list[tuple[int, int]]) -> Iterator[MeasuredMatch]:
    """The header's hospital (its letters, as the header writes them) wherever else it stands."""
    names = {text[start:end] for start, end in headers}
    if not names:
        return
    own = {start for start, _ in headers}
    # One pass over the text's capitals, however many headers (a pipe header a line).
    for match in _HOSPITAL_LETTERS.finditer(text):
        if match.group() in names and match.start() not in own:
            yield MeasuredMatch(_HEADER_HOSPITAL_AGAIN, "HOSPITAL", *match.span())


def _cells(match: re.Match[str], pattern: str, kinds: dict[int, str]) -> Iterator[MeasuredMatch]:
    """A header's cells, each the kind its group number says."""
    for group, kind in kinds.items():
        yield MeasuredMatch(pattern, kind, *match.span(group))


def apply_layout_fields(
    text: str, predictions: list[Prediction], allowed: set[str] | None = None
) -> list[Prediction]:
    """``predictions`` with each layout field in place of whatever overlaps it (a code: of the
    pieces inside it, and only when no span reaches out of it or covers it exactly as the
    same kind of thing: a labelled ``MRN`` keeps its type, a number read as a phone does not)."""
    fields = _Fields(m for m in layout_matches(text) if allowed is None or m.kind in allowed)
    if not fields.found:
        return predictions
    yielded = set()
    for prediction in predictions:
        for index in fields.overlapped(prediction):
            field = fields.found[index]
            inside = field.start <= prediction.start and prediction.end <= field.end
            same = (prediction.start, prediction.end) == (field.start, field.end)
            read_alike = prediction.type == field.kind or (
                prediction.type in IDENTIFIER_TYPES and field.kind in IDENTIFIER_TYPES
            )
            if field.pattern in _CODES and ((same and read_alike) or not inside):
                yielded.add(index)  # wider, across, or the same span read alike: the model's stands
    fields = _Fields(f for index, f in enumerate(fields.found) if index not in yielded)
    kept = [p for p in predictions if not fields.overlapped(p)]
    placed = [Prediction(f.kind, f.start, f.end, LAYOUT_CONFIDENCE, LAYOUT_ORIGIN) for f in fields.found]
    return sorted([*kept, *placed], key=lambda p: (p.start, p.end))


class _Fields:
    """The first of each run of overlapping fields, in text order: as they overlap no other,
    their starts and ends rise together, and the fields a span overlaps are a run of them."""

    def __init__(self, found: Iterable[MeasuredMatch]) -> None:
        self.found: list[MeasuredMatch] = []
        for field in sorted(found, key=lambda m: (m.start, m.end)):
            if not self.found or field.start >= self.found[-1].end:
                self.found.append(field)
        self._starts = [f.start for f in self.found]
        self._ends = [f.end for f in self.found]

    def overlapped(self, prediction: Prediction) -> range:
        """Indices of the fields ``prediction`` overlaps."""
        return range(bisect_right(self._ends, prediction.start), bisect_left(self._starts, prediction.end))
