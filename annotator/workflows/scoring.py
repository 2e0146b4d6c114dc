"""The scoring choices shared by evaluate, iaa and significance (CLI options, GUI widgets)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from annotator.errors import UsageError
from annotator.workflows.notes import Note, NoteKind

if TYPE_CHECKING:  # imported where used: the official mode needs neither
    from annotator.core.mapping import Mapping
    from annotator.evaluation.engine import Options


@dataclass(frozen=True)
class ScoringRequest:
    """How items are matched and which labels count.

    Attributes
    ----------
    match, level, beta:
        As :class:`~annotator.evaluation.engine.Options`.
    exclude:
        Types dropped first (``TYPE`` or ``CATEGORY/TYPE``).
    hipaa:
        Keep only the HIPAA subset (after ``exclude``).
    mapping:
        A bundled mapping name or TOML file applied last, or None.
    """

    match: str = "strict"
    level: str = "type"
    beta: float = 1.0
    exclude: tuple[str, ...] = ()
    hipaa: bool = False
    mapping: str | None = None

    @property
    def is_default(self) -> bool:
        return self == ScoringRequest()

    def options(self) -> Options:
        from annotator.evaluation.engine import Options

        if not self.beta > 0 or math.isinf(self.beta):
            raise UsageError(f"--beta must be a positive number, not {self.beta}")
        return Options(match=self.match, level=self.level, beta=self.beta)

    def exclusion_notes(self, labels: Iterable[tuple[str, str]]) -> list[Note]:
        """A note for each ``exclude`` item that matches none of ``labels`` (the inputs'
        ``(category, TYPE)`` pairs): a misspelt type would otherwise be ignored without a word."""
        from annotator.core.mapping import Mapping

        seen = set(labels)
        notes = []
        for item in dict.fromkeys(t.strip() for t in self.exclude if t.strip()):
            rule = Mapping.excluding([item])
            if all(rule.map(category, type_) is not None for category, type_ in seen):
                notes.append(Note(NoteKind.EXCLUDE_MATCHES_NOTHING, detail=item))
        return notes

    def mapping_chain(self) -> Mapping | None:
        """The exclude -> HIPAA filter -> mapping chain asked for, composed; None when empty."""
        from annotator.core.mapping import Mapping, load_mapping

        chain: list[Mapping] = []
        exclude = [t for t in self.exclude if t.strip()]
        if exclude:
            chain.append(Mapping.excluding(exclude))
        if self.hipaa:
            chain.append(load_mapping("hipaa"))
        if self.mapping:
            chain.append(load_mapping(self.mapping))
        if not chain:
            return None
        mapping = chain[0]
        for nxt in chain[1:]:
            mapping = mapping.compose(nxt)
        return mapping
