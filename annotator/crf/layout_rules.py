"""Fields a hospital's record layout puts in fixed places: where the layout says what they are.

Discharge summaries and emergency notes printed by a hospital's record system (the i2b2 2014
corpus's, for one) open and close with fields whose place on the line names them, whatever the
words look like:

* a visit's header line, the patient's name in capitals and the record number after a wide gap
  (``OROZCO,KYLE   560-40-78-5        VISIT DATE: 07/20/83``);
* a caret-separated header (``EDVISIT^40213377^TALBOT, HENRY^11/02/88^VANTERPOOL, LUCIA``:
  record number, patient, visit date, clinician);
* the hospital heading an emergency visit (``SILVER RIDGE EMERGENCY DEPT VISIT``);
* a dictation's job number closing the signature rule (``______________   XW277/90683``);
* a clinician's login after the signature and degree, before the dictation date
  (``FILBERT BRIGHT, M.D.    FB59          D:07/20/83``);
* the typists' names after the author's initials on a line of their own (``GPP/church/olinger``).

A model trained on nursing notes reads these words by themselves: ``KYLE`` of the header as a
state, ``560`` as a zip code, the job number as a login and a street. The layout is surer than
the words, so a field takes its bounds and type over whatever the model or a rule found there.
None of these shapes occurs in the 1,884 nursing notes of PhysioNet patients 1-110 nor in the
synthetic styles' notes (``python -m tests.benchmarks.bench_measured_rules`` counts them), so
they cost those notes nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from annotator.crf.labels import Prediction
from annotator.crf.measured_rules import MeasuredMatch

LAYOUT_ORIGIN = "layout-field"
LAYOUT_CONFIDENCE = 0.97

# The fields, by name (each match carries one; the benchmark counts them by it).
_HEADER_NAME = "name and record number heading a visit"
_LOGIN = "login before the dictation fields"
_CARET = "caret-separated visit header"
_VISIT_HOSPITAL = "hospital heading an emergency visit"
_JOB = "job number under the signature rule"
_TYPIST = "typists after the author's initials"
LAYOUT_PATTERNS = (_HEADER_NAME, _LOGIN, _CARET, _VISIT_HOSPITAL, _JOB, _TYPIST)

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
_JOB_NUMBER = re.compile(r"(?m)^[ \t]*_{5,}[ \t]+([A-Z]{1,3}\d{2,4}/\d{4,6})[ \t]*$")
_CREDENTIALS = r"(?:M\.D\.|MD|D\.O\.|DO|NP|PA-C|PA|RN|PhD|Ph\.D\.)"
_LOGIN_BEFORE_FIELDS = re.compile(
    rf"(?m)^[^\n,]*[A-Za-z],[ \t]*{_CREDENTIALS}[ \t]{{2,}}([A-Z]{{2,4}}\d{{1,3}})[ \t]{{2,}}(?=[A-Z]{{1,2}}:)"
)
# Two names after the initials: one lower-case word after capitals is also "PT/ot".
_TYPISTS = re.compile(r"(?m)^[ \t]*[A-Z]{2,4}/([a-z]{3,15})/([a-z]{3,15})[ \t]*$")


def layout_matches(text: str) -> Iterator[MeasuredMatch]:
    """Every field of a record layout in ``text``, in pattern order."""
    if "," in text:
        for match in _NAME_AND_RECORD.finditer(text):
            yield MeasuredMatch(_HEADER_NAME, "PATIENT", *match.span(1))
            yield MeasuredMatch(_HEADER_NAME, "MEDICALRECORD", *match.span(2))
        for match in _LOGIN_BEFORE_FIELDS.finditer(text):
            yield MeasuredMatch(_LOGIN, "USERNAME", *match.span(1))
    if "^" in text:
        for match in _CARET_HEADER.finditer(text):
            for group, kind in ((1, "MEDICALRECORD"), (2, "PATIENT"), (3, "DATE"), (4, "DOCTOR")):
                yield MeasuredMatch(_CARET, kind, *match.span(group))
    if "EMERGENCY" in text:
        for match in _VISIT_HEADER.finditer(text):
            name = match.group(1)
            if name.split()[0] not in _NOT_A_HOSPITAL:
                yield MeasuredMatch(_VISIT_HOSPITAL, "HOSPITAL", *match.span(1))
    if "/" in text:
        for match in _JOB_NUMBER.finditer(text):
            yield MeasuredMatch(_JOB, "IDNUM", *match.span(1))
        for match in _TYPISTS.finditer(text):
            for group in (1, 2):
                yield MeasuredMatch(_TYPIST, "DOCTOR", *match.span(group))


def apply_layout_fields(
    text: str, predictions: list[Prediction], allowed: set[str] | None = None
) -> list[Prediction]:
    """``predictions`` with each layout field in place of whatever overlaps it."""
    fields = sorted(
        (m for m in layout_matches(text) if allowed is None or m.kind in allowed),
        key=lambda m: (m.start, m.end),
    )
    if not fields:
        return predictions
    placed: list[MeasuredMatch] = []
    for field in fields:
        if not placed or field.start >= placed[-1].end:
            placed.append(field)
    # The fields overlap no other, so their ends rise with their starts: the last one starting
    # before a prediction's end is the only one that can reach into it.
    starts = [f.start for f in placed]
    kept = []
    for prediction in predictions:
        before = bisect_left(starts, prediction.end)
        if not (before and placed[before - 1].end > prediction.start):
            kept.append(prediction)
    fixed = [Prediction(f.kind, f.start, f.end, LAYOUT_CONFIDENCE, LAYOUT_ORIGIN) for f in placed]
    return sorted([*kept, *fixed], key=lambda p: (p.start, p.end))
