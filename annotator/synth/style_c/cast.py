"""One style C patient's world: who they are, where they live, who treats them, their numbers.

Drawn once per patient, so every note of the patient names the same people, places and
identifiers (the longitudinal consistency the i2b2 2014 corpus has).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache

from faker import Faker

from annotator.synth.style_c import formats, lexicon
from annotator.synth.style_c.regions import REGIONS, Region


@cache
def _faker(locale: str) -> Faker:
    return Faker(locale)


def faker_for(locale: str, rng: random.Random) -> Faker:
    """The locale's Faker, reseeded from ``rng`` so that results depend on the seed only."""
    fake = _faker(locale)
    fake.seed_instance(rng.randrange(2**32))
    return fake


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    sex: str  # "F" or "M"

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    def form(self, rng: random.Random) -> str:
        """One way a chart prints a whole name (a single NAME tag)."""
        return rng.choice(
            (
                self.full,
                f"{self.last.upper()}, {self.first}",
                f"{self.last}, {self.first}",
                f"{self.first[0]}. {self.last}",
            )
        )

    @property
    def initials(self) -> str:
        return (self.first[0] + self.last[0]).lower()


@dataclass(frozen=True)
class Address:
    street: str
    city: str
    subdivision: str
    postcode: str
    country: str


@dataclass(frozen=True)
class Facility:
    name: str
    abbreviation: str
    phone: str
    fax: str
    url: str


@dataclass(frozen=True)
class Relative:
    relation: str
    person: Person
    age: int
    profession: str
    phone: str


@dataclass
class Cast:
    region: Region
    patient: Person
    dob: date
    record_dates: list[date]
    address: Address
    home_phone: str
    mobile: str
    email: str
    chart: str
    health_card: str
    sin: str
    licence: str
    plate: str
    profession: str
    employer: str
    birth_country: str
    relatives: list[Relative]
    gp: Person
    gp_clinic: Facility
    hospital: Facility
    ward: str
    doctors: list[Person]
    nurses: list[Person]
    pharmacy: str
    device: tuple[str, str]
    landmark: str
    event: str
    extra: dict[str, str] = field(default_factory=dict)

    def age_on(self, day: date) -> int:
        return day.year - self.dob.year - ((day.month, day.day) < (self.dob.month, self.dob.day))

    def relative(self, rng: random.Random) -> Relative:
        return rng.choice(self.relatives)

    def doctor(self, rng: random.Random) -> Person:
        return rng.choice(self.doctors)


def make_person(
    region: Region, rng: random.Random, sex: str | None = None, last: str | None = None
) -> Person:
    locales = [locale for locale, _ in region.name_locales]
    weights = [weight for _, weight in region.name_locales]
    fake = faker_for(rng.choices(locales, weights)[0], rng)
    sex = sex or rng.choice("FM")
    first = fake.first_name_female() if sex == "F" else fake.first_name_male()
    return Person(first, last or fake.last_name(), sex)


def make_street(region: Region, rng: random.Random, surname: str) -> str:
    number = rng.randint(2, 2999)
    road = f"{surname} {rng.choice(lexicon.STREET_SUFFIXES)}"
    kind = rng.random()
    if kind < 0.12:
        return f"PO Box {rng.randint(10, 9999)}"
    if kind < 0.22:
        rural = "RD" if region.key == "NZ" else "RR"
        return f"{rural} {rng.randint(1, 9)}" + (f", Site {rng.randint(1, 30)}" if region.key != "NZ" else "")
    if kind < 0.45:
        unit = rng.randint(1, 40)
        joiner = {"AU": f"{unit}/", "NZ": f"{unit}/", "IE": f"Apt {unit}, "}.get(region.key, f"Unit {unit}, ")
        return f"{joiner}{number} {road}"
    return f"{number} {road}"


def make_address(region: Region, rng: random.Random, surname: str) -> Address:
    fake = faker_for("en_CA" if region.key in ("ON", "QC") else "en_AU", rng)
    city = rng.choice(region.towns) if rng.random() < 0.7 else fake.city()
    full, abbreviation = rng.choice(region.subdivisions)
    subdivision = abbreviation if rng.random() < 0.6 else full
    return Address(make_street(region, rng, surname), city, subdivision, region.postcode(rng), region.country)


def make_facility(region: Region, rng: random.Random, clinic: bool = False) -> Facility:
    stem = rng.choice(lexicon.PLACE_STEMS)
    if clinic:
        name = f"{stem} {rng.choice(lexicon.CLINIC_KINDS)}"
    elif rng.random() < 0.3:
        name = f"{rng.choice(lexicon.SAINTS)} {rng.choice(lexicon.HOSPITAL_KINDS)}"
    else:
        name = f"{stem} {rng.choice(lexicon.HOSPITAL_KINDS)}"
    abbreviation = "".join(word[0] for word in name.replace("-", " ").split() if word[0].isupper())
    host = "".join(ch for ch in stem.lower() if ch.isalpha())
    url = rng.choice(
        (
            f"https://myhealth.{host}{region.web_suffix}/portal",
            f"www.{host}health{region.web_suffix}",
            f"https://{host}{region.web_suffix}/patients",
        )
    )
    return Facility(name, abbreviation, region.phone(rng), region.phone(rng), url)


def make_record_dates(rng: random.Random, records: int) -> list[date]:
    day = date(rng.randint(2058, 2074), rng.randint(1, 12), rng.randint(1, 28))
    dates = [day]
    for _ in range(records - 1):
        day = day + timedelta(days=rng.randint(2, 400))
        dates.append(day)
    return dates


def make_cast(rng: random.Random, records: int) -> Cast:
    region = rng.choice(REGIONS)
    patient = make_person(region, rng)
    record_dates = make_record_dates(rng, records)
    age = rng.choices((rng.randint(18, 44), rng.randint(45, 79), rng.randint(80, 101)), (3, 5, 2))[0]
    dob = record_dates[0] - timedelta(days=age * 365 + rng.randint(0, 364))
    relatives = []
    for relation in rng.sample(lexicon.RELATIONS, 3):
        shares_surname = relation in ("dtr", "son", "wife", "husband", "sister", "mother", "brother")
        sex = (
            "F"
            if relation in ("dtr", "wife", "sister", "mother")
            else "M"
            if relation in ("son", "husband", "brother")
            else None
        )
        person = make_person(
            region, rng, sex, patient.last if shares_surname and rng.random() < 0.7 else None
        )
        relative_age = max(1, age + {"dtr": -28, "son": -30, "mother": 26}.get(relation, rng.randint(-6, 6)))
        relatives.append(
            Relative(relation, person, relative_age, rng.choice(lexicon.PROFESSIONS), region.mobile(rng))
        )
    fake = faker_for("en_CA", rng)
    employer_surname = fake.last_name()
    email_user = rng.choice(
        (
            f"{patient.first.lower()}.{patient.last.lower()}",
            f"{patient.first[0].lower()}{patient.last.lower()}{rng.randint(1, 99)}",
        )
    )
    email_user = "".join(ch for ch in email_user if ch.isascii() and (ch.isalnum() or ch == "."))
    return Cast(
        region=region,
        patient=patient,
        dob=dob,
        record_dates=record_dates,
        address=make_address(region, rng, make_person(region, rng).last),
        home_phone=region.phone(rng),
        mobile=region.mobile(rng),
        email=f"{email_user}@{region.email_domain}",
        chart=formats.chart_number(rng),
        health_card=region.health_card(rng),
        sin=formats.sin_number(rng),
        licence=formats.driver_licence(rng),
        plate=formats.plate(rng),
        profession=rng.choice(lexicon.PROFESSIONS),
        employer=rng.choice(lexicon.ORGANIZATION_PATTERNS).format(employer_surname),
        birth_country=rng.choice(lexicon.COUNTRIES),
        relatives=relatives,
        gp=make_person(region, rng),
        gp_clinic=make_facility(region, rng, clinic=True),
        hospital=make_facility(region, rng),
        ward=rng.choice(lexicon.WARD_NAMES),
        doctors=[make_person(region, rng) for _ in range(3)],
        nurses=[make_person(region, rng) for _ in range(2)],
        pharmacy=rng.choice(lexicon.PHARMACY_PATTERNS).format(fake.last_name()),
        device=(rng.choice(lexicon.DEVICES), formats.device_serial(rng)),
        landmark=rng.choice(lexicon.LANDMARKS),
        event=rng.choice(lexicon.EVENTS),
    )
