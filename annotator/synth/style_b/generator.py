"""Style B notes for a corpus: the same shape of output as style A's ``generate_notes``."""

from __future__ import annotations

import random
from collections.abc import Callable

from annotator.errors import UsageError
from annotator.synth.builder import NoteBuilder, SyntheticNote, guaranteed_kinds
from annotator.synth.style_b.extras import EXTRA_KINDS, admin_footer
from annotator.synth.style_b.notetypes import CAPITALS, NOTE_TYPES_B
from annotator.synth.style_b.people import make_cast

FIRST_PATIENT = 100
MAX_PATIENTS = 900
# Each footer identifier also turns up at random with this chance per note.
EXTRA_RATE = 0.01


def generate_notes_b(
    patients: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    rare_per_patient: int = 1,
) -> list[SyntheticNote]:
    """Style B notes with gold spans and lookalikes; ids ``PPP-RR`` from patient 100.

    Every patient carries ``rare_per_patient`` footer identifiers for sure, taken in turn from a
    seeded order, so that ``len(EXTRA_KINDS)`` patients cover every type of the schema.
    """
    if not 0 <= patients <= MAX_PATIENTS:
        raise UsageError(f"--patients must be between 0 and {MAX_PATIENTS}, not {patients}")
    order = list(EXTRA_KINDS)
    random.Random(f"style-b-{seed}").shuffle(order)
    names = list(NOTE_TYPES_B)
    weights = [NOTE_TYPES_B[name][1] for name in names]
    notes: list[SyntheticNote] = []
    for index in range(patients):
        rng = random.Random(f"style-b-{seed}-patient-{index}")
        patient_id = f"{FIRST_PATIENT + index:03d}"
        records = rng.randint(2, 5)
        cast = make_cast(rng, records)
        guaranteed = guaranteed_kinds(rng, order, index, rare_per_patient, records)
        for record in range(records):
            note_type = rng.choices(names, weights)[0]
            builder = NoteBuilder()
            NOTE_TYPES_B[note_type][0](builder, cast, cast.record_dates[record], rng)
            kinds = [kind for kind in order if rng.random() < EXTRA_RATE]
            kinds.extend(kind for kind in guaranteed.get(record, []) if kind not in kinds)
            admin_footer(builder, cast, rng, kinds)
            text = builder.text()
            # Capitals keep every offset only when upper-casing keeps the length (it does for
            # the names we draw; the check keeps an odd letter such as "ß" from shifting tags).
            if note_type in CAPITALS and len(text.upper()) == len(text):
                text = text.upper()
            notes.append(
                SyntheticNote(
                    f"{patient_id}-{record + 1:02d}", note_type, text, builder.spans, builder.decoys
                )
            )
        if progress is not None:
            progress(index + 1, patients)
    return notes
