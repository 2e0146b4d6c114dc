"""Leak-check and date-shift cases that planted bugs once slipped past: ages over 90,
numbers of five digits across patients, ordinal suffixes of shifted days."""

from __future__ import annotations

import pytest

from annotator.deid.dates import DateShift, parse_date, shift_date
from annotator.deid.leakcheck import LeakCheckOptions, find_leaks
from tests.deid.builders import note


def wheres(originals: list, outputs: list, options: LeakCheckOptions | None = None) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    return [(leak.doc_id, leak.rule) for leak in find_leaks(originals, outputs, options)]


@pytest.mark.parametrize(("age", "leaks"), [("93", True), ("91", True), ("90", False), ("89", False)])
def test_an_age_over_90_repeated_as_its_surrogate_is_a_leak(age: str, leaks: bool) -> None:
    original = note("400-01", "A ", (age, "AGE"), " year old man.")
    output = note("400-01", "A ", (age, "AGE"), " year old man.")
    expected = [("400-01", "surrogate repeats the patient's original")] if leaks else []
    assert wheres([original], [output]) == expected


def test_an_age_over_90_in_free_text_is_not_a_leak() -> None:
    original = note("400-01", "A ", ("93", "AGE"), " year old man.")
    output = note("400-01", "A ", ("90", "AGE"), " year old man, pulse 93.")
    assert wheres([original], [output]) == []


@pytest.mark.parametrize(("number", "leaks"), [("48213", True), ("482137", True), ("4821", False)])
def test_numbers_of_five_digits_are_looked_for_in_other_patients(number: str, leaks: bool) -> None:
    original = note("400-01", "MRN ", (number, "MEDICALRECORD"), ".")
    surrogate = note("400-01", "MRN ", ("7731", "MEDICALRECORD"), ".")
    other = note("401-01", f"Lab ref {number} pending.")
    expected = [("401-01", "unreplaced text")] if leaks else []
    assert wheres([original, other], [surrogate, other]) == expected


def test_the_digit_threshold_is_an_option() -> None:
    original = note("400-01", "MRN ", ("4821", "MEDICALRECORD"), ".")
    surrogate = note("400-01", "MRN ", ("7731", "MEDICALRECORD"), ".")
    other = note("401-01", "Lab ref 4821 pending.")
    options = LeakCheckOptions(min_digits_anywhere=4)
    assert wheres([original, other], [surrogate, other], options) == [("401-01", "unreplaced text")]


@pytest.mark.parametrize(
    ("original", "days", "shifted"),
    [
        ("March 1st, 2067", 12, "March 13th, 2067"),
        ("March 1st, 2067", 10, "March 11th, 2067"),
        ("March 1st, 2067", 11, "March 12th, 2067"),
        ("March 1st, 2067", 22, "March 23rd, 2067"),
        ("March 1st, 2067", 1, "March 2nd, 2067"),
        ("March 2nd, 2067", 19, "March 21st, 2067"),
        ("March 2nd, 2067", 1, "March 3rd, 2067"),
        ("March 3rd, 2067", 1, "March 4th, 2067"),
        ("March 3rd, 2067", 28, "March 31st, 2067"),
        ("March 13TH, 2067", 9, "March 22ND, 2067"),
    ],
)
def test_ordinal_suffix_of_a_shifted_day(original: str, days: int, shifted: str) -> None:
    parsed = parse_date(original)
    assert parsed is not None
    assert shift_date(parsed, DateShift(0, 0, days, days)) == shifted


def records(originals: list, outputs: list) -> list[dict[str, str | int]]:  # type: ignore[type-arg]
    return [leak.to_dict() for leak in find_leaks(originals, outputs)]


def test_leaks_are_reported_whole_and_in_order() -> None:
    original = note(
        "400-01", "Seen by ", ("Dr. Hendrickson", "DOCTOR"), " with ", ("Ora Quist", "PATIENT"), "."
    )
    output_b = note("401-01", "QUIST called; Hendrickson agreed.")
    output_a = note(
        "400-01", "Seen by ", ("Dr. Mallory", "DOCTOR"), " with ", ("Ann Bell", "PATIENT"), ". Quist."
    )
    found = [
        (
            leak["doc_id"],
            leak["source_doc_id"],
            leak["tag_id"],
            leak["type"],
            leak["rule"],
            leak["start"],
            leak["end"],
        )
        for leak in records([original, note("401-01", "x")], [output_b, output_a])
    ]
    quist = len("Seen by Dr. Mallory with Ann Bell. ")
    hendrickson = len("QUIST called; ")
    assert found == [
        ("400-01", "400-01", "P1", "PATIENT", "unreplaced text", quist, quist + len("Quist")),
        ("401-01", "400-01", "P1", "PATIENT", "unreplaced text", 0, len("QUIST")),
        (
            "401-01",
            "400-01",
            "P0",
            "DOCTOR",
            "unreplaced text",
            hendrickson,
            hendrickson + len("Hendrickson"),
        ),
    ]


def test_age_leak_record() -> None:
    original = note("400-01", "A ", ("93", "AGE"), " year old.")
    assert records([original], [original]) == [
        {
            "doc_id": "400-01",
            "source_doc_id": "400-01",
            "tag_id": "P0",
            "type": "AGE",
            "rule": "surrogate repeats the patient's original",
            "start": len("A "),
            "end": len("A 93"),
            "original_start": len("A "),
            "original_end": len("A 93"),
        }
    ]


def test_a_name_matches_in_its_own_case_or_capitals_only() -> None:
    original = note("400-01", "Seen by ", ("Dr. Summers", "DOCTOR"), ".")
    surrogate = note("400-01", "Seen by ", ("Dr. Mallory", "DOCTOR"), ".")
    for text, leaks in (
        ("Summers", True),
        ("SUMMERS", True),
        ("summers", False),
        ("the summers were hot", False),
    ):
        other = note("401-01", text)
        found = [(leak.doc_id, leak.rule) for leak in find_leaks([original, other], [surrogate, other])]
        assert found == ([("401-01", "unreplaced text")] if leaks else []), text


def test_a_multi_word_phrase_matches_from_its_first_token() -> None:
    original = note("400-01", "Works at ", ("Springfield Medical Center", "HOSPITAL"), ".")
    surrogate = note("400-01", "Works at ", ("Lakeside Clinic", "HOSPITAL"), ".")
    cases = {
        "Springfield Medical Center called": True,
        "springfield medical center called": True,  # not a name: case-insensitive
        "Medical Center called": False,
        "Springfield Medical called": False,
    }
    for text, leaks in cases.items():
        other = note("401-01", text)
        found = [(leak.doc_id, leak.rule) for leak in find_leaks([original, other], [surrogate, other])]
        assert found == ([("401-01", "unreplaced text")] if leaks else []), text


def test_a_common_word_profession_is_not_looked_for_but_a_rare_one_is() -> None:
    for profession, leaks in (("teacher", False), ("ichthyologist", True)):
        original = note("400-01", "Works as ", (profession, "PROFESSION"), ".")
        surrogate = note("400-01", "Works as ", ("clerk", "PROFESSION"), ".")
        other = note("401-01", f"The {profession} came.")
        found = [(leak.doc_id, leak.rule) for leak in find_leaks([original, other], [surrogate, other])]
        assert found == ([("401-01", "unreplaced text")] if leaks else []), profession
