"""Whole leak records (output note, source tag, type, rule, offsets) for the leak check's
candidate forms: names in capitals and token by token, e-mail user names, short numbers kept
to their own patient, several findings in one note and overlapping findings."""

from __future__ import annotations

from annotator.core.document import Document
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


def span(text: str, part: str) -> tuple[int, int]:
    start = text.index(part)
    return start, start + len(part)


SEEN = note("400-01", "Seen by ", ("Dr. Hendrickson", "DOCTOR"), " with ", ("Ora Quist", "PATIENT"), ".")
REPLACED = note("400-01", "Seen by ", ("Dr. Mallory", "DOCTOR"), " with ", ("Ann Bell", "PATIENT"), ".")
UNREPLACED = "unreplaced text"


def test_a_whole_name_in_capitals_is_one_finding_with_its_tag() -> None:
    text = "Letter to DR. HENDRICKSON and ORA QUIST today."
    other = note("401-01", text)
    assert records([SEEN, note("401-01", "x")], [REPLACED, other]) == [
        ("401-01", "400-01", "P0", "DOCTOR", UNREPLACED, *span(text, "DR. HENDRICKSON")),
        ("401-01", "400-01", "P1", "PATIENT", UNREPLACED, *span(text, "ORA QUIST")),
    ]


def test_a_rare_name_token_is_found_in_any_case_a_common_one_only_as_written() -> None:
    original = note("400-01", "Seen by ", ("Ora Quist", "PATIENT"), " and ", ("Dr. Summers", "DOCTOR"), ".")
    replaced = note("400-01", "Seen by ", ("Ann Bell", "PATIENT"), " and ", ("Dr. Hale", "DOCTOR"), ".")
    text = "quist came; the summers wait; Summers called; SUMMERS again; QUIST."
    other = note("401-01", text)
    assert records([original, note("401-01", "x")], [replaced, other]) == [
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, 0, len("quist")),
        ("401-01", "400-01", "P1", "DOCTOR", UNREPLACED, *span(text, "Summers")),
        ("401-01", "400-01", "P1", "DOCTOR", UNREPLACED, *span(text, "SUMMERS")),
        ("401-01", "400-01", "P0", "PATIENT", UNREPLACED, *span(text, "QUIST")),
    ]


def test_an_email_user_name_alone_is_a_leak() -> None:
    original = note("400-01", "Mail ", ("jquistberg@example.org", "EMAIL"), ".")
    replaced = note("400-01", "Mail ", ("amallory@example.net", "EMAIL"), ".")
    text = "User jquistberg logged in."
    other = note("401-01", text)
    assert records([original, note("401-01", "x")], [replaced, other]) == [
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
