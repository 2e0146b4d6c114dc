"""Whole leak records (output note, source tag, type, rule, offsets) for the leak check's
candidate forms: names in capitals and token by token, e-mail user names, short numbers kept
to their own patient, several findings in one note and overlapping findings."""

from __future__ import annotations

from annotator.core.document import Document
from annotator.core.english import zipf
from annotator.deid.leakcheck import LeakCheckOptions, find_leaks
from tests.deid.builders import note

Record = tuple[str, str, str, str, str, int, int]


def records(
    originals: list[Document], outputs: list[Document], options: LeakCheckOptions | None = None
) -> list[Record]:
    return [
        (leak.doc_id, leak.source_doc_id, leak.tag_id, leak.type, leak.rule, leak.start, leak.end)
        for leak in find_leaks(originals, outputs, options)
    ]


def found_in(
    text: str,
    original: Document,
    replaced: Document,
    doc_id: str = "401-01",
    options: LeakCheckOptions | None = None,
) -> list[Record]:
    """The findings when a note ``doc_id`` reads ``text`` untagged, beside a de-identified note."""
    return records([original, note(doc_id, "x")], [replaced, note(doc_id, text)], options)


def span(text: str, part: str) -> tuple[int, int]:
    start = text.index(part)
    return start, start + len(part)


SEEN = note("400-01", "Seen by ", ("Dr. Hendrickson", "DOCTOR"), " with ", ("Ora Quist", "PATIENT"), ".")
REPLACED = note("400-01", "Seen by ", ("Dr. Mallory", "DOCTOR"), " with ", ("Ann Bell", "PATIENT"), ".")
UNREPLACED = "unreplaced text"


def test_a_whole_name_in_capitals_is_one_finding_with_its_tag() -> None:
    text = "Letter to DR. HENDRICKSON and ORA QUIST today."
    assert found_in(text, SEEN, REPLACED) == [
        ("401-01", "400-01", "P0", "DOCTOR", UNREPLACED, *span(text, "DR. HENDRICKSON")),
        ("401-01", "400-01", "P1", "PATIENT", UNREPLACED, *span(text, "ORA QUIST")),
    ]


def test_a_rare_name_token_is_found_in_any_case_a_common_one_only_as_written() -> None:
    original = note("400-01", "Seen by ", ("Ora Quist", "PATIENT"), " and ", ("Dr. Summers", "DOCTOR"), ".")
    replaced = note("400-01", "Seen by ", ("Ann Bell", "PATIENT"), " and ", ("Dr. Hale", "DOCTOR"), ".")
    text = "quist came; the summers wait; Summers called; SUMMERS again; QUIST."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, 0, len("quist")),
        ("401-01", "400-01", "P1", "DOCTOR", UNREPLACED, *span(text, "Summers")),
        ("401-01", "400-01", "P1", "DOCTOR", UNREPLACED, *span(text, "SUMMERS")),
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, *span(text, "QUIST")),
    ]


def test_an_email_user_name_alone_is_a_leak() -> None:
    original = note("400-01", "Mail ", ("jquistberg@example.org", "EMAIL"), ".")
    replaced = note("400-01", "Mail ", ("amallory@example.net", "EMAIL"), ".")
    text = "User jquistberg logged in."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "EMAIL", UNREPLACED, *span(text, "jquistberg")),
    ]


def test_a_short_number_is_looked_for_among_its_own_patients_surrogates_only() -> None:
    original = note("400-01", "Room ", ("4821", "ROOM"), ".")
    again = note("400-02", "Moved from ", ("7731", "ROOM"), ".")
    kept = note("400-01", "Room ", ("4821", "ROOM"), ".")
    later = note("400-02", "Moved from ", ("4821", "ROOM"), "; lab 4821 done")
    other = note("401-01", "Room ", ("4821", "ROOM"), "; ref 4821.")
    originals = [original, again, note("401-01", "Room ", ("9921", "ROOM"), "; ref 4821.")]
    text = later.text
    assert records(originals, [kept, later, other]) == [
        (
            "400-01",
            "400-01",
            "P0",
            "ROOM",
            "surrogate repeats the patient's original",
            *span(kept.text, "4821"),
        ),
        ("400-02", "400-01", "P0", "ROOM", "surrogate repeats the patient's original", *span(text, "4821")),
    ]


def test_overlapping_findings_become_one_place_with_the_first_record() -> None:
    original = note(
        "400-01", "Patient ", ("Ora Hendrickson", "PATIENT"), " at ", ("Hendrickson Clinic", "HOSPITAL"), "."
    )
    replaced = note(
        "400-01", "Patient ", ("Ann Bell", "PATIENT"), " at ", ("Lakeside Clinic", "HOSPITAL"), "."
    )
    text = "Note: Ora Hendrickson Clinic visit. Quiet day. Hendrickson Clinic again."
    other = note("401-01", text)
    first = text.index("Ora")
    second = text.index("Hendrickson Clinic again")
    assert records([original, note("401-01", "x")], [replaced, other]) == [
        # "Ora Hendrickson" (widest at its start) grows to cover "Hendrickson Clinic"
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, first, first + len("Ora Hendrickson Clinic")),
        ("401-01", "400-01", "P1", "HOSPITAL", UNREPLACED, second, second + len("Hendrickson Clinic")),
    ]


OTHER = note("401-01", "x")


def test_a_phrase_is_found_after_a_partial_one_in_the_same_note() -> None:
    original = note("400-01", "Works at ", ("Springfield Medical Center", "HOSPITAL"), ".")
    replaced = note("400-01", "Works at ", ("Lakeside Clinic", "HOSPITAL"), ".")
    text = "Springfield Mall, then Springfield Medical Center."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "HOSPITAL", UNREPLACED, *span(text, "Springfield Medical Center")),
    ]


def test_a_name_is_case_sensitive_as_a_whole_and_a_rare_token_is_not() -> None:
    original = note("400-01", "Patient ", ("Hope Quist", "PATIENT"), "; ", ("Dr. Hendrickson", "DOCTOR"), ".")
    replaced = note("400-01", "Patient ", ("Ann Bell", "PATIENT"), "; ", ("Dr. Mallory", "DOCTOR"), ".")
    text = "hope quist came; dr. hendrickson too."
    # Only the rare tokens: "hope quist" and "dr. hendrickson" in lower case are not the names.
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, *span(text, "quist")),
        ("401-01", "400-01", "P1", "DOCTOR", UNREPLACED, *span(text, "hendrickson")),
    ]


def test_a_name_with_an_apostrophe_is_matched_as_written_or_in_capitals() -> None:
    # Not rare only because it is not alphabetic: "o'quinlan" is no English word at all.
    assert zipf("o'quinlan") < 3.0
    original = note("400-01", "Patient ", ("Ann O'Quinlan", "PATIENT"), ".")
    replaced = note("400-01", "Patient ", ("Ida Bell", "PATIENT"), ".")
    text = "Seen o'quinlan; O'QUINLAN called."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, *span(text, "O'QUINLAN")),
    ]


def test_a_name_surrogate_that_repeats_an_original_token_or_the_name_in_capitals() -> None:
    original = note(
        "400-01", "Seen by ", ("Dr. Hendrickson", "DOCTOR"), " with ", ("Ora Quist", "PATIENT"), "."
    )
    later = note(
        "400-02", "Seen by ", ("DR. HENDRICKSON", "DOCTOR"), " with ", ("Quist Mallory", "PATIENT"), "."
    )
    rule = "surrogate repeats the patient's original"
    assert records([original, note("400-02", "x")], [REPLACED, later]) == [
        ("400-02", "400-01", "P0", "DOCTOR", rule, *span(later.text, "DR. HENDRICKSON")),
        ("400-02", "400-01", "P1", "PATIENT", rule, *span(later.text, "Quist")),
    ]


def test_an_email_user_name_of_four_characters_in_any_case_and_as_a_surrogate() -> None:
    original = note("400-01", "Mail ", ("jqst@example.org", "EMAIL"), ", ", ("abc@example.org", "EMAIL"), ".")
    replaced = note("400-01", "Mail ", ("zz@example.net", "EMAIL"), ", ", ("yy@example.net", "EMAIL"), ".")
    later = note("400-02", "Mail ", ("jqst", "EMAIL"), ".")
    text = "User JQST and abc logged in."
    other = note("401-01", text)
    assert records([original, note("400-02", "x"), OTHER], [replaced, later, other]) == [
        (
            "400-02",
            "400-01",
            "P0",
            "EMAIL",
            "surrogate repeats the patient's original",
            *span(later.text, "jqst"),
        ),
        ("401-01", "400-01", "P0", "EMAIL", UNREPLACED, *span(text, "JQST")),
    ]


def test_the_user_name_is_what_comes_before_the_first_at_sign() -> None:
    original = note("400-01", "Mail ", ("jquistberg@relay@example.org", "EMAIL"), ".")
    replaced = note("400-01", "Mail ", ("amallory@example.net", "EMAIL"), ".")
    text = "User jquistberg logged in."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "EMAIL", UNREPLACED, *span(text, "jquistberg")),
    ]


def test_an_age_over_90_tagged_with_its_unit_is_not_looked_for_in_free_text() -> None:
    original = note("400-01", "Aged ", ("93 years", "AGE"), ", friend ", ("Ora Quist", "PATIENT"), ".")
    replaced = note("400-01", "Aged ", ("90 years", "AGE"), ", friend ", ("Ann Bell", "PATIENT"), ".")
    text = "Was 93 years then; Quist visited."
    assert found_in(text, original, replaced, "400-02") == [
        ("400-02", "400-01", "P1", "PATIENT", UNREPLACED, *span(text, "Quist")),
    ]


def test_strings_of_exactly_the_minimum_length_are_looked_for_after_shorter_ones() -> None:
    original = note("400-01", "Son ", ("Al", "PATIENT"), " at ", ("Xol", "ORGANIZATION"), ".")
    replaced = note("400-01", "Son ", ("Bo", "PATIENT"), " at ", ("Ryn", "ORGANIZATION"), ".")
    text = "Works at Xol now."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P1", "ORGANIZATION", UNREPLACED, *span(text, "Xol")),
    ]


def test_dates_that_name_no_day_are_not_looked_for_but_full_dates_are() -> None:
    original = note(
        "400-01", "Seen ", ("Christmas", "DATE"), ", ", ("summer 2067", "DATE"), ", ", ("March 3, 2067", "DATE"),
        " by ", ("Ora Quist", "PATIENT"), ".",
    )  # fmt: skip
    replaced = note(
        "400-01", "Seen ", ("Easter", "DATE"), ", ", ("spring 2066", "DATE"), ", ", ("May 9, 2066", "DATE"),
        " by ", ("Ann Bell", "PATIENT"), ".",
    )  # fmt: skip
    later_text = "Merry Christmas; back in summer 2067; Quist came."
    later = note("400-02", later_text)
    text = "Seen March 3, 2067."
    other = note("401-01", text)
    assert records([original, note("400-02", "x"), OTHER], [replaced, later, other]) == [
        ("400-02", "400-01", "P3", "PATIENT", UNREPLACED, *span(later_text, "Quist")),
        ("401-01", "400-01", "P2", "DATE", UNREPLACED, *span(text, "March 3, 2067")),
    ]


def test_generic_departments_and_common_professions_are_not_looked_for() -> None:
    original = note(
        "400-01", "In ", ("Cardiology", "DEPARTMENT"), " at ", ("Hendrickson Wing", "DEPARTMENT"), "; a ",
        ("teacher", "PROFESSION"), " and ", ("school teacher", "PROFESSION"), "; ", ("Ora Quist", "PATIENT"), ".",
    )  # fmt: skip
    replaced = note(
        "400-01", "In ", ("Oncology", "DEPARTMENT"), " at ", ("Mallory Wing", "DEPARTMENT"), "; a ",
        ("clerk", "PROFESSION"), " and ", ("bus driver", "PROFESSION"), "; ", ("Ann Bell", "PATIENT"), ".",
    )  # fmt: skip
    text = "Cardiology saw the teacher, a school teacher, in Hendrickson Wing; Quist."
    assert found_in(text, original, replaced, "400-02") == [
        ("400-02", "400-01", "P3", "PROFESSION", UNREPLACED, *span(text, "school teacher")),
        ("400-02", "400-01", "P1", "DEPARTMENT", UNREPLACED, *span(text, "Hendrickson Wing")),
        ("400-02", "400-01", "P4", "PATIENT", UNREPLACED, *span(text, "Quist")),
    ]


def test_a_name_particle_is_not_looked_for_alone() -> None:
    original = note("400-01", "Patient ", ("Ora van Quist", "PATIENT"), ".")
    replaced = note("400-01", "Patient ", ("Ann Bell", "PATIENT"), ".")
    text = "The van came; Quist."
    assert found_in(text, original, replaced, "400-02") == [
        ("400-02", "400-01", "P0", "PATIENT", UNREPLACED, *span(text, "Quist")),
    ]


def test_a_name_inside_a_medical_eponym_is_not_a_leak() -> None:
    original = note("400-01", "Patient ", ("Ora Barrett", "PATIENT"), " and ", ("Dr. Hodgkin", "DOCTOR"), ".")
    replaced = note("400-01", "Patient ", ("Ann Lee", "PATIENT"), " and ", ("Dr. Mallory", "DOCTOR"), ".")
    # Neither "esophagus" nor the end of a sentence reads as clinical language on its own.
    text = "Has Barrett esophagus, history of non-Hodgkin. Barrett came."
    assert found_in(text, original, replaced, "400-02") == [
        (
            "400-02",
            "400-01",
            "P0",
            "PATIENT",
            UNREPLACED,
            *span(text, "Barrett came")[:1],
            text.index(" came."),
        ),
    ]


def test_adjacent_findings_are_two_places() -> None:
    original = note("400-01", "Patient ", ("Ora Quist", "PATIENT"), " MRN ", ("#48213", "MEDICALRECORD"), ".")
    replaced = note("400-01", "Patient ", ("Ann Bell", "PATIENT"), " MRN ", ("#77310", "MEDICALRECORD"), ".")
    text = "Ref Quist#48213 pending."
    assert found_in(text, original, replaced) == [
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, *span(text, "Quist")),
        ("401-01", "400-01", "P1", "MEDICALRECORD", UNREPLACED, *span(text, "#48213")),
    ]


def test_a_patient_without_output_notes_is_no_error() -> None:
    original = note("402-01", "Room ", ("4821", "ROOM"), ".")
    assert records([original], [note("401-01", "Room 4821.")]) == []


def test_the_common_word_threshold_is_inclusive() -> None:
    # A profession exactly as frequent as the threshold is common, so it is not looked for.
    original = note("400-01", "A ", ("teacher", "PROFESSION"), ".")
    replaced = note("400-01", "A ", ("clerk", "PROFESSION"), ".")
    later = note("400-02", "The teacher came.")
    at_threshold = LeakCheckOptions(common_zipf=zipf("teacher"))
    above = LeakCheckOptions(common_zipf=zipf("teacher") + 0.01)
    assert records([original, note("400-02", "x")], [replaced, later], at_threshold) == []
    assert records([original, note("400-02", "x")], [replaced, later], above) == [
        ("400-02", "400-01", "P0", "PROFESSION", UNREPLACED, *span(later.text, "teacher")),
    ]


def test_ignored_strings_are_compared_whole() -> None:
    original = note("400-01", "Works at ", ("Springfield Medical Center", "HOSPITAL"), ".")
    replaced = note("400-01", "Works at ", ("Lakeside Clinic", "HOSPITAL"), ".")
    other = note("401-01", "Springfield Medical Center called.")
    options = LeakCheckOptions(ignore=frozenset({"springfield medical center"}))
    assert records([original, OTHER], [replaced, other], options) == []


def test_a_one_word_string_exactly_as_frequent_as_a_dictionary_word_is_matched_as_written() -> None:
    assert zipf("brookings") == 3.0  # the dictionary-word threshold
    original = note("400-01", "Works at ", ("Brookings", "ORGANIZATION"), ".")
    replaced = note("400-01", "Works at ", ("Lakeside", "ORGANIZATION"), ".")
    text = "Read the brookings report; Brookings called."
    assert found_in(text, original, replaced, "400-02") == [
        ("400-02", "400-01", "P0", "ORGANIZATION", UNREPLACED, *span(text, "Brookings")),
    ]
