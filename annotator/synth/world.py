"""The invented people and places behind one synthetic patient, and how notes write them.

A :class:`PatientWorld` is drawn once per patient, so the same name, record number, address
and doctors come back in every record of that patient (what "annotate all" and the
consistency check work on). The ``write_*`` functions put one mention into a
:class:`NoteBuilder`, choosing among the surface forms real notes use.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from annotator.synth import lexicon as lx
from annotator.synth.builder import NoteBuilder


@dataclass(frozen=True)
class Person:
    first: str
    middle: str
    last: str
    sex: str  # "F" or "M"

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


@dataclass(frozen=True)
class Clinician:
    person: Person
    role: str
    username: str
    provider_id: str
    pager: str
    credential: str


@dataclass(frozen=True)
class Relative:
    relation: str
    person: Person
    age: int


@dataclass
class PatientWorld:
    patient_id: str
    person: Person
    birth: dt.date
    mrn: str
    hospital: str
    hospital_short: str
    other_hospital: str
    street: str
    city: str
    state: str
    state_abbr: str
    zip_code: str
    phone: str
    profession: str
    employer: str
    country: str
    clinicians: list[Clinician]
    relatives: list[Relative]
    record_dates: list[dt.date] = field(default_factory=list)
    email: str = ""

    def age_on(self, day: dt.date) -> int:
        years = day.year - self.birth.year
        if (day.month, day.day) < (self.birth.month, self.birth.day):
            years -= 1
        return years

    @property
    def pronoun(self) -> str:
        return "she" if self.person.sex == "F" else "he"

    @property
    def possessive(self) -> str:
        return "her" if self.person.sex == "F" else "his"

    @property
    def title(self) -> str:
        return "Ms." if self.person.sex == "F" else "Mr."

    def doctor(self, role: str) -> Clinician:
        for clinician in self.clinicians:
            if clinician.role == role:
                return clinician
        return self.clinicians[0]


RELATIONS = ("mother", "father", "sister", "brother", "daughter", "son", "spouse", "spouse", "aunt", "uncle")
_RELATIVE_AGE_GAP = {
    "mother": (18, 35),
    "father": (18, 38),
    "daughter": (-40, -18),
    "son": (-40, -18),
    "wife": (-8, 5),
    "husband": (-5, 8),
    "aunt": (10, 25),
    "uncle": (10, 25),
}


def article(word: str) -> str:
    """ "a" or "an" before a word or a number as it is read aloud."""
    if word[:1].isdigit():
        return (
            "an" if word.startswith("8") or word in ("11", "18") or word.startswith(("11-", "18-")) else "a"
        )
    return "an" if word[:1].lower() in "aeiou" else "a"


# -- drawing people and places -------------------------------------------------------------
def make_person(rng: random.Random, sex: str | None = None, last: str | None = None) -> Person:
    sex = sex or rng.choice("FM")
    accented = rng.random() < 0.05
    if sex == "F":
        first = rng.choice(lx.ACCENTED_FIRST_FEMALE if accented else lx.FIRST_NAMES_FEMALE)
    else:
        first = rng.choice(lx.ACCENTED_FIRST_MALE if accented else lx.FIRST_NAMES_MALE)
    if last is None:
        last = rng.choice(lx.ACCENTED_LAST) if rng.random() < 0.05 else rng.choice(lx.LAST_NAMES)
    middle = rng.choice("ABCDEFGHJKLMNPRSTW")
    return Person(first, middle, last, sex)


def make_hospital(rng: random.Random) -> tuple[str, str]:
    """A hospital name and the abbreviation notes use for it."""
    stem = rng.choice(lx.HOSPITAL_STEMS)
    suffix = rng.choice(lx.HOSPITAL_SUFFIXES)
    name = f"{stem} {suffix}"
    short = "".join(word[0] for word in name.replace("'s", "").replace(".", "").split() if word[0].isupper())
    return name, short if len(short) >= 2 else name


def make_city(rng: random.Random) -> str:
    return rng.choice(lx.CITY_FIRST) + rng.choice(lx.CITY_SECOND)


def digits(rng: random.Random, count: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(count))


def letters(rng: random.Random, count: int) -> str:
    return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(count))


def make_phone(rng: random.Random) -> str:
    area, exchange, line = str(rng.randint(201, 989)), str(rng.randint(201, 989)), digits(rng, 4)
    form = rng.random()
    if form < 0.4:
        return f"({area}) {exchange}-{line}"
    if form < 0.75:
        return f"{area}-{exchange}-{line}"
    if form < 0.9:
        return f"{area}.{exchange}.{line}"
    return f"{exchange}-{line}"


def make_clinician(rng: random.Random, role: str) -> Clinician:
    person = make_person(rng)
    username = (person.first[0] + person.middle + person.last[0]).lower() + str(rng.randint(1, 99))
    credential = {"nurse": "RN", "np": "NP", "pa": "PA-C"}.get(
        role, rng.choice(("MD", "M.D.", "MD, PhD", "DO"))
    )
    pager = str(rng.randint(10000, 99999)) if rng.random() < 0.6 else make_phone(rng)
    return Clinician(person, role, username, digits(rng, rng.choice((5, 6, 7))), pager, credential)


def make_mrn(rng: random.Random) -> str:
    form = rng.random()
    if form < 0.4:
        return digits(rng, 7)
    if form < 0.65:
        return f"{digits(rng, 3)}-{digits(rng, 2)}-{digits(rng, 2)}"
    if form < 0.85:
        return digits(rng, 8)
    return f"{letters(rng, 2)}{digits(rng, 6)}"


def make_world(rng: random.Random, patient_id: str, records: int) -> PatientWorld:
    person = make_person(rng)
    first_visit = dt.date(rng.randint(2060, 2094), rng.randint(1, 12), rng.randint(1, 28))
    age = int(rng.triangular(22, 97, 66))
    birth = dt.date(first_visit.year - age, rng.randint(1, 12), rng.randint(1, 28))
    dates = [first_visit]
    for _ in range(records - 1):
        dates.append(dates[-1] + dt.timedelta(days=rng.randint(20, 600)))
    hospital, short = make_hospital(rng)
    other, _ = make_hospital(rng)
    while other.split()[0] == hospital.split()[0]:
        other, _ = make_hospital(rng)
    roles = ["attending", "pcp", "resident", "nurse", "consultant", rng.choice(("np", "pa", "surgeon"))]
    relatives = []
    for _ in range(rng.randint(1, 3)):
        relation = rng.choice(RELATIONS)
        if relation == "spouse":
            relation = "husband" if person.sex == "F" else "wife"
        sex = "F" if relation in lx.RELATIVES_FEMALE else "M"
        low, high = _RELATIVE_AGE_GAP.get(relation, (-10, 10))
        relative_age = max(1, min(104, age + rng.randint(low, high)))
        same_last = relation not in ("aunt", "uncle", "grandmother", "grandfather", "sister", "daughter")
        relatives.append(
            Relative(relation, make_person(rng, sex, person.last if same_last else None), relative_age)
        )
    state_index = rng.randrange(len(lx.STATES))
    world = PatientWorld(
        patient_id=patient_id,
        person=person,
        birth=birth,
        mrn=make_mrn(rng),
        hospital=hospital,
        hospital_short=short,
        other_hospital=other,
        street=f"{rng.randint(2, 9899)} {rng.choice(lx.STREET_ROOTS)} {rng.choice(lx.STREET_SUFFIXES)}",
        city=make_city(rng),
        state=lx.STATES[state_index],
        state_abbr=lx.STATE_ABBREVIATIONS[state_index],
        zip_code=digits(rng, 5) if rng.random() < 0.85 else f"{digits(rng, 5)}-{digits(rng, 4)}",
        phone=make_phone(rng),
        profession=rng.choice(lx.PROFESSIONS),
        employer=rng.choice(lx.ORGANIZATIONS),
        country=rng.choice(lx.COUNTRIES),
        clinicians=[make_clinician(rng, role) for role in roles],
        relatives=relatives,
        record_dates=dates,
    )
    world.email = f"{person.first[0].lower()}{ascii_fold(person.last).lower()}{rng.randint(1, 99)}@{rng.choice(lx.EMAIL_DOMAINS)}"
    return world


def ascii_fold(text: str) -> str:
    import unicodedata

    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "".join(ch for ch in folded if ch.isalnum()) or "user"


def misspell(name: str, rng: random.Random) -> str:
    """A plausible typo: two inner letters swapped, or one doubled."""
    if len(name) < 4:
        return name
    index = rng.randrange(1, len(name) - 2)
    if rng.random() < 0.5:
        return name[:index] + name[index + 1] + name[index] + name[index + 2 :]
    return name[: index + 1] + name[index] + name[index + 1 :]


# -- writing mentions ----------------------------------------------------------------------
def write_patient(
    b: NoteBuilder, world: PatientWorld, rng: random.Random, formal: bool = False, possessive: bool = False
) -> None:
    """One mention of the patient's name in one of its usual surface forms."""
    p = world.person
    if rng.random() < 0.03:
        # Notes misspell names now and then ("Marrisa" for "Marissa"): still the patient.
        p = Person(misspell(p.first, rng), p.middle, p.last, p.sex)
    form = rng.random()
    if possessive:
        if form < 0.6:
            b.add(world.title + " ").phi(p.last, "PATIENT").add("'s")
        else:
            b.phi(p.first, "PATIENT").add("'s")
        return
    if formal:
        choice = rng.random()
        if choice < 0.5:
            b.phi(f"{p.last.upper()}, {p.first.upper()}", "PATIENT")
        elif choice < 0.8:
            b.phi(f"{p.last}, {p.first}" + (f" {p.middle}." if rng.random() < 0.3 else ""), "PATIENT")
        else:
            b.phi(f"{p.first} {p.middle}. {p.last}", "PATIENT")
    elif form < 0.45:
        b.add(world.title + " ").phi(p.last, "PATIENT")
    elif form < 0.65:
        b.phi(p.full, "PATIENT")
    elif form < 0.75:
        b.phi(p.first, "PATIENT")
    elif form < 0.9:
        b.phi(f"{p.first[0]}. {p.last}", "PATIENT")
    else:
        b.phi(f"{p.last}, {p.first}", "PATIENT")


def write_doctor(b: NoteBuilder, clinician: Clinician, rng: random.Random, style: str = "any") -> None:
    """One mention of a clinician: "Dr. Last", "First Last, MD", "F. Last" ..."""
    p = clinician.person
    form = rng.random() if style == "any" else {"title": 0.0, "full": 0.5, "signature": 0.8}[style]
    if clinician.role in ("nurse", "np", "pa") and form < 0.45:
        form = 0.5
    if form < 0.4:
        b.add("Dr. ").phi(p.last, "DOCTOR")
    elif form < 0.45:
        b.add("Dr. ").phi(p.full, "DOCTOR")
    elif form < 0.65:
        b.phi(p.full, "DOCTOR")
    elif form < 0.75:
        b.phi(f"{p.first[0]}. {p.last}", "DOCTOR")
    elif form < 0.8:
        b.phi(p.last, "DOCTOR")
    else:
        b.phi(f"{p.first} {p.middle}. {p.last}", "DOCTOR").add(f", {clinician.credential}")


def write_age(b: NoteBuilder, age: int, rng: random.Random, sex: str, with_article: bool = False) -> None:
    """An age; only the number is PHI ("67" in "67-year-old", "67M")."""
    number = str(age)
    forms = ("-year-old", " yo", " y/o", sex, " year old", "-yr-old", "y.o.")
    weights = (35, 15, 10, 10, 10, 5, 3)
    if with_article:
        b.add(article(number) + " ")
    elif rng.random() < 0.12:
        b.add("age ").phi(number, "AGE").add(",")
        return
    b.phi(number, "AGE").add(rng.choices(forms, weights)[0])


DATE_FORMATS = (
    "m/d/yy",
    "mm/dd/yyyy",
    "iso",
    "Month d, yyyy",
    "d Month yyyy",
    "Mon d, yyyy",
    "d-Mon-yyyy",
    "m/d",
    "Month yyyy",
    "m/yyyy",
    "mm-dd-yyyy",
    "yyyy",
    "'yy",
    "Month dth",
    "compact",
)


# Forms that name a day, for "on <date>".
DAY_DATE_FORMATS = (
    "m/d/yy",
    "mm/dd/yyyy",
    "iso",
    "Month d, yyyy",
    "d Month yyyy",
    "Mon d, yyyy",
    "d-Mon-yyyy",
    "m/d",
    "mm-dd-yyyy",
    "Month dth",
)


def format_date(day: dt.date, form: str) -> str:
    """A date in one of the written forms notes use (see ``DATE_FORMATS``)."""
    y, m, d = day.year, day.month, day.day
    month, mon = lx.MONTHS[m - 1], lx.MONTH_ABBREVIATIONS[m - 1]
    table = {
        "m/d/yy": f"{m}/{d}/{y % 100:02d}",
        "mm/dd/yyyy": f"{m:02d}/{d:02d}/{y}",
        "iso": f"{y}-{m:02d}-{d:02d}",
        "Month d, yyyy": f"{month} {d}, {y}",
        "d Month yyyy": f"{d} {month} {y}",
        "Mon d, yyyy": f"{mon} {d}, {y}",
        "d-Mon-yyyy": f"{d:02d}-{mon}-{y}",
        "m/d": f"{m}/{d}",
        "Month yyyy": f"{month} {y}",
        "m/yyyy": f"{m}/{y}",
        "mm-dd-yyyy": f"{m:02d}-{d:02d}-{y}",
        "yyyy": str(y),
        "'yy": f"'{y % 100:02d}",
        "Month dth": f"{month} {d}{_ordinal(d)}",
        "compact": f"{y}{m:02d}{d:02d}",
    }
    return table[form]


def _ordinal(day: int) -> str:
    if 10 <= day % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def write_date(
    b: NoteBuilder, day: dt.date, rng: random.Random, forms: tuple[str, ...] = DATE_FORMATS
) -> None:
    b.phi(format_date(day, rng.choice(forms)), "DATE")


def write_vague_date(b: NoteBuilder, day: dt.date, rng: random.Random) -> None:
    """Seasons, holidays, months and years of a past event: dates too, under the i2b2 2014 rules."""
    form = rng.random()
    if form < 0.25:
        b.add("in the ").phi(f"{rng.choice(lx.SEASONS)} of {day.year}", "DATE")
    elif form < 0.4:
        holiday = rng.choice(lx.HOLIDAYS)
        lead = "the " if holiday.startswith("the ") else ""
        name = holiday.removeprefix("the ")
        b.add(f"around {lead}").phi(f"{name} {day.year}" if rng.random() < 0.5 else name, "DATE")
    elif form < 0.65:
        b.add("in ").phi(str(day.year), "DATE")
    elif form < 0.85:
        b.add("in ").phi(f"{lx.MONTHS[day.month - 1]} {day.year}", "DATE")
    else:
        b.add("in ").phi(f"{rng.choice(lx.SEASONS).capitalize()} '{day.year % 100:02d}", "DATE")
