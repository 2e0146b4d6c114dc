"""The clinical-language rules of the leak check, one case per rule and per threshold:
which one-word matches read as clinical language (``clinical_use``) and which one-letter
"initials" are units after a number (``unit_not_initial``)."""

from __future__ import annotations

import pytest

from annotator.core.english import zipf
from annotator.deid.clinical_language import _line_neighbours, clinical_use, unit_not_initial

NAMES = frozenset({"smith", "hope", "june"})


def use(text: str, word: str, same_patient: bool = False) -> bool:
    start = text.index(word)
    return clinical_use(text, start, start + len(word), same_patient, NAMES)


def test_the_word_frequencies_the_cases_rely_on() -> None:
    # The thresholds are 3.0 (a word at all) and 4.5 (a very common word).
    assert zipf("quist") < 3.0 <= zipf("blake") < zipf("mac") < 4.5 <= zipf("stone")
    assert min(zipf("frank"), zipf("review"), zipf("hope")) >= 4.5
    assert zipf("aldrich") == 3.0  # exactly at the thresholds
    assert zipf("miller") == 4.5


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ("O'Neil came.", "O'Neil", False),  # not one word
        ("A 15 Fr Blake drain was placed.", "Blake", True),  # an eponym head follows
        ("A Blake's drain was placed.", "Blake", True),  # possessive before the head
        ("Dr. Blake drain removed.", "Blake", False),  # after a title: a name
        ("Seen by Dr Stone in clinic.", "Stone", False),
        ("Kristie Yang, MD NASH cirrhosis.", "NASH", True),  # a degree after a name is no title
        ("Spinal with MAC.", "MAC", True),  # a clinical abbreviation in capitals
        ("Cormack-Lehane grade 2.", "Cormack", True),  # joined names going on in lower case
        ("Mallory-Weiss tear.", "Weiss", True),
        ("Cormack-Lehane Smith.", "Cormack", False),  # going on with a capital: a person
        ("Hendrickson-Smith visited.", "Hendrickson", False),  # no eponym's head: a double surname
        ("Garcia-Lopez visited.", "Garcia", False),  # joined to a name, not to a word
        ("LONG-STANDING HTN.", "LONG", True),  # in capitals, joined to a common word
        ("Quist seen today.", "Quist", False),  # rare: the name
        ("Long-standing hypertension.", "Long", True),  # a common word joined by a hyphen
        ("Mac came in.", "Mac", False),  # common, but not very common
        ("Blake came in.", "Blake", False),
        ("Stone in the CBD.", "Stone", True),  # very common, going on in lower case
        ("Seen: Stone Hope today.", "Stone", False),  # next to a name of the corpus
        ("Stone June 2059.", "Stone", True),  # a month is a date there, not a name
        ("REVIEW: stable.", "REVIEW", True),  # a field label
        ("REVIEW stable.", "REVIEW", False),
        ("FRANK HAEMATURIA noted.", "FRANK", True),  # a line in capitals
        ("FRANK SMITH came.", "FRANK", False),  # capitals, but next to a name
        ("HOPE was seen.", "HOPE", True),  # a short word in capitals: an acronym
        ("STONE was seen.", "STONE", False),  # five letters is no acronym
        ("Seen with HOPE SMITH.", "HOPE", False),  # a short word next to a name
        ("Miller called.", "Miller", True),  # exactly very common
        ("Aldrich-like rash.", "Aldrich", True),  # exactly a word, joined by a hyphen
        ("Stone in the CBD, Hope said.", "Stone", True),  # only the words next to it count
    ],
)
def test_clinical_use_in_another_patients_notes(text: str, word: str, expected: bool) -> None:
    assert use(text, word) is expected


@pytest.mark.parametrize(
    ("text", "word", "expected"),
    [
        ("Spinal with MAC.", "MAC", True),  # the abbreviation rule holds in any record
        ("A 15 Fr Blake drain was placed.", "Blake", True),
        ("Long-standing hypertension.", "Long", True),
        ("Stone in the CBD.", "Stone", False),  # in the patient's own notes it may be the name
        ("HOPE was seen.", "HOPE", False),
        ("REVIEW: stable.", "REVIEW", False),
        ("FRANK HAEMATURIA noted.", "FRANK", True),  # a very common word a capital word follows
        ("BLAKE HAEMATURIA noted.", "BLAKE", False),  # not very common
        ("PATIENT: FRANK.", "FRANK", False),  # alone after a label: the name
        ("FRANK SMITH came.", "FRANK", False),
        ("NOTE FRANK HOPE came.", "FRANK", False),  # followed by a name
        ("NOTE FRANK\nHAEMATURIA", "FRANK", False),  # the next word is on another line
        ("Frank HAEMATURIA noted.", "Frank", False),  # not itself in capitals
        ("A BLAKE DRAIN was placed.", "BLAKE", True),  # an eponym head in capitals
        ("Day 2 post-Whipple course.", "Whipple", False),  # a lower-case prefix joins no names
        ("MILLER TO WEAN", "MILLER", True),  # exactly very common
        ("NOTE\nFRANK HAEMATURIA", "FRANK", True),  # the line starts after the newline
        ("NOTE FRANK\nHAEMATURIA\nEND", "FRANK", False),  # the next word is on the next line
        ("NOTE FRANK TO", "FRANK", True),  # the last word of the note
        ("FRANK HAEMATURIA SMITH", "FRANK", True),  # only the next word counts
    ],
)
def test_clinical_use_in_the_patients_own_notes(text: str, word: str, expected: bool) -> None:
    assert use(text, word, same_patient=True) is expected


@pytest.mark.parametrize(
    ("text", "match", "expected"),
    [
        ("Sats 94% on 2 L. Stone in the CBD.", "L. Stone", True),
        ("Sats on 2L. Stone in the CBD.", "L. Stone", True),
        ("Seen by L. Stone today.", "L. Stone", False),  # no number before: an initial
        ("Sats on 2 l. Stone today.", "l. Stone", False),  # lower case: no initial either way
        ("Sats on 2 L Stone today.", "L Stone", False),  # no full stop
        ("Sats on 2 L. today.", "L.", False),  # the letter alone
        ("Number 123456 L. Stone.", "L. Stone", True),
        ("Number 1234567 L. Stone.", "L. Stone", True),
        ("2 L. Stone", "L. Stone", True),  # the number opens the note
        ("On 2 L.X today.", "L.X", True),
        ("2      L. Stone", "L. Stone", False),  # the number is further back than six characters
    ],
)
def test_a_unit_after_a_number_is_not_an_initial(text: str, match: str, expected: bool) -> None:
    start = text.index(match)
    assert unit_not_initial(text, start, start + len(match)) is expected


@pytest.mark.parametrize(
    ("text", "neighbours"),
    [
        ("aa bb cc Stone dd ee", ["cc", "dd"]),  # one word each side
        ("Oh Stone", ["Oh"]),  # the note's first word
        ("AB\nCD\nStone", []),  # nothing before it on its line
        ("foo Stone\nbar", ["foo"]),  # the next line is not its line
        ("Stone\nfoo\nbar", []),
        ("Stone ab", ["ab"]),  # the note's last word
        ("[**DATE**] Stone [**NAME**] 12", []),  # masks and numbers are no words
    ],
)
def test_the_words_next_to_a_match_on_its_line(text: str, neighbours: list[str]) -> None:
    start = text.index("Stone")
    assert _line_neighbours(text, start, start + len("Stone")) == neighbours
