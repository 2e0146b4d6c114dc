"""Leak-check rules for PHI written another way than it was tagged.

Numbers compared on their digits, dates by value, distinctive names inside longer words,
ages over 89 nobody tagged. :mod:`annotator.deid.leakcheck` runs them after its whole-token
search; each returns findings with their offsets in the output note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from annotator.core.document import Document
from annotator.core.english import zipf
from annotator.core.span import SpanIndex
from annotator.deid.dates import parse_date, reference_date
from annotator.deid.findings import Leak
from annotator.deid.names import PARTICLES, is_title, name_tokens
from annotator.deid.surrogates import kind_of

# A letter prefix is allowed ("N1307666" for a tagged "#N1307666"); only the digits count.
_DIGIT_RUN = re.compile(r"(?<![\w.])(?:[A-Za-z]{1,3}[-#]?)?\+?\(?\d(?:[ ().\-/]{0,2}\d){6,}(?![\w])")
_NUMBER_KINDS = frozenset({"phone", "id"})
_OLD_AGE = re.compile(
    r"\b(?:aged\s+)?(9\d|1[0-2]\d)(?:\s*|-)(?:yo|y/o|y\.o\.?|yr?s?\.?\s*old|years?[- ]old)\b|\baged\s+(9\d|1[0-2]\d)\b",
    re.IGNORECASE,
)


# Where a looked-for string comes from: the original note, the tag id and its type.
_Source = tuple[Document, str, str]


def _untagged(document: Document, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """Matches of ``pattern`` in an output note that overlap none of its tags."""
    tags = SpanIndex((a.start, a.end) for a in document)
    for match in pattern.finditer(document.text):
        if not tags.overlaps(*match.span()):
            yield match


def _leak(document: Document, source: _Source, rule: str, span: tuple[int, int]) -> Leak:
    original, tag_id, type_ = source
    return Leak(document.doc_id, original.doc_id, tag_id, type_, rule, *span)


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def reformatted_numbers(originals: list[Document], outputs: list[Document]) -> list[Leak]:
    """Phone numbers and IDs of 7 or more digits written another way ("555-019-9222" for a
    tagged "(555) 019-9222"): compared on their digits alone, outside any output tag."""
    wanted: dict[str, _Source] = {}
    for document in originals:
        for annotation in document:
            if kind_of(annotation) in _NUMBER_KINDS and len(_digits(annotation.text)) >= 7:
                wanted.setdefault(_digits(annotation.text), (document, annotation.id, annotation.type))
    if not wanted:
        return []
    return [
        _leak(document, found, "number written another way", match.span())
        for document in outputs
        for match in _untagged(document, _DIGIT_RUN)
        if (found := wanted.get(_digits(match.group()))) is not None
    ]


_MONTH_NAME = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WEEKDAY_NAME = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+)?"
_DATE_LIKE = re.compile(
    r"\b(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}"
    rf"|{_WEEKDAY_NAME}{_MONTH_NAME}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|{_WEEKDAY_NAME}\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAME},?\s+\d{{4}})\b",
    re.IGNORECASE,
)


def dates_written_another_way(originals: list[Document], outputs: list[Document]) -> list[Leak]:
    """A tagged full date of a patient written another way in that patient's output
    ("March 4, 2061" or "Tue, 4 Mar 2061" for a tagged "03/04/2061"): compared by value."""
    wanted: dict[tuple[str, object], _Source] = {}
    for document in originals:
        for annotation in document:
            if kind_of(annotation) == "date":
                parsed = parse_date(annotation.text.strip())
                value = reference_date(parsed) if parsed is not None else None
                if value is not None:
                    wanted.setdefault(
                        (document.patient_id, value), (document, annotation.id, annotation.type)
                    )
    if not wanted:
        return []
    leaks = []
    for document in outputs:
        for match in _untagged(document, _DATE_LIKE):
            parsed = parse_date(match.group())
            value = reference_date(parsed) if parsed is not None else None
            found = wanted.get((document.patient_id, value)) if value is not None else None
            if found is not None:
                leaks.append(_leak(document, found, "date written another way", match.span()))
    return leaks


def names_inside_words(originals: list[Document], outputs: list[Document]) -> list[Leak]:
    """A distinctive name inside a longer untagged word ("Grimbletonville" when "Grimbleton"
    was tagged): names of 5 letters or more that are rare as English words, inside words
    that are not English words themselves."""
    wanted: dict[str, _Source] = {}
    for document in originals:
        for annotation in document:
            if kind_of(annotation) == "name":
                for token in name_tokens(annotation.text):
                    lowered = token.lower()
                    if len(token) >= 5 and token.isalpha() and zipf(lowered) < 2.5:
                        wanted.setdefault(lowered, (document, annotation.id, annotation.type))
    if not wanted:
        return []
    leaks = []
    for document in outputs:
        for match in _untagged(document, _LONG_WORD):
            word = match.group().lower()
            # A dictionary word that contains a rare name ("balance" and Dr. Balan) is the word.
            if zipf(word) >= 3.0:
                continue
            found = next(
                (
                    wanted[word[i:j]]
                    for i in range(len(word) - 4)
                    for j in range(i + 5, len(word) + 1)
                    if (i, j) != (0, len(word)) and word[i:j] in wanted
                ),
                None,
            )
            if found is not None:
                leaks.append(_leak(document, found, "name inside a longer word", match.span()))
    return leaks


_LONG_WORD = re.compile(r"[^\W\d_]{6,}")


def untagged_old_ages(outputs: list[Document]) -> list[Leak]:
    """An age over 89 next to an age word ("93 yo", "aged 93") that nobody tagged."""
    leaks = []
    for document in outputs:
        tags = SpanIndex((a.start, a.end) for a in document)
        for match in _OLD_AGE.finditer(document.text):
            # The number itself must be untagged: "aged [90]" is a surrogate age, not a leak.
            number = match.span(1) if match.group(1) else match.span(2)
            if not tags.overlaps(*number):
                leaks.append(
                    Leak(document.doc_id, document.doc_id, "", "AGE", "untagged age over 89", *number)
                )
    return leaks


_WORD = re.compile(r"\w+")
_SHORT_KINDS = frozenset({"name", "id", "hospital", "organization"})
# Words that introduce a place wherever it is named: "transferred from HH" and "seen at HH"
# are the same context for a hospital's acronym.
_PLACE_CUES = frozenset({"at", "from", "to", "in", "via"})
# Words that introduce a telephone number or extension ("bleep 1035", "call 1035").
_PHONE_CUES = frozenset(
    {"call", "phone", "tel", "telephone", "ext", "extension", "x", "bleep", "page", "pager", "beep", "mobile",
     "cell", "fax", "dial", "ring", "on"}
)  # fmt: skip
_SHORT = re.compile(r"(?<![\w/])(?:\w\w|\d{3,4})(?![\w/])")


def _neighbours(text: str, start: int, end: int) -> tuple[str, str]:
    before = _WORD.findall(text[max(0, start - 30) : start])
    after = _WORD.findall(text[end : end + 30])
    return (before[-1].lower() if before else "", after[0].lower() if after else "")


def short_tokens_in_context(originals: list[Document], outputs: list[Document]) -> list[Leak]:
    """Two-character names, IDs and hospital acronyms ("Al", "HH") and phone extensions of
    3-4 digits ("bleep 1035") written untagged next to the same words as a tagged
    occurrence, in the same patient's notes.

    Such short strings are too short to look for everywhere ("Al" is also aluminium, 1035
    a count); next to the words that surrounded the tagged one ("son Al", "Al Quist"),
    after a title ("Mr Al"), for a place after a place word ("from HH"), for a phone after
    a telephone word ("call 1035"), they name the same thing.
    """
    wanted: dict[tuple[str, str], tuple[Document, str, str, str, set[str], set[str]]] = {}
    for document in originals:
        for annotation in document:
            kind = kind_of(annotation)
            if kind not in _SHORT_KINDS and kind != "phone":
                continue
            for token in _WORD.finditer(annotation.text):
                word = token.group()
                number = kind in ("phone", "id") and word.isdigit() and len(word) in (3, 4)
                # Two digits alone ("45" of an ID) are any time or count ("15:45").
                short = len(word) == 2 and not word.isdigit()
                if not number and (not short or word.lower() in PARTICLES or is_title(word)):
                    continue
                start = annotation.start + token.start()
                before, after = _neighbours(document.text, start, start + len(word))
                entry = wanted.setdefault(
                    (document.patient_id, word),
                    (document, annotation.id, annotation.type, kind, set(), set()),
                )
                entry[4].add(before)
                entry[5].add(after)
    if not wanted:
        return []
    leaks = []
    for document in outputs:
        for match in _untagged(document, _SHORT):
            found = wanted.get((document.patient_id, match.group()))
            if found is None:
                continue
            source, tag_id, type_, kind, befores, afters = found
            before, after = _neighbours(document.text, *match.span())
            cues = {"name": (), "phone": _PHONE_CUES, "id": ()}.get(kind, _PLACE_CUES)
            cue = is_title(before) if kind == "name" else before in cues
            if (before and before in befores) or (after and after in afters) or cue:
                rule = "short name or ID in the same context"
                leaks.append(_leak(document, (source, tag_id, type_), rule, match.span()))
    return leaks
