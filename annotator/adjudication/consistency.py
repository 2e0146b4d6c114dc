"""PHI everyone missed: unannotated occurrences of text annotated elsewhere.

Two uses, one search (``annotator.core.propagation.find_unannotated_occurrences``: whole
word, case-insensitive, an occurrence overlapping any tag counts as annotated):

* during adjudication, :func:`missed_candidates` searches the union of all versions (plus
  the gold in progress), so a candidate is text that *no* annotator tagged, yet someone
  tagged the same string elsewhere in the patient's records or the corpus; pre-annotation
  (model) tags that no version kept become candidates too;
* after adjudication, :func:`check_consistency` runs the seed-001 §5.1 check over the gold
  folder and returns findings for the CLI (no note text unless asked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from annotator.adjudication.units import Alignment, Evidence, Unit, UnitKind, unit_id
from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.propagation import Inconsistency, find_unannotated_occurrences
from annotator.core.span import Span
from annotator.errors import UsageError

Scope = Literal["patient", "corpus"]
MAX_EVIDENCE = 20


def union_document(alignment: Alignment, extra: Sequence[Document] = ()) -> Document:
    """One document holding every version's tags (ids prefixed ``v<k>_`` to stay unique)."""
    annotations = []
    for index, version in enumerate([*alignment.versions, *extra]):
        for annotation in version.annotations:
            annotations.append(annotation.replace(id=f"v{index}_{annotation.id}"))
    return Document(alignment.doc_id, alignment.text, annotations)


def _evidence(finding: Inconsistency, documents: Mapping[str, Document]) -> tuple[Evidence, ...]:
    evidence = []
    for doc_id, annotation_id in finding.annotated_at[:MAX_EVIDENCE]:
        annotation = documents[doc_id].get(annotation_id)
        evidence.append(Evidence(doc_id, annotation.start, annotation.end, annotation.tag, annotation.type))
    return tuple(evidence)


def _candidate(
    doc_id: str,
    text: str,
    start: int,
    end: int,
    tag: str,
    type_: str,
    evidence: tuple[Evidence, ...],
    n_versions: int,
) -> Unit:
    suggestion = Annotation(
        id="", tag=tag, type=type_, start=start, end=end, text=text[start:end], source=Source.PROPAGATED
    )
    return Unit(
        id=unit_id(doc_id, start, end, UnitKind.MISSED_CANDIDATE),
        doc_id=doc_id,
        kind=UnitKind.MISSED_CANDIDATE,
        span=Span(start, end),
        versions=tuple(() for _ in range(n_versions)),
        suggestion=suggestion,
        evidence=evidence,
    )


def missed_candidates(
    alignments: Sequence[Alignment],
    scope: Scope = "patient",
    suggestions: Mapping[str, Document] | None = None,
    gold: Mapping[str, Document] | None = None,
) -> dict[str, list[Unit]]:
    """Missed-PHI candidate units per document id.

    Parameters
    ----------
    alignments:
        Every aligned document of the corpus (the scope is searched among them).
    scope:
        ``"patient"`` (the patient's records) or ``"corpus"``.
    suggestions:
        Pre-annotated documents by id; their tags that no version overlaps become
        candidates with ``origin="model"`` evidence.
    gold:
        Gold documents in progress by id; their tags count as annotated text.
    """
    if scope not in ("patient", "corpus"):
        raise UsageError(f"unknown scope {scope!r}: use patient or corpus")
    unions = {
        a.doc_id: union_document(a, [gold[a.doc_id]] if gold and a.doc_id in gold else []) for a in alignments
    }
    by_id = {a.doc_id: a for a in alignments}
    found: dict[str, list[Unit]] = {a.doc_id: [] for a in alignments}
    for finding in find_unannotated_occurrences(list(unions.values()), scope=scope):
        alignment = by_id[finding.doc_id]
        tag, type_ = finding.suggested
        found[finding.doc_id].append(
            _candidate(
                finding.doc_id,
                alignment.text,
                finding.start,
                finding.end,
                tag,
                type_,
                _evidence(finding, unions),
                len(alignment.names),
            )
        )
    for doc_id, model_document in (suggestions or {}).items():
        union = unions.get(doc_id)
        if union is None or model_document.text != union.text:
            continue
        spans = sorted((a.start, a.end) for a in union.annotations)
        taken = {(u.start, u.end) for u in found[doc_id]}
        for annotation in model_document.sorted_annotations():
            if (annotation.start, annotation.end) in taken or annotation.start >= annotation.end:
                continue
            if any(s < annotation.end and annotation.start < e for s, e in spans):
                continue
            evidence = (
                Evidence(doc_id, annotation.start, annotation.end, annotation.tag, annotation.type, "model"),
            )
            found[doc_id].append(
                _candidate(
                    doc_id,
                    union.text,
                    annotation.start,
                    annotation.end,
                    annotation.tag,
                    annotation.type,
                    evidence,
                    len(by_id[doc_id].names),
                )
            )
    return found


@dataclass
class Finding:
    """One unannotated occurrence of a string annotated as PHI elsewhere."""

    doc_id: str
    start: int
    end: int
    text: str = field(repr=False)
    tag: str = ""
    type: str = ""
    types: list[str] = field(default_factory=list)
    annotated_at: list[Evidence] = field(default_factory=list)
    annotated_count: int = 0

    def to_dict(self, include_text: bool = False) -> dict[str, object]:
        data: dict[str, object] = {
            "doc_id": self.doc_id,
            "start": self.start,
            "end": self.end,
            "tag": self.tag,
            "type": self.type,
            "types": self.types,
            "annotated_count": self.annotated_count,
            "annotated_at": [
                {"doc_id": e.doc_id, "start": e.start, "end": e.end, "type": e.type}
                for e in self.annotated_at
            ],
        }
        if include_text:
            data["text"] = self.text
        return data


def check_consistency(documents: Sequence[Document], scope: Scope = "patient") -> list[Finding]:
    """Every unannotated occurrence of a string annotated as PHI elsewhere in its scope.

    Returns
    -------
    list[Finding]
        Ordered by document id and offset.
    """
    by_id = {d.doc_id: d for d in documents}
    findings = []
    for item in find_unannotated_occurrences(list(documents), scope=scope):
        tag, type_ = item.suggested
        findings.append(
            Finding(
                doc_id=item.doc_id,
                start=item.start,
                end=item.end,
                text=item.text,
                tag=tag,
                type=type_,
                types=[t for _, t in item.types],
                annotated_at=list(_evidence(item, by_id)),
                annotated_count=len(item.annotated_at),
            )
        )
    return findings
