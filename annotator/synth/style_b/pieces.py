"""Style B building blocks shared by its note types: tables, lists, collisions, sign-offs."""

from __future__ import annotations

import datetime as dt
import random

from annotator.synth.builder import NoteBuilder
from annotator.synth.lexicon import WEEKDAYS
from annotator.synth.style_b import vocab
from annotator.synth.style_b.formats import write_date_b, write_name
from annotator.synth.style_b.people import Cast, Staff


def later(day: dt.date, days: int) -> dt.date:
    return day + dt.timedelta(days=days)


def collision(b: NoteBuilder, rng: random.Random, caps: bool = False) -> None:
    """A clinical phrase whose word also names a person, place or date elsewhere: never tagged."""
    fresh = [entry for entry in vocab.COLLISIONS if entry[0] not in b.used]
    phrase, word, type_ = rng.choice(fresh or vocab.COLLISIONS)
    b.used.add(phrase)
    if caps:
        phrase, word = phrase.upper(), word.upper()
    b.decoy(phrase, type_, word)


def number_lookalike(b: NoteBuilder, rng: random.Random) -> None:
    phrase, part = rng.choice(vocab.NUMBER_LOOKALIKES)
    b.decoy(phrase, "DATE", part)


def med_table(b: NoteBuilder, rng: random.Random) -> None:
    """A fixed-width medication chart; a ``1/2 tab`` row keeps a fraction that is not a date."""
    b.add(f"{'DRUG':<18}{'DOSE':<10}{'ROUTE':<7}FREQ\n")
    for drug, dose, route, freq in rng.sample(vocab.DRUGS, rng.randint(3, 6)):
        b.add(f"{drug:<18}{dose:<10}{route:<7}{freq}\n")
    if rng.random() < 0.4:
        b.add(f"{'zopiclone':<18}").decoy(f"{'1/2 tab':<10}", "DATE", "1/2").add(f"{'PO':<7}nocte\n")


def lab_table(b: NoteBuilder, cast: Cast, day: dt.date, rng: random.Random) -> None:
    """Aligned lab columns headed by two collection dates (both tagged)."""
    earlier = later(day, -rng.randint(1, 6))
    b.add(f"{'Test':<8}")
    for when in (earlier, day):
        b.phi(f"{when.day:02d}/{when.month:02d}", "DATE").add("      ")
    b.add("Units\n")
    for name, unit, low, high in rng.sample(vocab.LABS, rng.randint(4, 7)):
        values = [f"{rng.uniform(low, high):.1f}" for _ in range(2)]
        b.add(f"{name:<8}{values[0]:<11}{values[1]:<11}{unit}\n")


def bullet_list(b: NoteBuilder, items: list[str], rng: random.Random) -> None:
    mark = rng.choice(("- ", "* ", "o "))
    for item in items:
        b.add(mark + item + "\n")


def sign_off(b: NoteBuilder, who: Staff, cast: Cast, day: dt.date, rng: random.Random) -> None:
    """Electronic signature lines, unlike style A's: role, username, bleep and a timestamp.

    Nurses and radiologists alike are DOCTOR: i2b2 2014 tags every clinician's name so.
    """
    b.add(rng.choice(("Verified by: ", "Authorised: ", "Reported by ")))
    write_name(b, who.person, "DOCTOR", rng)
    b.add(f" ({who.role}) [")
    b.phi(who.username, "USERNAME").add("] bleep ").phi(who.bleep, "PHONE").add(" on ")
    write_date_b(b, day, rng, cast.dmy, partial=0.0)
    b.add(f" {rng.randint(0, 23):02d}{rng.randint(0, 59):02d}h\n")


def address_lines(b: NoteBuilder, cast: Cast, rng: random.Random) -> None:
    b.phi(cast.street, "STREET").add("\n").phi(cast.town, "CITY").add("\n")
    b.phi(cast.county if rng.random() < 0.5 else cast.county_abbr, "STATE")
    b.add("  ").phi(cast.postcode, "ZIP").add("\n")


def background(b: NoteBuilder, cast: Cast, day: dt.date, rng: random.Random, caps: bool = False) -> None:
    """A numbered problem list: collisions, a dated event and a number that is not a date."""
    heading = rng.choice(("Background:", "PMHx:", "Past history"))
    b.add((heading.upper() if caps else heading) + "\n")
    for number in range(1, rng.randint(3, 5) + 1):
        b.add(f"{number}. ")
        if number == 2:
            event = rng.choice(("TIA", "fractured NOF", "appendicectomy", "MI", "DVT"))
            b.add((event.upper() if caps else event) + " ")
            write_date_b(
                b, later(cast.birth, 365 * rng.randint(20, 50) + rng.randint(0, 364)), rng, cast.dmy, 0.7
            )
        else:
            collision(b, rng, caps)
        b.add("\n")


def social_line(b: NoteBuilder, cast: Cast, rng: random.Random) -> None:
    """Telegraphic social history: who the patient lives with, where, and what they do."""
    b.add(rng.choice(("SHx: ", "Social: ", "Lives ")))
    b.add(rng.choice(("lives w ", "with ", "at home w ")) + cast.kin_relation + " ")
    write_name(b, cast.next_of_kin, "PATIENT", rng)
    b.add(" in ").phi(cast.town, "CITY").add(". ")
    if rng.random() < 0.5:
        b.add("Works as ").phi(cast.profession, "PROFESSION").add(". ")
    else:
        b.add("Ex-").phi(cast.profession, "PROFESSION").add(", now retired. ")
    b.add(f"{rng.choice(('Ex-smoker', 'Never smoked', 'Smokes 10/day'))}, ETOH {rng.randint(0, 20)} u/wk. ")
    number_lookalike(b, rng)
    b.add(".\n")


def shift_entries(b: NoteBuilder, rng: random.Random, caps: bool = False) -> None:
    """Timed telegraphic entries, as nurses chart them through a shift."""
    for hour in sorted(rng.sample(range(0, 24), rng.randint(3, 5))):
        phrase = rng.choice(vocab.PROGRESS_PHRASES)
        b.add(f"{hour:02d}{rng.choice(('00', '15', '30', '45'))}  {phrase.upper() if caps else phrase}.\n")


def course_by_day(b: NoteBuilder, cast: Cast, day: dt.date, rng: random.Random) -> None:
    """A day-by-day hospital course; each day is named by its weekday (tagged DATE)."""
    for offset in range(rng.randint(2, 4)):
        when = later(day, offset)
        b.add(f"Day {offset + 1} (").phi(WEEKDAYS[when.weekday()], "DATE").add("): ")
        b.add(rng.choice(vocab.PROGRESS_PHRASES)).add("; ")
        if rng.random() < 0.4:
            collision(b, rng)
        else:
            number_lookalike(b, rng)
        b.add(".\n")
