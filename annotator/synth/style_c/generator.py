"""Style C: a third synthetic note style, written blind, used only to measure generalisation.

Written without looking at style A's or style B's templates nor at the tagger's features and
rules, so a tagger's score on it says how it does on conventions nobody tuned it for. Never
train on it. Same contract as the other styles: ``generate_notes_c(patients, seed, ...)``
gives notes with exact gold offsets, deterministic per seed, 2-5 notes per patient.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date

from annotator.errors import UsageError
from annotator.synth.builder import NoteBuilder, SyntheticNote, guaranteed_kinds
from annotator.synth.style_c import acute, community, formats
from annotator.synth.style_c.cast import Cast, make_cast, make_person
from annotator.synth.style_c.writing import event_parts, say

Writer = Callable[[NoteBuilder, Cast, date, random.Random], None]

#: Note type to (writer, relative frequency).
NOTE_TYPES_C: dict[str, tuple[Writer, float]] = {
    "ed_triage": (acute.ed_triage, 3.0),
    "operative_report": (acute.operative_report, 2.0),
    "icu_flowsheet": (acute.icu_flowsheet, 1.5),
    "death_transfer_summary": (acute.death_or_transfer, 1.0),
    "psychiatry_outpatient": (community.psychiatry, 2.0),
    "physio_ot": (community.therapy, 2.0),
    "medication_reconciliation": (community.medication_reconciliation, 2.0),
    "referral_letter": (community.referral_letter, 2.0),
    "telephone_encounter": (community.telephone_encounter, 2.0),
}

FIRST_PATIENT_C = 100
MAX_PATIENTS_C = 900
#: Chance per note of each rare addendum besides the guaranteed ones.
RARE_RATE_C = 0.01


def _rare_parts(kind: str, cast: Cast, day: date, rng: random.Random) -> list[str | tuple[str, str]]:
    """An addendum line carrying one rare PHI type, the way a clerk or system would add it."""
    staff = make_person(cast.region, rng)
    lines: dict[str, list[str | tuple[str, str]]] = {
        "USERNAME": [
            "Chart accessed by ",
            ("USERNAME", formats.username(rng, staff.first, staff.last)),
            " (break-glass, reason: continuity)",
        ],
        "FAX": ["Pls fax results to ", ("FAX", cast.gp_clinic.fax), " attn ", ("DOCTOR", cast.gp.last)],
        "EMAIL": ["Pt prefers e-mail: ", ("EMAIL", cast.email)],
        "URL": ["Portal invite sent -> ", ("URL", cast.hospital.url)],
        "IPADDR": ["Telehealth session from ", ("IPADDR", formats.ip_address(rng)), ", audio only"],
        "SSN": ["SIN on file ", ("SSN", cast.sin), " (WCB claim)"],
        "HEALTHPLAN": [
            f"{cast.region.health_card_label} no. ",
            ("HEALTHPLAN", cast.health_card),
            " verified at desk",
        ],
        "ACCOUNT": ["Billing acct ", ("ACCOUNT", formats.account_number(rng)), " - self-pay balance"],
        "LICENSE": ["ID sighted: driver licence ", ("LICENSE", cast.licence)],
        "DEVICE": [f"{cast.device[0].capitalize()} interrogated, serial ", ("DEVICE", cast.device[1])],
        "VEHICLE": ["Car in lot P2, plate ", ("VEHICLE", cast.plate), " - security informed"],
        "BIOID": ["Dispensing cabinet fingerprint ID ", ("BIOID", formats.biometric_id(rng))],
        "IDNUM": ["Prescriber no. ", ("IDNUM", formats.staff_number(rng))],
        "COUNTRY": [
            "Travel: returned from ",
            ("COUNTRY", rng.choice(("Samoa", "Peru", "Kenya", "Vietnam"))),
            " 3/52 ago",
        ],
        "LOCATION-OTHER": ["Injury occurred at ", ("LOCATION-OTHER", cast.landmark)],
        "ORGANIZATION": ["Employer contact: ", ("ORGANIZATION", cast.employer), " HR"],
        "OTHER": ["Displaced by ", *event_parts(cast.event), "; staying w/ friends"],
        "DEPARTMENT": ["Bed booked on ", ("DEPARTMENT", cast.ward)],
        "ZIP": ["Mail returned - confirm postcode ", ("ZIP", cast.address.postcode)],
    }
    return lines[kind]


RARE_KINDS_C = (
    "USERNAME",
    "FAX",
    "EMAIL",
    "URL",
    "IPADDR",
    "SSN",
    "HEALTHPLAN",
    "ACCOUNT",
    "LICENSE",
    "DEVICE",
    "VEHICLE",
    "BIOID",
    "IDNUM",
    "COUNTRY",
    "LOCATION-OTHER",
    "ORGANIZATION",
    "OTHER",
    "DEPARTMENT",
    "ZIP",
)


def generate_notes_c(
    patients: int, seed: int, progress: Callable[[int, int], None] | None = None, rare_per_patient: int = 1
) -> list[SyntheticNote]:
    """Style C notes and their gold spans for ``patients`` patients (ids 100, 101 ...)."""
    if not 0 <= patients <= MAX_PATIENTS_C:
        raise UsageError(f"--patients must be between 0 and {MAX_PATIENTS_C}, not {patients}")
    master = random.Random(f"style-c-{seed}")
    rare_order = list(RARE_KINDS_C)
    master.shuffle(rare_order)
    names = list(NOTE_TYPES_C)
    weights = [NOTE_TYPES_C[name][1] for name in names]
    notes: list[SyntheticNote] = []
    for index in range(patients):
        rng = random.Random(f"style-c-{seed}-patient-{index}")
        records = rng.randint(2, 5)
        cast = make_cast(rng, records)
        guaranteed = guaranteed_kinds(rng, rare_order, index, rare_per_patient, records)
        for record, day in enumerate(cast.record_dates):
            note_type = rng.choices(names, weights)[0]
            builder = NoteBuilder()
            NOTE_TYPES_C[note_type][0](builder, cast, day, rng)
            kinds = [kind for kind in rare_order if rng.random() < RARE_RATE_C]
            kinds += [kind for kind in guaranteed.get(record, []) if kind not in kinds]
            if kinds:
                say(builder, rng.choice(("ADDENDUM:", "-- addendum --", "Admin note:")))
                for kind in kinds:
                    say(builder, *_rare_parts(kind, cast, day, rng))
            doc_id = f"{FIRST_PATIENT_C + index:03d}-{record + 1:02d}"
            notes.append(SyntheticNote(doc_id, note_type, builder.text(), builder.spans, builder.decoys))
        if progress is not None:
            progress(index + 1, patients)
    return notes
