"""How style C writes dates, ages, phone numbers and identifiers.

Each function returns only the PHI string; the words that announce it ("DOB:", "CHART",
"ext.") are written by the note around it, outside the tag. Several conventions per kind,
chosen at random, because one hospital's notes mix whatever each clerk and system types.
"""

from __future__ import annotations

import random
import string
from datetime import date

# Calendar names and the digit/letter drawing are shared helpers, not style conventions.
from annotator.synth.lexicon import MONTHS as MONTHS
from annotator.synth.lexicon import WEEKDAYS as WEEKDAYS
from annotator.synth.world import digits as digits
from annotator.synth.world import letters as letters

# Spelt-out ages ("aged thirty-four"): the words below twenty, then the tens.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen")  # fmt: skip
TENS_WORDS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def full_date(day: date, rng: random.Random) -> str:
    """A date with its year, in one of the conventions clinic systems print."""
    month = MONTHS[day.month - 1]
    choices = (
        day.isoformat(),  # 2071-03-09
        f"{day.day}/{day.month}/{day.year % 100:02d}",  # 9/3/71 (day first)
        f"{day.day:02d}{month[:3].upper()}{day.year % 100:02d}",  # 09MAR71
        f"{day.day} {month[:3]} {day.year}",  # 9 Mar 2071
        f"{day.day:02d}.{day.month:02d}.{day.year}",  # 09.03.2071
        f"{month} {ordinal(day.day)}, {day.year}",  # March 9th, 2071
        f"{day.day:02d}-{month[:3]}-{day.year}",  # 09-Mar-2071
    )
    return rng.choice(choices)


def short_date(day: date, rng: random.Random) -> str:
    """A date written without its year, as in running notes."""
    month = MONTHS[day.month - 1]
    return rng.choice(
        (
            f"{month} {ordinal(day.day)}",
            f"{day.day}/{day.month}",
            f"{WEEKDAYS[day.weekday()][:3]} {day.day:02d}-{month[:3]}",
            f"{day.day} {month}",
            WEEKDAYS[day.weekday()],
        )
    )


def any_date(day: date, rng: random.Random) -> str:
    return full_date(day, rng) if rng.random() < 0.6 else short_date(day, rng)


def month_year(day: date, rng: random.Random) -> str:
    month = MONTHS[day.month - 1]
    return rng.choice((f"{month} {day.year}", f"{month[:3]} '{day.year % 100:02d}", str(day.year)))


def time_of_day(rng: random.Random) -> str:
    """Times are not PHI; they sit next to dates and must stay outside the DATE tag."""
    hour, minute = rng.randrange(24), rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50))
    return rng.choice((f"{hour:02d}:{minute:02d}", f"{hour:02d}{minute:02d}h", f"{hour:02d}{minute:02d}"))


def age_words(years: int) -> str:
    if years < 20:
        return NUMBER_WORDS[years]
    tens, units = divmod(years, 10)
    if tens >= 10:
        return str(years)
    return TENS_WORDS[tens] + (f"-{NUMBER_WORDS[units]}" if units else "")


def age_phrase(years: int, rng: random.Random) -> tuple[str, str, str]:
    """(text before, the AGE tag, text after): "34 y.o.", "34yo", "aged thirty-four", "34F"."""
    return rng.choice(
        (
            ("", str(years), " y.o."),
            ("", str(years), "yo"),
            ("aged ", age_words(years), ""),
            ("", str(years), " years old"),
            ("", str(years), "-year-old"),
            ("age ", str(years), ""),
        )
    )


def chart_number(rng: random.Random) -> str:
    return rng.choice(
        (f"{digits(rng, 2)}-{digits(rng, 2)}-{digits(rng, 4)}", digits(rng, 7), f"U{digits(rng, 6)}")
    )


def encounter_number(rng: random.Random) -> str:
    return rng.choice((f"E{digits(rng, 8)}", f"{digits(rng, 4)}/{digits(rng, 5)}"))


def account_number(rng: random.Random) -> str:
    return rng.choice((f"{digits(rng, 5)}-{digits(rng, 3)}", f"AC{digits(rng, 9)}"))


def sin_number(rng: random.Random) -> str:
    """A social insurance / security number (SSN), spaced or dashed."""
    first = digits(rng, 3)
    return rng.choice(
        (f"{first} {digits(rng, 3)} {digits(rng, 3)}", f"{first}-{digits(rng, 2)}-{digits(rng, 4)}")
    )


def driver_licence(rng: random.Random) -> str:
    return rng.choice(
        (
            f"{letters(rng, 1)}{digits(rng, 4)}-{digits(rng, 5)}-{digits(rng, 5)}",
            f"{digits(rng, 8)}",
            f"DL{digits(rng, 7)}",
        )
    )


def plate(rng: random.Random) -> str:
    return rng.choice(
        (
            f"{letters(rng, 4)} {digits(rng, 3)}",
            f"{digits(rng, 3)}-{letters(rng, 3)}",
            f"{letters(rng, 2)}{digits(rng, 2)}{letters(rng, 2)}",
        )
    )


def device_serial(rng: random.Random) -> str:
    return rng.choice(
        (
            f"{letters(rng, 3)}{digits(rng, 6)}{letters(rng, 1)}",
            f"{digits(rng, 2)}-{letters(rng, 2)}-{digits(rng, 5)}",
        )
    )


def biometric_id(rng: random.Random) -> str:
    return rng.choice((f"FP-{digits(rng, 6)}", f"PV{digits(rng, 5)}{letters(rng, 1)}"))


def staff_number(rng: random.Random) -> str:
    """A clinician's registration, prescriber or badge number (IDNUM, as the guidelines ask)."""
    return rng.choice((digits(rng, 7), f"MED{digits(rng, 7)}", f"{digits(rng, 5)}"))


def accession(rng: random.Random, year: int) -> str:
    return f"{letters(rng, 1)}{year % 100:02d}-{digits(rng, 5)}"


def username(rng: random.Random, first: str, last: str) -> str:
    """Initials and digits (the i2b2 username convention): ``kmt27``."""
    middle = rng.choice(string.ascii_lowercase)
    return f"{first[:1].lower()}{middle}{last[:1].lower()}{rng.randint(1, 99)}"


def ip_address(rng: random.Random) -> str:
    return rng.choice(
        (
            f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
            f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
            f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
        )
    )
