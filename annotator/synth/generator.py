"""The synthetic corpus: longitudinal notes with gold PHI, two simulated annotators and a model.

Usage::

    corpus = generate_corpus(patients=50, seed=7)
    write_corpus(corpus, Path("out"))   # out/{gold,annotator_a,annotator_b,preannotated}/PPP-RR.xml

Everything is drawn from :class:`random.Random` objects seeded from ``seed`` (string seeds
hash the same way in every Python process), so a seed always gives the same corpus.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.schema import load_schema
from annotator.errors import UsageError
from annotator.io.i2b2 import write_i2b2
from annotator.synth.annotators import HUMAN_A, HUMAN_B, MODEL, AnnotatorProfile, SimulatedSpan, simulate
from annotator.synth.builder import GoldSpan, NoteBuilder, SyntheticNote, guaranteed_kinds
from annotator.synth.notetypes import NOTE_TYPES, RARE, rare_block
from annotator.synth.style_b.generator import generate_notes_b
from annotator.synth.style_c.generator import generate_notes_c
from annotator.synth.world import make_world

Progress = Callable[[int, int], None]
FOLDERS = ("gold", "annotator_a", "annotator_b", "preannotated")
FIRST_PATIENT = 100
MAX_PATIENTS = 900
STYLES = ("a", "b", "c")
# Each rare type also turns up at random with this chance per note.
RARE_RATE = 0.006


@dataclass
class SyntheticCorpus:
    """Four versions of the same notes (same doc ids, same text, in the same order).

    Attributes
    ----------
    gold: the reference annotations.
    annotator_a, annotator_b: two simulated human annotators.
    preannotated: model-style suggestions (``source=model``, ``pending``, a confidence).
    note_types: doc id to the note type it was written as.
    seed: the seed it was generated from.
    """

    gold: list[Document]
    annotator_a: list[Document]
    annotator_b: list[Document]
    preannotated: list[Document]
    note_types: dict[str, str] = field(default_factory=dict)
    seed: int = 0

    def versions(self) -> dict[str, list[Document]]:
        """Folder name to documents, in the order ``write_corpus`` writes them."""
        return dict(
            zip(FOLDERS, (self.gold, self.annotator_a, self.annotator_b, self.preannotated), strict=True)
        )

    @property
    def patients(self) -> int:
        return len({document.patient_id for document in self.gold})


def generate_notes(
    patients: int, seed: int, progress: Progress | None = None, rare_per_patient: int = 1
) -> list[SyntheticNote]:
    """The notes and their gold spans (no annotators yet).

    Every patient carries ``rare_per_patient`` rare types for sure (taken in turn from a
    seeded order of the 15 rare types), besides those any note may carry by chance.
    """
    if not 0 <= patients <= MAX_PATIENTS:
        raise UsageError(f"--patients must be between 0 and {MAX_PATIENTS}, not {patients}")
    master = random.Random(f"synth-{seed}")
    rare_order = list(RARE)
    master.shuffle(rare_order)
    names = list(NOTE_TYPES)
    weights = [NOTE_TYPES[name][1] for name in names]
    notes: list[SyntheticNote] = []
    for index in range(patients):
        rng = random.Random(f"synth-{seed}-patient-{index}")
        patient_id = f"{FIRST_PATIENT + index:03d}"
        records = rng.randint(2, 5)
        world = make_world(rng, patient_id, records)
        # Rare types in turn, so that 15 patients (fewer with more per patient) cover them all.
        guaranteed = guaranteed_kinds(rng, rare_order, index, rare_per_patient, records)
        for record in range(records):
            note_type = rng.choices(names, weights)[0]
            builder = NoteBuilder()
            day = world.record_dates[record]
            NOTE_TYPES[note_type][0](builder, world, day, rng)
            kinds = [kind for kind in rare_order if rng.random() < RARE_RATE]
            kinds.extend(kind for kind in guaranteed.get(record, []) if kind not in kinds)
            rare_block(builder, world, rng, kinds)
            notes.append(
                SyntheticNote(
                    f"{patient_id}-{record + 1:02d}", note_type, builder.text(), builder.spans, builder.decoys
                )
            )
        if progress is not None:
            progress(index + 1, patients)
    return notes


def generate_corpus(
    patients: int,
    seed: int,
    progress: Progress | None = None,
    annotator_names: tuple[str, str] = ("annotator_a", "annotator_b"),
    profiles: tuple[AnnotatorProfile, AnnotatorProfile, AnnotatorProfile] = (HUMAN_A, HUMAN_B, MODEL),
    rare_per_patient: int = 1,
    style: str = "a",
) -> SyntheticCorpus:
    """Generate a synthetic corpus.

    Parameters
    ----------
    patients:
        Number of patients (ids 100, 101 ...), each with 2-5 records.
    seed:
        The same seed always gives the same corpus.
    progress:
        Called with (patients done, patients) while notes are written.
    annotator_names:
        The ``annotator`` attribute of the two simulated annotators' tags.
    profiles:
        Error profiles of annotator A, annotator B and the model.
    rare_per_patient:
        How many of the 15 rare types each patient surely carries (see ``generate_notes``).
    style:
        ``"a"`` (this module's notes), ``"b"`` (``annotator.synth.style_b``, written
        independently, for measuring generalisation only) or ``"c"`` (``annotator.synth.style_c``,
        written blind to A, B and the tagger; test-only).
    """
    if style not in STYLES:
        raise UsageError(f"--style must be one of {', '.join(STYLES)}, not {style!r}")
    schema = load_schema("i2b2-2014")
    category = {type_def.name: type_def.category for type_def in schema.types}.__getitem__
    make_notes = {"a": generate_notes, "b": generate_notes_b, "c": generate_notes_c}[style]
    notes = make_notes(patients, seed, progress, rare_per_patient)
    corpus = SyntheticCorpus([], [], [], [], seed=seed)
    for note in notes:
        corpus.note_types[note.doc_id] = note.note_type
        rng = random.Random(f"synth-{seed}-annotators-{note.doc_id}")
        versions: tuple[Sequence[GoldSpan | SimulatedSpan], ...] = (
            note.gold,
            simulate(note.text, note.gold, note.decoys, profiles[0], rng),
            simulate(note.text, note.gold, note.decoys, profiles[1], rng),
            simulate(note.text, note.gold, note.decoys, profiles[2], rng),
        )
        targets = (corpus.gold, corpus.annotator_a, corpus.annotator_b, corpus.preannotated)
        for version, (spans, target) in enumerate(zip(versions, targets, strict=True)):
            target.append(_document(note, spans, version, annotator_names, category, rng))
    return corpus


def _document(
    note: SyntheticNote,
    spans: Sequence[GoldSpan | SimulatedSpan],
    version: int,
    annotator_names: tuple[str, str],
    category: Callable[[str], str],
    rng: random.Random,
) -> Document:
    """Version 0 is gold, 1 and 2 the annotators, 3 the model."""
    text = note.text
    who = annotator_names[version - 1] if version in (1, 2) else ""
    model = version == 3
    annotations = []
    for number, span in enumerate(sorted(spans, key=lambda s: (s.start, s.end))):
        confidence: float | None = None
        if model:
            good = isinstance(span, SimulatedSpan) and span.correct
            confidence = round(rng.uniform(0.72, 1.0) if good else rng.uniform(0.5, 0.85), 3)
        annotations.append(
            Annotation(
                f"P{number}",
                category(span.type),
                span.type,
                span.start,
                span.end,
                text[span.start : span.end],
                source=Source.MODEL if model else Source.HUMAN,
                confidence=confidence,
                annotator=who,
                pending=model,
            )
        )
    return Document(note.doc_id, text, annotations)


def write_corpus(
    corpus: SyntheticCorpus, out_dir: str | Path, progress: Progress | None = None
) -> list[Path]:
    """Write ``out_dir/{gold,annotator_a,annotator_b,preannotated}/PPP-RR.xml``; returns the paths."""
    out = Path(out_dir)
    jobs: list[tuple[Document, Path]] = []
    for folder, documents in corpus.versions().items():
        (out / folder).mkdir(parents=True, exist_ok=True)
        jobs.extend((document, out / folder / f"{document.doc_id}.xml") for document in documents)
    return write_documents(jobs, progress)


def write_documents(jobs: Sequence[tuple[Document, Path]], progress: Progress | None = None) -> list[Path]:
    """Write documents with ``write_i2b2``; threads overlap the fsync of each atomic save."""
    total = len(jobs)
    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = [pool.submit(write_i2b2, document, path) for document, path in jobs]
        for done, future in enumerate(futures, start=1):
            future.result()
            if progress is not None:
                progress(done, total)
    return [path for _, path in jobs]
