"""Assembling a note piece by piece while recording the exact offsets of every PHI span."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class GoldSpan:
    """A PHI span of the gold standard: offsets in code points, end-exclusive."""

    start: int
    end: int
    type: str


@dataclass(frozen=True, slots=True)
class Decoy:
    """Text that looks like PHI but is not, and the type a careless annotator would give it."""

    start: int
    end: int
    type: str


@dataclass
class NoteBuilder:
    """Appends text; ``phi`` and ``decoy`` also remember where the piece landed.

    Offsets are counted with ``len`` on ``str``, i.e. in code points, which is the
    convention of every file the tool reads and writes.
    """

    parts: list[str] = field(default_factory=list)
    length: int = 0
    spans: list[GoldSpan] = field(default_factory=list)
    decoys: list[Decoy] = field(default_factory=list)
    # Stock sentences already used in this note, so one note does not repeat itself.
    used: set[str] = field(default_factory=set)

    def add(self, text: str) -> NoteBuilder:
        self.parts.append(text)
        self.length += len(text)
        return self

    def phi(self, text: str, type_: str) -> NoteBuilder:
        if text:
            self.spans.append(GoldSpan(self.length, self.length + len(text), type_))
            self.add(text)
        return self

    def decoy(self, text: str, type_: str, part: str | None = None) -> NoteBuilder:
        """Add a lookalike; ``part`` (a substring of ``text``) is what a careless annotator tags."""
        piece = part if part is not None else text
        where = text.find(piece)
        if where >= 0 and piece:
            self.decoys.append(Decoy(self.length + where, self.length + where + len(piece), type_))
        return self.add(text)

    def line(self, text: str = "") -> NoteBuilder:
        return self.add(text + "\n")

    def ends_with_newline(self) -> bool:
        return not self.parts or self.parts[-1].endswith("\n")

    def text(self) -> str:
        return "".join(self.parts)


@dataclass
class SyntheticNote:
    """One generated note before it becomes Documents: text, gold spans, lookalikes."""

    doc_id: str
    note_type: str
    text: str
    gold: list[GoldSpan]
    decoys: list[Decoy]


def guaranteed_kinds(
    rng: random.Random, order: list[str], patient_index: int, per_patient: int, records: int
) -> dict[int, list[str]]:
    """Record index to the rare kinds it surely carries: ``per_patient`` kinds taken in turn
    from ``order``, so that ``len(order) / per_patient`` patients cover every kind."""
    guaranteed: dict[int, list[str]] = {}
    for slot in range(per_patient):
        kind = order[(patient_index * per_patient + slot) % len(order)]
        guaranteed.setdefault(rng.randrange(records), []).append(kind)
    return guaranteed
