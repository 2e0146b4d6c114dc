"""The leak check does not alarm on clinical language that shares a string with PHI, and
still reports the same strings where they are the person."""

from __future__ import annotations

import pytest

from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import find_leaks
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note

PHI = note(
    "100-01",
    "Seen by Dr. ",
    ("Tom Blake", "DOCTOR"),
    ". Works at ",
    ("Staples", "ORGANIZATION"),
    ". Patient ",
    ("Ann Long", "PATIENT"),
    "; nurse ",
    ("Mac Nash", "DOCTOR"),
    ". Symptoms since the ",
    ("70s", "DATE"),
    ".",
)


def _leaks(other_text: str, same_patient: bool = False) -> list[str]:
    other = note("100-02" if same_patient else "200-01", other_text)
    result = deidentify_documents([PHI, other], DeidOptions(seed=5))
    return [leak.type for leak in find_leaks([PHI, other], result.documents) if leak.doc_id == other.doc_id]


@pytest.mark.parametrize(
    "clinical",
    [
        "A 15 Fr Blake drain was placed.",  # eponym: a head noun follows the surname
        "Wound closed with staples.",  # an organization that is a dictionary word, in lower case
        "Long-standing hypertension.",  # a common word joined to the next by a hyphen
        "Anesthesia: Spinal with MAC.",  # a clinical abbreviation in capitals
        "NASH cirrhosis on biopsy.",
        "NSR 70s-80s on telemetry.",  # a decade as a measurement, in another patient
        "Nash equilibrium was mentioned.",
    ],
)
def test_clinical_language_is_not_a_leak(clinical: str) -> None:
    assert _leaks(clinical) == []


@pytest.mark.parametrize(
    ("text", "type_"),
    [
        ("Dr. Blake called back.", "DOCTOR"),  # the surname as a name
        ("Spoke to MAC NASH today.", "DOCTOR"),  # the whole name in capitals
        ("Bought supplies at Staples.", "ORGANIZATION"),  # as written
        ("Long was seen today.", "PATIENT"),  # sentence start, but the patient's own record
    ],
)
def test_the_same_strings_as_names_are_still_leaks(text: str, type_: str) -> None:
    assert type_ in _leaks(text, same_patient=True)


@pytest.mark.parametrize(
    ("original", "type_", "written"),
    [
        ("(555) 019-9222", "PHONE", "Call back on 555-019-9222 please."),  # digits, other punctuation
        ("MR 4471 9023", "MEDICALRECORD", "MRN 44719023 on file."),
        ("Grimbleton", "PATIENT", "Mrs grimbleton was anxious."),  # a rare surname in lower case
    ],
)
def test_reformatted_and_recased_phi_is_caught(original: str, type_: str, written: str) -> None:
    source = note("300-01", "Contact: ", (original, type_), ".")
    other = note("300-02", written)
    result = deidentify_documents([source, other], DeidOptions(seed=2))
    found = [leak for leak in find_leaks([source, other], result.documents) if leak.doc_id == "300-02"]
    assert [leak.type for leak in found] == [type_]


@pytest.mark.parametrize("written", ["A 93 yo woman.", "She is aged 93 and frail.", "A 101-year-old man."])
def test_an_untagged_age_over_89_is_caught(written: str) -> None:
    document = note("300-03", written)
    result = deidentify_documents([document], DeidOptions(seed=2))
    assert [leak.rule for leak in find_leaks([document], result.documents)] == ["untagged age over 89"]


@pytest.mark.parametrize("written", ["A 45 yo woman.", "Weighs 93 kg.", "Aged 89 years."])
def test_ages_up_to_89_and_other_numbers_are_not_ages_over_89(written: str) -> None:
    document = note("300-04", written)
    result = deidentify_documents([document], DeidOptions(seed=2))
    assert find_leaks([document], result.documents) == []


@pytest.mark.parametrize(
    "written",
    ["Seen again on March 4, 2061.", "Follow-up Tue, 4 Mar 2061.", "Labs 2061-03-04 normal."],
)
def test_a_tagged_date_written_another_way_is_caught(written: str) -> None:
    source = note("300-01", "Admitted ", ("03/04/2061", "DATE"), ".")
    other = note("300-02", written)  # the same patient's next record
    result = deidentify_documents([source, other], DeidOptions(seed=2))
    found = [leak.rule for leak in find_leaks([source, other], result.documents) if leak.doc_id == "300-02"]
    assert found == ["date written another way"]


def test_the_same_date_in_another_patient_is_a_coincidence_not_a_leak() -> None:
    source = note("300-01", "Admitted ", ("03/04/2061", "DATE"), ".")
    other = note("301-01", "Seen again on March 4, 2061.")
    result = deidentify_documents([source, other], DeidOptions(seed=2))
    assert [leak for leak in find_leaks([source, other], result.documents) if leak.doc_id == "301-01"] == []


@pytest.mark.parametrize(
    ("original", "type_", "written"),
    [
        ("Grimbleton", "PATIENT", "Referred by Grimbletonville clinic."),
        ("q.zebulon@example.org", "EMAIL", "Login by q.zebulon noted."),
    ],
)
def test_a_distinctive_name_in_a_longer_word_and_an_email_user_are_caught(
    original: str, type_: str, written: str
) -> None:
    source = note("300-01", "Contact: ", (original, type_), ".")
    other = note("300-02", written)
    result = deidentify_documents([source, other], DeidOptions(seed=2))
    found = [leak for leak in find_leaks([source, other], result.documents) if leak.doc_id == "300-02"]
    assert [leak.type for leak in found] == [type_]
