"""Style B's surface conventions: dates, ages, phones, identifiers and names as written.

Each ``write_*`` appends to a :class:`NoteBuilder` and tags exactly what the i2b2 2014 guidelines
tag: a date tag covers the whole date expression (weekday included when it is part of it), an
age tag only the digits or words of the age, a name tag never the title ("Dr.", "Mrs").
"""

from __future__ import annotations

import datetime as dt
import random
from typing import TYPE_CHECKING

from annotator.synth.builder import NoteBuilder

# Month and weekday names are calendar facts, not part of a style: shared with style A.
from annotator.synth.lexicon import MONTHS, WEEKDAYS
from annotator.synth.world import digits, letters

if TYPE_CHECKING:
    from annotator.synth.style_b.people import Named

ONES = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def number_words(n: int) -> str:
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else f"-{ONES[n % 10]}")
    return "one hundred" + ("" if n == 100 else f" and {number_words(n - 100)}")


# Full dates: day, month and year. ``dmy`` picks day-first numeric forms.
def full_date(day: dt.date, form: str, dmy: bool = True) -> str:
    mon = MONTHS[day.month - 1]
    first, second = (day.day, day.month) if dmy else (day.month, day.day)
    return {
        "dd-Mon-yyyy": f"{day.day:02d}-{mon[:3]}-{day.year}",
        "yyyy.mm.dd": f"{day.year}.{day.month:02d}.{day.day:02d}",
        "dd/mm/yy": f"{first:02d}/{second:02d}/{day.year % 100:02d}",
        "d.m.yyyy": f"{first}.{second}.{day.year}",
        "Dth Month yyyy": f"{ordinal(day.day)} {mon} {day.year}",
        "Wkd d Mon yyyy": f"{WEEKDAYS[day.weekday()][:3]} {day.day} {mon[:3]} {day.year}",
        "DD-MON-YYYY": f"{day.day:02d}-{mon[:3].upper()}-{day.year}",
        "yyyymmdd hhmm": f"{day.year}{day.month:02d}{day.day:02d}",
    }[form]


FULL_FORMS = (
    "dd-Mon-yyyy",
    "yyyy.mm.dd",
    "dd/mm/yy",
    "d.m.yyyy",
    "Dth Month yyyy",
    "Wkd d Mon yyyy",
    "DD-MON-YYYY",
)


def partial_date(day: dt.date, rng: random.Random) -> str:
    """A date written without some of its parts, as in running text."""
    mon = MONTHS[day.month - 1]
    return rng.choice(
        (
            f"{mon[:3]} {ordinal(day.day)}",
            f"{ordinal(day.day)} of {mon}",
            WEEKDAYS[day.weekday()],
            str(day.year),
            f"'{day.year % 100:02d}",
            f"{mon} {day.year}",
            f"mid-{mon}",
        )
    )


def write_date_b(
    b: NoteBuilder, day: dt.date, rng: random.Random, dmy: bool = True, partial: float = 0.3
) -> None:
    if rng.random() < partial:
        text = partial_date(day, rng)
        # "the 16th of January": the article is a word around the date, left out (guidelines 7).
        b.add("the " if " of " in text else "").phi(text, "DATE")
    else:
        b.phi(full_date(day, rng.choice(FULL_FORMS), dmy), "DATE")


def write_age_b(b: NoteBuilder, age: int, rng: random.Random) -> None:
    """``82 y/o``, ``82yo``, ``eighty-two year old``, ``aged 82``: only the age itself is tagged."""
    form = rng.randrange(5)
    if form == 0:
        b.phi(str(age), "AGE").add(" y/o")
    elif form == 1:
        b.phi(str(age), "AGE").add("yo")
    elif form == 2:
        b.phi(number_words(age), "AGE").add(" year old")
    elif form == 3:
        b.add("aged ").phi(str(age), "AGE")
    else:
        b.phi(str(age), "AGE").add(" yrs")


def write_name(b: NoteBuilder, person: Named, type_: str, rng: random.Random, caps: bool = False) -> None:
    """A name in one of several shapes; the tag covers the name only."""
    form = rng.randrange(5)
    if form == 0:
        text = person.full
    elif form == 1:
        text = f"{person.last.upper()}, {person.first}"
    elif form == 2:
        text = f"{person.first[0]}.{person.middle + '.' if person.middle else ''} {person.last}"
    elif form == 3:
        text = f"{person.first} {person.middle + ' ' if person.middle else ''}{person.last}"
    else:
        text = person.last
    b.phi(text.upper() if caps else text, type_)


def make_phone_b(rng: random.Random, region: str) -> str:
    def d(count: int) -> str:
        return digits(rng, count)

    if region == "uk":
        return rng.choice(
            (
                f"0{rng.randint(1100, 1999)} {d(6)}",
                f"+44 {rng.randint(1100, 1999)} {d(6)}",
                f"07{d(3)} {d(6)}",
            )
        )
    if region == "au":
        return rng.choice(
            (
                f"(0{rng.randint(2, 8)}) {d(4)} {d(4)}",
                f"04{d(2)} {d(3)} {d(3)}",
                f"+61 {rng.randint(2, 8)} {d(4)} {d(4)}",
            )
        )
    area = rng.randint(201, 989)
    return rng.choice((f"+1 ({area}) {d(3)}-{d(4)}", f"{area}.{d(3)}.{d(4)}", f"1-{area}-{d(3)}-{d(4)}"))


def write_mrn(b: NoteBuilder, mrn: str) -> NoteBuilder:
    """A record number; a leading ``#`` only announces it (guidelines section 2): left out of the tag."""
    mark = mrn[: len(mrn) - len(mrn.lstrip("#"))]
    return b.add(mark).phi(mrn[len(mark) :], "MEDICALRECORD")


def make_id(rng: random.Random, kind: str) -> str:
    def d(count: int) -> str:
        return digits(rng, count)

    def letter() -> str:
        return letters(rng, 1)

    if kind == "MEDICALRECORD":
        return rng.choice(
            (
                f"{d(3)}-{d(2)}-{d(4)}",
                f"#{letter()}{d(7)}",
                f"{letter()}{letter()}{d(6)}{letter()}",
                f"{d(3)} {d(3)} {d(4)}",
            )
        )
    if kind == "SSN":
        return f"{letter()}{letter()} {d(2)} {d(2)} {d(2)} {letter()}"  # NI-number shape
    if kind == "HEALTHPLAN":
        return f"{d(4)} {d(5)} {d(1)}"  # Medicare-card shape
    if kind == "ACCOUNT":
        return f"ACC/{d(6)}/{d(2)}"
    if kind == "LICENSE":
        return d(7)  # the register's name ("GMC") is written before it, outside the tag
    if kind == "DEVICE":
        return f"{letter()}{letter()}{d(5)}-{d(2)}"  # "SN:" is the label, written before it
    if kind == "BIOID":
        return f"SPEC-{d(2)}-{d(5)}"
    if kind == "VEHICLE":
        return f"{letter()}{letter()}{d(2)} {letter()}{letter()}{letter()}"
    return f"{letter()}{d(5)}/{d(2)}"  # IDNUM: accession and order numbers
