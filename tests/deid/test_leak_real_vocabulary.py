"""Real notes: a surrogate that is also a word of the notes is a leak only where it reads as one.

The PhysioNet deid corpus names doctors Foley, small and white (in lower-case notes) and
places Heart; its notes say "Foley draining", "small amts", "HEART RATE" everywhere.
"""

from __future__ import annotations

import pytest

from annotator.deid.export import deidentify_documents
from annotator.deid.leakcheck import find_leaks
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note

ORIGINAL = note(
    "100-01",
    "seen by dr ",
    ("small", "DOCTOR"),
    " and Dr. ",
    ("Foley", "DOCTOR"),
    ". transfer from sacred ",
    ("heart", "LOCATION-OTHER"),
    " on the ",
    ("2nd", "DATE"),
    " of may.",
)


def _leaks(text: str, same_patient: bool) -> list[str]:
    other = note("100-02" if same_patient else "200-01", text)
    result = deidentify_documents([ORIGINAL, other], DeidOptions(seed=3))
    return [
        leak.type for leak in find_leaks([ORIGINAL, other], result.documents) if leak.doc_id == other.doc_id
    ]


@pytest.mark.parametrize("same_patient", [True, False])
@pytest.mark.parametrize(
    "text",
    [
        "GU: Foley draining clear yellow urine.",
        "GU: FOLEY TO GRAVITY. HEART RATE 80S.",
        "suctioned for small amts of thick secretions.",
        "heart rate in the 70s, new foley placed.",
        "rec'd 2nd unit of prbc.",
        "Foley catheter changed; via Foley cath.",
    ],
)
def test_the_clinicians_words_are_no_leak(text: str, same_patient: bool) -> None:
    assert _leaks(text, same_patient) == []


@pytest.mark.parametrize("same_patient", [True, False])
@pytest.mark.parametrize(
    ("text", "type_"),
    [
        ("plan discussed with dr small today.", "DOCTOR"),
        ("Spoke with Foley about the plan.", "DOCTOR"),
        ("PT SEEN BY DR FOLEY.", "DOCTOR"),
        ("Foley agreed with the plan.", "DOCTOR"),
    ],
)
def test_the_same_words_where_they_name_someone_are_leaks(text: str, type_: str, same_patient: bool) -> None:
    assert type_ in _leaks(text, same_patient)


@pytest.mark.parametrize(
    ("text", "type_"),
    [
        ("per small, continue lasix.", "DOCTOR"),
        ("PATIENT: SMALL.", "DOCTOR"),
        ("pt transferred from heart this am.", "LOCATION-OTHER"),
    ],
)
def test_in_the_patients_own_notes_a_cue_makes_a_common_word_a_leak(text: str, type_: str) -> None:
    # In another patient's notes a very common word without a title stays the word
    # (clinical_language.clinical_use); in the patient's own, the cue decides.
    assert type_ in _leaks(text, same_patient=True)
