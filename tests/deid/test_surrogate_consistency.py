"""One real name or place, one surrogate per patient, however the notes punctuate or case it;
two different ones never merged."""

from __future__ import annotations

import random

import pytest

from annotator.core.document import Document
from annotator.deid.export import deidentify_documents
from annotator.deid.names import NameMapper, name_key
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note

# Synthetic names, none of a real patient.
SPELLINGS = ["O'Quelling", "O’Quelling", "OQUELLING", "Oquelling", "O QUELLING", "o quelling", "O-Quelling"]


def surrogates(*documents: Document, seed: int = 5) -> dict[str, list[str]]:
    """Each original tag text (as written) with the surrogates it got, in order."""
    result = deidentify_documents(list(documents), DeidOptions(seed=seed))
    found: dict[str, list[str]] = {}
    for items in result.replaced.values():
        for item in items:
            found.setdefault(item.original.text, []).append(item.new.text)
    return found


def test_name_key_ignores_case_apostrophes_hyphens_blanks_and_diacritics() -> None:
    assert len({name_key(s) for s in SPELLINGS}) == 1
    assert name_key("Nuñez") == name_key("NUNEZ")
    assert name_key("[**Known lastname 12**]") != name_key("[**Known lastname 13**]")


def test_one_name_in_any_spelling_gets_one_surrogate_in_its_own_case() -> None:
    pieces: list[str | tuple[str, str]] = ["Seen by "]
    for spelling in SPELLINGS:
        pieces += [("Dr. " + spelling, "DOCTOR"), " today; "]
    found = surrogates(note("410-01", *pieces))
    made = {spelling: found["Dr. " + spelling][0].removeprefix("Dr. ") for spelling in SPELLINGS}
    assert len({m.lower() for m in made.values()}) == 1, made
    surrogate = made["O'Quelling"]
    assert surrogate.lower() != "oquelling"
    assert made["OQUELLING"] == made["O QUELLING"] == surrogate.upper()
    assert made["o quelling"] == surrogate.lower()


def test_spellings_in_different_notes_of_one_patient_agree() -> None:
    first = note("411-01", "Pt ", ("Ann-Marie Bweightonse", "PATIENT"), " admitted.")
    second = note("411-02", "Pt ", ("ann-marie bweighton se", "PATIENT"), " stable.")
    third = note("411-03", "Spoke with ", ("MR. BWEIGHTON SE", "PATIENT"), ".")
    found = surrogates(first, second, third)
    whole = found["Ann-Marie Bweightonse"][0].split()[-1]
    assert found["ann-marie bweighton se"][0] == found["Ann-Marie Bweightonse"][0].lower()
    assert found["MR. BWEIGHTON SE"][0] == "MR. " + whole.upper()


def test_a_split_name_is_read_whole_only_within_one_tag() -> None:
    # "O" and "Quelling" tagged apart: each tag keeps its own replacement (an initial and a
    # surname), never one tag emptied and the other given the whole name.
    mapper = NameMapper(random.Random(2))
    mapper.learn("O'Quelling")
    tokens = mapper.replace_tokens("O Quelling", tags=[(0, 1), (2, 10)])
    assert [(start, end) for start, end, _ in tokens] == [(0, 1), (2, 10)]
    whole = mapper.replace_tokens("O Quelling", tags=[(0, 10)])
    assert [(start, end) for start, end, _ in whole] == [(0, 10)]
    assert whole[0][2] == mapper.replace("O'Quelling")


@pytest.mark.parametrize("seed", range(6))
def test_different_names_keep_different_surrogates(seed: int) -> None:
    # "Al Bright" and "Albright" are not joined unless the patient writes the joined form;
    # "O Quelling" (an initial and a surname) stays apart from a patient's "Quelling".
    document = note(
        "412-01", "Pt ", ("Al Bright", "PATIENT"), " and Dr. ", ("Quelling", "DOCTOR"),
        " and ", ("O. Quelling", "DOCTOR"), " and ", ("Dr. Zarnowicz", "DOCTOR"), ".",
    )  # fmt: skip
    found = surrogates(document, seed=seed)
    bright = found["Al Bright"][0].split()[-1]
    quelling = found["Quelling"][0]
    assert found["O. Quelling"][0].endswith(" " + quelling)
    assert len({bright, quelling, found["Dr. Zarnowicz"][0].split()[-1]}) == 3
