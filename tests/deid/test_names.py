"""Name surrogates: consistent per patient over surface forms, gender, case, never a real name."""

from __future__ import annotations

import random

import pytest

from annotator.deid.lists import load_list, name_gender
from annotator.deid.names import NameMapper

FORBIDDEN = {"john", "smith", "mary", "ann", "lee"}


@pytest.fixture
def mapper() -> NameMapper:
    return NameMapper(random.Random(3), FORBIDDEN)


def test_surface_forms_share_one_surrogate(mapper: NameMapper) -> None:
    full = mapper.replace("John Smith")
    first, last = full.split()
    assert mapper.replace("Smith") == last
    assert mapper.replace("Smith, John") == f"{last}, {first}"
    assert mapper.replace("J. Smith") == f"{first[0]}. {last}"
    assert mapper.replace("JS") == first[0] + last[0]
    assert mapper.replace("Smith's") == f"{last}'s"
    assert mapper.replace("Dr. Smith") == f"Dr. {last}"
    assert mapper.replace("John Smith, MD") == f"{full}, MD"


@pytest.mark.parametrize(("original", "check"), [("SMITH", str.isupper), ("smith", str.islower)])
def test_case_is_kept(mapper: NameMapper, original: str, check: object) -> None:
    surrogate = mapper.replace(original)
    assert callable(check) and check(surrogate)
    assert surrogate.lower() == mapper.replace("Smith").lower()


def test_gender_follows_first_name_and_title(mapper: NameMapper) -> None:
    female = mapper.replace("Mary").lower()
    assert female in {n.lower() for n in load_list("first_names_female")}
    assert name_gender("Mary") == "female"
    by_title = mapper.replace("Mrs. Terry Lee").split()[1]
    assert by_title.lower() in {n.lower() for n in load_list("first_names_female")}


def test_original_names_never_reused() -> None:
    forbidden = {n.lower() for n in load_list("last_names")[:900]}
    mapper = NameMapper(random.Random(1), forbidden | FORBIDDEN)
    surrogates = {mapper.replace(f"Smith{i}").lower() for i in range(40)}
    assert not surrogates & forbidden
    assert len(surrogates) == 40  # distinct originals get distinct surrogates


def test_same_seed_same_surrogates() -> None:
    a = NameMapper(random.Random(9), FORBIDDEN).replace("Ann Lee")
    b = NameMapper(random.Random(9), FORBIDDEN).replace("Ann Lee")
    assert a == b and a != "Ann Lee"


def test_a_name_and_initials_in_the_next_sentence_are_two_people_not_one_name() -> None:
    from annotator.deid.export import deidentify_documents
    from annotator.deid.surrogates import DeidOptions
    from tests.deid.builders import note

    document = note(
        "500-01",
        "Patient ",
        ("John Quarrington", "PATIENT"),
        " follows with Dr. ",
        ("Zelda Ostrowski", "DOCTOR"),
        ". ",
        ("JQ", "PATIENT"),
        " initials. Also ",
        ("J. Quarrington", "PATIENT"),
        ".",
    )
    (out,) = deidentify_documents([document], DeidOptions(seed=3)).documents
    # "Ostrowski. JQ" was read as one name of three words: "JQ" became a first name (IRWIN).
    initials = next(a for a in out.annotations if a.start > out.text.index("Dr.") and len(a.text) == 2)
    assert initials.text.isupper() and initials.text.isalpha()
    first = next(a for a in out.annotations if a.type == "PATIENT" and " " in a.text and "." not in a.text)
    assert initials.text[0] == first.text[0]  # the same letter permutation as the name's
