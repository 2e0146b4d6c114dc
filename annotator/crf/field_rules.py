"""Rules for PHI announced by a field's label or shape in many countries' notes.

:mod:`annotator.crf.format_rules` finds the forms every note style shares; these add the
conventions of record systems outside the US, each a public convention, not a note style's
quirk: record numbers after the labels of other health systems (``UR no.``, ``NHS no``,
``NHI``, ``CHI``, ``Hospital number``) in any shape of digits, letters and dashes, also
written in digit groups (``219 801 0873``), and after a bare ``#``; user names (lower-case
letters and a number) where a login is written: after ``by``/``user``/``login``/``d/w``, or
in brackets; a state, province or county and the postcode after it in US, Australian,
Canadian and UK forms, and the town before them; wards and units with a proper name
(``Rowan Ward``, ``Ward 7B``); and practices and hospitals named by their usual forms
(``St Winifred's``, ``Our Lady of Lourdes``, ``Ashgrove Surgery``, ``X Regional Health``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from annotator.core.span import blank_line_start
from annotator.crf.features import is_public
from annotator.crf.id_rules import NOT_USER, id_candidates
from annotator.crf.lexicons import LEXICON_DIR, LEXICON_FILES, read_entries

Candidate = tuple[str, int, int]

_ID_LABEL = re.compile(
    r"\b(?:UR|URN|NHI|NHS|CHI|MRN|MR|RN)(?:/(?:UR|URN|NHI|NHS|CHI|MRN))?"
    r"(?:[ \t]*(?:no|No|NO|number|Number|NUMBER))?\.?"
    r"|(?i:\bhosp(?:ital)?\.?[ \t]+(?:no|number|id)|\bpatient[ \t]+(?:no|number|id)|\brecord[ \t]+(?:no|number))\.?"
)
# The value after a label: digit groups ("219 801 0873") or one code of letters, digits, dashes.
_ID_VALUE = re.compile(
    r"[ \t]*[:#.]?[ \t]*#?(\d{2,5}(?:[ -]\d{2,5}){1,3}(?![\w-])|[A-Za-z0-9][A-Za-z0-9/-]{2,}[A-Za-z0-9](?![\w-]))"
)
# "(#K8047504)", "MR #4412907": a bare number sign before a code with five or more digits.
_HASH_ID = re.compile(r"(?<![\w#&])#[ \t]?([A-Z]{0,3}\d{5,}[A-Z]?)(?![\w-])")
_OTHER_ID_WORD = re.compile(
    r"(?i:account|acct|licen[cs]e|DEA|order|ref|invoice|policy|member|serial|claim|ticket|room|bed|no\.?)[ \t]*$"
)

_USER_AFTER = re.compile(
    r"(?:\b(?:by|user(?:name)?|login|logged[ \t]+in[ \t]+as|d/w(?:[ \t]+(?:reg|registrar|cons|consultant|SHO))?)"
    r"[ \t]*:?[ \t]*|[\[(])([a-z]{3,8}\d{1,3})(?![\w/.-]?\w)"
)

_POSTCODE = re.compile(
    r"(?<![\w-])(\d{5}(?:-\d{4})?|\d{4}|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]?[ \t]\d[A-Z]{2})(?![\w-])"
)
_WORDS_BEFORE = re.compile(r"((?:[A-Za-z][A-Za-z.'’]*[ \t]+){0,3}[A-Za-z][A-Za-z.'’]*)[ \t]+$")
_TOWN = r"[A-Z][A-Za-z'’-]+(?:[ \t][A-Z][A-Za-z'’-]+)?"
_TOWN_BEFORE_COMMA = re.compile(rf"(?:^|(?<=[,\n]))[ \t]*({_TOWN}),[ \t]*$")
_TOWN_LINE = re.compile(rf"[ \t]*({_TOWN})[ \t]*$")

_NAMED_WARD = re.compile(
    r"\b((?:[A-Z][a-z'’]+[ \t]+){1,2})(?:(?:Day|Assessment|Surgical|Medical)[ \t]+)?(?:Ward|Unit|Suite)\b"
)
_NUMBERED_WARD = re.compile(r"\bWard[ \t]+\d{1,2}[A-Z]?(?:[ \t]+(?:North|South|East|West))?\b")
_SAINT = re.compile(r"\bS[Tt]\.?[ \t]+[A-Z][A-Za-z]+['’][Ss]\b(?![ \t]+(?:wort|disease|dance|fire|Hospital))")
_OUR_LADY = re.compile(
    r"\b(?:Our[ \t]+Lady|OUR[ \t]+LADY)[ \t]+(?:of|OF)[ \t]+[A-Z][A-Za-z'’]+(?:[ \t]+[A-Z][A-Za-z'’]+)?"
    r"(?:[ \t]+(?i:(?:health|medical|community|memorial)[ \t]+)?(?i:centre|center|hospital|clinic))?\b"
)
_PRACTICE = re.compile(
    r"\b((?:[A-Z][A-Za-z'’]+[ \t]+){1,2})(?:Surgery|Medical[ \t]+Practice|Health[ \t]+Centre"
    r"|(?i:regional[ \t]+health|district[ \t]+general))\b"
)
_NOT_A_PLACE_WORD = frozenset(
    {"the", "a", "an", "our", "this", "that", "your", "his", "her", "their", "general"}
)


@cache
def generic_unit_words() -> frozenset[str]:
    """Words of the generic department list ("Coronary", "Care"): a unit named by them alone names no place."""
    files = LEXICON_FILES["DEPARTMENT"][0]
    words = {
        w.lower()
        for name in files
        for e in read_entries(LEXICON_DIR / name)
        for w in re.findall(r"[A-Za-z]+", e)
    }
    return frozenset(
        words
        | _NOT_A_PLACE_WORD
        | {"surgical", "medical", "day", "assessment", "acute", "high", "short", "stay"}
    )


# Dictated reports' words for the same units ("Transitional Care Unit", "Inpatient Operative
# Suite", "Postanesthetic Care Unit").
_DICTATED_UNIT_WORDS = frozenset(
    {
        "anesthetic",
        "anaesthetic",
        "operative",
        "transitional",
        "inpatient",
        "outpatient",
        "recovery",
        "suite",
        "program",
        "health",
    }
)


# "Postanesthesia", "Preanesthesia": a generic word run together with its prefix.
_UNIT_PREFIX = re.compile(r"^(?:post|pre|peri|intra)-?(?=[a-z]{4,})")


def is_generic_unit(name: str) -> bool:
    """Whether a unit's name is made only of the generic department list's words (our guidelines
    section 13: every hospital has one, so it names no place), prefixes run together included."""
    generic = generic_unit_words() | _DICTATED_UNIT_WORDS
    words = re.findall(r"[A-Za-z]+", name.lower())
    return bool(words) and all(w in generic or _UNIT_PREFIX.sub("", w) in generic for w in words)


@cache
def state_names() -> tuple[frozenset[str], frozenset[str]]:
    """(lower-cased full names, upper-case abbreviations) of US states, AU states, CA provinces, UK counties."""
    names = read_entries(LEXICON_DIR / "us_states.txt") + read_entries(LEXICON_DIR / "regions.txt")
    abbreviations = read_entries(LEXICON_DIR / "us_state_abbreviations.txt") + read_entries(
        LEXICON_DIR / "region_abbreviations.txt"
    )
    return frozenset(n.lower() for n in names), frozenset(abbreviations)


def _state_before(text: str, end: int) -> int | None:
    """Start of a state, province or county name ending just before ``end`` (same line), if any."""
    # A state name has at most four words: 60 characters back are enough (long lines stay cheap).
    line_start = text.rfind("\n", max(0, end - 60), end) + 1 or max(0, end - 60)
    match = _WORDS_BEFORE.search(text, line_start, end)
    if not match:
        return None
    names, abbreviations = state_names()
    words = list(re.finditer(r"[A-Za-z][A-Za-z.'’]*", match.group(1)))
    for first in range(len(words)):  # the longest run of last words that names a state
        phrase = match.group(1)[words[first].start() :]
        if phrase.lower() in names or phrase in abbreviations:
            return match.start(1) + words[first].start()
    return None


@cache
def _five_digit_regions() -> frozenset[str]:
    """Abbreviations of regions whose postcodes have five digits (US states), not four (AU's)."""
    return frozenset(read_entries(LEXICON_DIR / "us_state_abbreviations.txt")) - frozenset(
        read_entries(LEXICON_DIR / "region_abbreviations.txt")
    )


_TOWN_REACH = 200


def _places(text: str) -> Iterator[Candidate]:
    for postcode in _POSTCODE.finditer(text):
        state_start = _state_before(text, postcode.start())
        if state_start is None:
            continue
        state_end = postcode.start()
        while text[state_end - 1] in " \t":
            state_end -= 1
        if len(postcode.group(1)) == 4 and text[state_start:state_end] in _five_digit_regions():
            continue  # "AAA repair, MI 1992", "RENAL CELL CA 1977": a diagnosis and its year
        yield "STATE!", state_start, state_end
        yield "ZIP!", postcode.start(1), postcode.end(1)
        # A town is a word or two before the comma: read back a bounded stretch of the line,
        # not all of it (a note of one long line has thousands of addresses on it).
        reach = max(0, state_start - _TOWN_REACH)
        town = _TOWN_BEFORE_COMMA.search(text, text.rfind("\n", reach, state_start) + 1 or reach, state_start)
        line_start = blank_line_start(text, state_start)
        if town:
            yield "CITY", town.start(1), town.end(1)
        elif line_start:  # the state opens its line, and a line comes before: the town's?
            previous = text.rfind("\n", 0, line_start - 1) + 1
            alone = _TOWN_LINE.match(text, previous, line_start - 1)
            if alone:
                yield "CITY", alone.start(1), alone.end(1)


def _named_units(text: str) -> Iterator[Candidate]:
    generic = generic_unit_words()
    for match in _NAMED_WARD.finditer(text):
        if not is_generic_unit(match.group(1)):
            yield "DEPARTMENT", match.start(), match.end()
    for match in _NUMBERED_WARD.finditer(text):
        yield "DEPARTMENT", match.start(), match.end()
    for match in _PRACTICE.finditer(text):
        words = [w.lower() for w in match.group(1).split()]
        if any(not is_public(w) and w not in generic for w in words):
            yield "HOSPITAL", match.start(), match.end()
    for pattern in (_SAINT, _OUR_LADY):
        for match in pattern.finditer(text):
            yield "HOSPITAL", match.start(), match.end()


def field_candidates(text: str) -> Iterator[Candidate]:
    """Rule spans as ``(type, start, end)``; a type ending in ``!`` settles the tagger's type."""
    for label in _ID_LABEL.finditer(text):
        value = _ID_VALUE.match(text, label.end())
        if value and sum(c.isdigit() for c in value.group(1)) >= 4:
            yield "MEDICALRECORD!", value.start(1), value.end(1)  # the label says what it is
    for match in _HASH_ID.finditer(text):
        # "account #", "DEA #" say which number it is; a bare "#" in a header is the record number.
        other = _OTHER_ID_WORD.search(text, max(0, match.start() - 30), match.start())
        yield ("MEDICALRECORD" if other else "MEDICALRECORD!"), match.start(1), match.end(1)
    for match in _USER_AFTER.finditer(text):
        if match.group(1).rstrip("0123456789") not in NOT_USER:
            yield "USERNAME", match.start(1), match.end(1)
    yield from _places(text)
    yield from _named_units(text)
    yield from id_candidates(text)
