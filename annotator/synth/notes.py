"""Note templates: headers, sections, tables and signature blocks of many note types.

Every template writes into a :class:`NoteBuilder`; PHI goes through ``phi`` so its offsets are
exact by construction. Sections are shuffled per note, so different seeds also give different
layouts.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from annotator.synth import lexicon as lx
from annotator.synth.builder import NoteBuilder
from annotator.synth.world import (
    DAY_DATE_FORMATS,
    PatientWorld,
    article,
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

Section = Callable[[NoteBuilder, PatientWorld, dt.date, random.Random], None]
HEADER_DATES = ("mm/dd/yyyy", "iso", "m/d/yy", "Month d, yyyy", "d-Mon-yyyy", "mm-dd-yyyy")


def _days(day: dt.date, delta: int) -> dt.date:
    return day + dt.timedelta(days=delta)


# -- pieces --------------------------------------------------------------------------------
def record_date_line(b: NoteBuilder, day: dt.date, rng: random.Random) -> None:
    b.add("Record date: ").phi(format_date(day, rng.choice(("iso", "iso", "mm/dd/yyyy"))), "DATE").add("\n\n")


def demographics(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("Patient: ")
    write_patient(b, w, rng, formal=True)
    b.add(rng.choice(("    MRN: ", "   MR#: ", "\nMedical Record Number: ", "  Unit No: "))).phi(
        w.mrn, "MEDICALRECORD"
    )
    if rng.random() < 0.3:
        b.add("\n")
        address_block(b, w, rng)
        if rng.random() < 0.5:
            b.add("Home phone: ").phi(w.phone, "PHONE")
    if rng.random() < 0.5:
        b.add("\nDOB: ").phi(format_date(w.birth, rng.choice(HEADER_DATES)), "DATE")
    if rng.random() < 0.2:
        b.add("   Age: ").phi(str(w.age_on(day)), "AGE")
    b.add("\n")
    if rng.random() < 0.4:
        b.add("PCP: ")
        write_doctor(b, w.doctor("pcp"), rng, rng.choice(("title", "full")))
        if rng.random() < 0.5:
            b.add("   Referring: ")
            write_doctor(b, w.doctor("consultant"), rng, "full")
        b.add("\n")


def address_block(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.phi(w.street, "STREET").add("\n").phi(w.city, "CITY").add(", ")
    b.phi(w.state_abbr if rng.random() < 0.8 else w.state, "STATE").add(" ").phi(w.zip_code, "ZIP").add("\n")
    if rng.random() < 0.15:
        b.phi("USA", "COUNTRY").add("\n")


def hospital_mention(b: NoteBuilder, w: PatientWorld, rng: random.Random) -> None:
    b.phi(w.hospital_short if rng.random() < 0.3 else w.hospital, "HOSPITAL")


def signature(
    b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random, role: str = "attending"
) -> None:
    doc = w.doctor(role)
    form = rng.random()
    b.add("\n")
    if form < 0.35:
        b.add("Dictated by: ")
        write_doctor(b, doc, rng, "signature")
        b.add("\nDD: ").phi(format_date(day, "mm/dd/yyyy"), "DATE").add("  DT: ")
        b.phi(format_date(_days(day, rng.randint(0, 2)), "mm/dd/yyyy"), "DATE").add("\n")
        b.phi(doc.username, "USERNAME").add("/").add(letters(rng, 2).lower()).add("\n")
    elif form < 0.65:
        b.add("_" * 28 + "\n")
        write_doctor(b, doc, rng, "full")
        b.add(f", {doc.credential}\n")
        if rng.random() < 0.4:
            b.add("Pager ").phi(doc.pager, "PHONE").add("\n")
        if rng.random() < 0.4:
            b.add("Provider ID: ").phi(doc.provider_id, "IDNUM").add("\n")
    elif form < 0.85:
        b.add("Electronically signed by ")
        write_doctor(b, doc, rng, "signature")
        b.add(" on ").phi(format_date(day, rng.choice(HEADER_DATES)), "DATE").add(" 4:12 PM\n")
    elif rng.random() < 0.5:
        b.add("-- ").phi(doc.username, "USERNAME").add("\n")
    else:
        b.add("-- ")
        write_doctor(b, doc, rng, "full")
        b.add("\n")
    if rng.random() < 0.4:
        b.add("Attending: ")
        write_doctor(b, w.doctor("attending"), rng, "full")
        b.add("   Resident: ")
        write_doctor(b, w.doctor("resident"), rng, "full")
        b.add("\n")
    if rng.random() < 0.45:
        cc = w.doctor(rng.choice(("pcp", "consultant")))
        b.add("cc: ")
        write_doctor(b, cc, rng)
        if rng.random() < 0.7:
            b.add(", ").phi(w.other_hospital, "HOSPITAL")
        b.add("\n")


def lookalike(b: NoteBuilder, rng: random.Random) -> None:
    """A sentence holding something that looks like PHI but is not (a decoy for the annotators)."""
    choices = [item for item in lx.LOOKALIKE_SENTENCES if item[0] not in b.used] or list(
        lx.LOOKALIKE_SENTENCES
    )
    sentence, part, type_ = rng.choice(choices)
    b.used.add(sentence)
    if part:
        b.decoy(sentence, type_, part)
    else:
        b.add(sentence)


CLINICS = (
    "Cardiology",
    "Endocrinology",
    "Nephrology",
    "Primary Care",
    "Vascular Surgery",
    "Urology",
    "Neurology",
)


def generic_department(b: NoteBuilder, rng: random.Random) -> None:
    name = rng.choice(lx.generic_departments())
    b.decoy(name, "DEPARTMENT")


# -- sections -------------------------------------------------------------------------------
def hpi(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("HISTORY OF PRESENT ILLNESS:\n")
    write_patient(b, w, rng)
    b.add(" is ")
    write_age(b, w.age_on(day), rng, w.person.sex, with_article=True)
    problems = rng.sample(lx.PROBLEMS, 3)
    b.add(f" with {problems[0]}, {problems[1]} and {problems[2]} who presents")
    if rng.random() < 0.75:
        b.add(" to ")
        hospital_mention(b, w, rng)
    b.add(" with ")
    b.add(
        rng.choice(
            ("chest pain", "shortness of breath", "a foot ulcer", "dizziness", "hyperglycemia", "fatigue")
        )
    )
    b.add(" since ")
    b.phi(lx.WEEKDAYS[_days(day, -rng.randint(1, 6)).weekday()], "DATE")
    b.add(". ")
    lookalike(b, rng)
    b.add(" ")
    if rng.random() < 0.15:
        write_patient(b, w, rng, possessive=True)
        b.add(f" {rng.choice(w.relatives).relation} reports that symptoms are new. ")
    if rng.random() < 0.8:
        b.add(f"{w.pronoun.capitalize()} was last seen by ")
        write_doctor(b, w.doctor("pcp"), rng)
        b.add(" on ")
        write_date(b, _days(day, -rng.randint(20, 200)), rng, DAY_DATE_FORMATS)
        b.add(". ")
        lookalike(b, rng)
        b.add(" ")
    if rng.random() < 0.6:
        b.add(f"Of note, {w.pronoun} was admitted to ")
        b.phi(w.other_hospital, "HOSPITAL")
        b.add(" ")
        write_vague_date(b, _days(day, -rng.randint(60, 900)), rng)
        b.add(f" for {rng.choice(lx.PROBLEMS)}. ")
    if rng.random() < 0.3:
        b.add("Symptoms began around ").phi(format_date(_days(day, -rng.randint(2, 9)), "m/d"), "DATE")
        b.add(" and worsened the evening of admission. ")
    b.add("Denies fevers. ")
    lookalike(b, rng)
    b.add(" ")
    narrative(b, rng, 3, 9)
    b.add("\n\n")


def past_history(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("PAST MEDICAL HISTORY:\n")
    for problem in rng.sample(lx.PROBLEMS, rng.randint(3, 6)):
        b.add(f"- {problem}")
        if rng.random() < 0.6:
            b.add(", dx ")
            write_date(b, _days(day, -rng.randint(400, 7000)), rng, ("yyyy", "'yy", "Month yyyy", "m/yyyy"))
        b.add("\n")
    b.add("- ")
    lookalike(b, rng)
    if rng.random() < 0.5:
        b.add("\n- s/p CABG x3 ")
        write_date(b, _days(day, -rng.randint(400, 5000)), rng, ("yyyy", "'yy", "m/d/yy"))
        b.add(" at ").phi(w.hospital_short, "HOSPITAL")
    b.add("\n\n")


def social_history(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("SOCIAL HISTORY:\n")
    b.add("Lives in ").phi(w.city, "CITY")
    if rng.random() < 0.6:
        b.add(", ").phi(w.state_abbr if rng.random() < 0.5 else w.state, "STATE")
    relative = rng.choice(w.relatives)
    b.add(f" with {w.possessive} {relative.relation}")
    if rng.random() < 0.35:
        b.add(" ").phi(relative.person.first, "PATIENT")
    b.add(". ")
    if rng.random() < 0.9:
        b.add(f"Works as {article(w.profession)} ").phi(w.profession, "PROFESSION")
        if rng.random() < 0.6:
            b.add(" at ").phi(w.employer, "ORGANIZATION")
        b.add(". ")
    if rng.random() < 0.35:
        b.add("Emigrated from ").phi(w.country, "COUNTRY").add(" ")
        write_vague_date(b, _days(day, -rng.randint(3000, 15000)), rng)
        b.add(". ")
    if rng.random() < 0.2:
        b.add("Spends summers at ").phi(rng.choice(lx.LOCATION_OTHER), "LOCATION-OTHER").add(". ")
    b.add("Quit smoking ")
    write_vague_date(b, _days(day, -rng.randint(200, 9000)), rng)
    b.add(f", {rng.randint(20, 60)} pack-years. Drinks {rng.randint(0, 4)} beers per week.\n\n")


def family_history(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("FAMILY HISTORY:\n")
    for relative in rng.sample(w.relatives, len(w.relatives)):
        b.add(f"{relative.relation.capitalize()}")
        if rng.random() < 0.3:
            b.add(" (").phi(relative.person.first, "PATIENT").add(")")
        older = relative.relation in ("mother", "father", "aunt", "uncle")
        if older and (relative.age > 90 or rng.random() < 0.5):
            oldest = min(relative.age, 96)
            died = str(rng.randint(min(50, oldest), oldest))
            b.add(" died at ").phi(died, "AGE").add(
                f" of {rng.choice(('MI', 'stroke', 'colon cancer', 'CHF'))}"
            )
        elif rng.random() < 0.2:
            b.add(" in her " if relative.person.sex == "F" else " in his ")
            b.phi(f"{relative.age // 10 * 10}s", "AGE").add(f" with {rng.choice(lx.PROBLEMS)}")
        else:
            b.add(" alive at ").phi(str(relative.age), "AGE").add(f" with {rng.choice(lx.PROBLEMS)}")
        b.add(".\n")
    b.add("\n")


def medications(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("MEDICATIONS:\n")
    for name, dose, freq in rng.sample(lx.MEDICATIONS, rng.randint(4, 8)):
        b.add(f"  {name:<24}{dose:<14}{freq}")
        if rng.random() < 0.4:
            b.add("   started ").phi(
                format_date(
                    _days(day, -rng.randint(10, 900)), rng.choice(("m/d/yy", "mm/dd/yyyy", "m/yyyy"))
                ),
                "DATE",
            )
        b.add("\n")
    b.add("ALLERGIES: ").add(rng.choice(("NKDA", "penicillin (rash)", "sulfa", "codeine (nausea)"))).add(
        "\n\n"
    )


def labs(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("LABS:\n")
    columns = [_days(day, -k) for k in sorted(rng.sample(range(0, 30), rng.randint(2, 4)), reverse=True)]
    form = rng.choice(("m/d/yy", "mm/dd/yyyy", "m/d", "d-Mon-yyyy"))
    b.add(f"{'':<10}")
    for column in columns:
        text = format_date(column, form)
        b.phi(text, "DATE").add(" " * max(2, 14 - len(text)))
    b.add("\n")
    for lab, unit, low, high in rng.sample(lx.LABS, rng.randint(4, 8)):
        b.add(f"{lab:<10}")
        for _ in columns:
            value = rng.uniform(low, high)
            text = f"{value:.1f}" if high < 20 else str(int(value))
            b.add(f"{text:<14}")
        b.add(f"{unit}\n")
    if rng.random() < 0.6:
        b.add("Specimen collected ").phi(format_date(day, "mm/dd/yyyy"), "DATE").add(" 06:45, accession ")
        b.phi(f"{letters(rng, 2)}{digits(rng, 7)}", "IDNUM").add("\n")
    b.add("\n")


def exam(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("PHYSICAL EXAM:\n")
    b.add(
        f"T {rng.uniform(97.0, 101.2):.1f}  BP {rng.randint(100, 170)}/{rng.randint(55, 100)}  HR {rng.randint(55, 110)}  RR {rng.randint(12, 24)}  SpO2 {rng.randint(90, 100)}% RA\n"
    )
    b.add("Gen: NAD, A&O x3. HEENT: PERRL. CV: RRR. ")
    lookalike(b, rng)
    b.add(" Lungs: CTAB. ")
    lookalike(b, rng)
    b.add(" ")
    narrative(b, rng, 2, 7)
    b.add("\n\n")


def assessment_plan(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("ASSESSMENT AND PLAN:\n")
    if rng.random() < 0.5:
        write_age(b, w.age_on(day), rng, w.person.sex)
    else:
        b.add("Patient")
    b.add(f" with {rng.choice(lx.PROBLEMS)}. ")
    lookalike(b, rng)
    b.add(" ")
    narrative(b, rng, 2, 7)
    b.add("\n1. Continue current regimen; recheck ")
    b.add(rng.choice(("BMP", "HbA1c", "lipids", "CBC"))).add(" in ").add(str(rng.randint(2, 12))).add(
        " weeks.\n"
    )
    if rng.random() < 0.6:
        b.add("Discussed with ")
        write_doctor(b, w.doctor(rng.choice(("attending", "consultant", "surgeon"))), rng)
        b.add(", who agrees.\n")
    b.add("2. Follow up with ")
    write_doctor(b, w.doctor(rng.choice(("pcp", "consultant"))), rng)
    if rng.random() < 0.5:
        b.add(" in ").decoy(name := rng.choice(CLINICS), "DEPARTMENT", name)
    b.add(" on ")
    follow = _days(day, rng.randint(7, 60))
    if rng.random() < 0.4:
        b.phi(lx.WEEKDAYS[follow.weekday()], "DATE").add(", ")
    write_date(b, follow, rng, DAY_DATE_FORMATS)
    b.add(".\n")
    if rng.random() < 0.3:
        b.add("3. Patient may call ").phi(w.phone if rng.random() < 0.5 else make_phone(rng), "PHONE")
        b.add(" with questions.\n")
    if rng.random() < 0.15:
        b.add("4. Referred to the ").phi(rng.choice(lx.UNIQUE_DEPARTMENTS), "DEPARTMENT").add(".\n")
    b.add("\n")


def hospital_course(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("HOSPITAL COURSE:\n")
    for offset in sorted(rng.sample(range(0, 6), rng.randint(2, 4))):
        b.add("On ")
        write_date(b, _days(day, offset), rng, ("m/d", "m/d/yy", "mm/dd/yyyy", "Month dth"))
        b.add(", ")
        b.add(
            rng.choice(
                (
                    "the patient was diuresed with IV furosemide",
                    "cardiology was consulted",
                    "insulin was titrated",
                    "a TTE showed EF 45%",
                    "PT evaluated and recommended rehab",
                    "the Foley catheter was removed",
                    "troponins were trended and peaked at 0.3",
                )
            )
        )
        if rng.random() < 0.5:
            b.add(" by ")
            write_doctor(b, w.doctor(rng.choice(("consultant", "resident", "surgeon"))), rng)
        b.add(". ")
        narrative(b, rng, 0, 2)
        b.add(" ")
    b.add("\n\n")


def review_of_systems(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add("REVIEW OF SYSTEMS:\n")
    for line in rng.sample(lx.REVIEW_OF_SYSTEMS, rng.randint(5, 10)):
        b.add(line + "\n")
    b.add("\n")


def narrative(b: NoteBuilder, rng: random.Random, low: int = 2, high: int = 6) -> None:
    """Sentences of plain clinical prose, which carry no PHI."""
    fresh = [sentence for sentence in lx.NARRATIVE if sentence not in b.used]
    chosen = rng.sample(fresh, min(len(fresh), rng.randint(low, high)))
    b.used.update(chosen)
    b.add(" ".join(chosen))


def interval_history(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add(rng.choice(("INTERVAL HISTORY:\n", "SUBJECTIVE:\n", "IMPRESSION:\n")))
    narrative(b, rng, 6, 14)
    if rng.random() < 0.4:
        b.add(" Last visit was ")
        write_date(b, _days(day, -rng.randint(30, 200)), rng)
        b.add(".")
    b.add("\n\n")


STUDIES = (
    "Echo: LVEF 45%, mild MR",
    "ETT: no ischemia at 7 METs",
    "CXR: no infiltrate",
    "ABI 0.7 on the right",
    "Cath: 80% LAD lesion, stented",
    "CT abdomen: unremarkable",
    "Carotid US: <50% stenosis bilaterally",
    "MRI foot: no osteomyelitis",
    "Holter: rare PVCs",
    "PFTs: FEV1 68% predicted",
)


def studies(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random) -> None:
    b.add(rng.choice(("STUDIES:\n", "PRIOR STUDIES:\n", "DATA:\n")))
    for study in rng.sample(STUDIES, rng.randint(2, 5)):
        name, _, result = study.partition(": ")
        b.add(f"{name} (")
        write_date(
            b, _days(day, -rng.randint(5, 1500)), rng, ("m/d/yy", "mm/dd/yyyy", "m/yyyy", "Month yyyy", "iso")
        )
        b.add(f"): {result}")
        if rng.random() < 0.25:
            b.add(" at ")
            b.phi(w.other_hospital, "HOSPITAL")
        b.add(".\n")
    if rng.random() < 0.4:
        b.add("Outside records from ").phi(w.other_hospital, "HOSPITAL").add(" reviewed. ")
        narrative(b, rng, 1, 3)
        b.add("\n")
    b.add("\n")


SECTIONS: tuple[Section, ...] = (
    hpi,
    past_history,
    social_history,
    family_history,
    medications,
    labs,
    exam,
    review_of_systems,
    interval_history,
    studies,
)


def body(b: NoteBuilder, w: PatientWorld, day: dt.date, rng: random.Random, count: int) -> None:
    chosen = [hpi, *rng.sample(SECTIONS[1:], min(count, len(SECTIONS) - 1))]
    rest = chosen[1:]
    rng.shuffle(rest)
    for section in [chosen[0], *rest]:
        section(b, w, day, rng)
