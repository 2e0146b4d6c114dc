"""What each format can hold, and what a conversion would lose.

A document holds spans (category, type, offsets) and, beyond them, the kinds below. Each
format declares the kinds it holds (:data:`annotator.io.formats.FORMATS`); converting to a
format that lacks one the documents use is refused, naming each kind and how many, unless
the caller lets those kinds go (``convert --drop KIND,...``). What goes with what it
depends on goes too, and is counted under its own kind (a link whose argument is a document
tag, when document tags cannot be held).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.relations import NOTE_PREFIX, Relation, RelationKind
from annotator.io.mae_layout import LAYOUT_KEY as MAE_LAYOUT
from annotator.io.mae_layout import mae_layout

# An element that holds nothing (MedTator writes <META/> into every file).
_EMPTY_ELEMENT = re.compile(r"^<([\w.:-]+)\s*(/>|>\s*</\1\s*>)$")
_TEXT_AND_TAGS = ("TEXT", "TAGS")


class Kind(StrEnum):
    """What a document can hold beyond typed spans (the names ``--drop`` takes)."""

    COMMENTS = "comments"
    ATTRIBUTES = "attributes"
    NOTES = "notes"
    PROVENANCE = "provenance"
    SUGGESTIONS = "suggestions"
    DISCONTINUOUS = "discontinuous"
    OVERLAPS = "overlaps"
    DOCUMENT_TAGS = "document-tags"
    RELATIONS = "relations"
    LINKS = "n-ary-links"
    EVENTS = "events"
    EQUIVALENCES = "equivalences"
    NORMALIZATIONS = "normalizations"
    TYPES = "types"
    ELEMENTS = "elements"


EVERYTHING = frozenset(Kind)
# What each kind is, for messages and --help.
DESCRIPTIONS = {
    Kind.COMMENTS: "annotators' comments",
    Kind.ATTRIBUTES: "attribute values of tags, such as certainty or severity",
    Kind.NOTES: "brat notes other than comments, such as #Lemma",
    Kind.PROVENANCE: "source, confidence and annotator of tags",
    Kind.SUGGESTIONS: "pre-annotations nobody reviewed yet",
    Kind.DISCONTINUOUS: "tags in several pieces, kept as separate tags",
    Kind.OVERLAPS: "tags overlapping an earlier one",
    Kind.DOCUMENT_TAGS: "document-level and non-consuming tags, which have no span",
    Kind.RELATIONS: "links between two tags",
    Kind.LINKS: "links with other than two arguments",
    Kind.EVENTS: "events, a trigger with its arguments",
    Kind.EQUIVALENCES: "equivalence sets",
    Kind.NORMALIZATIONS: "references to external resources",
    Kind.TYPES: "PHI types the target names only by a coarser one (PhysioNet's: HOSPITAL as Location)",
    Kind.ELEMENTS: "elements of an XML file beside TEXT and TAGS that hold something (MedTator's <META> labels)",
}
_RELATION_KINDS = {
    RelationKind.EVENT: Kind.EVENTS,
    RelationKind.EQUIVALENCE: Kind.EQUIVALENCES,
    RelationKind.NORMALIZATION: Kind.NORMALIZATIONS,
}


def parse_kinds(text: str) -> frozenset[Kind]:
    """``comments,events`` as kinds; ValueError names an unknown one."""
    kinds = set()
    for name in (n.strip() for n in text.split(",")):
        if not name:
            continue
        if name == "all":
            return EVERYTHING
        try:
            kinds.add(Kind(name))
        except ValueError:
            known = ", ".join(k.value for k in Kind)
            raise ValueError(f"unknown kind {name!r} (known: {known}, or all)") from None
    return frozenset(kinds)


def relation_kind(relation: Relation) -> Kind:
    if relation.kind is RelationKind.LINK:
        filled = relation.filled
        binary = len(filled) == 2 and filled[0].role != filled[1].role
        return Kind.RELATIONS if binary else Kind.LINKS
    return _RELATION_KINDS[relation.kind]


def _has_provenance(annotation: Annotation) -> bool:
    return (
        annotation.source is not Source.HUMAN
        or annotation.confidence is not None
        or bool(annotation.annotator)
    )


def file_elements(document: Document) -> list[str]:
    """The elements (and comments) of the XML file a document was read from, beside TEXT and
    TAGS, that hold something: MedTator's ``<META><label color="yellow"/></META>``. The
    i2b2 and MAE writers keep them; other formats have no place for them."""
    layout = mae_layout(document) if document.origin.format == "mae" else None
    if layout is not None:
        found = [*layout.before, *layout.after]
    elif document.origin.format == "i2b2":
        children = document.origin.layout.get("children", [])
        found = [str(c) for c in children if c not in _TEXT_AND_TAGS] if isinstance(children, list) else []
    else:
        found = []
    return [item for item in found if not _EMPTY_ELEMENT.match(item.strip())]


def _without_elements(document: Document) -> None:
    layout = mae_layout(document) if document.origin.format == "mae" else None
    if layout is not None:
        document.origin.layout[MAE_LAYOUT] = dataclasses.replace(layout, before=[], after=[])
    children = document.origin.layout.get("children")
    if document.origin.format == "i2b2" and isinstance(children, list):
        document.origin.layout["children"] = [c for c in children if c in _TEXT_AND_TAGS]


def content(document: Document, carried: frozenset[str] = frozenset()) -> Counter[Kind]:
    """How many of each kind a document holds (attributes named in ``carried`` left out)."""
    found: Counter[Kind] = Counter()
    last_end = -1
    for annotation in sorted(document.annotations, key=lambda a: (a.start, a.end)):
        if annotation.start < last_end:
            found[Kind.OVERLAPS] += 1
        last_end = max(last_end, annotation.end)
        found[Kind.COMMENTS] += bool(annotation.comment)
        found[Kind.PROVENANCE] += _has_provenance(annotation)
        found[Kind.SUGGESTIONS] += annotation.pending
        for name, value in annotation.extra:
            if name not in carried:
                found[Kind.NOTES if name.startswith(NOTE_PREFIX) else Kind.ATTRIBUTES] += bool(value)
    found[Kind.DISCONTINUOUS] += len(
        {a.fragment_of for a in document.annotations if a.fragment_of in document}
    )
    found[Kind.DOCUMENT_TAGS] += len(document.document_tags)
    for relation in document.relations:
        found[relation_kind(relation)] += 1
    found[Kind.ELEMENTS] += len(file_elements(document))
    return +found


def without(document: Document, kinds: Iterable[Kind], carried: frozenset[str] = frozenset()) -> Document:
    """A copy of a document without the given kinds (but the attributes in ``carried``),
    and without what named what went."""
    gone = frozenset(kinds)
    copy = document.copy()
    if Kind.ELEMENTS in gone:
        _without_elements(copy)
    if Kind.SUGGESTIONS in gone:
        for annotation in [a for a in copy.annotations if a.pending]:
            _remove_annotation(copy, annotation.id)
    if Kind.OVERLAPS in gone:
        last_end = -1
        for annotation in sorted(copy.annotations, key=lambda a: (a.start, a.end, a.id)):
            if annotation.start < last_end and annotation.id in copy:
                _remove_annotation(copy, annotation.id)
            else:
                last_end = max(last_end, annotation.end)
    for annotation in copy.annotations:
        changes: dict[str, object] = {}
        if Kind.COMMENTS in gone and annotation.comment:
            changes["comment"] = ""
        if Kind.PROVENANCE in gone and _has_provenance(annotation):
            changes.update(source=Source.HUMAN, confidence=None, annotator="")
        if Kind.DISCONTINUOUS in gone and annotation.fragment_of:
            changes["fragment_of"] = ""
        extra = tuple(
            (n, v)
            for n, v in annotation.extra
            if n in carried
            or (
                not (Kind.NOTES in gone and n.startswith(NOTE_PREFIX))
                and not (Kind.ATTRIBUTES in gone and not n.startswith(NOTE_PREFIX))
            )
        )
        if extra != annotation.extra:
            changes["extra"] = extra
        if changes:
            copy.replace(annotation.id, annotation.replace(**changes))
    if Kind.DOCUMENT_TAGS in gone:
        for tag in copy.document_tags:
            copy.remove_document_tag(tag.id)
    for relation in copy.relations:
        if relation_kind(relation) in gone:
            copy.remove_relation(relation.id)
        elif Kind.COMMENTS in gone and relation.comment:
            copy.replace_relation(relation.id, relation.replace(comment=""))
    _remove_dangling(copy)
    return copy


def _remove_annotation(document: Document, annotation_id: str) -> None:
    document.remove(annotation_id)
    for piece in [a for a in document.annotations if a.fragment_of == annotation_id]:
        document.remove(piece.id)


def _remove_dangling(document: Document) -> None:
    """Remove relations naming something no longer there, until none does."""
    while True:
        present = {*(a.id for a in document.annotations), *(t.id for t in document.document_tags)}
        present |= {r.id for r in document.relations}
        dangling = [r for r in document.relations if not set(r.targets) <= present]
        if not dangling:
            return
        for relation in dangling:
            document.remove_relation(relation.id)


def losses(
    documents: Sequence[Document], holds: frozenset[Kind], carried: frozenset[str] = frozenset()
) -> Counter[Kind]:
    """What writing the documents to a format holding ``holds`` (and the attributes in
    ``carried``) would lose, per kind; what named what went counts under its own kind."""
    lost: Counter[Kind] = Counter()
    for document in documents:
        before = content(document, carried)
        missing = {kind for kind in before if kind not in holds}
        if not missing:
            continue
        after = content(without(document, missing, carried), carried)
        lost.update({kind: count - after[kind] for kind, count in before.items() if count > after[kind]})
    return lost


def describe(lost: Counter[Kind]) -> str:
    """``document-tags: 105, relations: 3`` in the order of :class:`Kind`."""
    return ", ".join(f"{kind.value}: {lost[kind]}" for kind in Kind if lost[kind])
