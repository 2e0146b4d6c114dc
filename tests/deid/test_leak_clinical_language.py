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
