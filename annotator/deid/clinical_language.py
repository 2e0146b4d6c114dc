"""Clinical language that shares a string with PHI: when a one-word match is not a leak.

The leak check (:mod:`annotator.deid.leakcheck`) asks :func:`clinical_use` about every
untagged one-word match of an original string. The answers rest on word frequencies
(``wordfreq``), the shape of the text (capitals, hyphens, colons, titles, numbers) and three
lists in ``resources/surrogates`` (eponyms, eponym head nouns, clinical abbreviations).
``names`` is the set of (lower-cased) name tokens of the corpus: a word next to one of them
is read as part of a name.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from functools import cache, lru_cache

from annotator.core.english import zipf as _zipf
from annotator.core.resources import resource_path
from annotator.deid.dates import DATE_WORDS
from annotator.deid.lists import known_surnames, load_list
from annotator.deid.names import is_title


@cache
def eponym_heads() -> frozenset[str]:
    return frozenset(load_list("eponym_heads"))


@cache
def clinical_abbreviations() -> frozenset[str]:
    return frozenset(load_list("clinical_abbreviations"))


@cache
def clinical_words() -> frozenset[str]:
    """Words written outside PHI in many patients' real notes (``lexicons/clinical_words.txt``)."""
    path = resource_path("lexicons", "clinical_words.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def is_vocabulary(word: str) -> bool:
    """A word of English (Zipf >= 3) or of clinical notes: it can be PHI or the word itself."""
    lower = word.lower()
    return word.isalpha() and (_zipf(lower) >= 3.0 or lower in clinical_words())


def surname_only(lower: str) -> bool:
    """A known surname under Zipf 4 that clinical notes do not use as a word ("garcia",
    "patel", "lopez", but also "summers", "colon"; not "foley", "walker" or "white"): wordfreq
    counts it among English words, mostly because people are called so."""
    frequency = _zipf(lower)
    # A plural of a common word is that word ("Spends summers at the lake", for a Summers).
    plural = lower.endswith("s") and _zipf(lower[:-1]) >= 5.0
    return (
        3.0 <= frequency < 4.0 and not plural and lower in known_surnames() and lower not in clinical_words()
    )


# Words after which a vocabulary word is read as a name or a place ("dr small", "per walker",
# "son will", "transferred from heart"): titles, relations, and who was told.
_NAME_CUES = frozenset(
    [
        "dr",
        "doctor",
        "md",
        "mr",
        "mrs",
        "ms",
        "miss",
        "mister",
        "rn",
        "np",
        "pa",
        "nurse",
        "attending",
        "per",
        "son",
        "daughter",
        "wife",
        "husband",
        "sister",
        "brother",
        "mother",
        "father",
        "friend",
        "niece",
        "nephew",
        "called",
        "paged",
        "notified",
        "informed",
    ]
)
_PLACE_CUES = frozenset(["at", "from", "transferred"])
# Field labels that hold a name or a place ("PATIENT: SMALL"); section labels ("GU:") do not.
_NAME_FIELDS = frozenset(
    [
        "name",
        "surname",
        "forename",
        "firstname",
        "lastname",
        "given",
        "patient",
        "pt",
        "doctor",
        "dr",
        "md",
        "attending",
        "pcp",
        "contact",
        "proxy",
        "hcp",
        "nok",
        "relative",
        "family",
        "son",
        "daughter",
        "wife",
        "husband",
        "hospital",
        "location",
        "from",
    ]
)
_PERSON_VERBS = frozenset(
    [
        "agreed",
        "agrees",
        "called",
        "calls",
        "said",
        "says",
        "states",
        "stated",
        "refused",
        "refuses",
        "wants",
        "wanted",
        "came",
        "visited",
        "asked",
        "asks",
        "reports",
        "reported",
        "denies",
        "denied",
        "understands",
        "requests",
        "requested",
        "spoke",
        "feels",
        "felt",
        "was",
        "is",
        "has",
        "had",
    ]
)
_TALKED_WITH = re.compile(
    r"\b(?:spoke|spoken|talked|met|visited|updated|called)\s+(?:with|to|by)\s+$", re.IGNORECASE
)
_WORDS_BEFORE = re.compile(r"([^\W\d_]+)\W*$")


def reads_as_phi(
    text: str, start: int, end: int, kind: str, names: frozenset[str], same_patient: bool = False
) -> bool:
    """Whether an untagged vocabulary word that is also a name or place of the corpus reads as
    one here, by its context alone (in any patient's notes, the patient's own included).

    Yes after a cue (a title, a relation, "per", "paged"; for places "at", "from"), after a
    field label ("PATIENT: SMALL"), next to another name of the corpus, or capitalised inside
    a sentence of a line in mixed case ("spoke with Walker"), or opening one in the patient's
    own notes ("Long was seen today"). No otherwise: "Foley draining", "FOLEY CATH", "small
    amts", "brown stool", "white secretions", "HEART RATE".
    """
    line_start, line_end = _whole_line(text, start, end)
    before_text = text[max(line_start, start - 40) : start]
    previous = _WORDS_BEFORE.search(before_text)
    cues = _NAME_CUES | _PLACE_CUES if kind != "name" else _NAME_CUES
    if previous is not None and previous.group(1).lower() in cues:
        return True
    if _TALKED_WITH.search(before_text):
        return True
    label = re.search(r"([A-Za-z]+)\s*:\s*$", before_text)
    if label is not None and label.group(1).lower() in _NAME_FIELDS:
        return True
    neighbours = _line_neighbours(text, start, end)
    if any(w.lower() in names and not is_vocabulary(w) for w in neighbours):
        return True
    word = text[start:end]
    count, capitals = _line_words(text, line_start, line_end)
    mixed_line = capitals < 0.7 * count if count else False
    sentence_start = re.search(r"(?:^|[.:;!?\-=>]|\n)\s*$", text[max(0, start - 20) : start]) is not None
    if count == 1:
        return True  # a name alone on its line: nothing says it is the word
    if not (mixed_line and word[:1].isupper()):
        return False
    # In a line of mixed case a capital means something: "spoke with Walker", "with WHITE".
    # At a sentence's start a capital may be the word ("Foley draining"), unless a person's
    # verb follows ("Foley agreed"); in the patient's own notes an English word there is still
    # taken for the name ("Long was seen today"), a word of the clinicians' vocabulary is not.
    if not sentence_start or word.isupper():
        return True
    following = re.match(r"\W*([a-z]+)", text[end : end + 30])
    if following is not None and following.group(1) in _PERSON_VERBS:
        return True
    return same_patient and word.lower() not in clinical_words()


@lru_cache(maxsize=4)
def _newlines(text: str) -> array[int]:
    """Where a note's line breaks are, found once per note: thousands of matches on one long
    line would each scan the line again (the check grew with the square of the findings)."""
    return array("q", (m.start() for m in re.finditer("\n", text)))


def _whole_line(text: str, start: int, end: int) -> tuple[int, int]:
    """The whole line of a match: after the last break before ``start`` up to the first break
    at or after ``end`` (or the text's end)."""
    breaks = _newlines(text)
    before = bisect_left(breaks, start) - 1
    after = bisect_left(breaks, end)
    return (breaks[before] + 1 if before >= 0 else 0), (breaks[after] if after < len(breaks) else len(text))


@lru_cache(maxsize=256)
def _line_words(text: str, line_start: int, line_end: int) -> tuple[int, int]:
    """How many words of two or more letters a line has, and how many are in capitals (once
    per line: a long line holds thousands of matches)."""
    words = re.findall(r"[^\W\d_]{2,}", text[line_start:line_end])
    return len(words), sum(w.isupper() for w in words)


@cache
def eponym_pattern() -> re.Pattern[str]:
    phrases = []
    for phrase in load_list("eponyms"):
        words = [re.escape(w) for w in phrase.split()]
        # "Bell's palsy", "Graves' disease", "Parkinson disease": possessive optional.
        words[0] += r"(?:['’]s?)?"
        phrases.append(r"\s+".join(words))
    return re.compile(r"\b(?:" + "|".join(sorted(phrases, key=len, reverse=True)) + r")\b", re.IGNORECASE)


_MASK = re.compile(r"\[\*\*[^\]\n]*\*\*\]")
_WORD = re.compile(r"[^\W\d_]{2,}")
# How far along its line a match looks for its neighbours. A line of a real note is far
# shorter; a note of one 30 MB line must not make every look scan the whole of it.
NEAR = 400


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The match's line, cut to :data:`NEAR` characters on each side."""
    low = max(0, start - NEAR)
    line_start = max(text.rfind("\n", low, start) + 1, low)
    high = min(len(text), end + NEAR)
    line_end = text.find("\n", end, high)
    return line_start, line_end if line_end >= 0 else high


def _line_neighbours(text: str, start: int, end: int) -> list[str]:
    """The words just before and after a match on its line."""
    line_start, line_end = _line_bounds(text, start, end)
    # Masks ("[**DATE**]") are no words of the note.
    before = re.findall(r"[^\W\d_]{2,}", _MASK.sub(" ", text[line_start:start]))
    after = re.findall(r"[^\W\d_]{2,}", _MASK.sub(" ", text[end:line_end]))
    return before[-1:] + after[:1]


def _next_to_name(neighbours: list[str], names: frozenset[str]) -> bool:
    # Month and weekday names are dates there ("TIA June 2059"), even when also first names.
    return any(w.lower() in names and w.lower() not in DATE_WORDS for w in neighbours)


def _in_capitals_line(neighbours: list[str], names: frozenset[str]) -> bool:
    """A word next to another word in capitals, and to no name of the corpus
    ("FRANK HAEMATURIA", but not "PATIENT: SMITH, JOHN")."""
    return any(w.isupper() for w in neighbours) and not _next_to_name(neighbours, names)


def unit_not_initial(text: str, start: int, end: int) -> bool:
    """A match that opens with a one-letter "initial" right after a number ("2 L. Stone"):
    the letter is a unit (litres); the name token after it is checked on its own."""
    return (
        end - start > 2
        and text[start].isupper()
        and text[start + 1 : start + 2] == "."
        and re.search(r"\d\s*$", text[max(0, start - 6) : start]) is not None
    )


# Nouns after a hyphenated eponym that the tagger's list (eponym_heads) does not hold: a
# surname before them alone ("Smith grade", "Stokes protein") is not clinical language, so
# they are only here ("Cormack-Lehane grade", "Cheyne-Stokes respirations").
_COMPOUND_ONLY_HEADS = frozenset(
    [
        "breathing",
        "complex",
        "crystals",
        "deformity",
        "fever",
        "grade",
        "lesion",
        "lesions",
        "malformation",
        "nodule",
        "nodules",
        "pattern",
        "polyps",
        "protein",
        "proteins",
        "pupil",
        "pupils",
        "purpura",
        "reaction",
        "respiration",
        "respirations",
        "rings",
        "sarcoma",
        "spots",
        "stage",
        "variant",
        "virus",
    ]
)


@cache
def _compound_heads() -> frozenset[str]:
    return eponym_heads() | _COMPOUND_ONLY_HEADS


def _joined_to_a_word(after: str) -> bool:
    """A hyphen joining the word to a word in lower case ("Long-standing", "Aldrich-like"), or,
    in capitals, to a common word ("LONG-STANDING"); not to a name ("Garcia-Lopez")."""
    joined = re.match(r"-([^\W\d_]+)", after)
    if joined is None:
        return False
    second = joined.group(1)
    return second.islower() or (second.isupper() and _zipf(second.lower()) >= 4.0)


def clinical_use(text: str, start: int, end: int, same_patient: bool, names: frozenset[str]) -> bool:
    """A one-word match that reads as clinical language, not as the person or place.

    ``Blake drain`` / ``BLAKE DRAIN`` (an eponym head noun follows), ``MAC`` / ``NASH`` (a
    clinical abbreviation in capitals), ``Long-standing`` (a common word joined to the
    next by a hyphen). In another patient's notes only (in the patient's own notes it may
    well be the name, so it is still reported): a very common word capitalised and going
    on in lower case (``Staples removed``, ``Stone in the CBD``), and a dictionary word in
    a line written in capitals (``FRANK HAEMATURIA``), where its case says nothing. A word
    after a title is always a name.
    """
    word = text[start:end]
    if not word.isalpha():
        return False
    # After a title ("Mr MAX", "Dr. Long") the word is a name, whatever else it can mean;
    # after a number, "Fr" is a catheter size ("15 Fr Blake drain"), not Father.
    # Same line only, and not a degree after a name ("Kristie Yang, MD" then "NASH").
    before = re.search(r"(?:^|(\S*)[ \t]+)(\w+)\.?[ \t]+$", text[max(0, start - 20) : start])
    if before is not None and is_title(before.group(2)) and not re.search(r"[\d,]$", before.group(1) or ""):
        return False
    after = text[end : end + 40]
    following = re.match(r"(?:['’]s?)?\s+([A-Za-z]+)", after)
    if following is not None and following.group(1).lower() in eponym_heads():
        return True
    if word.isupper() and word in clinical_abbreviations():
        return True
    # Two capitalised names joined by a hyphen and going on in lower case are an eponym
    # ("Hill-Sachs lesion", "Mallory-Weiss tear") when the word is one of English. A name
    # that is not ("Hendrickson-Smith visited", "Garcia-Lopez said") needs an eponym's head
    # noun after it ("Cormack-Lehane grade"): otherwise it is a person's double surname.
    frequency = _zipf(word.lower())
    joined_after = re.match(r"(?:-[A-Z][\w']*)*", after).end()  # type: ignore[union-attr]
    joined_before = re.search(r"[A-Z][\w']*-$", text[max(0, start - 30) : start]) is not None
    head = re.match(r"\s+([a-z]+)", after[joined_after:])
    if (joined_before or joined_after) and head is not None:
        a_word = frequency >= 3.0 and not surname_only(word.lower())
        if a_word or head.group(1) in _compound_heads():
            return True
    if frequency < 3.0:
        return False
    if _joined_to_a_word(after):
        return True
    neighbours = _line_neighbours(text, start, end)
    capitals_line = word.isupper() and _in_capitals_line(neighbours, names)
    if same_patient:
        # In a phrase written in capitals the case says nothing: a very common word that
        # a word in capitals follows ("HOPE TO WEAN") reads as the word; alone after a
        # label ("PATIENT: LONG.") it is still the name.
        next_word = _WORD.search(text, end, _line_bounds(text, start, end)[1])
        following_word = [next_word.group()] if next_word is not None else []
        return (
            capitals_line
            and frequency >= 4.5
            and any(w.isupper() for w in following_word)
            and not _next_to_name(following_word, names)
        )
    # Word frequencies (wordfreq): a word this common ("Long", "Will", "Stone", "Day 1")
    # written without a title, and next to no other name, is far more often the word than
    # someone of another patient's notes.
    if frequency >= 4.5 and not word.isupper() and not _next_to_name(neighbours, names):
        return True
    # A word in capitals ending in a colon is a field label ("DATE:", "PLAN:").
    if word.isupper() and after.startswith(":"):
        return True
    # Short words in capitals in another patient's notes are acronyms (TIA, CBD) far more
    # often than that patient's names; a name after a title is still reported.
    return capitals_line or (word.isupper() and len(word) <= 4 and not _next_to_name(neighbours, names))
