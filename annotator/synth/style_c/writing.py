"""Putting style C notes together: text pieces with PHI marked, and blocks several notes share.

A note is written as a sequence of parts: a plain string, or ``(TYPE, text)`` for a PHI
span. ``say`` appends them (upper-casing the whole line for the notes that shout) through
:class:`~annotator.synth.builder.NoteBuilder`, which records exact offsets.
"""

from __future__ import annotations

import random
import re
from datetime import date

from annotator.synth.builder import NoteBuilder
from annotator.synth.style_c import formats
from annotator.synth.style_c.cast import Cast, Person

Part = str | tuple[str, str]
# "1-289-555-4372 ext 319": the extension is a PHONE of its own, its label outside (guidelines §8).
_EXTENSION = re.compile(r"(.*\d)( ext\.? | ?x)(\d+)", re.IGNORECASE)


def put(builder: NoteBuilder, *parts: Part, caps: bool = False) -> NoteBuilder:
    for part in parts:
        if isinstance(part, str):
            builder.add(part.upper() if caps else part)
            continue
        type_, text = part
        text = text.upper() if caps else text
        extension = _EXTENSION.fullmatch(text) if type_ in ("PHONE", "FAX") else None
        if extension is None:
            builder.phi(text, type_)
        else:
            builder.phi(extension.group(1), type_).add(extension.group(2)).phi(extension.group(3), "PHONE")
    return builder


def say(builder: NoteBuilder, *parts: Part, caps: bool = False) -> NoteBuilder:
    return put(builder, *parts, caps=caps).add("\n")


def age_parts(years: int, rng: random.Random) -> list[Part]:
    before, age, after = formats.age_phrase(years, rng)
    return [before, ("AGE", age), after]


def event_parts(event: str) -> list[Part]:
    """A named event (OTHER); its article, like a title, is not part of the name."""
    return [("OTHER", event)] if event.startswith("Cyclone") else ["the ", ("OTHER", event)]


def doctor_parts(person: Person, rng: random.Random) -> list[Part]:
    """A clinician as notes name them; titles and post-nominals stay outside the tag."""
    style = rng.randrange(5)
    if style == 0:
        return [rng.choice(("Dr. ", "Dr ")), ("DOCTOR", person.last)]
    if style == 1:
        return [rng.choice(("Dr. ", "Dr ")), ("DOCTOR", person.full)]
    if style == 2:
        return [("DOCTOR", f"{person.first[0]}. {person.last}"), rng.choice((" MD", ", FRCPC", " MBBS", ""))]
    if style == 3:
        return [("DOCTOR", f"{person.last.upper()}, {person.first}")]
    return [("DOCTOR", person.full)]


def patient_header(
    builder: NoteBuilder, cast: Cast, day: date, rng: random.Random, caps: bool = False
) -> None:
    """The identification block: a key: value form whose order and labels vary by system."""
    patient = cast.patient
    rows: list[list[Part]] = [
        ["NAME: ", ("PATIENT", patient.form(rng))],
        [
            rng.choice(("DOB: ", "D.O.B. ", "Born: ")),
            ("DATE", formats.full_date(cast.dob, rng)),
            "  (",
            *age_parts(cast.age_on(day), rng),
            ")",
        ],
        [rng.choice(("CHART ", "MRN: ", "UR No. ", "Hosp#: ")), ("MEDICALRECORD", cast.chart)],
    ]
    if rng.random() < 0.6:
        rows.append([f"{cast.region.health_card_label}: ", ("HEALTHPLAN", cast.health_card)])
    if rng.random() < 0.4:
        rows.append(["Enc#: ", ("MEDICALRECORD", formats.encounter_number(rng))])
    if rng.random() < 0.3:
        rows.append(["Acct: ", ("ACCOUNT", formats.account_number(rng))])
    tail = rows[2:]
    rng.shuffle(tail)
    for row in rows[:2] + tail:
        say(builder, *row, caps=caps)


def address_lines(builder: NoteBuilder, cast: Cast, rng: random.Random, one_line: bool = False) -> None:
    address = cast.address
    street: list[Part] = [("STREET", address.street)]
    town: list[Part] = [
        ("CITY", address.city),
        " ",
        ("STATE", address.subdivision),
        "  ",
        ("ZIP", address.postcode),
    ]
    if one_line:
        say(builder, *street, ", ", *town)
        return
    say(builder, *street)
    say(builder, *town)
    if rng.random() < 0.3:
        say(builder, ("COUNTRY", address.country.upper()))


def audit_line(builder: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """The system footer: who signed, from where, when (the username is initials + digits)."""
    signer = cast.doctor(rng)
    user = formats.username(rng, signer.first, signer.last)
    parts: list[Part] = [
        rng.choice(("Electronically signed: ", "e-signed by ", "Last modified by: ")),
        ("USERNAME", user),
        " @ ",
        formats.time_of_day(rng),
        " ",
        ("DATE", formats.full_date(day, rng)),
    ]
    if rng.random() < 0.3:
        parts += [" ws ", ("IPADDR", formats.ip_address(rng))]
    say(builder, *parts)


def sign_off(builder: NoteBuilder, person: Person, rng: random.Random, role: str = "") -> None:
    say(builder, *doctor_parts(person, rng), f" {role}".rstrip())
    if rng.random() < 0.4:
        say(builder, "Reg. no. ", ("IDNUM", formats.staff_number(rng)))
    if rng.random() < 0.3:
        say(builder, "/", ("DOCTOR", person.initials))
