"""Style B note types: shift notes, imaging and histology reports, discharge records, referral
letters, triage scribbles and an all-capitals transfer form.

Written independently of style A's templates; only the ``NoteBuilder`` plumbing is shared.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from annotator.synth.builder import NoteBuilder
from annotator.synth.style_b import vocab
from annotator.synth.style_b.clinic_notes import anaesthetic_record, mdt_outcome, phone_message
from annotator.synth.style_b.formats import make_phone_b, write_age_b, write_date_b, write_mrn, write_name
from annotator.synth.style_b.people import Cast
from annotator.synth.style_b.pieces import (
    address_lines,
    background,
    bullet_list,
    collision,
    course_by_day,
    lab_table,
    later,
    med_table,
    number_lookalike,
    shift_entries,
    sign_off,
    social_line,
)

NoteType = Callable[[NoteBuilder, Cast, dt.date, random.Random], None]


def shift_note(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    """Nursing shift note laid out like a flowsheet."""
    b.add("NURSING SHIFT REPORT  ").add(rng.choice(("Night", "Day", "Late"))).add(" shift  ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\nLocation: ").phi(rng.choice(vocab.DEPARTMENTS), "DEPARTMENT")
    b.add(", bed ").phi(str(rng.randint(1, 32)), "ROOM").add("\nPt: ")
    write_name(b, c.patient, "PATIENT", rng)
    write_mrn(b.add("   UR no. "), c.mrn).add("\n\n")
    b.add(f"{'Time':<7}{'T':<6}{'HR':<5}{'BP':<9}{'RR':<4}SpO2\n")
    for hour in sorted(rng.sample(range(0, 24), 4)):
        b.add(f"{hour:02d}00   {rng.uniform(36.1, 38.4):<6.1f}{rng.randint(58, 118):<5}")
        b.add(
            f"{rng.randint(95, 165)}/{rng.randint(50, 95):<5}{rng.randint(12, 26):<4}{rng.randint(89, 99)}%\n"
        )
    b.add("\n")
    shift_entries(b, rng)
    b.add("Obs stable overnight. ")
    number_lookalike(b, rng)
    b.add(". ")
    collision(b, rng)
    b.add(" noted.\nSeen by ")
    write_name(b, c.staff["registrar"].person, "DOCTOR", rng)
    b.add(" at 0300, plan unchanged. ")
    if rng.random() < 0.6:
        b.add(f"{c.kin_relation.capitalize()} ")
        write_name(b, c.next_of_kin, "PATIENT", rng)
        b.add(" rang ward, updated, contact ").phi(c.kin_phone, "PHONE").add(".")
    b.add("\nTo do:\n")
    bullet_list(b, ["fluid balance chart", "pressure area care 2-hrly", "repeat bloods in AM"], rng)
    b.add("Signed ")
    write_name(b, c.staff["nurse"].person, "DOCTOR", rng)
    b.add(" RN\n")


def imaging_report(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    study = rng.choice(("CT ABDOMEN/PELVIS WITH CONTRAST", "MRI BRAIN", "XR CHEST PA/LAT", "US ABDOMEN"))
    b.add("DEPARTMENT OF MEDICAL IMAGING - ").phi(c.hospital, "HOSPITAL").add("\n")
    b.add("Accession: ").phi(f"RAD{rng.randint(1000000, 9999999)}", "IDNUM")
    b.add("    Exam date: ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\nPatient: ")
    write_name(b, c.patient, "PATIENT", rng)
    write_mrn(b.add("  ("), c.mrn).add(")")
    b.add(f"\nStudy: {study}\nReferrer: Dr ")
    write_name(b, c.staff["consultant"].person, "DOCTOR", rng)
    b.add("\n\nClinical details: ")
    write_age_b(b, c.age_on(day), rng)
    b.add(f" {'female' if c.sex == 'F' else 'male'}, ")
    collision(b, rng)
    b.add(".\nComparison: prior from ")
    write_date_b(b, later(day, -rng.randint(30, 700)), rng, c.dmy)
    b.add(" at ").phi(c.other_hospital, "HOSPITAL").add(".\n\nFindings:\n")
    bullet_list(b, ["No free gas.", "Small left effusion.", "Degenerative change lumbar spine."], rng)
    b.add("\nImpression: no acute abnormality. ")
    collision(b, rng)
    b.add(" in situ.\n\n")
    sign_off(b, c.staff["radiologist"], c, day, rng)


def histology_report(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    b.add("CELLULAR PATHOLOGY REPORT\nLab no: ").phi(
        f"H{day.year % 100:02d}-{rng.randint(10000, 99999)}", "IDNUM"
    )
    b.add("\nSurname: ").phi(c.patient.last.upper(), "PATIENT")
    b.add("   Forename: ").phi(c.patient.first, "PATIENT")
    b.add("\nDOB: ").phi(f"{c.birth.day:02d}.{c.birth.month:02d}.{c.birth.year}", "DATE")
    write_mrn(b.add("   Hosp no: "), c.mrn)
    b.add("\nReceived: ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\n\nSPECIMEN: ").add(
        rng.choice(
            ("Colon, sigmoid, resection", "Lymph node, cervical, excision", "Skin, left forearm, punch")
        )
    )
    b.add("\nMACROSCOPY: received in formalin, 45 x 20 x 15 mm.\nMICROSCOPY: ")
    collision(b, rng)
    b.add(" considered; no malignancy identified.\nSNOMED: M-00100\n\nReported by ")
    write_name(b, c.staff["pathologist"].person, "DOCTOR", rng)
    b.add(", FRCPath, ").phi(f"{c.hospital} Laboratories", "ORGANIZATION").add("\n")


def discharge_record(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    out = later(day, rng.randint(1, 12))
    b.add("Hospital Discharge Record\n").phi(c.hospital, "HOSPITAL").add(", ")
    b.phi(c.town, "CITY").add("\n\nPatient name: ")
    write_name(b, c.patient, "PATIENT", rng)
    write_mrn(b.add("\nNHI/UR: "), c.mrn).add("   Date of birth: ")
    write_date_b(b, c.birth, rng, c.dmy, partial=0.0)
    b.add("\nAdmitted ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add(" -- Left hospital ")
    write_date_b(b, out, rng, c.dmy, partial=0.0)
    b.add("\nConsultant: ")
    write_name(b, c.staff["consultant"].person, "DOCTOR", rng)
    b.add("\n\nReason for stay\n")
    collision(b, rng)
    b.add(" with ")
    collision(b, rng)
    b.add(".\n\n")
    background(b, c, day, rng)
    social_line(b, c, rng)
    b.add("\nWhat happened in hospital\nAdmitted via ED.\n")
    course_by_day(b, c, day, rng)
    number_lookalike(b, rng)
    b.add(" on leaving. Discussed with ")
    write_name(b, c.next_of_kin, "PATIENT", rng)
    b.add(f" ({c.kin_relation}).\n\nMedicines on leaving\n")
    med_table(b, rng)
    b.add("\nResults\n")
    lab_table(b, c, out, rng)
    b.add("\nFollow-up\n")
    bullet_list(b, ["GP review in 1-2 weeks", "clinic in 6 weeks", "bloods before clinic"], rng)
    b.add("Copy to GP: Dr ")
    write_name(b, c.staff["gp"].person, "DOCTOR", rng)
    b.add(", ").phi(rng.choice(vocab.HOSPITAL_PLACES) + " Surgery", "HOSPITAL").add("\n")


def referral_letter(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    gp = c.staff["gp"].person
    b.add("Outpatient Clinic\n").phi(c.hospital, "HOSPITAL").add("\nTel ").phi(
        make_phone_b(rng, c.region), "PHONE"
    )
    b.add("  Fax ").phi(make_phone_b(rng, c.region), "FAX").add("\n\n")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\n\nDear Dr ").phi(gp.last, "DOCTOR").add(",\n\nRe: ")
    write_name(b, c.patient, "PATIENT", rng)
    b.add(", DOB ").phi(full_date_simple(c), "DATE").add("\n")
    address_lines(b, c, rng)
    b.add("\nThank you for asking me to see this ")
    write_age_b(b, c.age_on(day), rng)
    b.add(" ").phi(c.profession, "PROFESSION").add(", who works for ").phi(c.employer, "ORGANIZATION")
    b.add(". Originally from ").phi(c.country_of_birth, "COUNTRY").add(". ")
    collision(b, rng)
    b.add(" since ")
    write_date_b(b, later(c.birth, 365 * rng.randint(30, 60)), rng, c.dmy, partial=1.0)
    b.add(". On examination ")
    collision(b, rng)
    b.add(", ")
    number_lookalike(b, rng)
    b.add(".\n\n")
    background(b, c, day, rng)
    b.add("\nI have arranged review on ")
    write_date_b(b, later(day, rng.randint(14, 90)), rng, c.dmy, partial=0.5)
    b.add(".\n\nYours sincerely,\n\n\n")
    write_name(b, c.staff["consultant"].person, "DOCTOR", rng)
    b.add("\nConsultant Physician\ncc: patient, ").phi(c.email, "EMAIL").add("\n")


def full_date_simple(c: Cast) -> str:
    return (
        f"{c.birth.day}/{c.birth.month}/{c.birth.year}"
        if c.dmy
        else f"{c.birth.month}-{c.birth.day}-{c.birth.year}"
    )


def triage_scribble(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    """Telegraphic triage text: abbreviations, no articles."""
    b.add("ED triage ")
    write_date_b(b, day, rng, c.dmy)
    b.add(f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}   ")
    write_name(b, c.patient, "PATIENT", rng, caps=True)
    b.add("\npt ")
    write_age_b(b, c.age_on(day), rng)
    b.add(f" {c.sex} c/o SOB x2/7, ")
    number_lookalike(b, rng)
    b.add(". BIBA from home (").phi(c.town, "CITY").add("). hx ")
    collision(b, rng)
    b.add(", ")
    collision(b, rng)
    b.add(". lives w ")
    b.add(c.kin_relation).add(" ")
    write_name(b, c.next_of_kin, "PATIENT", rng)
    b.add(". GP Dr ")
    b.phi(c.staff["gp"].person.last, "DOCTOR")
    b.add(". NKDA.\nobs: ")
    b.add(
        f"T {rng.uniform(36.2, 39.1):.1f} HR {rng.randint(60, 130)} RR {rng.randint(14, 30)} sats {rng.randint(86, 99)}%RA\n"
    )
    b.add(rng.choice(vocab.PROGRESS_PHRASES) + ". ")
    b.add("imp: ?CAP ?PE. plan: bloods, CXR, d/w reg ")
    b.phi(c.staff["registrar"].username, "USERNAME").add("\n")


def transfer_form(b: NoteBuilder, c: Cast, day: dt.date, rng: random.Random) -> None:
    """An inter-hospital transfer form; the generator writes this one in capitals."""
    b.add("INTER-HOSPITAL TRANSFER\nFROM: ").phi(c.hospital, "HOSPITAL")
    b.add("\nTO: ").phi(c.other_hospital, "HOSPITAL").add("\nDATE: ")
    write_date_b(b, day, rng, c.dmy, partial=0.0)
    b.add("\nNAME: ")
    write_name(b, c.patient, "PATIENT", rng)
    b.add("   AGE: ").phi(str(c.age_on(day)), "AGE").add("\nMRN ")
    write_mrn(b, c.mrn)
    b.add("\nADDRESS: ").phi(c.street, "STREET").add(", ").phi(c.town, "CITY").add(", ")
    b.phi(c.county_abbr, "STATE").add(" ").phi(c.postcode, "ZIP").add("\n")
    b.add("HOME PHONE: ").phi(c.phone, "PHONE").add("\nDIAGNOSES:\n1. ")
    collision(b, rng)
    b.add("\n2. ")
    collision(b, rng)
    b.add("\n")
    background(b, c, day, rng)
    b.add("LINES: ")
    collision(b, rng)
    b.add("\nON ARRIVAL ALERT. LAST 24H:\n")
    shift_entries(b, rng, caps=True)
    b.add("ACCEPTING: DR ")
    write_name(b, c.staff["consultant"].person, "DOCTOR", rng)
    b.add("\n")


NOTE_TYPES_B: dict[str, tuple[NoteType, float]] = {
    "nursing shift report": (shift_note, 0.2),
    "imaging report": (imaging_report, 0.15),
    "histology report": (histology_report, 0.1),
    "discharge record": (discharge_record, 0.2),
    "referral letter": (referral_letter, 0.15),
    "triage note": (triage_scribble, 0.12),
    "transfer form (capitals)": (transfer_form, 0.08),
    "MDT outcome": (mdt_outcome, 0.08),
    "anaesthetic record": (anaesthetic_record, 0.07),
    "telephone message": (phone_message, 0.07),
}
CAPITALS = {"transfer form (capitals)"}
