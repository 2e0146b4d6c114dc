"""Hospital notes of style C: ED triage, operative report, ICU flowsheet, death or transfer summary."""

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
    patient_header,
    put,
    say,
    sign_off,
)


def ed_triage(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """Telegraphic triage text, a capitalised header and an acuity score."""
    hospital = cast.hospital
    say(b, ("HOSPITAL", hospital.name), " - EMERGENCY", caps=True)
    say(b, "TRIAGE NOTE   arrived ", formats.time_of_day(rng), " ", ("DATE", formats.full_date(day, rng)))
    patient_header(b, cast, day, rng, caps=rng.random() < 0.3)
    complaint, impression = rng.choice(lexicon.COMPLAINTS)
    relative = cast.relative(rng)
    b.line()
    say(b, "CC: ", complaint)
    mode = rng.choice(("walk-in", "BIBA", "private car", "police"))
    parts: list[Part] = [
        "HPI: ",
        *age_parts(cast.age_on(day), rng),
        f" {cast.patient.sex} {mode}, pt seen w/ {relative.relation} ",
    ]
    parts += [("PATIENT", relative.person.first), ". Sx since "]
    parts += [("DATE", formats.short_date(day - timedelta(days=rng.randint(1, 5)), rng)), ". "]
    if rng.random() < 0.5:
        parts += ["Works as ", ("PROFESSION", cast.profession), " at ", ("ORGANIZATION", cast.employer), ". "]
    else:
        parts += ["Found down near ", ("LOCATION-OTHER", cast.landmark), " by bystander. "]
    say(b, *parts)
    say(
        b,
        f"CTAS {rng.randint(1, 5)}  GCS 15  BP {rng.randint(95, 180)}/{rng.randint(50, 100)}  HR {rng.randint(50, 130)}  SpO2 {rng.randint(88, 100)}% RA",
    )
    b.decoy(f"Wt {rng.randint(45, 130)} kg. Foley in situ, pain {rng.randint(1, 9)}/10.\n", "DOCTOR", "Foley")
    say(
        b,
        "Imp: ",
        impression,
        ". To ",
        rng.choice(("Resus", "Acute", "Fast Track")),
        " bed ",
        ("ROOM", f"{rng.choice('ABC')}{rng.randint(1, 24)}"),
    )
    say(b, "NOK: ", ("PATIENT", relative.person.full), f" ({relative.relation}) ", ("PHONE", relative.phone))
    if rng.random() < 0.5:
        say(b, "Home: ", ("PHONE", cast.home_phone), "   Cell: ", ("PHONE", cast.mobile))
    say(b, "Triage RN: ", ("DOCTOR", rng.choice(cast.nurses).full))
    audit_line(b, cast, day, rng)


def operative_report(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """Formal sections in capitals, the team as a key: value list, a narrative procedure."""
    operation, diagnosis = rng.choice(lexicon.OPERATIONS)
    surgeon, assistant, anaesthetist = rng.sample(cast.doctors, 3)
    say(b, "OPERATIVE REPORT")
    say(b, ("HOSPITAL", cast.hospital.name), " / ", "Theatre ", ("ROOM", str(rng.randint(1, 12))))
    patient_header(b, cast, day, rng)
    say(b, "DATE OF OPERATION: ", ("DATE", formats.full_date(day, rng)))
    say(b, "SURGEON: ", *doctor_parts(surgeon, rng))
    say(b, "ASSISTANT: ", *doctor_parts(assistant, rng))
    say(b, "ANAESTHETIST: ", *doctor_parts(anaesthetist, rng))
    say(b, "PRE-OP DIAGNOSIS: ", diagnosis)
    say(b, "PROCEDURE: ", operation)
    b.line()
    say(b, "INDICATIONS:")
    put(
        b, "This ", *age_parts(cast.age_on(day), rng), f" {'woman' if cast.patient.sex == 'F' else 'man'}, a "
    )
    say(
        b,
        ("PROFESSION", cast.profession),
        ", was listed after review in clinic on ",
        ("DATE", formats.any_date(day - timedelta(days=rng.randint(10, 90)), rng)),
        ".",
    )
    say(b, "FINDINGS / TECHNIQUE:")
    say(
        b,
        "GA, supine, prepped and draped. Time out completed ",
        formats.time_of_day(rng),
        ". Uneventful procedure; EBL ",
        str(rng.randint(5, 400)),
        " mL. Swab and instrument counts correct x2.",
    )
    if rng.random() < 0.5:
        kind, serial = cast.device
        say(b, f"Implant log: {kind} checked pre-op, SN ", ("DEVICE", serial), ".")
    say(b, "Specimen: ", ("IDNUM", formats.accession(rng, day.year)), " to path.")
    say(b, "DISPOSITION: PACU then ", ("DEPARTMENT", cast.ward), ".")
    b.line()
    sign_off(b, surgeon, rng, rng.choice(("(Surgeon)", "General Surgery", "")))
    say(
        b,
        "cc: ",
        *doctor_parts(cast.gp, rng),
        ", ",
        ("HOSPITAL", cast.gp_clinic.name),
        "  fax ",
        ("FAX", cast.gp_clinic.fax),
    )


def icu_flowsheet(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """Tabular hourly observations with a short nursing narrative and a handover line."""
    nurse = rng.choice(cast.nurses)
    say(
        b,
        "ICU FLOWSHEET   ",
        ("HOSPITAL", cast.hospital.abbreviation),
        "   Bed ",
        ("ROOM", f"{rng.randint(1, 20)}"),
    )
    say(
        b,
        "Pt: ",
        ("PATIENT", f"{cast.patient.last.upper()} {cast.patient.first}"),
        "   ",
        ("MEDICALRECORD", cast.chart),
        "   ",
        ("DATE", formats.full_date(day, rng)),
    )
    say(b, "Time  | HR  | MAP | RR | SpO2 | FiO2 | UO(mL)")
    for _ in range(rng.randint(3, 6)):
        say(
            b,
            f"{formats.time_of_day(rng):<5} | {rng.randint(60, 130):<3} | {rng.randint(55, 95):<3} | {rng.randint(10, 30):<2} | "
            f"{rng.randint(88, 100):<4} | {rng.choice(('0.3', '0.4', '0.6', 'RA')):<4} | {rng.randint(10, 120)}",
        )
    say(
        b,
        "Infusions: noradrenaline 0.0",
        str(rng.randint(2, 9)),
        " mcg/kg/min, propofol 1",
        str(rng.randint(0, 9)),
        " mL/h",
    )
    relative = cast.relative(rng)
    say(
        b,
        "Narrative: settled overnight. ",
        relative.relation.capitalize(),
        " ",
        ("PATIENT", relative.person.first),
        " phoned ",
        formats.time_of_day(rng),
        ", updated. Visiting ",
        ("DATE", formats.short_date(day + timedelta(days=1), rng)),
        ".",
    )
    say(
        b,
        "Handover to ",
        ("DOCTOR", rng.choice(cast.nurses).first),
        " @ 0700. RN ",
        ("DOCTOR", nurse.full),
        " pager ",
        ("PHONE", formats.digits(rng, 4)),
    )


def death_or_transfer(b: NoteBuilder, cast: Cast, day: date, rng: random.Random) -> None:
    """A transfer summary (or, for the oldest patients, a death summary), with the receiving site."""
    age = cast.age_on(day)
    died = age >= 85 and rng.random() < 0.5
    doctor = cast.doctor(rng)
    say(b, ("DEATH SUMMARY" if died else "INTER-HOSPITAL TRANSFER SUMMARY"))
    patient_header(b, cast, day, rng)
    say(
        b,
        "Admitted: ",
        ("DATE", formats.full_date(day - timedelta(days=rng.randint(2, 30)), rng)),
        "  Ward: ",
        ("DEPARTMENT", cast.ward),
    )
    if died:
        say(b, "Date of death: ", ("DATE", formats.full_date(day, rng)), " at ", formats.time_of_day(rng))
        relative = cast.relative(rng)
        say(
            b,
            f"Pt passed peacefully w/ family present incl. {relative.relation} ",
            ("PATIENT", relative.person.full),
            " (",
            *age_parts(relative.age, rng),
            "). Coroner not notified. Certificate completed by ",
            *doctor_parts(doctor, rng),
            ".",
        )
    else:
        receiving = rng.choice(lexicon.PLACE_STEMS) + " " + rng.choice(lexicon.HOSPITAL_KINDS)
        town = rng.choice(cast.region.towns)
        say(
            b,
            "Transferred to: ",
            ("HOSPITAL", receiving),
            ", ",
            ("CITY", town),
            " on ",
            ("DATE", formats.full_date(day, rng)),
        )
        say(
            b,
            "Accepting: ",
            *doctor_parts(rng.choice(cast.doctors), rng),
            "  Ph ",
            ("PHONE", cast.region.phone(rng)),
        )
        say(
            b,
            "Reason: needs ",
            rng.choice(("PCI", "neurosurgical review", "burns care", "ECMO assessment")),
            ". Escort RN, ",
            rng.choice(("road", "fixed-wing", "rotor")),
            " transport.",
        )
    if rng.random() < 0.4:
        say(b, "Social: lives at")
        address_lines(b, cast, rng)
    if rng.random() < 0.3:
        say(
            b,
            "Born in ",
            ("COUNTRY", cast.birth_country),
            ", came here ",
            ("DATE", formats.month_year(cast.dob + timedelta(days=365 * rng.randint(15, 40)), rng)),
            ".",
        )
    say(
        b,
        "COPY TO GP: ",
        ("DOCTOR", cast.gp.last.upper()),
        ", ",
        ("HOSPITAL", cast.gp_clinic.name.upper()),
        caps=True,
    )
    sign_off(b, doctor, rng)
