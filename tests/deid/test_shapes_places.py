"""Shape-keeping surrogates (numbers, contacts) and list-based ones (places, professions)."""

from __future__ import annotations

import random
import re

import pytest

from annotator.deid import places, shapes
from annotator.deid.lists import load_list


def shape(text: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", text)))


@pytest.mark.parametrize("text", ["123-45-6789", "MRN 0012345", "BH4471-Z", "02114", "02114-2696"])
def test_ids_keep_format_first_digit_not_zero(text: str) -> None:
    rng = random.Random(2)
    for _ in range(20):
        new = shapes.id_like(text, rng)
        assert shape(new) == shape(text) and new != text
        assert re.search(r"\d", new).group() != "0"  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["(617) 555-1234", "617.555.1234", "+1 617 555 1234", "x4471"])
def test_phones_keep_format(text: str) -> None:
    new = shapes.phone_like(text, random.Random(5))
    assert shape(new) == shape(text)
    assert all(group[0] in "23456789" for group in re.findall(r"\d+", new))


def test_email_url_ip_username_keep_shape() -> None:
    rng = random.Random(8)
    email = shapes.email_like("john.smith@mgh.harvard.edu", rng)
    assert shape(email) == shape("john.smith@mgh.harvard.edu") and email.endswith(".edu")
    url = shapes.url_like("https://www.mgh.org/patients/jsmith", rng)
    assert (
        url.startswith("https://www.")
        and ".org/" in url
        and len(url) == len("https://www.mgh.org/patients/jsmith")
    )
    ip = shapes.ip_like("192.168.10.7", rng)
    assert [len(o) for o in ip.split(".")] == [3, 3, 2, 1] and all(0 <= int(o) <= 255 for o in ip.split("."))
    user = shapes.username_like("jsmith42", rng)
    assert shape(user) == shape("jsmith42") and user != "jsmith42"


def test_street_keeps_number_name_suffix_pattern() -> None:
    rng = random.Random(1)
    full = places.street_like("12 Main Street", rng)
    number, *name, suffix = full.split()
    assert len(number) == 2 and number[0] != "0" and name
    assert suffix in {s.split("|")[0] for s in load_list("street_suffixes")}
    short = places.street_like("4410 Fruit St.", rng)
    assert short.endswith(".") and len(short.split()[-1]) <= 5


def test_state_keeps_its_form() -> None:
    rng = random.Random(4)
    assert re.fullmatch(r"[A-Z]{2}", places.state_like("MA", rng))
    full = places.state_like("Massachusetts", rng)
    assert full != "Massachusetts" and len(full) > 2
    assert places.state_like("OHIO", rng).isupper()


def test_city_state_pair_and_country() -> None:
    rng = random.Random(6)
    city, state = places.city_like("Lexington, KY", rng).split(", ")
    assert city in load_list("cities") and re.fullmatch(r"[A-Z]{2}", state) and state != "KY"
    assert places.country_like("Uganda", rng) in load_list("countries")


@pytest.mark.parametrize(
    ("original", "generic"),
    [("Department for radiology, imaging, and oncology", "Radiology"), ("Bigelow 11", "Internal Medicine"),
     ("CARDIAC CATH LAB", "CARDIOLOGY")],
)  # fmt: skip
def test_departments_become_generic(original: str, generic: str) -> None:
    assert places.department_like(original) == generic


def test_institutions_keep_type_words_and_acronyms_shape() -> None:
    rng = random.Random(3)
    hospital = places.institution_like("Massachusetts General Hospital", rng)
    assert hospital.endswith("General Hospital") and not hospital.startswith("Massachusetts")
    acronym = places.institution_like("MGH", rng)
    assert re.fullmatch(r"[A-Z]{3}", acronym) and acronym != "MGH"
    company = places.institution_like("Acme Widgets Inc", rng, kind="organization")
    assert company.endswith(" Inc") and "Widgets" not in company


def test_profession_from_list_with_case() -> None:
    new = places.profession_like("Teacher", random.Random(2))
    assert new[0].isupper() and new.lower() in load_list("professions") and new != "Teacher"
