"""Leak-check rules for short tokens, capitals, titles and units: the false-alarm classes a
second note style revealed stay quiet, and the same strings used as names are still caught."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import find_leaks
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import Piece, note

PHI = note(
    "500-01",
    "Patient ",
    ("Tia Frank", "PATIENT"),
    ", seen by Dr. ",
    ("L. Stone", "DOCTOR"),
    " with ",
    ("Hope Collier", "PATIENT"),
    " and ",
    ("Ann Lee", "PATIENT"),
    "; friend ",
    ("Max Jan", "PATIENT"),
    "; consultants ",
    ("Pia Cormack", "DOCTOR"),
    ", ",
    ("Ida Balan", "DOCTOR"),
    ", ",
    ("Ed Date", "DOCTOR"),
    ", ",
    ("Rob Day", "DOCTOR"),
    ", MRN ",
    ("#N1307666", "MEDICALRECORD"),
    ", bleep ",
    ("1035", "PHONE"),
    ". Admitted to ",
    ("HH", "HOSPITAL"),
    ". Seen with her son ",
    ("Al", "PATIENT"),
    ".",
)


def found(*others: Document) -> list[tuple[str, str]]:
    documents = [PHI, *others]
    result = deidentify_documents(documents, DeidOptions(seed=5))
    ids = {d.doc_id for d in others}
    return [
        (leak.doc_id, leak.rule) for leak in find_leaks(documents, result.documents) if leak.doc_id in ids
    ]


@pytest.mark.parametrize(
    "clinical",
    [
        "PMH:\n1. FRANK HAEMATURIA\n2. TIA June 2059\n",  # capitals line; an acronym before a date
        "On examination Stone in the CBD, BP normal.",  # a very common word going on in lower case
        "Sats 94% on 2 L. Stone in the CBD.",  # a unit after a number, not an initial
        "Signed, MD\n\nNASH cirrhosis.",  # a degree on the line above is no title
        "LINES: HOPE TO WEAN OXYGEN",
        "Labs: Al 2+ on dipstick.",  # a two-letter token without the tagged one's context
        "HR 92, RR 18, pulse 93 and regular.",  # measurements next to vital-sign words
        "Glucose 1035 mg/dL?",  # another patient's number, whatever the words
        ("ST MARY'S HOSPITAL\nDATE: ", ("mid-May", "DATE")),  # a label; the mask [**DATE**] is no word
        "Mallampati 2, Cormack-Lehane grade 1.",  # two names joined by a hyphen: an eponym
        "Fluid balance chart reviewed.",  # a dictionary word containing a rare name
        "Day 1 (Monday): stable.",  # a very common word, no title, no name next to it
    ],
)
def test_clinical_language_in_another_patient_is_not_a_leak(clinical: str | tuple[str, Piece]) -> None:
    pieces = clinical if isinstance(clinical, tuple) else (clinical,)
    assert found(note("600-01", *pieces)) == []


@pytest.mark.parametrize(
    "clinical",
    ["LINES: HOPE TO WEAN OXYGEN", "Count 1035 cells.", "Al 2+ on dipstick.", "Cormack-Lehane grade 2."],
)
def test_common_words_and_numbers_in_the_patients_own_notes_are_not_leaks(clinical: str) -> None:
    assert found(note("500-02", clinical)) == []


def test_a_surrogate_age_after_aged_is_not_an_untagged_age() -> None:
    document = note("300-05", "She is aged ", ("93", "AGE"), " and frail.")
    result = deidentify_documents([document], DeidOptions(seed=2))
    assert result.documents[0].text == "She is aged 90 and frail."
    assert find_leaks([document], result.documents) == []


@pytest.mark.parametrize(
    ("written", "same_patient"),
    [
        ("Mr MAX agreed.", True),  # a common word after a title is a name
        ("Discussed with Dr. Stone.", False),  # after a title, in another patient's notes too
        ("PATIENT: LEE, ANN", False),  # short words in capitals next to a name
        ("Son Al called.", True),  # a two-letter name next to the same word as when tagged
        ("Transferred from HH.", True),  # a two-letter hospital after a place word
        ("HOPE COLLIER seen.", False),  # a whole name in capitals
        ("PATIENT: HOPE.", True),  # a common word alone after a label, in capitals
        ("PATIENT: LEE", True),  # a given name is no clinical abbreviation
        ("MRN N1307666 on file.", False),  # an ID compared on its digits, letter prefix kept
        ("Please call 1035 tomorrow.", True),  # a short extension after a telephone word
        ("Reviewed by Dr. Cormack-Lehane today.", False),  # after a title it is the name
        ("Handover from Day, Rob.", False),  # a very common word next to a name of the corpus
        ("Seen at Balanville clinic.", True),  # a rare name inside a word that is no word
    ],
)
def test_the_same_strings_as_names_are_still_caught(written: str, same_patient: bool) -> None:
    other = note("500-02" if same_patient else "600-01", written)
    assert found(other), written


def test_a_removed_tag_is_caught_when_the_string_is_tagged_elsewhere() -> None:
    second = note("500-02", "Follow-up: Hope Collier is better.")  # the annotator missed it here
    assert found(second) == [("500-02", "unreplaced text")]
