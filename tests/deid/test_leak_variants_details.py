"""Whole leak records of the rules for PHI written another way (annotator.deid.leak_variants):
numbers by their digits, dates by value, names inside longer words, untagged ages over 89,
short names and extensions next to the words of a tagged occurrence."""

from __future__ import annotations

from annotator.core.document import Document
from annotator.core.english import zipf
from annotator.deid.findings import Leak
from annotator.deid.leak_variants import (
    dates_written_another_way,
    names_inside_words,
    reformatted_numbers,
    short_tokens_in_context,
    untagged_old_ages,
)
from tests.deid.builders import note


def at(document: Document, part: str, occurrence: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(occurrence + 1):
        start = document.text.index(part, start + 1)
    return start, start + len(part)


def test_a_number_written_another_way_is_found_by_its_digits() -> None:
    original = note(
        "400-01", "Call ", ("(555) 019-9222", "PHONE"), " or ", ("555 019 9222", "PHONE"), "; MRN ",
        ("#N1307666", "MEDICALRECORD"), "; ID ", ("123456", "IDNUM"), ".",
    )  # fmt: skip
    output = note(
        "401-01", "Dial 555.019.9222, chart N1307666, ref 123456, tagged ", ("555-019-9222", "PHONE"), "."
    )
    rule = "number written another way"
    assert reformatted_numbers([original], [output]) == [
        Leak("401-01", "400-01", "P0", "PHONE", rule, *at(output, "555.019.9222")),
        Leak("401-01", "400-01", "P2", "MEDICALRECORD", rule, *at(output, "N1307666")),
    ]
    assert reformatted_numbers([note("400-01", "No numbers.")], [output]) == []


def test_seven_digits_are_enough_six_are_not() -> None:
    original = note("400-01", "ID ", ("1234567", "IDNUM"), " and ", ("765432", "IDNUM"), ".")
    output = note("401-01", "Refs 123-4567 and 765-432.")
    assert reformatted_numbers([original], [output]) == [
        Leak("401-01", "400-01", "P0", "IDNUM", "number written another way", *at(output, "123-4567"))
    ]


def test_a_date_written_another_way_in_the_same_patients_notes() -> None:
    original = note("400-01", "Seen ", ("03/04/2061", "DATE"), ".")
    same = note("400-02", "Recall: March 4, 2061; Tue, 4 Mar 2061; 2061-03-05; ", ("03/04/2061", "DATE"), ".")
    other = note("401-01", "Recall: March 4, 2061.")
    rule = "date written another way"
    assert dates_written_another_way([original], [same, other]) == [
        Leak("400-02", "400-01", "P0", "DATE", rule, *at(same, "March 4, 2061")),
        Leak("400-02", "400-01", "P0", "DATE", rule, *at(same, "Tue, 4 Mar 2061")),
    ]
    assert dates_written_another_way([note("400-01", "No dates.")], [same]) == []


def test_a_rare_name_inside_a_longer_word() -> None:
    original = note(
        "400-01", "Patient ", ("Quist Grimbleton", "PATIENT"), " and ", ("Zorp Balan", "DOCTOR"), "."
    )
    output = note(
        "401-01",
        "From Grimbletonville to newquist via Zorpville; balance fine; Grimbleton; Quistgrimbleton.",
    )
    rule = "name inside a longer word"
    assert names_inside_words([original], [output]) == [
        Leak("401-01", "400-01", "P0", "PATIENT", rule, *at(output, "Grimbletonville")),
        Leak("401-01", "400-01", "P0", "PATIENT", rule, *at(output, "newquist")),
        Leak("401-01", "400-01", "P0", "PATIENT", rule, *at(output, "Quistgrimbleton")),
    ]
    assert names_inside_words([note("400-01", "No names.")], [output]) == []


def test_untagged_ages_over_89() -> None:
    output = note(
        "401-01",
        "A 93 yo man; aged 95; 89 yo; 120-year-old; aged ",
        ("90", "AGE"),
        "; ",
        ("91", "AGE"),
        " y/o.",
    )
    rule = "untagged age over 89"
    assert untagged_old_ages([output]) == [
        Leak("401-01", "401-01", "", "AGE", rule, *at(output, "93")),
        Leak("401-01", "401-01", "", "AGE", rule, *at(output, "95")),
        Leak("401-01", "401-01", "", "AGE", rule, *at(output, "120")),
    ]


def test_short_tokens_next_to_the_words_of_a_tagged_occurrence() -> None:
    original = note(
        "400-01", "Seen with her son ", ("Al", "PATIENT"), " today at ", ("HH", "HOSPITAL"), "; bleep ",
        ("1035", "PHONE"), "; ID ", ("45", "IDNUM"), "; ", ("Jo", "PATIENT"), " Quist.",
    )  # fmt: skip
    output = note(
        "400-02",
        "Called son Al. Al level normal. Mr Al came. Moved from HH. HH protocol. Call 1035. 1035 cells."
        " At 45 min. Jo Quist.",
    )
    other = note("401-01", "Called son Al. Moved from HH.")
    rule = "short name or ID in the same context"
    assert short_tokens_in_context([original], [output, other]) == [
        Leak("400-02", "400-01", "P0", "PATIENT", rule, *at(output, "Al")),
        Leak("400-02", "400-01", "P0", "PATIENT", rule, *at(output, "Al", 2)),
        Leak("400-02", "400-01", "P1", "HOSPITAL", rule, *at(output, "HH")),
        Leak("400-02", "400-01", "P2", "PHONE", rule, *at(output, "1035")),
        Leak("400-02", "400-01", "P4", "PATIENT", rule, *at(output, "Jo")),
    ]
    assert short_tokens_in_context([note("400-01", "Nobody.")], [output]) == []


def test_only_phone_numbers_and_ids_are_compared_by_digits() -> None:
    original = note("400-01", "Seen ", ("2061-03-04", "DATE"), ".")
    output = note("401-01", "Lot 2061-03-04 used.")
    assert reformatted_numbers([original], [output]) == []


def test_a_date_like_string_that_is_no_date_is_skipped() -> None:
    original = note("400-01", "Seen ", ("03/04/2061", "DATE"), ".")
    same = note("400-02", "Codes 13/45/2061 and 99.99.2061; seen March 4, 2061.")
    assert dates_written_another_way([original], [same]) == [
        Leak("400-02", "400-01", "P0", "DATE", "date written another way", *at(same, "March 4, 2061"))
    ]


def test_common_names_and_dictionary_words_are_not_searched_inside_words() -> None:
    assert zipf("breslin") == 2.5  # the threshold for a rare name
    # Miller (Zipf 4.5), Aldrich (3.0) and Breslin (2.5) are too common; Balan (2.27) is rare, but
    # "balancing" (3.8) is a word of its own.
    original = note(
        "400-01",
        "Seen by ",
        ("Dr. Miller", "DOCTOR"),
        ", ",
        ("Dr. Aldrich", "DOCTOR"),
        ", ",
        ("Dr. Balan", "DOCTOR"),
        ", ",
        ("Dr. Breslin", "DOCTOR"),
    )
    output = note("401-01", "Millerton, Aldrichville, Breslinton and balancing; Balanville.")
    assert names_inside_words([original], [output]) == [
        Leak("401-01", "400-01", "P2", "DOCTOR", "name inside a longer word", *at(output, "Balanville"))
    ]


def test_short_tokens_by_kind_and_position_in_their_tag() -> None:
    original = note(
        "400-01", "Seen ", ("03/04/2061", "DATE"), " with her son ", ("Ora Al", "PATIENT"), " and ",
        ("Ida de Vos", "PATIENT"), "; bleep ", ("103", "PHONE"), "; ID ", ("4821", "IDNUM"), "; card ",
        ("45", "IDNUM"), ".",
    )  # fmt: skip
    output = note(
        "400-02", "Called son Ora Al. Met Ida de Vos. Call 103. ID 4821 again. From 4821 on. Card 45 ok."
    )
    rule = "short name or ID in the same context"
    assert short_tokens_in_context([original], [output]) == [
        Leak("400-02", "400-01", "P1", "PATIENT", rule, *at(output, "Al")),
        Leak("400-02", "400-01", "P3", "PHONE", rule, *at(output, "103")),
        Leak("400-02", "400-01", "P4", "IDNUM", rule, *at(output, "4821")),
    ]


def test_no_word_before_or_after_is_no_shared_context() -> None:
    original = note("400-01", ("Al", "PATIENT"), " came with ", ("Bo", "PATIENT"))
    output = note("400-02", "Al level normal; tell Bo")
    assert short_tokens_in_context([original], [output]) == []
