"""Whole notes of each type, and the rare PHI snippets that some notes carry."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from annotator.synth import lexicon as lx
from annotator.synth.builder import NoteBuilder
from annotator.synth.notes import (
    HEADER_DATES,
    address_block,
    assessment_plan,
    body,
    demographics,
    exam,
    generic_department,
    hospital_course,
    hospital_mention,
    labs,
    lookalike,
    medications,
    record_date_line,
    signature,
)
from annotator.synth.world import (
    PatientWorld,
    digits,
    format_date,
    letters,
    make_phone,
    write_age,
    write_date,
    write_doctor,
    write_patient,
    write_vague_date,
)

NoteWriter = Callable[[NoteBuilder, PatientWorld, dt.date, random.Random], None]


def _days(day: dt.date, delta: int) -> dt.date:
    return day + dt.timedelta(days=delta)


def discharge_summary(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    hospital_mention(b, w, rng)
    b.add("\nDISCHARGE SUMMARY\n\n")
    demographics(b, w, day, rng)
    b.add("ADMISSION DATE: ").phi(format_date(day, fmt := rng.choice(HEADER_DATES)), "DATE")
    b.add("    DISCHARGE DATE: ").phi(format_date(_days(day, rng.randint(2, 9)), fmt), "DATE").add("\n")
    b.add("ATTENDING: ")
    write_doctor(b, w.doctor("attending"), rng, "full")
    if rng.random() < 0.3:
        b.add("   SERVICE: ")
        generic_department(b, rng)
    b.add("\n\n")
    body(b, w, day, rng, rng.randint(3, 5))
    hospital_course(b, w, day, rng)
    b.add("DISCHARGE MEDICATIONS: as above.\n")
    b.add("DISPOSITION: home with services")
    if rng.random() < 0.3:
        b.add(" (VNA of ").phi(w.city, "CITY").add(")")
    b.add(".\n")
    assessment_plan(b, w, day, rng)
    signature(b, w, day, rng)


def ed_note(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    hospital_mention(b, w, rng)
    b.add(" EMERGENCY DEPARTMENT NOTE\n")
    demographics(b, w, day, rng)
    b.add("Arrival: ").phi(format_date(day, "mm/dd/yyyy"), "DATE").add(
        f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    )
    if rng.random() < 0.4:
        b.add("   Room ").phi(f"{rng.choice('ABCDE')}{rng.randint(1, 30)}", "ROOM")
    b.add("\nPCP: ")
    write_doctor(b, w.doctor("pcp"), rng)
    b.add("\n\n")
    body(b, w, day, rng, rng.randint(3, 5))
    exam(b, w, day, rng)
    assessment_plan(b, w, day, rng)
    signature(b, w, day, rng, "resident")


def progress_note(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    b.add(
        rng.choice(
            ("INTERNAL MEDICINE PROGRESS NOTE", "Progress Note", "DIABETES FOLLOW-UP", "CARDIOLOGY CLINIC")
        )
    ).add("\n")
    if rng.random() < 0.5:
        hospital_mention(b, w, rng)
        b.add("\n")
    demographics(b, w, day, rng)
    b.add("\n")
    body(b, w, day, rng, rng.randint(3, 6))
    assessment_plan(b, w, day, rng)
    signature(b, w, day, rng, "pcp")


def clinic_note(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    b.phi(w.other_hospital if rng.random() < 0.3 else w.hospital, "HOSPITAL").add("\n")
    b.add(f"{rng.choice(('Primary Care', 'Endocrine Clinic', 'Vascular Clinic'))}\n")
    address_block(b, w, rng) if rng.random() < 0.3 else None
    b.add("\nRE: ")
    write_patient(b, w, rng, formal=True)
    b.add("   DOB ").phi(format_date(w.birth, rng.choice(HEADER_DATES)), "DATE")
    b.add("   MRN ").phi(w.mrn, "MEDICALRECORD").add("\n")
    b.add("Date of service: ").phi(format_date(day, rng.choice(HEADER_DATES)), "DATE").add("\n\n")
    body(b, w, day, rng, rng.randint(3, 5))
    assessment_plan(b, w, day, rng)
    signature(b, w, day, rng, "pcp")


def telephone_encounter(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    b.add("TELEPHONE ENCOUNTER\nRe: ")
    write_patient(b, w, rng, formal=True)
    b.add("\n")
    b.add("Caller: ")
    relative = rng.choice(w.relatives)
    if rng.random() < 0.5:
        write_patient(b, w, rng)
        b.add(" (patient)")
    else:
        b.phi(relative.person.full, "PATIENT").add(f" ({relative.relation})")
    b.add("   Call back: ").phi(w.phone, "PHONE")
    b.add("\nMRN: ").phi(w.mrn, "MEDICALRECORD").add("\n\n")
    write_patient(b, w, rng)
    b.add(" called on ").phi(lx.WEEKDAYS[day.weekday()], "DATE")
    b.add(
        f" reporting {rng.choice(('blood sugars in the 300s', 'ankle swelling', 'a cough x3 days', 'pain 6/10 in the left foot'))}. "
    )
    b.add("Advised to ").add(
        rng.choice(("increase glargine by 2 units", "hold furosemide for 1 day", "come to the ED"))
    )
    b.add(". Appointment made with ")
    write_doctor(b, w.doctor("pcp"), rng)
    b.add(" for ")
    write_date(b, _days(day, rng.randint(2, 14)), rng, ("m/d", "Month dth", "m/d/yy"))
    b.add(".\n")
    if rng.random() < 0.35:
        b.add(f'Message from patient: "Thank you so much {rng.choice(("🙂", "🙏", "👍", "😊"))}"\n')
    b.add("\n")
    b.phi(w.doctor("nurse").person.full, "DOCTOR").add(", RN\n").phi(
        w.doctor("nurse").username, "USERNAME"
    ).add("\n")


def letter(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.phi(w.hospital, "HOSPITAL").add("\n")
    if rng.random() < 0.5:
        b.phi(f"{rng.randint(1, 999)} {rng.choice(lx.STREET_ROOTS)} Boulevard", "STREET").add("\n")
        b.phi(w.city, "CITY").add(", ").phi(w.state_abbr, "STATE").add(" ").phi(w.zip_code[:5], "ZIP").add(
            "\n"
        )
    b.add("Tel ").phi(make_phone(rng), "PHONE").add("\n\n")
    write_date(b, day, rng, ("Month d, yyyy", "d Month yyyy", "mm/dd/yyyy"))
    consultant = w.doctor("consultant")
    b.add("\n\nDear ")
    write_doctor(b, consultant, rng, "title")
    b.add(",\n\nRE: ")
    write_patient(b, w, rng, formal=True)
    b.add(", MRN ").phi(w.mrn, "MEDICALRECORD")
    b.add("\n\nThank you for seeing our mutual patient, ")
    write_patient(b, w, rng)
    b.add(", ")
    write_age(b, w.age_on(day), rng, w.person.sex, with_article=True)
    b.add(f" {'woman' if w.person.sex == 'F' else 'man'} whom I follow for {rng.choice(lx.PROBLEMS)}. ")
    b.add(f"{w.pronoun.capitalize()} was hospitalized at ")
    b.phi(w.other_hospital, "HOSPITAL").add(" in ")
    write_date(b, _days(day, -rng.randint(30, 400)), rng, ("Month yyyy", "m/yyyy", "Month yyyy"))
    b.add(". ")
    lookalike(b, rng)
    b.add("\n\n")
    body(b, w, day, rng, rng.randint(1, 3))
    b.add("Please do not hesitate to call me at ").phi(
        w.doctor("pcp").pager if rng.random() < 0.3 else make_phone(rng), "PHONE"
    ).add(".\n\n")
    b.add("Sincerely,\n\n")
    write_doctor(b, w.doctor("pcp"), rng, "signature")
    b.add("\n")
    if rng.random() < 0.5:
        b.add("cc: ")
        write_patient(b, w, rng, formal=True)
        b.add("\n")
        address_block(b, w, rng)


def operative_report(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    b.add("OPERATIVE REPORT\n")
    demographics(b, w, day, rng)
    b.add("DATE OF OPERATION: ").phi(format_date(day, rng.choice(HEADER_DATES)), "DATE").add("\n")
    b.add("SURGEON: ")
    write_doctor(b, w.doctor("surgeon"), rng, "full")
    b.add("\nASSISTANT: ")
    write_doctor(b, w.doctor("resident"), rng, "full")
    b.add("\nPROCEDURE: ").add(
        rng.choice(
            (
                "right transmetatarsal amputation",
                "CABG x3 (LIMA-LAD, SVG-OM, SVG-PDA)",
                "laparoscopic cholecystectomy",
                "AV fistula creation",
            )
        )
    )
    b.add("\nINDICATION: ")
    write_age(b, w.age_on(day), rng, w.person.sex)
    b.add(f" with {rng.choice(lx.PROBLEMS)}. ")
    lookalike(b, rng)
    b.add("\nDESCRIPTION: The patient was brought to ")
    if rng.random() < 0.4:
        b.add("OR ").phi(str(rng.randint(1, 24)), "ROOM")
    else:
        generic_department(b, rng)
    b.add(" and placed supine. A ").decoy("Foley catheter", "DOCTOR", "Foley").add(
        " was placed. EBL 150 cc. "
    )
    b.add("Implant: ").decoy("25 mm Carpentier-Edwards valve", "DOCTOR", "Carpentier").add(". ")
    b.add("The patient tolerated the procedure well.\n")
    signature(b, w, day, rng, "surgeon")


def radiology_report(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    hospital_mention(b, w, rng)
    b.add(" RADIOLOGY   Accession ").phi(f"{letters(rng, 1)}{digits(rng, 8)}", "IDNUM").add("\n")
    demographics(b, w, day, rng)
    b.add("EXAM: ").add(
        rng.choice(("CXR PA/LAT", "CT head w/o contrast", "MRI L-spine", "RLE arterial duplex"))
    )
    b.add("   DATE: ").phi(format_date(day, rng.choice(HEADER_DATES)), "DATE").add("\n")
    b.add("COMPARISON: ").phi(
        format_date(_days(day, -rng.randint(30, 900)), rng.choice(HEADER_DATES)), "DATE"
    )
    b.add("\nINDICATION: ")
    write_age(b, w.age_on(day), rng, w.person.sex)
    b.add(f" with {rng.choice(lx.PROBLEMS)}.\nFINDINGS: No acute process. ")
    lookalike(b, rng)
    b.add("\nIMPRESSION: Stable.\n")
    b.add("Read by: ")
    write_doctor(b, w.doctor("consultant"), rng, "full")
    if rng.random() < 0.5:
        b.add("  ").phi(w.doctor("consultant").username, "USERNAME")
    b.add("\n")


def nursing_note(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    b.add("NURSING NOTE  ")
    generic_department(b, rng)
    b.add("  Bed ").phi(
        f"{rng.randint(2, 9)}{rng.randint(0, 4)}{rng.randint(1, 9)}{rng.choice('AB')}", "ROOM"
    ).add("\n")
    b.add("Patient: ")
    write_patient(b, w, rng, formal=True)
    b.add("\n")
    write_patient(b, w, rng)
    b.add(" resting comfortably. ")
    lookalike(b, rng)
    b.add(f" Family ({rng.choice(w.relatives).relation}) at bedside. ")
    b.add("Vitals stable. Plan per ")
    write_doctor(b, w.doctor("resident"), rng)
    b.add(".\n")
    medications(b, w, day, rng)
    b.add("-- ").phi(w.doctor("nurse").person.full, "DOCTOR").add(", RN ")
    b.phi(format_date(day, "m/d/yy"), "DATE").add(" 0700\n")


def cardiology_consult(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    record_date_line(b, day, rng)
    b.add("CARDIOLOGY CONSULTATION\n")
    demographics(b, w, day, rng)
    b.add("Requested by: ")
    write_doctor(b, w.doctor("attending"), rng)
    b.add("   Consultant: ")
    write_doctor(b, w.doctor("consultant"), rng, "full")
    b.add("\n\n")
    body(b, w, day, rng, rng.randint(3, 5))
    labs(b, w, day, rng)
    assessment_plan(b, w, day, rng)
    signature(b, w, day, rng, "consultant")


NOTE_TYPES: dict[str, tuple[NoteWriter, float]] = {
    "discharge summary": (discharge_summary, 0.18),
    "ED note": (ed_note, 0.1),
    "progress note": (progress_note, 0.2),
    "clinic note": (clinic_note, 0.14),
    "telephone encounter": (telephone_encounter, 0.06),
    "letter": (letter, 0.1),
    "operative report": (operative_report, 0.05),
    "radiology report": (radiology_report, 0.06),
    "nursing note": (nursing_note, 0.05),
    "cardiology consult": (cardiology_consult, 0.06),
}


# -- rare PHI --------------------------------------------------------------------------------
def _rare_fax(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Please fax results to ").phi(make_phone(rng), "FAX").add(".")


def _rare_email(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Patient prefers e-mail: ").phi(w.email, "EMAIL").add(".")


def _rare_url(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Enrolled in the support group at ").phi(
        f"www.{rng.choice(lx.URL_WORDS)}-{w.city.split()[0].lower()}.org", "URL"
    ).add(".")


def _rare_ip(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    address = ".".join(str(rng.randint(1, 254)) for _ in range(4))
    b.add("Home monitor uploads from ").phi(address, "IPADDR").add(".")


def _rare_ssn(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("SSN: ").phi(f"{digits(rng, 3)}-{digits(rng, 2)}-{digits(rng, 4)}", "SSN")


def _rare_healthplan(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Insurance member ID: ").phi(f"{letters(rng, 3)}{digits(rng, 9)}", "HEALTHPLAN")


def _rare_account(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Billing account #").phi(digits(rng, 10), "ACCOUNT")


def _rare_license(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    if rng.random() < 0.5:
        b.add("Prescriber DEA #").phi(f"{letters(rng, 2)}{digits(rng, 7)}", "LICENSE")
    else:
        b.add("Driver's license ").phi(f"S{digits(rng, 8)}", "LICENSE").add(" on file")


def _rare_vehicle(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Struck while parked; plate ").phi(
        f"{digits(rng, 1)}{letters(rng, 3)} {digits(rng, 3)}", "VEHICLE"
    ).add(".")


def _rare_device(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Pacemaker serial no. ").phi(f"{letters(rng, 3)}{digits(rng, 6)}H", "DEVICE").add(" interrogated.")


def _rare_bioid(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Biometric enrollment ID ").phi(f"BIO-{digits(rng, 6)}", "BIOID").add(".")


def _rare_location_other(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Injured while hiking near ").phi(rng.choice(lx.LOCATION_OTHER), "LOCATION-OTHER").add(".")


def _rare_room(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Transferred to room ").phi(f"{rng.randint(2, 9)}{rng.randint(10, 40)}", "ROOM").add(".")


def _rare_department(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add("Seen in the ").phi(rng.choice(lx.UNIQUE_DEPARTMENTS), "DEPARTMENT").add(".")


def _rare_other(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.add(f"{w.pronoun.capitalize()} is proud to have won the ").phi(
        f"{w.city} county fair pie contest", "OTHER"
    ).add(" ")
    write_vague_date(b, w.record_dates[0], rng)
    b.add(".")


RARE: dict[str, Callable[[NoteBuilder, PatientWorld, random.Random], None]] = {
    "FAX": _rare_fax,
    "EMAIL": _rare_email,
    "URL": _rare_url,
    "IPADDR": _rare_ip,
    "SSN": _rare_ssn,
    "HEALTHPLAN": _rare_healthplan,
    "ACCOUNT": _rare_account,
    "LICENSE": _rare_license,
    "VEHICLE": _rare_vehicle,
    "DEVICE": _rare_device,
    "BIOID": _rare_bioid,
    "LOCATION-OTHER": _rare_location_other,
    "ROOM": _rare_room,
    "DEPARTMENT": _rare_department,
    "OTHER": _rare_other,
}


def rare_block(b: NoteBuilder, w: PatientWorld, rng: random.Random, kinds: list[str]) -> None:
    """An "Additional information" paragraph carrying the given rare types."""
    if not kinds:
        return
    if not b.ends_with_newline():
        b.add("\n")
    b.add("ADDITIONAL INFORMATION:\n")
    for kind in kinds:
        RARE[kind](b, w, rng)
        b.add("\n")
