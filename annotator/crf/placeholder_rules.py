"""The placeholders an earlier de-identification left in a note, each typed by its own label.

MIMIC-III's notes (and the corpora cut from them) reach researchers with every PHI already
replaced by a bracketed placeholder that names what it hid: ``[**2151-7-16**]``,
``[**Known lastname 5678**]``, ``[**Hospital1 18**]``, ``[**Telephone/Fax (1) 6789**]``,
``[**Age over 90 **]``. A site building a gold standard on such notes tags the placeholders:
they mark where the PHI stood, and a de-identified copy must give each a surrogate of its kind.
A model reads the label's words one by one (``STitle`` as a patient, ``First`` as a doctor,
``11`` of ``First Name11`` as an age), so each placeholder is one field whose bounds and type
the label settles, over whatever the model found inside it.

Names take their role from the label where it says it (``Known lastname``: the patient;
``Doctor Last Name``, ``Name (STitle)``, ``Name6 (MD)``, ``Dictator Info``: a clinician;
``Name (PTitle)``: the patient, after Mr or Ms), else from the words around the name (``Dr.``,
a relation such as ``daughter``, a credential after it such as ``MD`` or ``RN``), else a
clinician: MIMIC's patient names are the ``Known`` ones, and the other name patterns stand
mostly in signatures, referrals and follow-up lines. Name placeholders side by side on a line
(``[**First Name8 (NamePattern2) 12**] [**Last Name (NamePattern1) 34**]``) are one name. A
placeholder whose label we cannot read, or an empty ``[** **]``, is OTHER: it hid something.
Brackets round words no MIMIC label is made of (``[**John Smith**]``) are no placeholder:
they may hold PHI, and the model reads them as any text.

No clinician writes ``[**``: neither the 1,884 nursing notes of PhysioNet patients 1-110 nor
the synthetic styles' notes hold one (``python -m tests.benchmarks.bench_measured_rules``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from annotator.core.placeholders import (
    HOSPITAL_WORD_AFTER,
    NAME_JOIN,
    NUMERIC_DATE,
    PLACEHOLDER,
    is_placeholder_label,
)
from annotator.crf.labels import Prediction
from annotator.crf.measured_rules import MeasuredMatch

PLACEHOLDER_FIELD = "de-identification placeholder"

_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"

# (label pattern, type), the first that matches a label decides (search, case-insensitive).
_LABEL_TYPES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), kind)
    for pattern, kind in (
        (r"\bage\b", "AGE"),
        (rf"^(?:holiday|month|year|day|date|{_MONTHS})\b", "DATE"),
        (r"\be-?mail\b", "EMAIL"),
        (r"\burl\b", "URL"),
        (r"^fax\b", "FAX"),
        (r"\b(?:telephone|phone|pager)\b", "PHONE"),
        (r"\bsocial security\b", "SSN"),
        (r"\b(?:medical record|unit number|mrn)\b", "MEDICALRECORD"),
        (r"\bserial number\b", "DEVICE"),
        (r"\b(?:number|identifier)\b", "IDNUM"),
        (r"\b(?:hospital (?:unit|ward)|ward ?name|unit name)\b", "DEPARTMENT"),
        (r"^hospital", "HOSPITAL"),
        (r"\b(?:street|apartment) address|\bpo box\b|^address\b", "STREET"),
        (r"^state\b", "STATE"),
        (r"^country\b", "COUNTRY"),
        (r"^zip\b", "ZIP"),
        (r"\b(?:universit(?:y|ies)|college|company)\b", "ORGANIZATION"),
        (r"^location\b", "CITY"),
    )
)
# Name labels whose words say whose name it is.
_PATIENT_LABEL = re.compile(r"^known\b|\(ptitle\)", re.IGNORECASE)
_CLINICIAN_LABEL = re.compile(r"^doctor\b|\(stitle\)|\(md\)|^(?:dictator|attending) info\b", re.IGNORECASE)
_NAME_LABEL = re.compile(r"\bname\d*\b|\binitials?\b|\b(?:first|last)name\b", re.IGNORECASE)

# The words just before a name that say whose it is.
_CLINICIAN_BEFORE = re.compile(
    r"(?i:\b(?:dr|drs|doctor|attending|resident|fellow|np|pa|rn|dictated by|signed by|cc)\b\.?[ \t]*:?[ \t]*)$"
)
_PATIENT_BEFORE = re.compile(
    r"(?i:\b(?:mr|mrs|ms|miss|patient|pt|wife|husband|spouse|son|daughter|mother|father|mom|dad|sister"
    r"|brother|niece|nephew|aunt|uncle|grand(?:son|daughter|mother|father|child)|cousin|friend|partner"
    r"|fianc[ée]e?|hcp|proxy|guardian|neighbou?r)\b\.?,?[ \t]*:?[ \t]*)$"
)
_CREDENTIAL_AFTER = re.compile(
    r"^,?[ \t]*(?:MD|M\.D\.|DO|D\.O\.|RN|NP|PA|PA-C|PhD|Ph\.D\.|MBBS|FNP|ANP|CNS|APRN|RRT)\b|^[ \t]*\[\*\*MD Number",
)
_NAME_JOIN = re.compile(NAME_JOIN)


def placeholder_type(label: str) -> str | None:
    """The type a placeholder's label names; ``None`` for a name (its role needs the context)."""
    words = label.strip()
    if not words:
        return "OTHER"  # "[** **]" hid something it does not name
    if NUMERIC_DATE.fullmatch(words):
        return "DATE"
    if _PATIENT_LABEL.search(words) or _CLINICIAN_LABEL.search(words):
        return None
    for pattern, kind in _LABEL_TYPES:
        if pattern.search(words):
            return kind
    return None if _NAME_LABEL.search(words) else "OTHER"


def _name_role(text: str, start: int, end: int, labels: list[str]) -> str:
    """PATIENT or DOCTOR for a name made of placeholders ``start``-``end``: by its labels, the
    credential after it, the words before it on its line, else a clinician."""
    if any(_PATIENT_LABEL.search(label) for label in labels):
        return "PATIENT"
    if any(_CLINICIAN_LABEL.search(label) for label in labels) or _CREDENTIAL_AFTER.match(
        text[end : end + 16]
    ):
        return "DOCTOR"
    # The line's start is looked for only as far back as the words read (a megabyte-long line
    # of placeholders would otherwise be scanned back once per name).
    line_start = text.rfind("\n", max(0, start - 40), start) + 1
    before = text[max(line_start, start - 40) : start]
    if _CLINICIAN_BEFORE.search(before):
        return "DOCTOR"
    if _PATIENT_BEFORE.search(before):
        return "PATIENT"
    return "DOCTOR"


def placeholder_fields(text: str) -> Iterator[MeasuredMatch]:
    """Each placeholder of ``text`` (name placeholders side by side as one), typed by its label."""
    if "[**" not in text:
        return
    name_run: list[re.Match[str]] = []
    for match in PLACEHOLDER.finditer(text):
        if not is_placeholder_label(match.group(1)):
            continue  # "[**John Smith**]": text in brackets, the model's to read
        kind = placeholder_type(match.group(1))
        if kind is None:
            if name_run and _NAME_JOIN.fullmatch(text, name_run[-1].end(), match.start()):
                name_run.append(match)
                continue
            yield from _name_field(text, name_run)
            name_run = [match]
            continue
        yield from _name_field(text, name_run)
        name_run = []
        end = match.end()
        if kind == "HOSPITAL" and (word := HOSPITAL_WORD_AFTER.match(text, end)):
            end = word.end()
        yield MeasuredMatch(PLACEHOLDER_FIELD, kind, match.start(), end)
    yield from _name_field(text, name_run)


def _name_field(text: str, run: list[re.Match[str]]) -> Iterator[MeasuredMatch]:
    if not run:
        return
    start, end = run[0].start(), run[-1].end()
    role = _name_role(text, start, end, [m.group(1).strip() for m in run])
    yield MeasuredMatch(PLACEHOLDER_FIELD, role, start, end)


def without_placeholder_pieces(text: str, predictions: list[Prediction]) -> list[Prediction]:
    """``predictions`` without the spans that lie in or across a placeholder: the label's words
    read by the model (``STitle``, ``First``) must not spread through the note as names."""
    if "[**" not in text:
        return predictions
    spans = [m.span() for m in PLACEHOLDER.finditer(text) if is_placeholder_label(m.group(1))]
    if not spans:
        return predictions
    ends = [end for _, end in spans]
    kept = []
    for prediction in predictions:
        index = bisect_right(ends, prediction.start)
        if index < len(spans) and spans[index][0] < prediction.end:
            continue
        kept.append(prediction)
    return kept
