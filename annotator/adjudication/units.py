"""Aligning annotators' versions of one document into adjudication units.

Every annotation of every version is sorted by offset and swept once; annotations that
overlap, directly or through a chain of overlaps, form one cluster, so nested tags and a tag
split in two ("John" + "Smith" against "John Smith") land in the same unit. Each cluster is
then classified by comparing, per version, the set of ``(tag, type, start, end)`` keys it
holds. Cost: one sort plus a linear sweep per document, no pairwise comparison.

Unit ids are derived from the document id and the unit's covering span only, so the same
input gives the same ids on every run (the decision log refers to them).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.span import Span
from annotator.errors import TextMismatchError, UsageError

AnnotationKey = tuple[str, str, int, int]


class UnitKind(StrEnum):
    """What the versions say about one stretch of text."""

    AGREEMENT = "agreement"
    """Every version holds the same tags (category, type, span)."""
    TYPE_CONFLICT = "type_conflict"
    """The versions mark the same spans with different types."""
    BOUNDARY_CONFLICT = "boundary_conflict"
    """The versions' spans overlap without being equal (nested, shifted, split)."""
    PARTIAL = "partial"
    """Some versions hold the same tags, the others nothing."""
    MISSED_CANDIDATE = "missed_candidate"
    """Nobody tagged this text, but it was tagged elsewhere (or a model suggests it)."""


CONFLICT_KINDS = frozenset({UnitKind.TYPE_CONFLICT, UnitKind.BOUNDARY_CONFLICT})


@dataclass(frozen=True)
class Evidence:
    """Where a missed candidate's text was annotated (or who suggested it)."""

    doc_id: str
    start: int
    end: int
    tag: str
    type: str
    origin: str = "annotated"  # "annotated" elsewhere, or "model" (a pre-annotation)


@dataclass(frozen=True, slots=True)
class Unit:
    """One adjudication decision's worth of annotations.

    Attributes
    ----------
    id: stable id, ``"<doc_id>:<start>-<end>"`` (candidates end in ``":missed"``).
    doc_id: the document.
    kind: see :class:`UnitKind`.
    span: the smallest span covering every annotation of the unit.
    versions: per version (same order as the alignment's names), the annotations it holds
        in this unit, sorted by offset; an empty tuple when it holds none.
    suggestion: for a missed candidate, the tag to add when accepted (id left empty).
    evidence: for a missed candidate, where its text was annotated or who suggested it.
    """

    id: str
    doc_id: str
    kind: UnitKind
    span: Span
    versions: tuple[tuple[Annotation, ...], ...]
    suggestion: Annotation | None = None
    evidence: tuple[Evidence, ...] = ()

    @property
    def start(self) -> int:
        return self.span.start

    @property
    def end(self) -> int:
        return self.span.end

    def keys_of(self, version: int) -> frozenset[AnnotationKey]:
        """The ``(tag, type, start, end)`` keys version ``version`` holds in this unit."""
        return frozenset(a.key for a in self.versions[version])

    def majority(self) -> tuple[frozenset[AnnotationKey], list[int]] | None:
        """The non-empty key set held by more than half of the versions, and which hold it."""
        sets = [self.keys_of(i) for i in range(len(self.versions))]
        counts = Counter(s for s in sets if s)
        if not counts:
            return None
        best, number = counts.most_common(1)[0]
        if number * 2 <= len(sets):
            return None
        return best, [i for i, s in enumerate(sets) if s == best]

    def to_dict(self, names: Sequence[str] | None = None, include_text: bool = False) -> dict[str, object]:
        """A JSON-ready summary (no note text unless ``include_text``)."""

        def tag(annotation: Annotation) -> dict[str, object]:
            data: dict[str, object] = {
                "tag": annotation.tag,
                "type": annotation.type,
                "start": annotation.start,
                "end": annotation.end,
            }
            if include_text:
                data["text"] = annotation.text
            return data

        labels = list(names) if names is not None else [str(i) for i in range(len(self.versions))]
        data: dict[str, object] = {
            "id": self.id,
            "kind": self.kind.value,
            "start": self.start,
            "end": self.end,
            "versions": {
                labels[i]: [tag(a) for a in annotations] for i, annotations in enumerate(self.versions)
            },
        }
        if self.suggestion is not None:
            data["suggestion"] = tag(self.suggestion)
            data["evidence"] = [
                {"doc_id": e.doc_id, "start": e.start, "end": e.end, "type": e.type, "origin": e.origin}
                for e in self.evidence
            ]
        return data


@dataclass
class Alignment:
    """The units of one document across its versions.

    Attributes
    ----------
    doc_id, text: the document (all versions share the text).
    names: one name per version (the annotator, usually the folder name).
    versions: the documents, in the order of ``names``.
    units: sorted by offset; annotation units and missed candidates never overlap.
    """

    doc_id: str
    text: str
    names: list[str]
    versions: list[Document]
    units: list[Unit] = field(default_factory=list)

    def unit(self, unit_id: str) -> Unit:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise UsageError(f"document {self.doc_id}: no unit {unit_id!r}")

    def counts(self) -> dict[str, int]:
        """Units per kind (every kind listed, zero included)."""
        counts = {kind.value: 0 for kind in UnitKind}
        for unit in self.units:
            counts[unit.kind.value] += 1
        return counts


def unit_id(doc_id: str, start: int, end: int, kind: UnitKind | None = None) -> str:
    """The stable id of a unit covering ``[start, end)`` of ``doc_id``."""
    suffix = ":missed" if kind is UnitKind.MISSED_CANDIDATE else ""
    return f"{doc_id}:{start}-{end}{suffix}"


def first_difference(a: str, b: str) -> int:
    """The first code-point offset where two texts differ (the shorter length if a prefix)."""
    if a == b:
        return -1
    low, high = 0, min(len(a), len(b))
    # Binary search on prefix equality: C-speed slice compares instead of a Python loop.
    while low < high:
        middle = (low + high) // 2
        if a[low : middle + 1] == b[low : middle + 1]:
            low = middle + 1
        else:
            high = middle
    return low


def check_same_text(documents: Sequence[Document], names: Sequence[str]) -> None:
    """Raise :class:`TextMismatchError` unless every version has the first one's TEXT.

    The message names the document, the two versions and the first differing offset, never
    the text itself.
    """
    reference = documents[0]
    for name, document in zip(names[1:], documents[1:], strict=True):
        if document.text != reference.text:
            offset = first_difference(reference.text, document.text)
            raise TextMismatchError(
                f"document {reference.doc_id}: TEXT of version {name!r} differs from version "
                f"{names[0]!r} at offset {offset} (lengths {len(reference.text)} and {len(document.text)})",
                document.origin.path,
            )


def _classify(sets: Sequence[frozenset[AnnotationKey]]) -> UnitKind:
    present = [s for s in sets if s]
    first = present[0]
    if all(s == first for s in present):
        return UnitKind.AGREEMENT if len(present) == len(sets) else UnitKind.PARTIAL
    spans = {frozenset((k[2], k[3]) for k in s) for s in present}
    if len(spans) == 1:
        return UnitKind.TYPE_CONFLICT
    return UnitKind.BOUNDARY_CONFLICT


def align_documents(documents: Sequence[Document], names: Sequence[str] | None = None) -> Alignment:
    """Align N >= 2 versions of one document into units (no missed candidates).

    Parameters
    ----------
    documents:
        The versions; they must share their TEXT.
    names:
        One name per version; default ``v1``, ``v2`` ...

    Returns
    -------
    Alignment
    """
    if len(documents) < 2:
        raise UsageError("adjudication needs at least two versions of a document")
    labels = list(names) if names is not None else [f"v{i + 1}" for i in range(len(documents))]
    if len(labels) != len(documents):
        raise UsageError(f"{len(documents)} versions but {len(labels)} names")
    check_same_text(documents, labels)
    doc_id = documents[0].doc_id
    n = len(documents)
    # (start, end, version, sequence, key, annotation): the sequence keeps the sort from ever
    # comparing two Annotation objects.
    tagged = sorted(
        (a.start, a.end, i, sequence, (a.tag, a.type, a.start, a.end), a)
        for i, document in enumerate(documents)
        for sequence, a in enumerate(document.annotations)
    )
    units: list[Unit] = []
    cluster: list[tuple[int, int, int, int, AnnotationKey, Annotation]] = []
    cluster_end = -1
    every_version = list(range(n))

    def close() -> None:
        start = cluster[0][0]
        # Fast path for the common case: one tag per version, all identical.
        if len(cluster) == n and [item[2] for item in cluster] == every_version:
            first_key = cluster[0][4]
            if all(item[4] == first_key for item in cluster):
                units.append(
                    Unit(
                        unit_id(doc_id, start, cluster_end),
                        doc_id,
                        UnitKind.AGREEMENT,
                        Span(start, cluster_end),
                        tuple((item[5],) for item in cluster),
                    )
                )
                return
        per_version: list[list[Annotation]] = [[] for _ in range(n)]
        key_sets: list[set[AnnotationKey]] = [set() for _ in range(n)]
        for item in cluster:
            per_version[item[2]].append(item[5])
            key_sets[item[2]].add(item[4])
        kind = _classify([frozenset(keys) for keys in key_sets])
        units.append(
            Unit(
                unit_id(doc_id, start, cluster_end),
                doc_id,
                kind,
                Span(start, cluster_end),
                tuple(tuple(annotations) for annotations in per_version),
            )
        )

    for item in tagged:
        start, end = item[0], item[1]
        # Zero-length tags overlap nothing; each becomes its own unit.
        if cluster and (start < cluster_end or (start == cluster_end == cluster[0][0])):
            cluster.append(item)
            if end > cluster_end:
                cluster_end = end
        else:
            if cluster:
                close()
            cluster = [item]
            cluster_end = end
    if cluster:
        close()
    return Alignment(doc_id, documents[0].text, labels, list(documents), units)


def add_candidates(alignment: Alignment, candidates: Sequence[Unit]) -> None:
    """Merge missed-candidate units into an alignment, keeping offset order.

    Candidates overlapping an annotation unit or an earlier (longer first) candidate are
    dropped: a candidate is by definition text nobody tagged.
    """
    taken = sorted((u.start, u.end) for u in alignment.units)
    starts = [s for s, _ in taken]
    accepted: list[Unit] = []
    for candidate in sorted(candidates, key=lambda u: (-(u.end - u.start), u.start)):
        position = bisect.bisect_left(starts, candidate.end)
        # Only the interval starting just before candidate.end can overlap (intervals are disjoint).
        if position > 0 and taken[position - 1][1] > candidate.start:
            continue
        if any(u.span.overlaps(candidate.span) for u in accepted):
            continue
        accepted.append(candidate)
    alignment.units = sorted([*alignment.units, *accepted], key=lambda u: (u.start, u.end))
