"""Corpus statistics in the manner of the i2b2 2014 corpus paper (seed 001, Table 3).

Counts of annotations per category and type, documents, patients, whitespace tokens,
characters, per-document averages and the number of tokens that carry PHI. A tag in several
pieces counts once; links (and events, equivalences, normalizations) and document-level tags
are counted apart, in their own rows. A pure function of the documents: no files are read
here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from annotator.core.document import Document
from annotator.core.schema import Schema

_TOKEN = re.compile(r"\S+")


def _phi_tokens(document: Document) -> tuple[int, int]:
    """Whitespace tokens of the document, and how many of them overlap an annotation."""
    spans = sorted((a.start, a.end) for a in document.annotations if a.end > a.start)
    tokens = 0
    covered = 0
    index = 0
    for match in _TOKEN.finditer(document.text):
        tokens += 1
        start, end = match.span()
        # Spans sorted by start: skip those ending before this token, then test overlap.
        while index < len(spans) and spans[index][1] <= start:
            index += 1
        probe = index
        while probe < len(spans) and spans[probe][0] < end:
            if spans[probe][1] > start:
                covered += 1
                break
            probe += 1
    return tokens, covered


def _average(total: int, count: int) -> float:
    return round(total / count, 2) if count else 0.0


def corpus_statistics(documents: Iterable[Document], schema: Schema | None = None) -> dict[str, Any]:
    """Counts and averages for a set of documents.

    Parameters
    ----------
    documents:
        The documents (one version of each: gold, or one annotator's).
    schema:
        When given, every type of the schema is listed (with zero counts), in schema order;
        types found in the documents but unknown to the schema follow.

    Returns
    -------
    dict
        ``documents``, ``patients``, ``annotations``, ``tokens``, ``characters``,
        ``phi_tokens``; ``per_document`` averages (annotations, tokens, characters,
        phi_tokens); ``by_category`` and ``by_type`` ({name: count}); ``categories``,
        a list of ``{"category", "count", "types": [{"type", "count"}]}`` in display order;
        ``document_tags`` (``count``, ``by_tag``) and ``relations`` (``count``, ``by_kind``,
        ``by_type``: ``[{"kind", "type", "count"}]``).
    """
    by_pair: Counter[tuple[str, str]] = Counter()
    by_document_tag: Counter[str] = Counter()
    by_relation: Counter[tuple[str, str]] = Counter()
    patients: set[str] = set()
    n_documents = tokens = characters = phi_tokens = 0
    for document in documents:
        n_documents += 1
        patients.add(document.patient_id)
        characters += len(document.text)
        doc_tokens, doc_phi = _phi_tokens(document)
        tokens += doc_tokens
        phi_tokens += doc_phi
        for annotation in document.annotations:
            if not (annotation.fragment_of and annotation.fragment_of in document):
                by_pair[(annotation.tag, annotation.type)] += 1
        by_document_tag.update(tag.tag for tag in document.document_tags)
        by_relation.update((relation.kind.value, relation.type) for relation in document.relations)

    order: list[tuple[str, str]] = []
    if schema is not None:
        order = [(t.category, t.name) for c in schema.categories for t in c.types]
    known = set(order)
    order.extend(sorted(pair for pair in by_pair if pair not in known))

    categories: list[dict[str, Any]] = []
    index: dict[str, dict[str, Any]] = {}
    for category, type_ in order:
        if category not in index:
            index[category] = {"category": category, "count": 0, "types": []}
            categories.append(index[category])
        count = by_pair.get((category, type_), 0)
        index[category]["count"] += count
        index[category]["types"].append({"type": type_, "count": count})

    # A type filed under two categories (an invalid file) still counts once, summed.
    by_type: dict[str, int] = {}
    for category_entry in categories:
        for type_entry in category_entry["types"]:
            by_type[type_entry["type"]] = by_type.get(type_entry["type"], 0) + type_entry["count"]
    total = sum(by_pair.values())
    return {
        "documents": n_documents,
        "patients": len(patients),
        "annotations": total,
        "tokens": tokens,
        "characters": characters,
        "phi_tokens": phi_tokens,
        "per_document": {
            "annotations": _average(total, n_documents),
            "tokens": _average(tokens, n_documents),
            "characters": _average(characters, n_documents),
            "phi_tokens": _average(phi_tokens, n_documents),
        },
        "by_category": {c["category"]: c["count"] for c in categories},
        "by_type": by_type,
        "categories": categories,
        "document_tags": {
            "count": sum(by_document_tag.values()),
            "by_tag": dict(sorted(by_document_tag.items())),
        },
        "relations": {
            "count": sum(by_relation.values()),
            "by_kind": dict(sorted(Counter(kind for kind, _ in by_relation.elements()).items())),
            "by_type": [
                {"kind": kind, "type": type_, "count": count}
                for (kind, type_), count in sorted(by_relation.items())
            ],
        },
    }
