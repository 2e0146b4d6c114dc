"""Simulated annotators: gold spans turned into a human's (or a model's) imperfect version.

The errors are the ones double annotation of clinical notes shows (seed 001 §6, Table 10):
missed PHI (more often for rare and ambiguous types), boundaries that take in a title or a
trailing full stop or drop a date's year, types confused between close neighbours (DOCTOR /
PATIENT, HOSPITAL / ORGANIZATION / DEPARTMENT, IDNUM / MEDICALRECORD ...), one name split into
two tags, and lookalikes tagged as PHI ("2/2" as a DATE, "OSH" as a HOSPITAL).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from annotator.synth.builder import Decoy, GoldSpan

# Types annotators agree on least (seed 001 Table 10) get more misses.
HARD_TYPES = {
    "DEPARTMENT": 0.35,
    "ORGANIZATION": 0.3,
    "PROFESSION": 0.22,
    "ROOM": 0.25,
    "OTHER": 0.35,
    "LOCATION-OTHER": 0.3,
    "COUNTRY": 0.12,
    "BIOID": 0.3,
    "DEVICE": 0.25,
    "VEHICLE": 0.25,
    "URL": 0.2,
    "IPADDR": 0.2,
    "ACCOUNT": 0.15,
    "LICENSE": 0.2,
    "HEALTHPLAN": 0.15,
    "USERNAME": 0.08,
    "IDNUM": 0.08,
    "FAX": 0.1,
    "EMAIL": 0.1,
    "SSN": 0.05,
}
CONFUSIONS = {
    "DOCTOR": ("PATIENT",),
    "PATIENT": ("DOCTOR",),
    "USERNAME": ("DOCTOR",),
    "HOSPITAL": ("ORGANIZATION", "DEPARTMENT"),
    "ORGANIZATION": ("HOSPITAL",),
    "DEPARTMENT": ("HOSPITAL", "ORGANIZATION"),
    "IDNUM": ("MEDICALRECORD",),
    "MEDICALRECORD": ("IDNUM",),
    "BIOID": ("MEDICALRECORD", "IDNUM"),
    "DEVICE": ("IDNUM",),
    "ACCOUNT": ("IDNUM",),
    "HEALTHPLAN": ("IDNUM",),
    "LICENSE": ("IDNUM",),
    "VEHICLE": ("IDNUM",),
    "CITY": ("LOCATION-OTHER", "STATE"),
    "LOCATION-OTHER": ("CITY",),
    "COUNTRY": ("LOCATION-OTHER",),
    "PHONE": ("FAX",),
    "FAX": ("PHONE",),
    "ROOM": ("LOCATION-OTHER",),
    "OTHER": ("LOCATION-OTHER",),
}
# Per-type extra chance of a type confusion, where annotators often hesitate.
CONFUSION_RATE = {"ORGANIZATION": 0.25, "DEPARTMENT": 0.3, "BIOID": 0.3, "ROOM": 0.15, "LOCATION-OTHER": 0.15}
_YEAR_TAIL = re.compile(r",? \d{4}$")


@dataclass(frozen=True)
class AnnotatorProfile:
    """How error-prone a simulated annotator is (probabilities per gold span or decoy)."""

    miss: float = 0.03
    hard_miss_scale: float = 1.0
    confusion: float = 0.015
    boundary: float = 0.03
    split: float = 0.04
    false_positive: float = 0.1
    extra_types: dict[str, float] = field(default_factory=dict)


HUMAN_A = AnnotatorProfile(miss=0.02, confusion=0.012, boundary=0.022, split=0.035, false_positive=0.09)
HUMAN_B = AnnotatorProfile(miss=0.024, confusion=0.014, boundary=0.025, split=0.03, false_positive=0.11)
MODEL = AnnotatorProfile(
    miss=0.045, hard_miss_scale=1.3, confusion=0.03, boundary=0.04, split=0.02, false_positive=0.3
)


@dataclass(frozen=True, slots=True)
class SimulatedSpan:
    start: int
    end: int
    type: str
    correct: bool  # exactly a gold span (start, end and type)


def simulate(
    text: str, gold: list[GoldSpan], decoys: list[Decoy], profile: AnnotatorProfile, rng: random.Random
) -> list[SimulatedSpan]:
    """One annotator's version of a note, sorted by offsets, never overlapping itself."""
    result: list[SimulatedSpan] = []
    for span in gold:
        miss = profile.miss + HARD_TYPES.get(span.type, 0.0) * profile.hard_miss_scale
        if rng.random() < miss:
            continue
        type_ = span.type
        start, end = span.start, span.end
        confusion = profile.confusion + CONFUSION_RATE.get(span.type, 0.0)
        if span.type in CONFUSIONS and rng.random() < confusion:
            type_ = rng.choice(CONFUSIONS[span.type])
        if rng.random() < profile.boundary:
            start, end = _boundary_error(text, start, end, type_, rng)
        piece = text[start:end]
        if type_ in ("PATIENT", "DOCTOR") and " " in piece and rng.random() < profile.split:
            cut = start + piece.index(" ")
            result.append(SimulatedSpan(start, cut, type_, False))
            result.append(SimulatedSpan(cut + 1, end, type_, False))
            continue
        correct = (start, end, type_) == (span.start, span.end, span.type)
        result.append(SimulatedSpan(start, end, type_, correct))
    for decoy in decoys:
        if rng.random() < profile.false_positive:
            result.append(SimulatedSpan(decoy.start, decoy.end, decoy.type, False))
    return _without_overlaps(result)


def _boundary_error(text: str, start: int, end: int, type_: str, rng: random.Random) -> tuple[int, int]:
    """A plausible wrong boundary for the span, or the span unchanged when none applies."""
    options: list[tuple[int, int]] = []
    for title in ("Dr. ", "Mr. ", "Ms. "):
        if text[max(0, start - len(title)) : start] == title:
            options.append((start - len(title), end))
    if end < len(text) and text[end] in ".,;:)":
        options.append((start, end + 1))
    if text[end : end + 2] == "'s":
        options.append((start, end + 2))
    piece = text[start:end]
    if type_ == "DATE":
        tail = _YEAR_TAIL.search(piece)
        if tail and tail.start() > 0:
            options.append((start, start + tail.start()))
    if type_ == "AGE" and text[end : end + 9] == "-year-old":
        options.append((start, end + 9))
    if type_ == "DOCTOR" and text[end : end + 4] in (", MD", ", RN", ", M."):
        options.append((start, end + 4))
    if len(piece) > 3 and piece[-1].isalnum():
        options.append((start, end - 1))
    return rng.choice(options) if options else (start, end)


def _without_overlaps(spans: list[SimulatedSpan]) -> list[SimulatedSpan]:
    # A human tool lets nobody tag one character twice; keep the earlier, longer span.
    kept: list[SimulatedSpan] = []
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if span.end <= span.start:
            continue
        if kept and span.start < kept[-1].end:
            continue
        kept.append(span)
    return kept
