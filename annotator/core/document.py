"""A note and its annotations: the object every view and tool works on.

Signals
-------
annotation_added(Annotation)
annotation_removed(Annotation)
annotation_replaced(old: Annotation, new: Annotation)
relation_added(Relation)
relation_removed(Relation)
relation_replaced(old: Relation, new: Relation)
document_tag_added(DocumentTag)
document_tag_removed(DocumentTag)
document_tag_replaced(old: DocumentTag, new: DocumentTag)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from psygnal import Signal, SignalInstance

from annotator.core.annotation import Annotation
from annotator.core.relations import DocumentTag, Relation
from annotator.errors import AnnotatorError, InputError

# "PPP-RR" names patient PPP, record RR (i2b2 2014: 110-01.xml).
# Numbers of at most 18 ASCII digits: a hostile id's 5,000 digits would pass Python's limit
# for int(), and other scripts' digits would read as numbers nobody wrote.
_RECORD_NAME = re.compile(r"^(?P<patient>.+)-(?P<record>[0-9]{1,18})$")
_ID_NUMBER = re.compile(r"^(?P<prefix>\D*)(?P<number>[0-9]{1,18})$")


def _prefix_of(item_id: str) -> str:
    """``P`` of ``P12``; empty for an id that is no prefix and number."""
    match = _ID_NUMBER.match(item_id)
    return match["prefix"] if match is not None else ""


def document_id_of(path: str | Path | None, default: str = "document") -> str:
    """The document id a file's name gives (its stem).

    A name holding bytes that are not UTF-8 (Python keeps them as lone surrogates) cannot be
    an id: it could be written into no report, JSON or XML. It is refused as bad input.
    """
    if path is None:
        return default
    stem = Path(path).stem
    try:
        stem.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            "the file name is not valid UTF-8 (it names the document): rename the file", path
        ) from None
    return stem


def split_record_name(stem: str) -> tuple[str, int]:
    """Patient id and record number from a ``PPP-RR`` file stem (record 0 when absent)."""
    match = _RECORD_NAME.match(stem)
    if match is None:
        return stem, 0
    return match["patient"], int(match["record"])


@dataclass
class Origin:
    """What a document was read from, so an unchanged document saves byte-identical."""

    path: Path | None = None
    format: str = "i2b2"
    raw: bytes | None = None
    fingerprint: tuple[object, ...] | None = None
    # Format-specific layout the writer needs (root tag, unknown elements, ...).
    layout: dict[str, object] = field(default_factory=dict)


class Document:
    """A clinical note with its PHI annotations.

    Parameters
    ----------
    doc_id:
        The document's name, normally the file stem (``110-01``).
    text:
        The note text, line endings already normalised to LF.
    annotations:
        Initial annotations, in file order; their ids must be unique.
    relations, document_tags:
        Links, events, equivalences, normalizations (:mod:`annotator.core.relations`) and
        tags without a span; ids are unique across all three collections.
    """

    annotation_added = Signal(Annotation)
    annotation_removed = Signal(Annotation)
    annotation_replaced = Signal(Annotation, Annotation)
    relation_added = Signal(Relation)
    relation_removed = Signal(Relation)
    relation_replaced = Signal(Relation, Relation)
    document_tag_added = Signal(DocumentTag)
    document_tag_removed = Signal(DocumentTag)
    document_tag_replaced = Signal(DocumentTag, DocumentTag)

    def __init__(
        self,
        doc_id: str,
        text: str,
        annotations: Iterable[Annotation] = (),
        origin: Origin | None = None,
        relations: Iterable[Relation] = (),
        document_tags: Iterable[DocumentTag] = (),
    ) -> None:
        self.doc_id = doc_id
        self.text = text
        self.patient_id, self.record = split_record_name(doc_id)
        self.origin = origin or Origin()
        self._annotations: dict[str, Annotation] = {}
        self._relations: dict[str, Relation] = {}
        self._document_tags: dict[str, DocumentTag] = {}
        self._next_number = 0
        # Tag name -> the prefix of its new ids (a MAE / MedTator task's, else guessed).
        self.id_prefixes: dict[str, str] = {}
        # Tag name -> how many of its ids have each prefix, for guessing: built on first use,
        # then kept up to date (each new tag used to read every id of a note).
        self._prefix_counts: dict[str, Counter[str]] | None = None
        for annotation in annotations:
            self._insert(annotation)
        for relation in relations:
            self._insert_other(self._relations, relation.id, relation, relation.type)
        for tag in document_tags:
            self._insert_other(self._document_tags, tag.id, tag, tag.tag)

    # -- reading -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._annotations)

    def __iter__(self) -> Iterator[Annotation]:
        return iter(list(self._annotations.values()))

    def __contains__(self, annotation_id: object) -> bool:
        return annotation_id in self._annotations

    @property
    def annotations(self) -> list[Annotation]:
        """Annotations in insertion (file) order."""
        return list(self._annotations.values())

    def get(self, annotation_id: str) -> Annotation:
        try:
            return self._annotations[annotation_id]
        except KeyError:
            raise AnnotatorError(
                f"no annotation with id {annotation_id!r} in document {self.doc_id}"
            ) from None

    def find(self, annotation_id: str) -> Annotation | None:
        """The annotation with this id, or None (no exception: views ask this per cell)."""
        return self._annotations.get(annotation_id)

    def sorted_annotations(self) -> list[Annotation]:
        """Annotations by start, then end, then id."""
        return sorted(self._annotations.values(), key=lambda a: (a.start, a.end, a.id))

    def at(self, position: int) -> list[Annotation]:
        """Annotations covering a code-point position."""
        return [a for a in self._annotations.values() if a.start <= position < a.end]

    def overlapping(self, start: int, end: int) -> list[Annotation]:
        """Annotations sharing at least one code point with ``[start, end)``."""
        return [a for a in self._annotations.values() if a.start < end and start < a.end]

    def fingerprint(self) -> tuple[object, ...]:
        """A value that changes whenever the text, an annotation, a relation or a document
        tag changes."""
        return (
            self.text,
            tuple(self._annotations.values()),
            tuple(self._relations.values()),
            tuple(self._document_tags.values()),
        )

    def is_pristine(self) -> bool:
        """True when nothing changed since the document was read."""
        return self.origin.fingerprint is not None and self.origin.fingerprint == self.fingerprint()

    def mark_pristine(self) -> None:
        """Record the current state as the saved one (after reading or saving)."""
        self.origin.fingerprint = self.fingerprint()

    # -- relations and document tags -------------------------------------------------------
    @property
    def relations(self) -> list[Relation]:
        """Links, events, equivalences and normalizations, in file order."""
        return list(self._relations.values())

    @property
    def document_tags(self) -> list[DocumentTag]:
        """Tags without a span, in file order."""
        return list(self._document_tags.values())

    def get_relation(self, relation_id: str) -> Relation:
        try:
            return self._relations[relation_id]
        except KeyError:
            raise AnnotatorError(f"no relation with id {relation_id!r} in document {self.doc_id}") from None

    def get_document_tag(self, tag_id: str) -> DocumentTag:
        try:
            return self._document_tags[tag_id]
        except KeyError:
            raise AnnotatorError(f"no document tag with id {tag_id!r} in document {self.doc_id}") from None

    def has_id(self, item_id: str) -> bool:
        """True when an annotation, relation or document tag has this id."""
        return item_id in self._annotations or item_id in self._relations or item_id in self._document_tags

    def change_signals(self) -> list[SignalInstance]:
        """Every signal announcing a change to the annotations, relations or document tags."""
        return [
            self.annotation_added,
            self.annotation_removed,
            self.annotation_replaced,
            self.relation_added,
            self.relation_removed,
            self.relation_replaced,
            self.document_tag_added,
            self.document_tag_removed,
            self.document_tag_replaced,
        ]

    def relations_naming(self, item_id: str) -> list[Relation]:
        """The relations whose trigger or arguments name an id."""
        return [r for r in self._relations.values() if item_id in r.targets]

    def add_relation(self, relation: Relation) -> Relation:
        self._insert_other(self._relations, relation.id, relation, relation.type)
        self.relation_added.emit(relation)
        return relation

    def remove_relation(self, relation_id: str) -> Relation:
        relation = self.get_relation(relation_id)
        del self._relations[relation_id]
        self._count_id(relation.type, relation_id, -1)
        self.relation_removed.emit(relation)
        return relation

    def replace_relation(self, relation_id: str, new: Relation) -> Relation:
        """Swap a relation for an edited copy (same id)."""
        old = self.get_relation(relation_id)
        if new.id != relation_id:
            raise AnnotatorError(f"a relation keeps its id ({relation_id}) in document {self.doc_id}")
        self._relations[relation_id] = new
        self._count_id(old.type, relation_id, -1)
        self._count_id(new.type, relation_id, 1)
        self.relation_replaced.emit(old, new)
        return old

    def add_document_tag(self, tag: DocumentTag) -> DocumentTag:
        self._insert_other(self._document_tags, tag.id, tag, tag.tag)
        self.document_tag_added.emit(tag)
        return tag

    def remove_document_tag(self, tag_id: str) -> DocumentTag:
        tag = self.get_document_tag(tag_id)
        del self._document_tags[tag_id]
        self._count_id(tag.tag, tag_id, -1)
        self.document_tag_removed.emit(tag)
        return tag

    def replace_document_tag(self, tag_id: str, new: DocumentTag) -> DocumentTag:
        old = self.get_document_tag(tag_id)
        if new.id != tag_id:
            raise AnnotatorError(f"a document tag keeps its id ({tag_id}) in document {self.doc_id}")
        self._document_tags[tag_id] = new
        self._count_id(old.tag, tag_id, -1)
        self._count_id(new.tag, tag_id, 1)
        self.document_tag_replaced.emit(old, new)
        return old

    def _insert_other(self, collection: dict[str, _Item], item_id: str, item: _Item, tag: str) -> None:
        if not item_id or self.has_id(item_id):
            raise AnnotatorError(f"duplicate or empty id {item_id!r} in document {self.doc_id}")
        collection[item_id] = item
        self._note_id(item_id)
        self._count_id(tag, item_id, 1)

    # -- ids -----------------------------------------------------------------------------
    def new_id(self, prefix: str = "P") -> str:
        """An id whose number no annotation, relation or document tag of this document has
        held (so a tool that numbers ids per prefix never gives it again)."""
        while True:
            candidate = f"{prefix}{self._next_number}"
            self._next_number += 1
            if not self.has_id(candidate):
                return candidate

    def id_prefix(self, tag: str) -> str:
        """The prefix of a new id for a tag: the task's (:attr:`id_prefixes`), else the one
        every id of that tag in the document shares, else ``P``."""
        if tag in self.id_prefixes:
            return self.id_prefixes[tag]
        if self._prefix_counts is None:
            self._prefix_counts = {}
            for item_id, item_tag in self._tag_ids():
                self._count_id(item_tag, item_id, 1)
        counts = self._prefix_counts
        prefixes = set(counts[tag]) if tag in counts else set()
        if not prefixes:
            # No tag of that name yet: the prefix every id shares (brat's T), if any.
            prefixes = {prefix for tag_counts in counts.values() for prefix in tag_counts}
        return next(iter(prefixes)) if len(prefixes) == 1 and "" not in prefixes else "P"

    def _count_id(self, tag: str, item_id: str, step: int) -> None:
        """Follow one id of ``tag`` coming (``step`` 1) or going (-1) in the prefix counts."""
        if self._prefix_counts is None:
            return
        counts = self._prefix_counts.setdefault(tag, Counter())
        prefix = _prefix_of(item_id)
        counts[prefix] += step
        if counts[prefix] <= 0:
            del counts[prefix]
            if not counts:
                del self._prefix_counts[tag]

    def _tag_ids(self) -> Iterator[tuple[str, str]]:
        for annotation in self._annotations.values():
            if not annotation.fragment_of:
                yield annotation.id, annotation.tag
        for relation in self._relations.values():
            yield relation.id, relation.type
        for tag in self._document_tags.values():
            yield tag.id, tag.tag

    def _note_id(self, annotation_id: str) -> None:
        match = _ID_NUMBER.match(annotation_id)
        if match is not None:
            self._next_number = max(self._next_number, int(match["number"]) + 1)

    # -- editing (prefer history commands, which make every edit undoable) --------------
    def _insert(self, annotation: Annotation) -> None:
        if self.has_id(annotation.id):
            raise AnnotatorError(f"duplicate annotation id {annotation.id!r} in document {self.doc_id}")
        self._annotations[annotation.id] = annotation
        self._note_id(annotation.id)
        if not annotation.fragment_of:
            self._count_id(annotation.tag, annotation.id, 1)

    def add(self, annotation: Annotation) -> Annotation:
        self._insert(annotation)
        self.annotation_added.emit(annotation)
        return annotation

    def remove(self, annotation_id: str) -> Annotation:
        annotation = self.get(annotation_id)
        del self._annotations[annotation_id]
        if not annotation.fragment_of:
            self._count_id(annotation.tag, annotation_id, -1)
        self.annotation_removed.emit(annotation)
        return annotation

    def replace(self, annotation_id: str, new: Annotation) -> Annotation:
        """Swap an annotation for an edited copy; the id may change only to an unused one."""
        old = self.get(annotation_id)
        if new.id != annotation_id:
            if self.has_id(new.id):
                raise AnnotatorError(f"duplicate annotation id {new.id!r} in document {self.doc_id}")
            # Keep the position in file order.
            items = [(new.id, new) if k == annotation_id else (k, v) for k, v in self._annotations.items()]
            self._annotations = dict(items)
            self._note_id(new.id)
        else:
            self._annotations[annotation_id] = new
        if not old.fragment_of:
            self._count_id(old.tag, old.id, -1)
        if not new.fragment_of:
            self._count_id(new.tag, new.id, 1)
        self.annotation_replaced.emit(old, new)
        return old

    def make_annotation(self, tag: str, type_: str, start: int, end: int, **fields: object) -> Annotation:
        """A new annotation over ``text[start:end]`` with a fresh id (not yet added)."""
        if not 0 <= start <= end <= len(self.text):
            raise AnnotatorError(
                f"offsets {start}-{end} outside the text (length {len(self.text)}) of document {self.doc_id}"
            )
        return Annotation(
            id=str(fields.pop("id", None) or self.new_id(self.id_prefix(tag))),
            tag=tag,
            type=type_,
            start=start,
            end=end,
            text=self.text[start:end],
            **fields,  # type: ignore[arg-type]
        )

    def copy(self, doc_id: str | None = None) -> Document:
        """An independent copy (annotations are immutable, so sharing them is safe)."""
        origin = Origin(path=self.origin.path, format=self.origin.format, layout=dict(self.origin.layout))
        copy = Document(
            doc_id or self.doc_id, self.text, self.annotations, origin, self.relations, self.document_tags
        )
        copy.id_prefixes = dict(self.id_prefixes)
        return copy

    def __repr__(self) -> str:
        return f"Document({self.doc_id!r}, {len(self.text)} chars, {len(self)} annotations)"


_Item = TypeVar("_Item", Relation, DocumentTag)
