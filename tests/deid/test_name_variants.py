"""The leak check finds a tagged name left glued into another string, in the plural, or in a
double surname, and leaves alone the words and eponyms such strings look like."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import find_leaks
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note


def found_in(planted: Document, left: str, *others: Document) -> list[str]:
    """The strings found leaking at or after ``left`` in ``planted``, as written there."""
    documents = [planted, *others]
    outputs = deidentify_documents(documents, DeidOptions(seed=1)).documents
    start = planted.text.index(left)
    return [
        planted.text[leak.original_start : leak.original_end]
        for leak in find_leaks(documents, outputs)
        if leak.source_doc_id == planted.doc_id
        and leak.doc_id == planted.doc_id
        and leak.original_start >= start
    ]


@pytest.mark.parametrize(
    ("name", "left", "leaked"),
    [
        ("Maria Garcia", "e-mail MariaGarcia@mail.example today", "MariaGarcia"),
        ("Maria Garcia", "e-mail mgarcia@mail.example today", "mgarcia"),
        ("Maria Garcia", "e-mail garcia.maria@mail.example today", "garcia.maria"),
        ("Ora Hendrickson", "scan saved as hendrickson_ora.pdf", "hendrickson_ora"),
        ("Ora Hendrickson", "login hendrickson99 used", "hendrickson"),
        ("Ora Hendrickson", "The Hendricksons visited.", "Hendricksons"),
        ("Ora Hendrickson", "the Hendricksons' house", "Hendricksons"),
        ("Maria Garcia", "THE GARCIAS VISITED.", "GARCIAS"),
        ("Ora Hendrickson", "Mrs. Hendrickson-Smith visited.", "Hendrickson"),
        ("Maria Garcia", "Mrs. Garcia-Lopez visited.", "Garcia"),
        # Diacritics dropped, as many record systems write a name.
        ("José Nuñez", "Spoke with NUNEZ today.", "NUNEZ"),
        ("José Nuñez", "Spoke with Jose Nunez today.", "Jose Nunez"),
        ("Jürgen Strauß", "Spoke with Strauss today.", "Strauss"),
        ("Nguyễn Thị Hoa", "Spoke with Nguyen today.", "Nguyen"),
        ("José Nuñez", "e-mail jnunez@mail.example today", "jnunez"),
        ("Paweł Łukasiewicz", "Spoke with Lukasiewicz today.", "Lukasiewicz"),
        ("Ayşe Işık", "Spoke with ISIK today.", "ISIK"),
        # Left with diacritics the tag did not have, as another system writes the name.
        ("Jose Nunez", "Spoke with Nuñez today.", "Nuñez"),
        ("Jose Nunez", "SPOKE WITH JOSÉ NUÑEZ TODAY.", "JOSÉ NUÑEZ"),
        ("Ayse Celik", "Spoke with ÇELİK today.", "ÇELİK"),  # Turkish capitals: a dotted İ
        ("Ayşe Çelik", "Spoke with ÇELİK today.", "ÇELİK"),
        # Decomposed Unicode: a letter and a combining mark, as some exports write accents.
        ("José Nuñez", "Spoke with Nun\u0303ez today.", "Nun\u0303ez"),
        ("José Nuñez", "Spoke with Jose\u0301 Nun\u0303ez today.", "Jose\u0301 Nun\u0303ez"),
        ("Jose\u0301 Nun\u0303ez", "Spoke with Nuñez today.", "Nuñez"),
        # Characters nobody sees, left inside a name by a word processor or a web page.
        ("Ora Hendrickson", "Spoke with Hen\u00addrickson today.", "Hen\u00addrickson"),
        (
            "Ora Hendrickson",
            "Spoke with Ora\u200b Hendr\u200bickson\ufeff today.",
            "Ora\u200b Hendr\u200bickson",
        ),
        ("Ora Hendrickson", "Spoke with HENDRICK\u200dSON today.", "HENDRICK\u200dSON"),
    ],
)
def test_a_name_left_inside_another_string_is_caught(name: str, left: str, leaked: str) -> None:
    planted = note("400-01", "Patient ", (name, "PATIENT"), " seen.\n", left)
    assert found_in(planted, left) == [leaked]


@pytest.mark.parametrize(
    ("name", "left"),
    [
        ("Ed Walker", "The Walkers visited."),  # the plural of a word is that word
        ("Ann Brown", "Browns and greens in the stool."),
        ("Dr. Cormack", "Cormack-Lehane grade 2 view."),  # an eponym before its head noun
        ("Dr. Mallory", "Mallory-Weiss tear seen."),
        ("Ann Stokes", "Cheyne-Stokes respirations overnight."),
        ("Ann Chiari", "Arnold-Chiari malformation."),
        ("Ann Bence", "Bence-Jones protein negative."),
        ("Ann Argyll", "Argyll-Robertson pupils."),
        ("Ann Schonlein", "Henoch-Schonlein purpura."),
        ("Ann Barr", "Epstein-Barr virus IgG positive."),
        ("Ed Stone", "Long-standing hypertension, LONG-STANDING."),
        ("Al Ng", "Anglo patient, angle 30."),  # too short to stand for "a" + "ng"
        ("John Stent", "s/p 2 stents placed, check lytes."),  # words of clinical notes
        ("Ann Lyte", "Stents patent, check lytes in am."),
    ],
)
def test_words_and_eponyms_that_look_like_it_are_left_alone(name: str, left: str) -> None:
    planted = note("400-01", "Patient ", (name, "PATIENT"), " seen.\n", left)
    assert found_in(planted, left) == []


def test_a_surname_counted_as_a_word_is_looked_for_in_the_plural_in_its_patients_notes_only() -> None:
    # wordfreq counts "Garcia" as a word because people are called so: its plural is the
    # family in the patient's notes, and left alone in another patient's.
    first = note("400-01", "Patient ", ("Maria Garcia", "PATIENT"), " seen.\n", "the garcias called")
    other = note("401-01", "Neighbours, the garcias, called.")
    outputs = deidentify_documents([first, other], DeidOptions(seed=1)).documents
    found = find_leaks([first, other], outputs)
    assert [(leak.doc_id, leak.rule) for leak in found] == [("400-01", "name in the plural")]


def test_a_rare_name_glued_to_a_handle_is_caught_in_another_patients_notes() -> None:
    first = note("400-01", "Seen by ", ("Dr. Ora Hendrickson", "DOCTOR"), ".")
    second = note("401-01", "Paged ohendrickson@clinic.example about the plan.")
    outputs = deidentify_documents([first, second], DeidOptions(seed=1)).documents
    found = find_leaks([first, second], outputs)
    assert [(leak.doc_id, leak.rule, second.text[leak.start : leak.end]) for leak in found] == [
        ("401-01", "name glued to other text", "ohendrickson")
    ]


def test_a_name_without_its_diacritics_as_a_surrogate_is_a_leak_only_in_its_own_patients_notes() -> None:
    # Another patient's surrogate "Nguyen" is a census name like any other; the patient's own
    # surrogate "Nguyen" for a tagged "Nguyễn" gives the name back.
    first = note("400-01", "Patient ", ("Nguyễn Hoa", "PATIENT"), " seen.")
    second = note("401-01", "Patient ", ("Mai Tran", "PATIENT"), " seen.")
    outputs = [
        note("400-01", "Patient ", ("Nguyen Lan", "PATIENT"), " seen."),
        note("401-01", "Patient ", ("Nguyen Lan", "PATIENT"), " seen."),
    ]
    found = find_leaks([first, second], outputs)
    assert [(leak.doc_id, leak.rule) for leak in found] == [
        ("400-01", "surrogate repeats the patient's original")
    ]


def test_decomposed_accents_before_a_leak_keep_its_place_in_the_note() -> None:
    # Composing the note shortens it; the place found is given back in the note as written.
    planted = note(
        "400-01",
        "Patient ",
        ("Ora Hendrickson", "PATIENT"),
        " seen.\n",
        "Cafe\u0301 au lait spots. Hendrickson called.",
    )
    assert found_in(planted, "Cafe") == ["Hendrickson"]


def test_a_name_with_diacritics_as_another_patients_surrogate_is_a_census_name_not_a_leak() -> None:
    first = note("400-01", "Patient ", ("Hoa Nguyen", "PATIENT"), " seen.")
    second = note("401-01", "Patient ", ("Mai Tran", "PATIENT"), " seen.")
    outputs = [
        note("400-01", "Patient ", ("Lan Nguyễn", "PATIENT"), " seen."),
        note("401-01", "Patient ", ("Lan Nguyễn", "PATIENT"), " seen."),
    ]
    found = find_leaks([first, second], outputs)
    assert [(leak.doc_id, leak.rule) for leak in found] == [
        ("400-01", "surrogate repeats the patient's original")
    ]
