"""Outpatient and community notes of style C: psychiatry, physio/OT, medication reconciliation,
referral letters between clinics, telephone encounters."""

from __future__ import annotations

import random
from datetime import date, timedelta

from annotator.synth.builder import NoteBuilder
from annotator.synth.style_c import formats, lexicon
from annotator.synth.style_c.cast import Cast
from annotator.synth.style_c.writing import (
    Part,
    address_lines,
    age_parts,
    audit_line,
    doctor_parts,
    event_parts,
    patient_header,
    say,
    sign_off,
)


def psychiatry(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """Prose under short headings (MSE, risk), with family and work history in sentences."""
    doctor = cast.doctor(rng)
    relative = cast.relative(rng)
    programme = rng.choice(("Mood Disorders Clinic", "Early Psychosis Program", "Anxiety & Trauma Clinic"))
    say(b, ("DEPARTMENT", f"{rng.choice(lexicon.PLACE_STEMS)} {programme}"), " -- Outpatient Psychiatry F/U")
    say(
        b,
        ("PATIENT", cast.patient.form(rng)),
        "   ",
        ("MEDICALRECORD", cast.chart),
        "   seen ",
        ("DATE", formats.any_date(day, rng)),
    )
    b.line()
    say(b, "Identifying data:")
    say(
        b,
        *age_parts(cast.age_on(day), rng),
        f" {'woman' if cast.patient.sex == 'F' else 'man'}, ",
        ("PROFESSION", cast.profession),
        " (on sick leave from ",
        ("ORGANIZATION", cast.employer),
        f"), lives with {relative.relation} ",
        ("PATIENT", relative.person.first),
        ", who is a ",
        ("PROFESSION", relative.profession),
        ".",
    )
    say(b, "Interval history:")
    holiday = rng.choice(lexicon.HOLIDAYS)
    say(
        b,
        "Mood lower since ",
        ("DATE", holiday),
        rng.choice((" last year", "", " weekend")),
        ". Sleeping 4-5 h. Still ruminating about ",
        *event_parts(cast.event),
        f" which {'she' if cast.patient.sex == 'F' else 'he'} witnessed in ",
        ("DATE", formats.month_year(day - timedelta(days=rng.randint(200, 2000)), rng)),
        ".",
    )
    say(
        b,
        "MSE: kempt, good rapport, speech nl rate. Mood 'flat', affect restricted. No psychosis. Insight fair.",
    )
    say(b, "Risk: denies SI/HI today. Safety plan reviewed; crisis line card given.")
    say(
        b,
        "Plan: sertraline increase per med list; CBT group ",
        ("DATE", f"{rng.choice(formats.WEEKDAYS[:5])}s"),
        " (room ",
        ("ROOM", f"{rng.randint(1, 4)}.{rng.randint(10, 40)}"),
        "). RTC ",
        ("DATE", formats.short_date(day + timedelta(days=rng.choice((14, 28, 42))), rng)),
        ".",
    )
    b.line()
    sign_off(b, doctor, rng, "Psychiatrist")


def therapy(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """Physiotherapy or occupational therapy: SOAP in bullets, goals, home set-up."""
    occupational = rng.random() < 0.5
    therapist = cast.nurses[0]
    say(
        b,
        ("HOSPITAL", cast.gp_clinic.name),
        " -- ",
        "OT home visit" if occupational else "Physiotherapy",
        " session ",
        str(rng.randint(1, 12)),
    )
    say(
        b,
        "Client: ",
        ("PATIENT", cast.patient.full),
        "  DOB ",
        ("DATE", formats.full_date(cast.dob, rng)),
        "  Date: ",
        ("DATE", formats.full_date(day, rng)),
    )
    say(b, "S:")
    say(
        b,
        "- c/o ",
        rng.choice(("R shoulder stiffness", "low back pain", "L knee swelling post TKR", "falls x2")),
        ", worse after shifts as ",
        ("PROFESSION", cast.profession),
    )
    say(
        b,
        "- goal: return to work at ",
        ("ORGANIZATION", cast.employer),
        " by ",
        ("DATE", formats.month_year(day + timedelta(days=rng.randint(30, 120)), rng)),
    )
    say(b, "O:")
    say(
        b,
        f"- AROM flex {rng.randint(60, 170)} deg, TUG {rng.randint(8, 25)} s, 6MWT {rng.randint(150, 500)} m",
    )
    if occupational:
        say(
            b,
            "- home: ",
            ("STREET", cast.address.street),
            ", ",
            rng.choice(("2-storey, 14 steps, rail R", "unit, lift access", "bungalow, 3 steps at entry")),
        )
        say(b, "- drives; licence ", ("LICENSE", cast.licence), " -- discussed driving assessment")
    say(b, "A: progressing, guarded.")
    say(
        b,
        "P: HEP x3/wk. Walk at ",
        ("LOCATION-OTHER", cast.landmark),
        " daily. Review ",
        ("DATE", rng.choice(formats.WEEKDAYS)),
        ".",
    )
    say(
        b,
        ("DOCTOR", therapist.full),
        ", ",
        "OT Reg" if occupational else "PT",
        "  Ph ",
        ("PHONE", cast.gp_clinic.phone),
    )


def medication_reconciliation(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """A table-like list, all in capitals in the old pharmacy system's print-out."""
    caps = rng.random() < 0.5
    say(b, "MEDICATION RECONCILIATION - ADMISSION", caps=True)
    patient_header(b, cast, day, rng, caps=caps)
    say(
        b,
        "Source: pt + ",
        ("ORGANIZATION", cast.pharmacy),
        " dispensing hx (ph ",
        ("PHONE", cast.region.phone(rng)),
        ")",
        caps=caps,
    )
    say(b, "DRUG              DOSE      FREQ        STATUS", caps=caps)
    for name, dose, frequency in rng.sample(lexicon.MEDICATIONS, rng.randint(4, 8)):
        status = rng.choice(("continue", "continue", "held", "changed", "ceased"))
        say(b, f"{name:<17} {dose:<9} {frequency:<11} {status}", caps=caps)
    say(
        b,
        "Allergies: ",
        rng.choice(("NKDA", "penicillin (rash)", "sulfa - hives", "codeine (N/V)")),
        caps=caps,
    )
    if rng.random() < 0.5:
        say(b, "Cabinet override by RN, biometric ID ", ("BIOID", formats.biometric_id(rng)), caps=caps)
    say(
        b,
        "Reconciled by pharmacist ",
        ("DOCTOR", rng.choice(cast.nurses).full),
        " ",
        ("DATE", formats.full_date(day, rng)),
        caps=caps,
    )


def referral_letter(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """A letter from the GP clinic to a hospital specialist: letterhead, salutation, prose."""
    clinic = cast.gp_clinic
    specialist = cast.doctor(rng)
    say(b, ("HOSPITAL", clinic.name.upper()))
    say(b, "Tel ", ("PHONE", clinic.phone), "  |  Fax ", ("FAX", clinic.fax))
    say(b, ("URL", clinic.url))
    b.line()
    say(b, ("DATE", formats.full_date(day, rng)))
    b.line()
    say(b, *doctor_parts(specialist, rng))
    say(b, ("HOSPITAL", cast.hospital.name))
    b.line()
    say(b, "Dear Dr ", ("DOCTOR", specialist.last), ",")
    b.line()
    opening: list[Part] = [
        "Re: ",
        ("PATIENT", cast.patient.full),
        ", DOB ",
        ("DATE", formats.full_date(cast.dob, rng)),
    ]
    say(b, *opening)
    address_lines(b, cast, rng, one_line=True)
    b.line()
    say(
        b,
        "Thank you for seeing this ",
        *age_parts(cast.age_on(day), rng),
        " patient, a ",
        ("PROFESSION", cast.profession),
        ", originally from ",
        ("COUNTRY", cast.birth_country),
        ", whom I have looked after since ",
        ("DATE", str(day.year - rng.randint(2, 15))),
        ".",
    )
    complaint, impression = rng.choice(lexicon.COMPLAINTS)
    season = rng.choice(("autumn", "winter", "spring", "summer"))
    say(b, "Since the ", ("DATE", season), f" {complaint} has recurred; I wonder about {impression}.")
    if rng.random() < 0.5:
        kind, serial = cast.device
        say(
            b,
            f"Note a {kind} (serial ",
            ("DEVICE", serial),
            ") fitted at ",
            ("HOSPITAL", cast.hospital.abbreviation),
            ".",
        )
    say(b, "Mobile for appointments: ", ("PHONE", cast.mobile), ", e-mail ", ("EMAIL", cast.email), ".")
    b.line()
    say(b, "Kind regards,")
    sign_off(b, cast.gp, rng, rng.choice(("MBChB", "MD CCFP", "GP")))


def telephone_encounter(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """Terse call log: who rang, from which number, what was said, the audit stamp."""
    relative = cast.relative(rng)
    caller_is_relative = rng.random() < 0.5
    say(b, "TELEPHONE ENCOUNTER")
    say(
        b,
        ("DATE", formats.full_date(day, rng)),
        " ",
        formats.time_of_day(rng),
        "  Call from: ",
        ("PATIENT", relative.person.full if caller_is_relative else cast.patient.full),
        f" ({relative.relation if caller_is_relative else 'self'})",
    )
    say(b, "Callback #: ", ("PHONE", relative.phone if caller_is_relative else cast.mobile))
    say(
        b,
        "Re pt: ",
        ("PATIENT", f"{cast.patient.last}, {cast.patient.first}"),
        "  ",
        ("MEDICALRECORD", cast.chart),
    )
    reason = rng.choice(
        (
            "requests repeat script, ran out on ",
            "asking re results of bloods taken ",
            "reports fall at home ",
            "wants appt moved from ",
        )
    )
    say(
        b,
        reason,
        ("DATE", formats.short_date(day - timedelta(days=rng.randint(1, 6)), rng)),
        ". ",
        rng.choice(("Advised.", "Msg left for Dr.", "Booked.")),
    )
    if rng.random() < 0.5:
        say(
            b,
            "Pt states portal login not working -- sent reset link to ",
            ("EMAIL", cast.email),
            " (",
            ("URL", cast.hospital.url),
            ")",
        )
    if rng.random() < 0.4:
        say(
            b,
            "Transport: ",
            ("PATIENT", relative.person.first),
            " will drive, plate ",
            ("VEHICLE", cast.plate),
            " for disabled bay.",
        )
    audit_line(b, cast, day, rng)
