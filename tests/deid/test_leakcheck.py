"""The leak check: planted leaks are caught, ordinary vocabulary is not a leak."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import LeakCheckOptions, find_leaks, leak_error
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note


def leaks_of(*documents: Document, options: LeakCheckOptions | None = None) -> list[tuple[str, str]]:
    result = deidentify_documents(list(documents), DeidOptions(seed=1))
    return [(leak.doc_id, leak.rule) for leak in find_leaks(documents, result.documents, options)]


def test_clean_export_has_no_leak() -> None:
    document = note("400-01", "Patient ", ("John Smith", "PATIENT"), " seen ", ("05/03/2067", "DATE"), ".")
    assert leaks_of(document) == []


def test_untagged_occurrence_is_caught() -> None:
    planted = note("400-01", "Patient ", ("John Smith", "PATIENT"), " seen. Smith called back.")
    assert leaks_of(planted) == [("400-01", "unreplaced text")]


@pytest.mark.parametrize(
    ("tagged", "left"),
    [
        ("Ann O'Brien", "O\u2019Brien"),  # a word processor's apostrophe
        ("Mary Kelleher", "Mary\u00a0Kelleher"),  # a no-break space
        ("Hollis-Baptiste", "Hollis\u2011Baptiste"),  # a no-break hyphen
    ],
)
def test_a_name_left_with_a_lookalike_character_is_caught(tagged: str, left: str) -> None:
    planted = note("400-01", "Seen by ", (tagged, "DOCTOR"), ". Plan discussed with ", left, " today.")
    found = find_leaks([planted], deidentify_documents([planted], DeidOptions(seed=1)).documents)
    start = planted.text.index(left)
    # Found where it was left, as written (the check reads look-alikes as ASCII, offsets unmoved).
    assert found and all(
        start <= leak.original_start < leak.original_end <= start + len(left) for leak in found
    )


def test_untagged_occurrence_in_another_patient_is_caught() -> None:
    first = note("400-01", "Seen by ", ("Dr. Hendrickson", "DOCTOR"), ".")
    second = note("401-01", "Discussed with Hendrickson.")
    assert leaks_of(first, second) == [("401-01", "unreplaced text")]


def test_capitals_are_caught() -> None:
    planted = note("400-01", "Patient ", ("Ora Hendrickson", "PATIENT"), ". HENDRICKSON, ORA")
    # One finding per place, so masking or reviewing them misses none.
    assert leaks_of(planted) == [("400-01", "unreplaced text")] * 2


@pytest.mark.parametrize(
    "text",
    ["Foley catheter removed.", "Has brown stool.", "Room 232 cleaned; platelets 232.", "Seen on Monday."],
)
def test_vocabulary_is_not_a_leak(text: str) -> None:
    first = note(
        "400-01", ("Mr. Foley", "PATIENT"), ", ", ("Dr. Brown", "DOCTOR"), ", room ", ("232", "ROOM"),
        ", ", ("Monday", "DATE"), ".",
    )  # fmt: skip
    assert leaks_of(first, note("401-01", text)) == []


def test_name_outside_eponym_is_a_leak() -> None:
    first = note("400-01", ("Mr. Foley", "PATIENT"), " admitted. Foley catheter placed; Foley agreed.")
    assert leaks_of(first) == [("400-01", "unreplaced text")]


def test_surrogate_equal_to_original_is_caught() -> None:
    original = note("400-01", "MRN ", ("4471234", "MEDICALRECORD"), ".")
    unchanged = note("400-01", "MRN ", ("4471234", "MEDICALRECORD"), ".")
    leaks = find_leaks([original], [unchanged])
    assert [(leak.doc_id, leak.rule) for leak in leaks] == [
        ("400-01", "surrogate repeats the patient's original")
    ]
    other_patient = note("401-01", "MRN ", ("4471234", "MEDICALRECORD"), ".")
    leaks = find_leaks([original], [other_patient])
    assert [leak.rule for leak in leaks] == ["surrogate repeats another patient's original"]


@pytest.mark.parametrize("vague", ["mid-October", "early 2067", "the 1960s", "end of summer"])
def test_a_date_vaguer_than_a_month_or_year_is_no_leak(vague: str) -> None:
    # A shift of a few days leaves "mid-October" as it was: like "October" alone, it names no
    # day of a year, so its surviving the shift discloses nothing.
    original = note("400-01", "MI ", (vague, "DATE"), ".")
    assert find_leaks([original], [note("400-01", "MI ", (vague, "DATE"), ".")]) == []


def test_a_vague_date_with_a_day_or_month_of_a_year_is_still_checked() -> None:
    original = note("400-01", "MI ", ("early October 2067", "DATE"), ".")
    unchanged = note("400-01", "MI ", ("early October 2067", "DATE"), ".")
    assert [leak.rule for leak in find_leaks([original], [unchanged])] == [
        "surrogate repeats the patient's original"
    ]


def test_min_length_and_ignore_are_configurable() -> None:
    planted = note("400-01", ("Bo Li", "PATIENT"), " seen; Li called.")
    assert leaks_of(planted) == []
    assert leaks_of(planted, options=LeakCheckOptions(min_length=2)) == [("400-01", "unreplaced text")]
    assert leaks_of(planted, options=LeakCheckOptions(min_length=2, ignore=frozenset({"li"}))) == []


def test_error_names_documents_not_text() -> None:
    planted = note("400-01", "Patient ", ("Ora Hendrickson", "PATIENT"), " seen. Hendrickson called.")
    result = deidentify_documents([planted], DeidOptions())
    message = leak_error(find_leaks([planted], result.documents)).one_line()
    assert "400-01" in message and "Hendrickson" not in message


@pytest.mark.parametrize(
    "second",
    [
        note("400-02", "Plan discussed.\nHendrickson called back."),  # the same patient
        note("401-01", "Plan discussed.\nHendrickson called back."),  # another patient
        note("400-02", "Called:\r\nHendrickson"),  # a CRLF line break, at the very end
    ],
    ids=["same-patient", "other-patient", "crlf-at-end"],
)
def test_a_name_right_after_a_line_break_is_caught(second: Document) -> None:
    first = note("400-01", "Patient ", ("Ora Hendrickson", "PATIENT"), " seen.")
    result = deidentify_documents([first, second], DeidOptions(seed=1))
    found = [leak for leak in find_leaks([first, second], result.documents) if leak.doc_id == second.doc_id]
    start = second.text.index("Hendrickson")
    assert [(leak.start, leak.end) for leak in found] == [(start, start + len("Hendrickson"))]


def test_a_surname_common_only_as_a_surname_is_found_in_any_case_in_its_patients_notes() -> None:
    # wordfreq counts "Garcia" and "Patel" among English words (Zipf 3.9, 3.5) because people
    # are called so: the check took them for words and let "garcia agrees" through.
    first = note(
        "400-01",
        "Patient ",
        ("Maria Garcia", "PATIENT"),
        " seen. Dr. ",
        ("Raj Patel", "DOCTOR"),
        ".\ngarcia agrees with plan. patel paged.",
    )
    found = find_leaks([first], deidentify_documents([first], DeidOptions(seed=1)).documents)
    assert sorted(first.text[leak.original_start : leak.original_end] for leak in found) == [
        "garcia",
        "patel",
    ]
    # In another patient's notes the word stays a word, as "summers" or "colon" would.
    other = note("401-01", "Pt spends summers with garcia relatives; patel not involved.")
    found = find_leaks([first, other], deidentify_documents([first, other], DeidOptions(seed=1)).documents)
    assert {leak.doc_id for leak in found} == {"400-01"}
