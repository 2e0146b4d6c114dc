"""What became of the model's suggestions in one document, read from its kept edit history.

A history (:mod:`annotator.io.edit_history`) starts with the annotations the document had
before its first edit and then lists every add, remove and replace. Replaying it follows
each suggestion (an annotation that appeared *pending*: shown, not yet reviewed) through
every replacement, whatever ids it took, to the end:

* **accepted**: it is still there, reviewed, with its type and offsets as suggested;
* **changed**: still there, reviewed, but with other offsets (*boundary*) or another type
  (*type*; a tag changed in both counts once as changed and once in each kind);
* **rejected**: removed (deleting an accepted suggestion later counts as rejecting it);
* **unreviewed**: still pending.

An annotation that appeared reviewed from the start is *hand-made*; in a document where the
model's suggestions were shown, it is *missed by the model* when none of them overlapped it.
Undoing a removal brings the annotation back with its own past (an undone rejection is not a
new suggestion).
Annotations already reviewed when the history started (work from before histories were kept)
are *earlier*, and counted in neither group.

API
---
``replay_history(entries) -> DocumentFates``
``bootstrap_mean_interval(values, resamples, seed) -> (low, high)``
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

Origin = Literal["suggestion", "hand", "earlier"]
#: Indices drawn at once by the bootstrap (8 MB of int64), whatever --resamples asks for.
BOOTSTRAP_BLOCK = 1 << 20
FATES = ("accepted", "changed", "changed_boundary", "changed_type", "rejected", "unreviewed")


@dataclass(frozen=True, slots=True)
class Tag:
    """The parts of an annotation the report needs (never its text)."""

    id: str
    type: str
    start: int
    end: int
    pending: bool

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Tag:
        return cls(
            str(record["id"]),
            str(record["type"]),
            int(record["start"]),
            int(record["end"]),
            bool(record.get("pending", False)),
        )

    def overlaps(self, other: Tag) -> bool:
        return self.start < other.end and other.start < self.end


@dataclass
class DocumentFates:
    """One document's suggestions and hand-made tags, by type.

    Attributes
    ----------
    suggestions: every suggestion as it was shown.
    fates: per type of the suggestion as shown, how many ended in each fate (:data:`FATES`).
    hand: per type, the hand-made tags at the end.
    missed: per type, those of them no suggestion overlapped.
    final: the annotations at the end, each with its origin.
    first_at, last_at: the times of the first and last line (seconds since 1970).
    """

    suggestions: list[Tag] = field(default_factory=list)
    fates: dict[str, Counter[str]] = field(default_factory=dict)
    hand: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)
    final: list[tuple[Tag, Origin]] = field(default_factory=list)
    first_at: float | None = None
    last_at: float | None = None

    @property
    def shown(self) -> int:
        return len(self.suggestions)

    def count(self, fate: str) -> int:
        return sum(counter[fate] for counter in self.fates.values())


def replay_history(entries: Sequence[dict[str, Any]]) -> DocumentFates:
    """Follow every suggestion of one document's history to its fate."""
    result = DocumentFates()
    current: dict[str, Tag] = {}
    # Where each annotation came from: the index of its suggestion, "hand" or "earlier".
    lineage: dict[str, int | str] = {}
    removed: dict[str, int | str] = {}

    def arrive(tag: Tag, at_start: bool) -> None:
        past = removed.pop(tag.id, None)
        if past is not None:
            lineage[tag.id] = past
        elif tag.pending:
            lineage[tag.id] = len(result.suggestions)
            result.suggestions.append(tag)
        else:
            lineage[tag.id] = "earlier" if at_start else "hand"
        current[tag.id] = tag

    for entry in entries:
        at = entry.get("at")
        if isinstance(at, int | float):
            result.first_at = at if result.first_at is None else result.first_at
            result.last_at = at
        op = entry.get("op")
        if op == "start":
            for record in entry.get("annotations", []):
                arrive(Tag.from_record(record), at_start=True)
        elif op == "add":
            arrive(Tag.from_record(entry["annotation"]), at_start=False)
        elif op == "remove":
            old_id = str(entry["id"])
            if old_id in current:
                del current[old_id]
                removed[old_id] = lineage.pop(old_id)
        elif op == "replace":
            old_id = str(entry["id"])
            tag = Tag.from_record(entry["annotation"])
            origin = lineage.pop(old_id, "hand")
            current.pop(old_id, None)
            current[tag.id] = tag
            lineage[tag.id] = origin
        # Relations and document-level tags do not change any annotation's fate.
    _settle(result, current, lineage)
    return result


def _settle(result: DocumentFates, current: dict[str, Tag], lineage: dict[str, int | str]) -> None:
    held: dict[int, Tag] = {}
    for tag_id, tag in current.items():
        origin = lineage[tag_id]
        if isinstance(origin, int):
            held[origin] = tag
            result.final.append((tag, "suggestion"))
        elif origin == "hand":
            result.final.append((tag, "hand"))
            result.hand[tag.type] += 1
            # Only where suggestions were shown: without pre-annotation the model had no say.
            if result.suggestions and not any(tag.overlaps(s) for s in result.suggestions):
                result.missed[tag.type] += 1
        else:
            result.final.append((tag, "earlier"))
    for index, shown in enumerate(result.suggestions):
        fates = result.fates.setdefault(shown.type, Counter())
        now = held.get(index)
        if now is None:
            fates["rejected"] += 1
        elif now.pending:
            fates["unreviewed"] += 1
        elif (now.type, now.start, now.end) == (shown.type, shown.start, shown.end):
            fates["accepted"] += 1
        else:
            fates["changed"] += 1
            fates["changed_boundary"] += (now.start, now.end) != (shown.start, shown.end)
            fates["changed_type"] += now.type != shown.type


def bootstrap_mean_interval(
    values: Sequence[float], resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean, resampling the values (one per document).

    None for fewer than two values (no interval can be drawn from one document).
    """
    if len(values) < 2:
        return None
    means = _resampled_means(np.asarray(values, dtype=float), resamples, np.random.default_rng(seed))
    tail = (1 - level) / 2
    return float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail))


def _resampled_means(data: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The means of ``resamples`` resamples of ``data``, drawn in blocks of rows.

    One (resamples x values) matrix of indices would take gigabytes for a large --resamples;
    blocks keep memory flat and draw the very same numbers (the generator's stream runs on).
    """
    means = np.empty(resamples, dtype=float)
    rows = max(1, BOOTSTRAP_BLOCK // len(data))
    for first in range(0, resamples, rows):
        count = min(rows, resamples - first)
        means[first : first + count] = data[rng.integers(0, len(data), size=(count, len(data)))].mean(axis=1)
    return means


def bootstrap_difference_interval(
    first: Sequence[float], second: Sequence[float], resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of mean(first) - mean(second), each group resampled on its own."""
    if len(first) < 2 or len(second) < 2:
        return None
    rng = np.random.default_rng(seed)
    a = _resampled_means(np.asarray(first, dtype=float), resamples, rng)
    diffs = a - _resampled_means(np.asarray(second, dtype=float), resamples, rng)
    tail = (1 - level) / 2
    return float(np.quantile(diffs, tail)), float(np.quantile(diffs, 1 - tail))
