"""Places and names as nursing notes write them (issue 29): generic place tags in capitals or
in parts, hospital abbreviations, first names of nurses and relatives.

Every note here is written for the test in the style of ICU nursing notes; none is real.
"""

from __future__ import annotations

import random
import re

import pytest

from annotator.core.document import Document
from annotator.deid.export import DeidResult, deidentify_documents
from annotator.deid.lists import first_names, is_first_name, load_list
from annotator.deid.name_slots import slot_of
from annotator.deid.place_phrases import PlaceMapper, place_class, tokens
from annotator.deid.places import abbreviation_like, abbreviations, institution_like
from annotator.deid.surrogates import DeidOptions
from tests.deid.builders import note, texts_by_type

LOC = "LOCATION-OTHER"
HOSPITALS = {h.lower() for h in load_list("hospital_names")}
CITIES = {c.lower() for c in load_list("cities")}
LAST_NAMES = {n.lower() for n in load_list("last_names")}


def run(*documents: Document, seed: int = 5) -> DeidResult:
    return deidentify_documents(list(documents), DeidOptions(seed=seed))


def places_of(result: DeidResult, doc_id: str) -> list[str]:
    return texts_by_type(next(d for d in result.documents if d.doc_id == doc_id), "LOCATION-OTHER")


def names_of(result: DeidResult, doc_id: str, type_: str) -> list[str]:
    return texts_by_type(next(d for d in result.documents if d.doc_id == doc_id), type_)


@pytest.mark.parametrize("seed", range(6))
def test_all_caps_hospitals_get_listed_names_in_capitals(seed: int) -> None:
    document = note(
        "601-01", "PT. IS A 80 Y/O MALE ADMITTED FROM ", ("UNION", "LOCATION-OTHER"), " HOSP. FOR UNSTABLE ANGINA. ",
        "NO URINE OUTPUT FROM ", ("HRBOR", "LOCATION-OTHER"), " HOSP.) PLAN: TRANSFER TO ",
        ("QUARTERMAIN", "LOCATION-OTHER"), " 2 IN AM.",
    )  # fmt: skip
    result = run(document, seed=seed)
    for new in places_of(result, "601-01"):
        assert new.isupper() and new.lower() in HOSPITALS, new


def test_the_same_place_keeps_its_surrogate_in_every_case_and_note() -> None:
    first = note("602-01", "PLAN: TRANSFER TO ", ("QUARTERMAIN", "LOCATION-OTHER"), " 2 TODAY.")
    second = note("602-02", "transfer to ", ("quartermain", "LOCATION-OTHER"), " 2 in am. ", ("Quartermain", "LOCATION-OTHER"), " 5.")  # fmt: skip
    result = run(first, second)
    upper = places_of(result, "602-01")[0]
    assert upper.isupper() and upper.lower() in HOSPITALS
    assert places_of(result, "602-02") == [upper.lower(), upper.capitalize()]


def test_a_place_in_parts_becomes_a_listed_name_of_as_many_words() -> None:
    document = note(
        "603-01", "69 yo male transferred from ", ("Good", "LOCATION-OTHER"), " ", ("Sam", "LOCATION-OTHER"),
        " s/p MI. Husband just started new job in ", ("Bel", "LOCATION-OTHER"), " ", ("Air", "LOCATION-OTHER"), ".",
    )  # fmt: skip
    result = run(document)
    good, sam, bel, air = places_of(result, "603-01")
    assert f"{good} {sam}".lower() in HOSPITALS
    assert f"{bel} {air}".lower() in CITIES


def test_a_town_after_home_in_and_a_hospital_before_rehab() -> None:
    document = note(
        "604-01", "husband (who is home in ", ("Hagerstown", "LOCATION-OTHER"), ") through the night. ",
        "Discharge to ", ("Baltimore Rehab", "LOCATION-OTHER"), " tomorrow. per ", ("U Maryland", "LOCATION-OTHER"), " scale.",
    )  # fmt: skip
    result = run(document)
    town, rehab, scale = places_of(result, "604-01")
    assert town.lower() in CITIES
    name, kept = rehab.rsplit(" ", 1)
    assert kept == "Rehab" and name.lower() in HOSPITALS
    letter, state = scale.split(" ", 1)
    assert letter == "U" and state != "Maryland" and state in {s.split("|")[0] for s in load_list("states")}


@pytest.mark.parametrize("seed", range(6))
def test_an_abbreviation_becomes_the_initials_of_a_listed_name_the_same_in_every_note(seed: int) -> None:
    first = note("605-01", "TRANSFERED TO ", ("GH", "LOCATION-OTHER"), " FOR FURTHER EVAL.")
    second = note("605-02", "blasts on diff at ", ("GH", "LOCATION-OTHER"), ".. no growth on ", ("GH", "LOCATION-OTHER"), " cx")  # fmt: skip
    result = run(first, second, seed=seed)
    new = places_of(result, "605-01")[0]
    assert places_of(result, "605-02") == [new, new]
    assert re.fullmatch(r"[A-Z]{2}", new) and new != "GH"
    full_names = abbreviations()[new]
    assert all(
        name.split()[0].lower() in HOSPITALS or " ".join(name.split()[:2]).lower() in HOSPITALS
        for name in full_names
    )
    notes = [r.note or "" for r in result.replaced["605-01"]]
    assert len(notes) == 1 and notes[0].startswith("an abbreviation: the initials of a listed hospital name")


def test_hospital_acronyms_are_never_random_capitals() -> None:
    for seed in range(20):
        acronym = institution_like("MGH", random.Random(seed))
        assert acronym in abbreviations() and acronym != "MGH"
        made = abbreviation_like("OSH", random.Random(seed))
        assert made is not None and made[0] in abbreviations() and made[1] in abbreviations()[made[0]]


def test_a_place_tag_of_type_words_only_is_replaced_by_another_type_word() -> None:
    document = note("606-01", "d/c'd to ", ("Lindenfeld", "LOCATION-OTHER"), " ", ("Memorial", "LOCATION-OTHER"), " rehab.")  # fmt: skip
    result = run(document)
    name, kind = places_of(result, "606-01")
    assert name.lower() in HOSPITALS
    assert kind != "Memorial" and kind.lower() in {"general", "regional", "community", "university", "county"}


def test_place_roles_and_classes() -> None:
    assert [t.role for t in tokens("U Maryland")] == ["letter", "state"]
    assert [t.role for t in tokens("quartermain2")] == ["name", "number"]
    assert [t.role for t in tokens("GH")] == ["abbreviation"]
    assert [t.role for t in tokens("UNION", capitals_line=True)] == ["name"]
    assert place_class("Kessler", "accepted from ", " Medical Center") == "facility"
    assert place_class("Edgemere", "lives in homeless shelter in ", " area.") == "city"
    mapper = PlaceMapper(random.Random(1))
    again = PlaceMapper(random.Random(1))
    assert (
        mapper.replace("Greater Baltimore", "from ", " Med Ctr")[0]
        == again.replace("Greater Baltimore", "from ", " Med Ctr")[0]
    )


def test_a_relatives_first_name_stays_a_first_name() -> None:
    document = note(
        "607-01", "SOCIAL: Pt's daughter ", ("Clara", "PATIENT"), " called. Son, ", ("Ed", "PATIENT"), ", was updated. ",
        "The pts wife, ", ("Tomasa", "PATIENT"), " ", ("Sandberg", "PATIENT"), " called.",
    )  # fmt: skip
    result = run(document)
    clara, ed, tomasa, sandberg = names_of(result, "607-01", "PATIENT")
    female = {n.lower() for n in first_names("female")}
    assert clara.lower() in female and tomasa.lower() in female
    assert is_first_name(ed) and ed.lower() in {n.lower() for n in first_names("male")}
    assert sandberg.lower() in LAST_NAMES and not is_first_name(sandberg)


def test_nurses_by_first_name_and_doctors_by_surname() -> None:
    document = note(
        "608-01", "TUBE MANIPULATED PER NP ", ("CAROL", "DOCTOR"), ". FEBRILE NP ", ("JEN", "DOCTOR"), " AWARE. ",
        "HCT 23 (DR. ", ("GERTRUDE", "DOCTOR"), " AWARE). r dp difficult to doppler. ", ("grace", "DOCTOR"), " ",
        ("dudak", "DOCTOR"), " aware.",
    )  # fmt: skip
    result = run(document)
    carol, jen, gertrude, grace, dudak = names_of(result, "608-01", "DOCTOR")
    assert carol.isupper() and is_first_name(carol)
    assert jen.isupper() and jen.lower() in LAST_NAMES  # a name after NP, not three initials
    assert gertrude.isupper() and gertrude.lower() in LAST_NAMES
    assert grace.islower() and is_first_name(grace)
    assert dudak.islower() and dudak.lower() in LAST_NAMES and not is_first_name(dudak)


@pytest.mark.parametrize(
    ("word", "before", "slot"),
    [
        ("Clara", "Pt's daughter ", "first"), ("Wolfe", "PER NP ", "last"), ("CAROL", "PER NP ", "first"),
        ("GERTRUDE", "(DR. ", "last"), ("Rob", "has one son ", "first"), ("Joellen", "SOCIAL-wife(?) ", "first"),
    ],
)  # fmt: skip
def test_slot_of_a_one_word_name(word: str, before: str, slot: str) -> None:
    assert slot_of(word, before)[0] == slot


@pytest.mark.parametrize("seed", range(6))
def test_type_words_tagged_apart_never_become_another_of_the_patients_places(seed: int) -> None:
    document = note(
        "609-01", "TRANSFERRED FROM ", ("UNIVERSITY", LOC), " ", ("OF", LOC), " ", ("MD", LOC),
        " MEDICAL CENTER. PRESENTED TO ", ("COUNTY", LOC), " ", ("GENERAL", LOC), " ON ARRIVAL.",
    )  # fmt: skip
    result = run(document, seed=seed)
    university, of, state, county, general = places_of(result, "609-01")
    assert of == "OF"  # a connector alone names nothing
    assert state != "MD" and re.fullmatch(r"[A-Z]{2}", state)
    own = {"university", "of", "md", "county", "general"}
    for new in (university, county, general):
        assert new.isupper() and new.lower() not in own


@pytest.mark.parametrize("seed", range(4))
def test_a_place_read_as_a_town_in_one_note_and_a_hospital_in_another_keeps_one_surrogate(seed: int) -> None:
    # "from LISBON" reads as a hospital, "lives in Lisbon" as a town: still one place of the
    # patient's, so one surrogate (two would make a reader see two places).
    first = note("609-01", "Her brother lives in ", ("Lisbon", "LOCATION-OTHER"), ", will visit.")
    second = note("609-02", "BROTHER DRIVING DOWN FROM ", ("LISBON", "LOCATION-OTHER"), " IN AM.")
    third = note("609-03", "Came from ", ("Oakhurst", "LOCATION-OTHER"), " Hospital; labs drawn at ",
                 ("OAKHURST", "LOCATION-OTHER"), " before transfer.")  # fmt: skip
    result = run(first, second, third, seed=seed)
    assert places_of(result, "609-02") == [places_of(result, "609-01")[0].upper()]
    hospital, alone = places_of(result, "609-03")
    assert alone == hospital.upper()
