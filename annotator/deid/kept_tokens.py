"""Pieces of a tagged span that its surrogate must not keep.

A tag's span is PHI as a whole: ``Smith, John (MRN 1234567)`` tagged as a name still holds
the record number, ``95 yo Smith`` tagged as an age still holds the name. A type-specific
surrogate replaces only what it recognises, so whatever else it keeps would survive. The
identifying tokens of a span are its numbers of two or more digits, tokens mixing letters and
digits, and its words of two or more letters that are not generic (connectives, titles, place
and date type words, the words a surrogate keeps by design such as ``Hospital`` or ``Apt``).

Two readings are exempt, because their surrogates change the value as a whole: the numbers
of a span that parses as a date (shifted: a ``12`` that comes back as another field is not the
original day, and a decade's ``1960s`` names no year) and ages of 90 and under (kept, or 90,
by design). By design too, and so not counted: short digit groups of phones, IDs and IP addresses (every digit is re-drawn, a group
coming back is chance), top-level domains of e-mails and URLs, the common-word head noun of a
hospital or organisation ("Schools"), and common words of a profession.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.english import zipf
from annotator.deid.date_forms import names_no_day_of_a_year
from annotator.deid.dates import DATE_WORDS, HOLIDAYS, parse_date
from annotator.deid.findings import Leak
from annotator.deid.lists import load_list, load_pairs
from annotator.deid.names import PARTICLES, TITLES
from annotator.deid.places import DEFAULT_DEPARTMENT, HOSPITAL_WORDS, ORGANIZATION_WORDS, generic_head_noun

RULE = "surrogate keeps part of the original"
_TOKEN = re.compile(r"[^\W_]+")
_TIME = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?")
_MASK = re.compile(r"\[\*\*[^\]]*\*\*\]")
# Words no surrogate needs to change: they name a kind of thing, not which one.
_CONNECTIVES = frozenset(
    word
    for line in (
        "a an the of at in on and or for to by with from via per as is was",
        "no nr number id mrn sn ssn acct account tel phone fax pager ext cell home work email",
        "http https www com org net edu gov html example localhost",
        "yo yr yrs year years old aged age month months mo mos week weeks wk wks day days hr hrs",
        "after before ago since until am pm noon midnight morning evening night",
        "north south east west ne nw se sw upper lower new old saint mount fort port",
        "apt apartment suite ste unit floor fl room rm bldg building box po",
        "wing pavilion tower annex campus ward lab laboratory office service dept department division",
        "jr sr ii iii iv md rn np pa phd mph dds do mid early late end around about",
        # Number words: ages up to 89 are kept by design (higher ones are masked before).
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen",
        "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty",
    )
    for word in line.split()
)


@lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    """Lower-case words a surrogate may keep: none of them identifies anyone."""
    words: set[str] = set(_CONNECTIVES) | set(PARTICLES) | set(TITLES) | set(DATE_WORDS)
    # Type words are read as tokens: "Women's" is "women" and "s".
    phrases = [
        *HOSPITAL_WORDS,
        *ORGANIZATION_WORDS,
        *HOLIDAYS,
        DEFAULT_DEPARTMENT,
        *(g for _, g in load_pairs("departments")),
    ]
    phrases += [part for entry in load_list("street_suffixes") for part in entry.split("|")]
    for phrase in phrases:
        words.update(t.lower() for t in _TOKEN.findall(phrase))
    return frozenset(words)


_NUMBER_SUFFIX = re.compile(r"(\d+)(s|st|nd|rd|th)", re.IGNORECASE)
# Kinds whose surrogate re-draws every digit: a short group coming back is chance (or the
# area code kept by design), not the original value.
_DRAWN_DIGITS = frozenset({"phone", "id", "ip"})


def _identifying(token: str, kind: str, dated: bool) -> bool:
    decade = _NUMBER_SUFFIX.fullmatch(token)
    if decade is not None and (dated or kind == "age"):
        token = decade.group(1)  # "30th" of a shifted date, an age "60s"
    if token.isdecimal() and kind in _DRAWN_DIGITS and len(token) <= 3:
        return False
    if token.isdecimal():
        if len(token) < 2 or dated:
            return False
        # An age of 90 and under is kept by design; a longer number is over 90 (and int()
        # refuses more than 4,300 digits, so it only reads short ones).
        value = token.lstrip("0")
        return not (kind == "age" and len(value) <= 2 and int(value or "0") <= 90)
    if any(c.isdigit() for c in token):
        return True  # "4B", "X9Y8Z7": part of an identifier
    return len(token) >= 2 and token.lower() not in generic_words()


def identifying_tokens(text: str, kind: str) -> set[str]:
    """The lower-cased tokens of a tagged span that identify (see the module docstring)."""
    # A time of day ("10:30") is kept by the date shift and names no day.
    core = _TIME.sub(" ", text) if kind == "date" else text
    tokens = _TOKEN.findall(core)
    dated = kind == "date" and _only_date_parts(text, tokens)
    found = {t.lower() for t in tokens if _identifying(t, kind, dated)}
    if kind in ("email", "url"):
        found = {t for t in found if len(t) > 3 or not t.isalpha()}  # top-level domains: "au", "uk"
    head = generic_head_noun(text) if kind in ("hospital", "organization") else None
    if head is not None:
        found.discard(head)  # the head noun ("Schools", "Laboratories") is kept by design
    if kind == "profession":
        found = {t for t in found if zipf(t) < 3.0}  # "engineer" of "software engineer"
    return found


def _only_date_parts(text: str, tokens: list[str]) -> bool:
    """Whether a date tag holds nothing but a date (or a range, "10/15-10/16"): numbers of up
    to four digits and date or generic words. Its surrogate is shifted as a whole, so a number
    that comes back (the month 10 of both ends) is no longer the original day."""
    if parse_date(text.strip()) is not None or names_no_day_of_a_year(text.strip()):
        return True
    return all(
        (t.isdecimal() and len(t) <= 4) or (t.isalpha() and t.lower() in generic_words()) for t in tokens
    )


def kept_tokens(original: str, surrogate: str, kind: str) -> set[str]:
    """The identifying tokens of ``original`` that ``surrogate`` still holds (a mask holds none)."""
    found = identifying_tokens(original, kind)
    if not found:
        return set()
    return found & {t.lower() for t in _TOKEN.findall(_MASK.sub(" ", surrogate))}


def pieces_kept(
    originals: Iterable[Document], outputs: Iterable[Document], kind_of: Callable[[Annotation], str]
) -> list[Leak]:
    """A finding for each identifying token of an original tag that its output tag still holds
    (the tag's own replacement: the same id in the output note of the same name). ``kind_of``
    is the surrogate kind of a tag (passed in: the surrogates module imports this one)."""
    by_id = {d.doc_id: d for d in originals}
    leaks: list[Leak] = []
    for output in outputs:
        original = by_id.get(output.doc_id)
        if original is None:
            continue
        old = {a.id: a for a in original}
        for new in output:
            before = old.get(new.id)
            if before is None or new.end <= new.start:
                continue
            text = output.text[new.start : new.end]
            kept = kept_tokens(before.text, text, kind_of(before))
            leaks.extend(_places(output.doc_id, before.id, before.type, text, new.start, kept))
    return leaks


def _places(doc_id: str, tag_id: str, type_: str, text: str, offset: int, kept: set[str]) -> list[Leak]:
    """Where in an output tag's text the kept tokens stand, as findings."""
    return [
        Leak(doc_id, doc_id, tag_id, type_, RULE, offset + m.start(), offset + m.end())
        for m in _TOKEN.finditer(text)
        if m.group().lower() in kept
    ]
