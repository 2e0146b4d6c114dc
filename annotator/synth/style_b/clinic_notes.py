"""More style B note types: MDT outcome, anaesthetic record and a telephone message slip."""

from __future__ import annotations

import datetime as dt
import random

from annotator.synth.builder import NoteBuilder
from annotator.synth.lexicon import WEEKDAYS
from annotator.synth.style_b.formats import (
    make_phone_b,
    number_words,
    write_age_b,
    write_date_b,
    write_mrn,
    write_name,
)
from annotator.synth.style_b.people import Cast
from annotator.synth.style_b.pieces import (
    background,
    bullet_list,
    collision,
    later,
    number_lookalike,
    social_line,
)


def mdt_outcome(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    """Multidisciplinary team meeting: an attendee list, then a decision."""
    b.add(rng.choice(("Upper GI", "Lung", "Haematology", "Colorectal")) + " MDT - ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\nPresent:\n")
    names = [c.staff[role] for role in ("consultant", "radiologist", "pathologist", "registrar")]
    for staff in rng.sample(names, rng.randint(2, 4)):
        b.add("  ")
        write_name(b, staff.person, "DOCTOR", rng)
        b.add(f" - {staff.role}\n")
    b.add("\nPatient: ")
    write_name(b, c.patient, "PATIENT", rng)
    b.add(", ")
    write_age_b(b, c.age_on(day), rng)
    write_mrn(b.add(", "), c.mrn).add("\n")
    background(b, c, day, rng)
    b.add("Discussion: imaging reviewed, ")
    collision(b, rng)
    b.add(". Histology ").phi(f"H{day.year % 100:02d}-{rng.randint(10000, 99999)}", "IDNUM").add(
        " reviewed.\n"
    )
    b.add("Outcome:\n")
    bullet_list(b, ["refer for surgical opinion", "repeat CT in 3/12", "CNS to contact patient"], rng)
    b.add("Next MDT ").phi(WEEKDAYS[later(day, 7).weekday()], "DATE").add(".\n")


def anaesthetic_record(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    b.add("ANAESTHETIC RECORD\n").phi(c.hospital, "HOSPITAL").add(" Theatre ").phi(
        str(rng.randint(1, 9)), "ROOM"
    )
    b.add("\nDate of op: ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\nName: ")
    write_name(b, c.patient, "PATIENT", rng, caps=True)
    write_mrn(b.add("   "), c.mrn).add("   Age: ").phi(str(c.age_on(day)), "AGE").add("\n")
    b.add(f"ASA {rng.randint(1, 4)}. Wt {rng.randint(48, 120)} kg. ")
    b.decoy("Spinal with MAC", "DOCTOR", "MAC").add(" vs GA discussed; ")
    collision(b, rng)
    b.add(".\nAirway: Mallampati 2, ").decoy("Cormack-Lehane grade 1", "DOCTOR", "Cormack").add(".\n")
    b.add("Intra-op: ")
    number_lookalike(b, rng)
    b.add(", ").decoy("NSR 70s-80s", "DATE", "70s-80s").add(", EBL 200 mL. ")
    collision(b, rng)
    b.add(".\nAnaesthetist: ")
    write_name(b, c.staff["registrar"].person, "DOCTOR", rng)
    b.add(" (").phi(c.staff["registrar"].username, "USERNAME").add(")\n")


def phone_message(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    """A telephone message slip: who rang, the number with an extension, what about."""
    b.add("TELEPHONE MESSAGE  ")
    write_date_b(b, day, rng, c.dmy)
    b.add(f" {rng.randint(8, 17)}:{rng.choice(('05', '20', '40', '55'))}\nCaller: ")
    if rng.random() < 0.5:
        write_name(b, c.next_of_kin, "PATIENT", rng)
        b.add(f" ({c.kin_relation} of ")
        write_name(b, c.patient, "PATIENT", rng)
        b.add(")")
    else:
        write_name(b, c.patient, "PATIENT", rng)
        b.add(" (self)")
    b.add("\nCall back on ").phi(make_phone_b(rng, c.region), "PHONE")
    if rng.random() < 0.5:
        b.add(" ext ").phi(str(rng.randint(10, 499)), "PHONE")
    b.add("\nMessage: ")
    b.add(rng.choice(("wants to know", "asking", "querying")) + " whether ")
    collision(b, rng)
    b.add(f" needs review before {rng.choice(('clinic', 'surgery', 'the scan'))} on ")
    write_date_b(b, later(day, rng.randint(2, 30)), rng, c.dmy, partial=0.8)
    b.add(". Aged ").phi(number_words(c.age_on(day)), "AGE").add(" per caller? ")
    social_line(b, c, rng)
    b.add("Taken by: ")
    b.phi(c.staff["nurse"].username, "USERNAME").add("\n")
