"""Regular-expression templates for well-formed PHI (seed 003, Table 2) and near misses.

A template is matched over the note text, not over single tokens, because the tokeniser
splits ``2067-05-03`` into five tokens; every token a match covers then carries the
template's name as a feature. A few templates describe look-alikes that are *not* PHI
(clock times, doses), which teach the tagger what a date or an id is not.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from annotator.crf.tokenizer import note_words

# Month names in any case: telegraphic and all-caps notes write 30-NOV-2063.
MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?|JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?"
    r"|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEPT?(?:EMBER)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)"
)


def _after_first_letter(alternation: str) -> str:
    """``(?:Jan|Feb)`` as ``(?:(?<=J)an|(?<=F)eb)``: the rest of each word once its first letter
    is taken, so that a led template can open with the first letter (:class:`_Led`)."""
    words, depth, start = [], 0, 3
    for index, char in enumerate(alternation[3:-1], start=3):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            words.append(alternation[start:index])
            start = index + 1
    words.append(alternation[start:-1])
    return "(?:" + "|".join(f"(?<={word[0]}){word[1:]}" for word in words) + ")"


_MONTH_FIRST = r"[ADFJMNOS]"
_MONTH_REST = _after_first_letter(MONTH)
TENS = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
UNITS = r"(?:one|two|three|four|five|six|seven|eight|nine)"
_YEAR = r"(?:\d{4}|'?\d{2})"


class _Led(NamedTuple):
    """A template ``anchor first rest`` (``\\b\\d{4}...``) written for speed as ``first(?<=anchor first)rest``.

    ``re`` skips fast to where a match can begin only when a pattern opens with a character
    class; these open with an assertion (``\\b``, ``(?<!\\d)``), so the first character is
    matched first and the assertion checked behind it. Both match exactly the same spans
    (tested); the led form scans a note two to four times faster.
    """

    anchor: str
    first: str
    rest: str
    flags: int = 0

    def plain(self) -> re.Pattern[str]:
        return re.compile(self.anchor + self.first + self.rest, self.flags)

    def led(self) -> re.Pattern[str]:
        return re.compile(f"{self.first}(?<={self.anchor}{self.first}){self.rest}", self.flags)


# Name -> pattern, or the parts of a led pattern; the order is the order of a token's features.
TEMPLATE_SPECS: dict[str, re.Pattern[str] | _Led] = {
    "DATE_ISO": _Led(r"\b", r"\d", r"\d{3}[-/.]\d{1,2}[-/.]\d{1,2}\b"),
    # (?<![\d/]) rather than \b: notes glue dates to words ("on10/14/82").
    "DATE_MDY_SLASH": _Led(r"(?<![\d/.])", r"\d", r"\d?/\d{1,2}/(?:\d{4}|\d{2})(?![\d/])"),
    "DATE_MDY_DASH": _Led(r"(?<![\d-])", r"\d", r"\d?-\d{1,2}-(?:\d{4}|\d{2})(?![\d-])"),
    "DATE_MDY_DOT": _Led(r"\b", r"\d", r"\d?\.\d{1,2}\.(?:\d{4}|\d{2})\b"),
    "DATE_MY": _Led(r"(?<![\d/])", r"\d", r"\d?/(?:\d{4}|'?\d{2})(?![\d/])"),
    "DATE_MD": _Led(r"(?<![\d/])", r"\d", r"\d?/\d{1,2}(?![\d/])"),
    "DATE_MONTH_DAY": _Led(
        r"\b", _MONTH_FIRST, rf"{_MONTH_REST}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+{_YEAR}\b)?"
    ),
    "DATE_DAY_MONTH": _Led(
        r"\b", r"\d", rf"\d?(?:st|nd|rd|th)?[\s-]*(?:of\s+)?{MONTH}\.?(?![a-z])(?:[,\s-]*{_YEAR}\b)?"
    ),
    "DATE_MONTH_YEAR": _Led(r"\b", _MONTH_FIRST, rf"{_MONTH_REST}\.?[\s,-]+(?:of\s+)?(?:\d{{4}}|'\d{{2}})\b"),
    "DATE_YEAR": _Led(r"\b", r"[12]", r"(?:(?<=1)[89]|(?<=2)[01])\d{2}\b"),
    "DATE_DECADE": re.compile(r"(?:\b\d{2,4}|')\d?'?s\b"),
    "AGE_YO": _Led(
        r"\b",
        r"\d",
        r"\d{0,2}\s*(?:-\s*)?(?:y/?o|yo|y\.o\.?|yr?s?\.?[\s-]*old|years?[\s-]*old|year-old|yrs?|ym|yf)(?:[MF]\b)?",
        re.IGNORECASE,
    ),
    "AGE_DURATION": _Led(r"\b", r"\d", r"\d{0,2}\s*(?:months?|mos?|weeks?|wks?)[\s-]*old\b", re.IGNORECASE),
    "AGE_DECADE": _Led(r"\b", r"[1-9]", r"(?:(?<=[2-9])0|(?<=1)[01]0)'?s\b"),
    # Ages written out: "fifty", "seventy-five" (seed 003 lists numbers in words).
    "NUMBER_WORDS": re.compile(
        rf"\b{TENS}(?:[\s-]{UNITS})?\b|\b(?:ten|eleven|twelve|\w+teen)\b", re.IGNORECASE
    ),
    "PHONE": _Led(r"(?<!\d)", r"[(\d]", r"(?:(?<=\()\d{3}\)\s*|(?<=\d)\d{2}[\s.-])\d{3}[\s.-]\d{4}(?!\d)"),
    "PHONE_SHORT": _Led(r"(?<![\d-])", r"\d", r"\d{2}-\d{4}(?![\d-])"),
    # International and grouped forms: +44 20 7946 0958, 1-711-670-1288, (02) 6204 1524.
    "PHONE_INTL": re.compile(
        r"(?<![\w+])(?=(?:[\s().+-]{0,3}\d){7})(?:\+\d{1,3}[\s.-]?|1-)?(?:\(\d{1,4}\)\s?)?\d{1,5}"
        r"(?:[\s.-]\d{2,4}){1,3}(?![\w-])"
    ),
    "PHONE_EXT": re.compile(r"\b(?:x|ext\.?)\s*\d{3,5}\b", re.IGNORECASE),
    "ZIP": _Led(r"(?<![\d-])", r"\d", r"\d{4}(?:-\d{4})?(?![\d-])"),
    "SSN": _Led(r"(?<![\d-])", r"\d", r"\d{2}-\d{2}-\d{4}(?![\d-])"),
    "MRN_DIGITS": _Led(r"(?<![\d.])", r"\d", r"\d{5,9}(?![\d.])"),
    "MRN_ALPHA": _Led(r"\b", r"[A-Z]", r"[A-Z]{0,3}\d{3,10}\b"),
    "MRN_MIXED": _Led(r"\b", r"\d", r"\d{2,3}[A-Z]{1,2}\d{4,5}\b"),
    "ID_DASHED": _Led(r"(?<![\d-])", r"\d", r"\d{0,2}-\d{5,8}(?![\d-])"),
    "ID_GROUPED": _Led(r"(?<![\d-])", r"\d", r"\d{1,3}(?:-\d{2,4}){2,3}(?![\d-])"),
    # Letters and digits mixed, or digit groups joined by - or /: K8047504, H63-52721, L16788/34.
    "ID_ALNUM": re.compile(r"(?<![\w-])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{5,}(?![\w-])"),
    # Each group is a whole run of letters and digits holding a digit, taken possessively: the
    # two stars of "[A-Za-z0-9]*\d[A-Za-z0-9]*" backtracked quadratically on a 200,000-digit run.
    "ID_JOINED": re.compile(
        r"(?<![\w/-])(?=(?:[A-Za-z/-]*\d){4})(?=[A-Za-z]*\d)[A-Za-z0-9]++"
        r"(?:[-/](?=[A-Za-z]*\d)[A-Za-z0-9]++)+(?![\w/-])"
    ),
    "ID_COLON": _Led(r"\b", r"[A-Z]", r"[A-Z]{1,3}:[A-Z0-9]{2,6}(?::\s?\d{2,6})?\b"),
    "USERNAME": _Led(r"\b", r"[A-Za-z]", r"[A-Za-z]{1,2}\d{1,3}\b"),
    "INITIALS": _Led(r"\b", r"[A-Z]", r"\.?\s?[A-Z]\.?(?:\s?[A-Z]\.?)?(?=[\s/,;:]|$)"),
    "EMAIL": _Led(r"\b", r"[\w.+-]", r"[\w.+-]*@[\w-]+(?:\.[\w-]+)+\b"),
    "URL": re.compile(
        r"\b(?:https?://|www\.)[^\s<>\"]+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|edu|gov)\b(?:/[^\s]*)?"
    ),
    "IPADDR": _Led(r"\b", r"\d", r"\d{0,2}\.(?:\d{1,3}\.){2}\d{1,3}\b"),
    "TIME": _Led(r"\b", r"\d", r"\d?:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?![\d:])", re.IGNORECASE),
    "DOSE": _Led(
        r"\b",
        r"\d",
        r"\d*(?:\.\d+)?\s*(?:mg|mcg|ml|mL|g|kg|lbs?|units?|mmHg|mEq|%|cm|mm|bpm)\b",
        re.IGNORECASE,
    ),
    # Numbers that look like PHI and are not (nursing notes are full of them): a pain score
    # out of 10, slash pairs no calendar writes (BP 120/80), blood gases and other runs of
    # slashes, shift times (1900-0730), ranges (23-40, 20-30's), volumes, rates and doses.
    "PAIN_SCALE": _Led(r"(?<![\d/.])", r"\d", r"\d?/10(?![\d/])"),
    # Led forms of (?<![\d/.])(?:(?:1[3-9]|[2-9]\d|\d{3,})/\d+|\d+/(?:3[2-9]|[4-9]\d|\d{3,}))(?![\d/])
    # and (?<![\d/.])(?:\d+(?:/\d+){3,}|(?=[\d/]*\d\.\d)\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?){2,})(?![\d/]):
    # the first digit is taken, so what followed it is asked of it from behind (tested).
    "NOT_MONTH_DAY": _Led(
        r"(?<![\d/.])",
        r"\d",
        r"(?:(?:(?<=1)[3-9]|(?<=[2-9])\d|\d{2,})/\d+|\d*/(?:3[2-9]|[4-9]\d|\d{3,}))(?![\d/])",
    ),
    "SLASH_RUN": _Led(
        r"(?<![\d/.])",
        r"\d",
        r"(?:\d*(?:/\d+){3,}|(?=[\d/]*\d\.\d|\.\d)\d*(?:\.\d+)?(?:/\d+(?:\.\d+)?){2,})(?![\d/])",
    ),
    "CLOCK_RANGE": _Led(r"(?<![\d-])", r"[0-2]", r"\d[0-5]\d\s?-\s?[0-2]\d[0-5]\d(?![\d-])"),
    "NUMBER_RANGE": _Led(r"(?<![\d/.-])", r"\d", r"\d{0,2}\s?-\s?\d{1,3}(?:'?[sS])?(?![\d/-])"),
    "QUANTITY": _Led(
        r"(?<![\d.])",
        r"\d",
        r"[\d.]*\s?(?:cc|ml|l|lpm|meq|mmol|units?|u|gtts?|mcg|mg|g|kg|lbs?|hrs?|min|mins|mmhg|fr|french|x|%)(?![a-z])",
        re.IGNORECASE,
    ),
    "STREET": _Led(
        r"\b",
        r"\d",
        r"\d{0,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|"
        r"Way|Ct|Court|Pl|Place|Ter|Terrace|Pkwy|Parkway|Hwy|Highway|Cir|Circle|Sq|Square)\b\.?",
    ),
}


TEMPLATES: dict[str, re.Pattern[str]] = {
    name: spec.led() if isinstance(spec, _Led) else spec for name, spec in TEMPLATE_SPECS.items()
}


# Text a template's every match holds: a note without it is not scanned (one fast substring
# search instead of a regex tried at every position).
_REQUIRED = {
    "EMAIL": ("@",),
    "URL": ("http", "www.", ".com", ".org", ".net", ".edu", ".gov"),
}


_NUMBER_WORDS = frozenset(re.findall(r"[a-z]+", TENS)) | {"ten", "eleven", "twelve"}


def _has_number_word(text: str) -> bool:
    words = note_words(text)
    return not words.isdisjoint(_NUMBER_WORDS) or any(word.endswith("teen") for word in words)


def template_matches(text: str) -> list[tuple[str, int, int]]:
    """Every template match in ``text`` as (template name, start, end)."""
    matches = []
    for name, pattern in TEMPLATES.items():
        required = _REQUIRED.get(name)
        if required is not None and not any(part in text for part in required):
            continue
        if name == "NUMBER_WORDS" and not _has_number_word(text):
            continue
        for match in pattern.finditer(text):
            if match.end() > match.start():
                matches.append((name, match.start(), match.end()))
    return matches
