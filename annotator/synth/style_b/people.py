"""Style B's cast: one patient's people, places, numbers and record dates.

Names come from Faker's non-US person lists (en_GB, en_IE, en_NZ, en_IN, en_NG, en_KE), read as
plain tuples and drawn with our own seeded :class:`random.Random`, so the pinned Faker version
and the seed alone decide a corpus. One patient in four, and one clinician in four, gets a
surname that is also a common word (``vocab.WORD_SURNAMES``).
"""

from __future__ import annotations

import datetime as dt
import importlib
import random
from dataclasses import dataclass, field
from functools import cache

from annotator.synth.style_b import vocab
from annotator.synth.style_b.formats import make_id, make_phone_b

LOCALES = ("en_GB", "en_IE", "en_NZ", "en_IN", "en_NG", "en_KE")


@cache
def _names(locale: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
    return (
        _plain(provider.first_names_male),
        _plain(provider.first_names_female),
        _plain(provider.last_names),
    )


def _plain(words: object) -> tuple[str, ...]:
    """Single words of three letters or more (Faker lists are tuples, lists or weighted dicts)."""
    assert isinstance(words, tuple | list | dict)
    return tuple(w for w in words if isinstance(w, str) and w.isalpha() and len(w) > 2)


@dataclass(frozen=True)
class Named:
    first: str
    last: str
    middle: str = ""  # an initial or empty

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@dataclass(frozen=True)
class Staff:
    person: Named
    role: str  # "consultant", "registrar", "gp", "nurse", "radiologist", "pathologist"
    username: str
    bleep: str


@dataclass
class Cast:
    patient: Named
    sex: str  # "F" or "M"
    birth: dt.date
    region: str  # "uk", "au", "ca", "us": address and date conventions
    mrn: str
    phone: str
    email: str
    street: str
    town: str
    county: str
    county_abbr: str
    postcode: str
    country_of_birth: str
    profession: str
    employer: str
    hospital: str
    other_hospital: str
    staff: dict[str, Staff]
    next_of_kin: Named
    kin_relation: str
    kin_phone: str
    record_dates: list[dt.date] = field(default_factory=list)

    def age_on(self, day: dt.date) -> int:
        before = (day.month, day.day) < (self.birth.month, self.birth.day)
        return day.year - self.birth.year - before

    @property
    def dmy(self) -> bool:
        """Whether numeric dates are day-first for this patient's region."""
        return self.region != "us"


def make_named(rng: random.Random, sex: str, word_surname: float = 0.25) -> Named:
    males, females, lasts = _names(rng.choice(LOCALES))
    first = rng.choice(females if sex == "F" else males)
    last = rng.choice(vocab.WORD_SURNAMES) if rng.random() < word_surname else rng.choice(lasts)
    middle = rng.choice("ABCDEFGHJKLMNPRSTW") if rng.random() < 0.3 else ""
    return Named(first, last, middle)


def make_hospital_b(rng: random.Random) -> str:
    pattern = rng.choice(vocab.HOSPITAL_PATTERNS)
    filler = (
        rng.choice(vocab.SAINTS) if pattern.startswith(("St", "Our")) else rng.choice(vocab.HOSPITAL_PLACES)
    )
    return pattern.format(filler)


def _postcode(rng: random.Random, region: str) -> str:
    letters = "ABDEFGHJLNPQRSTUWXYZ"
    if region == "uk":
        return f"{rng.choice(letters)}{rng.choice(letters)}{rng.randint(1, 29)} {rng.randint(1, 9)}{rng.choice(letters)}{rng.choice(letters)}"
    if region == "ca":
        return f"{rng.choice(letters)}{rng.randint(0, 9)}{rng.choice(letters)} {rng.randint(0, 9)}{rng.choice(letters)}{rng.randint(0, 9)}"
    if region == "au":
        return str(rng.randint(2000, 7999))
    return f"{rng.randint(1000, 99999):05d}"


def _staff(rng: random.Random, role: str) -> Staff:
    person = make_named(rng, rng.choice("FM"))
    username = f"{person.first[:2]}{person.last[:3]}{rng.randint(1, 9)}".lower()
    return Staff(person, role, username, str(rng.randint(1000, 9999)))


def make_cast(rng: random.Random, records: int) -> Cast:
    sex = rng.choice("FM")
    patient = make_named(rng, sex)
    region = rng.choice(tuple(vocab.REGIONS))
    _, counties = vocab.REGIONS[region]
    county, county_abbr = rng.choice(counties)
    first_day = dt.date(rng.randint(2055, 2095), rng.randint(1, 12), rng.randint(1, 28))
    age = int(rng.triangular(19, 99, 70))
    birth = dt.date(first_day.year - age, rng.randint(1, 12), rng.randint(1, 28))
    dates = [first_day]
    for _ in range(records - 1):
        dates.append(dates[-1] + dt.timedelta(days=rng.randint(3, 400)))
    hospital = make_hospital_b(rng)
    other = make_hospital_b(rng)
    while other == hospital:
        other = make_hospital_b(rng)
    kin_sex = rng.choice("FM")
    kin = make_named(rng, kin_sex, word_surname=0.0)
    relation = rng.choice(
        ("daughter", "wife", "partner", "sister") if kin_sex == "F" else ("son", "husband", "brother")
    )
    handle = f"{patient.first[0]}{patient.last}{rng.randint(10, 99)}".lower()
    domain = rng.choice(("btinternet.co.uk", "bigpond.net.au", "eircom.net", "shaw.ca", "xtra.co.nz"))
    return Cast(
        patient=patient,
        sex=sex,
        birth=birth,
        region=region,
        mrn=make_id(rng, "MEDICALRECORD"),
        phone=make_phone_b(rng, region),
        email=f"{handle}@{domain}",
        street=f"{rng.randint(1, 240)} {rng.choice(vocab.STREET_NAMES)} {rng.choice(vocab.STREET_KINDS)}",
        town=rng.choice(vocab.TOWNS),
        county=county,
        county_abbr=county_abbr,
        postcode=_postcode(rng, region),
        country_of_birth=rng.choice(vocab.COUNTRIES),
        profession=rng.choice(vocab.PROFESSIONS),
        employer=rng.choice(vocab.ORGANISATION_PATTERNS).format(rng.choice(vocab.HOSPITAL_PLACES)),
        hospital=hospital,
        other_hospital=other,
        staff={
            role: _staff(rng, role)
            for role in ("consultant", "registrar", "gp", "nurse", "radiologist", "pathologist")
        },
        next_of_kin=Named(kin.first, kin.last if rng.random() < 0.5 else patient.last),
        kin_relation=relation,
        kin_phone=make_phone_b(rng, region),
        record_dates=dates,
    )
