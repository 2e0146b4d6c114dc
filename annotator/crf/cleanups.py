"""Clean-ups of tagger spans that every note style shows to be wrong, read from the text around them.

A number is no age when a unit follows it (``35 pack-years``, ``at 45 degrees``) or a rate
comes before it (``sinus rhythm at 72``); a fraction is no date when it grades something
(``power 4/5``, ``pain 7/10``); four digits before ``h`` are a clock time (``1917h``), the
minutes of ``02:27`` are part of one, as are four digits after ``at``, ``around`` or
``due`` (``received at 1800``), and a list's number (``3.`` opening a line) dates nothing;
a date's shape with no calendar's numbers (``77-53-9390``) is a record number.
A name ends before a degree (``Brian Ruiz, MD, PhD``), a field's abbreviation
(``J. Sanders, DOB``), a possessive (``Thorne's``) or a wide gap (``VARGAS April   1154633``),
and holds no role word at either end (``PHARMACIST REGINALD JOHNSON``, ``Pedersen
Psychiatrist``); a relation alone is no name (``WIFE AND NEICE``); a place before ``, M.D.`` is
a doctor's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from annotator.core.english import zipf
from annotator.core.span import blank_line_start
from annotator.crf.labels import Prediction
from annotator.crf.lexicons import is_listed_name
from annotator.crf.name_labels import RELATIVE_WORD

_UNIT_AFTER_AGE = re.compile(
    r"[ \t-]*(?i:pack[ \t-]*y(?:ea)?rs?|py\b|degrees?|deg\b|°|bpm|beats|mm(?:hg)?\b|%|mg\b|mcg\b|kg\b|cm\b|ml\b"
    r"|units?\b|cc\b|breaths|min\b|/min)"
)
_RATE_BEFORE_AGE = re.compile(
    r"(?i:\b(?:rhythm|rate|hr|pulse|rr|sats?|bp|temp|weight|wt|ht)(?:[ \t]+(?:at|of|is|was))?[ \t:]*)$"
)
_GRADED_FRACTION = re.compile(r"^\d{1,2}/(?:5|10)$")
_GRADE_BEFORE = re.compile(
    r"(?i:\b(?:power|strength|pain|grade|score|scale|gcs|mrc|reflexes|tone|vas)[ \t:]*)$"
)
# A count of things or a mixture, not a day ("8/12 cores positive", "lymph nodes 0/14",
# "9/1 mixture"); a sum's result ("Gleason 3 + 4 = 7/10").
_FRACTION = re.compile(r"^\d{1,2}/\d{1,2}$")
_COUNTED_AFTER = re.compile(
    r"[ \t]*(?i:cores?|bottles?|nodes?|specimens?|samples?|biops(?:y|ies)|mixture|ratio|dilution)\b"
)
_SUM_BEFORE = re.compile(r"=[ \t]*$")
_CLOCK_AFTER = re.compile(r"(?i:h\b|hrs\b|hours\b)")
# "received at 1800", "around 2000", "due 2030", "last dose ~ 1830": a clock time by the word
# before it (not "since 2006", "in 1977": those are years).
_CLOCK_BEFORE = re.compile(r"(?i:\b(?:at|around|due|about|approx|approximately|@)|~)\.?[ \t]*$")
# A pain score named after it ("HAD 8/10 CP").
_PAIN_AFTER = re.compile(r"[ \t]*(?i:cp\b|pain\b|chest[ \t]+pain|angina|ha\b|headache)")
# Digits glued to a percent sign or a unit are a setting ("PS 10/5/40%", "BIPAP 10/5/12BPM"),
# not a date; "2067-05-03T10:00" keeps its time.
_NUMBERS_ONLY = re.compile(r"[\d/.-]+")
_GLUED_AFTER = re.compile(r"%|(?!T\d)[A-Za-z]")
# Blood gases and ventilator numbers run together ("7.38-33-169", "7.35-39-142-22"): a
# decimal point inside or just before is no phone number.
_DECIMAL = re.compile(r"\d\.\d")
_DECIMAL_POINT_BEFORE = re.compile(r"\d\.\Z")
_LIST_NUMBER = re.compile(r"^\d{1,2}$")
_CREDENTIAL = re.compile(
    r"(?:,?[ \t]+(?:MD|M\.D\.|DO|D\.O\.|PhD|Ph\.D\.|RN|NP|PA-C|PA|MBBS|FRCP\w*|MRCP|DDS|FACS|FACP))+$"
)
# "Dr. Thorne's service": the gold of both real corpora (PhysioNet, i2b2 2014) ends the name
# before the possessive.
_POSSESSIVE = re.compile(r"['’][sS]$")
# "Dr. X. The McIvor gag": the next sentence's article.
_ARTICLE_AFTER = re.compile(r"[ \t]+(?:The|THE)$")
# "by Dr. X.  Her symptoms", "from Dr. S. She agrees": an initial's full stop ends the sentence
# before two spaces or a pronoun (no gold span of the three corpora holds one).
_NEXT_SENTENCE = re.compile(
    r"(?<=[A-Z]\.)[ \t]+(?:[ \t]|(?:She|He|Her|His|Him|They|It|We|The|This|That|SHE|HE|THE)\b)"
)
_FIELD_AFTER_COMMA = re.compile(r",[ \t]*(?:DOB|D\.O\.B\.|MRN|DOA|DOD|NHS|NHI|URN?|ID|Age|Sex|Ward)$")
NAME_TYPES = frozenset({"PATIENT", "DOCTOR"})
# "FILBERT BRIGHT, M.D.": a degree written with its full stops follows a person, never a place
# ("Baltimore, MD" is a state), whatever place the model took the name for ("Filbert Street").
_DOTTED_DEGREE_AFTER = re.compile(r",?[ \t]+(?:M\.D\.|D\.O\.|Ph\.D\.|R\.N\.|N\.P\.)")
_PLACE_TYPES = frozenset({"STREET", "CITY", "LOCATION-OTHER", "ORGANIZATION", "HOSPITAL"})
_WIDE_GAP = re.compile(r"[ \t]{3,}|\t")
_ROLES = (
    r"pharmacist|physician|surgeon|nurse|therapist|physio|psychiatrist|psychologist|registrar|consultant|resident"
    r"|doctor|dr\.?|attending|paramedic|midwife|dietitian|social[ \t]+worker|reconciled|by|per|cc:?"
)
_ROLE_WORD = re.compile(rf"(?i:{_ROLES})[ \t]+")
_ROLE_AFTER = re.compile(rf"[ \t,]+(?i:{_ROLES})$")


def _wrong_age(text: str, prediction: Prediction) -> bool:
    before = text[max(0, prediction.start - 20) : prediction.start]
    return bool(_UNIT_AFTER_AGE.match(text, prediction.end) or _RATE_BEFORE_AGE.search(before))


def _wrong_date(text: str, prediction: Prediction) -> bool:
    span = text[prediction.start : prediction.end]
    before = text[max(0, prediction.start - 20) : prediction.start]
    if _GRADED_FRACTION.match(span) and _GRADE_BEFORE.search(before):
        return True
    if _GRADED_FRACTION.match(span) and _PAIN_AFTER.match(text, prediction.end):
        return True
    if _FRACTION.match(span) and (_COUNTED_AFTER.match(text, prediction.end) or _SUM_BEFORE.search(before)):
        return True
    if _NUMBERS_ONLY.fullmatch(span) and _GLUED_AFTER.match(text, prediction.end):
        return True
    if _NUMBERS_ONLY.fullmatch(span) and "-" in span and _DECIMAL.search(span):
        return True  # a time and a lab value ("HCT @ 2000-27.7"): a date has no decimal
    shaped = _DATE_SHAPED.fullmatch(span)
    if shaped and len(shaped.group(4)) == 4 and not 1800 <= int(shaped.group(4)) <= 2199:
        return True  # "co/ci/svr 3/2/1500": no year
    if span.isdigit() and len(span) == 4 and _CLOCK_AFTER.match(text, prediction.end):
        return True
    if _is_clock_time(span) and _CLOCK_BEFORE.search(before):
        return True
    if span.isdigit() and len(span) == 2 and before.endswith(":") and before[-2:-1].isdigit():
        return True  # the minutes of a clock time
    if not (_LIST_NUMBER.match(span) and text[prediction.end : prediction.end + 1] == "."):
        return False
    return blank_line_start(text, prediction.start) is not None  # "3." opening its line


def _is_clock_time(span: str) -> bool:
    return span.isdigit() and len(span) == 4 and int(span[:2]) <= 23 and int(span[2:]) <= 59


def _wrong_phone(text: str, prediction: Prediction) -> bool:
    return bool(_DECIMAL.search(text, max(0, prediction.start - 2), prediction.end))


def _name_bounds(text: str, prediction: Prediction) -> tuple[int, int]:
    """A name without the role words around it and without what follows a wide gap."""
    start, end = prediction.start, prediction.end
    gap = _WIDE_GAP.search(text, start, end)
    if gap:
        end = gap.start()  # "VARGAS April   1154633": a wide gap separates fields
    while (lead := _ROLE_WORD.match(text, start, end)) and lead.end() < end:
        start = lead.end()
    while (tail := _ROLE_AFTER.search(text, start, end)) and tail.start() > start:
        end = tail.start()
    return start, _name_end(text, replace(prediction, start=start, end=end))


def _name_end(text: str, prediction: Prediction) -> int:
    """Where a name ends once degrees and a field's abbreviation after it are cut off."""
    end = prediction.end
    for pattern in (_FIELD_AFTER_COMMA, _CREDENTIAL, _POSSESSIVE, _ARTICLE_AFTER, _NEXT_SENTENCE):
        match = pattern.search(text, prediction.start, end)
        if match and match.start() > prediction.start:
            end = match.start()
    for match in _AFTER_INITIAL.finditer(text, prediction.start, end):
        if match.start() > prediction.start and _opens_a_sentence(match.group(1)):
            return match.start()
    return end


# "Dr. O. Unfortunately", "Dr. O. I informed", "Dr. B. As mentioned": after an initial's full
# stop, a function word, an adverb in -ly or a discourse word opens the next sentence, unless a
# name list has it ("Dr. K. Kelly"). Surnames that are common words stay ("L. Read", "G. Clear").
_AFTER_INITIAL = re.compile(r"(?<=\b[A-Z]\.)[ \t]+([A-Z][a-z]+|I)\b(?!\.)")
_FUNCTION_WORD_ZIPF = 6.0
_ADVERB_ZIPF = 3.5
_DISCOURSE_WORDS = frozenset(
    {
        "however",
        "today",
        "tomorrow",
        "yesterday",
        "therefore",
        "thus",
        "otherwise",
        "meanwhile",
        "please",
        "again",
    }
)


def _opens_a_sentence(word: str) -> bool:
    lower = word.lower()
    if word == "I":
        return True
    frequency = zipf(lower)
    opener = (
        frequency >= _FUNCTION_WORD_ZIPF
        or (lower.endswith("ly") and frequency >= _ADVERB_ZIPF)
        or lower in _DISCOURSE_WORDS
    )
    return opener and not is_listed_name(lower)


# "77-53-9390": the shape of a date, but no calendar has month or day 53: a record number.
_DATE_SHAPED = re.compile(r"(\d{1,2})([-/.])(\d{1,2})\2(\d{2}|\d{4})")


def _no_calendar_date(text: str, prediction: Prediction) -> bool:
    match = _DATE_SHAPED.fullmatch(text, prediction.start, prediction.end)
    if not match:
        return False
    first, second = int(match.group(1)), int(match.group(3))
    return not ((1 <= first <= 31 and 1 <= second <= 12) or (1 <= first <= 12 and 1 <= second <= 31))


def _tail_of_a_decimal(text: str, prediction: Prediction) -> bool:
    """Digits right after a number's decimal point (``7.35-39-142-22``, ``12.9/21.9``,
    ``80/48/7.45.34.7``): the rest of a lab value, never an identifier or a date. No gold span of
    the three corpora starts so; the tagger's three such spans on patients 1-110 were all wrong."""
    return text[prediction.start : prediction.start + 1].isdigit() and bool(
        _DECIMAL_POINT_BEFORE.search(text, max(0, prediction.start - 2), prediction.start)
    )


def clean_up(text: str, predictions: Iterable[Prediction]) -> list[Prediction]:
    """Drop ages and dates their context rules out; cut degrees and field labels off names."""
    result = []
    for prediction in predictions:
        if _tail_of_a_decimal(text, prediction):
            continue
        if prediction.type == "AGE" and _wrong_age(text, prediction):
            continue
        if prediction.type == "DATE" and _no_calendar_date(text, prediction):
            prediction = replace(prediction, type="MEDICALRECORD", origin="no-calendar-date")
        elif prediction.type == "DATE" and _wrong_date(text, prediction):
            continue
        if prediction.type == "PHONE" and _wrong_phone(text, prediction):
            continue
        if prediction.type in _PLACE_TYPES and _DOTTED_DEGREE_AFTER.match(text, prediction.end):
            prediction = replace(prediction, type="DOCTOR", origin="name-cut")
        if prediction.type in NAME_TYPES:
            if RELATIVE_WORD.fullmatch(text, prediction.start, prediction.end):
                continue  # "WIFE AND NEICE IN": a relation, however spelt (0 of 6 right, patients 1-110)
            start, end = _name_bounds(text, prediction)
            if (start, end) != (prediction.start, prediction.end):
                prediction = replace(prediction, start=start, end=end, origin="name-cut")
        result.append(prediction)
    return result
