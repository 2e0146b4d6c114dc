"""brat standoff: the note in ``NAME.txt``, its annotations in ``NAME.ann``.

Offsets are code points of the ``.txt`` file as it is on disk (no line-end translation, a
leading byte-order mark counted, as brat counts it). Each ``T`` line's text column must be
the text at its offsets, as brat checks it (fragments joined by a space): a file whose offsets
point elsewhere is refused, never read with tags on the wrong words.
Every line kind is read into the document model and written from it
(:mod:`annotator.io.brat_ann` has the syntax):

* ``T``: an annotation per fragment (later fragments name the first in ``fragment_of``). The
  label is the TYPE and the schema gives its category, unless the TYPE alone would not give
  the category back (a type two categories share, or one with spaces): then the label is
  the category and the type rides in a ``TYPE`` attribute. A label, a relation type or a
  ``TYPE`` that could not name an XML element (a space, a quote, a leading digit, a non-ASCII
  letter) is refused on reading, as every reader refuses a label the i2b2 and MAE files we
  write could not name an element with.
* ``R``, ``E``, ``N``, ``*``: relations (links), events, normalizations and equivalences.
* ``A`` / ``M``: attributes of their target; a binary attribute has the value ``true``, and
  the value ``true`` is written as a binary attribute.
* ``#``: ``AnnotatorNotes`` is the comment of its target, other notes (``Lemma``) the
  attribute ``#Lemma``. Our provenance travels as notes too (``#2<TAB>annotator T1<TAB>ann``:
  ``source``, ``confidence``, ``annotator``, ``pending``), which brat shows and does not
  check against its configuration.

An unchanged document saves byte-identical; an edited one is written in file order with its
ids kept where brat can use them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from annotator.core.annotation import Annotation, Source
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin
from annotator.core.relations import (
    ENTRY,
    ENTRY_TEXT,
    NOTE_PREFIX,
    RESOURCE,
    Argument,
    Relation,
    RelationKind,
)
from annotator.core.schema import Schema
from annotator.errors import InputError, StorageError, printable_path
from annotator.io.brat_ann import (
    LINE_BREAKS,
    AnnLine,
    AttributeLine,
    EquivalenceLine,
    EventLine,
    NormalizationLine,
    NoteLine,
    RelationLine,
    TextBound,
    dropped_tail,
    line_of,
    parse_ann,
)
from annotator.io.i2b2 import annotation_attributes, float_or_none, shown_label
from annotator.io.inline2006 import category_for, check_label
from annotator.io.xml_items import is_xml_name
from annotator.io.xmlsafe import MAX_FILE_BYTES, read_bytes

LAYOUT_KEY = "brat"
BOM = "\ufeff"
TYPE_ATTRIBUTE = "TYPE"
COMMENT_NOTE = "AnnotatorNotes"
BINARY = "true"
_SOURCES = {source.value: source for source in Source}
_PROVENANCE = ("source", "confidence", "annotator", "pending")
_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
_LABEL = re.compile(r"^[A-Za-z0-9_-]+$")
_PREFIXES = {
    RelationKind.LINK: "R",
    RelationKind.EVENT: "E",
    RelationKind.NORMALIZATION: "N",
    RelationKind.EQUIVALENCE: "*",
}


def brat_paths(path: str | Path) -> tuple[Path, Path]:
    """The ``.txt`` and ``.ann`` paths for either of them (or their common stem)."""
    path = Path(path)
    base = path.with_suffix("") if path.suffix in (".txt", ".ann") else path
    return base.with_name(base.name + ".txt"), base.with_name(base.name + ".ann")


def _decode(data: bytes, path: Path) -> str:
    # "utf-8", not "utf-8-sig": brat reads the .txt with Python's utf8 codec, which keeps a
    # leading byte-order mark as the character U+FEFF at offset 0, so every offset brat wrote
    # counts it. Keeping it keeps those offsets right; stripping it would shift every tag of a
    # file annotated in brat by one. An .ann whose offsets skip it is refused by the text check.
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", path) from None


@dataclass(frozen=True)
class BratLayout:
    """The ``.ann`` as read, written back while the document is unchanged."""

    text: str
    ann: bytes


def read_brat(path: str | Path, schema: Schema | None = None, warnings: list[str] | None = None) -> Document:
    """Read a brat document from its ``.txt`` or ``.ann`` path.

    A missing ``.ann`` gives a document without annotations.
    """
    txt_path, ann_path = brat_paths(path)
    text = _decode(read_bytes(txt_path, MAX_FILE_BYTES), txt_path)
    ann_bytes = read_bytes(ann_path) if ann_path.exists() else b""
    # A byte-order mark before the first id (Notepad saves one) is no part of it; brat's own
    # reader would fail that line. Offsets count in the .txt, so nothing moves.
    ann = _decode(ann_bytes, ann_path).removeprefix(BOM)
    document = _BratReader(text, ann_path, schema).read(ann, txt_path.stem)
    tails = [n for n, line in enumerate(ann.split("\n"), start=1) if dropped_tail(line)]
    if tails and warnings is not None:
        # Written by hand or by other tools; brat itself writes none. Kept only while the
        # document is unchanged (its .ann bytes are written back as read).
        lines = ", ".join(str(n) for n in tails[:5]) + (
            f" and {len(tails) - 5} more" if len(tails) > 5 else ""
        )
        warnings.append(
            f"{printable_path(ann_path)}: the free text after the data of line(s) {lines} "
            "(a relation, event, attribute or equivalence) is not kept in other formats"
        )
    document.origin = Origin(
        path=txt_path, format="brat", raw=ann_bytes, layout={LAYOUT_KEY: BratLayout(text, ann_bytes)}
    )
    document.mark_pristine()
    return document


class _BratReader:
    def __init__(self, text: str, path: Path, schema: Schema | None) -> None:
        self.text = text
        self.path = path
        self.schema = schema
        self.annotations: dict[str, list[Annotation]] = {}
        self.relations: dict[str, Relation] = {}
        self.extras: dict[str, list[tuple[str, str]]] = {}
        self.comments: dict[str, str] = {}

    def read(self, ann: str, doc_id: str) -> Document:
        later: list[tuple[int, AttributeLine | NoteLine]] = []
        equivalences = 0
        for number, record in parse_ann(ann, self.path):
            if isinstance(record, AttributeLine | NoteLine):
                later.append((number, record))
                continue
            # A T line's label is its tag's category, a relation's type its link element: both
            # become element names in the i2b2 and MAE files we write.
            where = f"line {number}" if isinstance(record, EquivalenceLine) else f"line {number}: {record.id}"
            check_label(record.type, where, self.path)
            if isinstance(record, TextBound):
                self._text_bound(number, record)
            elif isinstance(record, EquivalenceLine):
                equivalences += 1
                self._add(number, _relation(record, equivalences))
            else:
                self._add(number, _relation(record, 0))
        known = set(self.annotations) | set(self.relations)
        for relation in self.relations.values():
            missing = [t for t in relation.targets if t not in known]
            if missing:
                raise InputError(
                    f"{relation.id or relation.type} names {missing[0]}, which is not in the file", self.path
                )
        for number, record in later:
            if record.target not in known:
                raise InputError(
                    f"line {number}: {record.id} names {record.target}, which is not in the file", self.path
                )
            if isinstance(record, NoteLine):
                self._note(record)
            else:
                value = BINARY if record.value is None else record.value
                if record.type == TYPE_ATTRIBUTE:
                    # The TYPE beside a category (see brat_label) is held to the label's rule.
                    check_label(value, f"line {number}: {record.id}", self.path)
                self.extras.setdefault(record.target, []).append((record.type, value))
        document = Document(doc_id, self.text)
        for tag_id, pieces in self.annotations.items():
            head = _with_extras(pieces[0], self.extras.get(tag_id, []), self.comments.get(tag_id, ""))
            document.add(head)
            for piece in pieces[1:]:
                document.add(piece.replace(tag=head.tag, type=head.type, fragment_of=head.id))
        for relation in self.relations.values():
            extras = self.extras.get(relation.id, [])
            document.add_relation(
                relation.replace(
                    attributes=relation.attributes + tuple(extras),
                    comment=self.comments.get(relation.id, ""),
                )
            )
        return document

    def _add(self, number: int, relation: Relation) -> None:
        if relation.id in self.relations or relation.id in self.annotations:
            raise InputError(f"line {number}: duplicate id {relation.id}", self.path)
        self.relations[relation.id] = relation

    def _text_bound(self, number: int, record: TextBound) -> None:
        if record.id in self.annotations or record.id in self.relations:
            raise InputError(f"line {number}: duplicate id {record.id}", self.path)
        pieces = []
        for index, (start, end) in enumerate(record.spans):
            if not 0 <= start <= end <= len(self.text):
                raise InputError(
                    f"line {number}: {record.id} offsets {start}-{end} do not fit the text "
                    f"(length {len(self.text)})",
                    self.path,
                )
            piece_id = record.id if index == 0 else f"{record.id}.{index}"
            category = category_for(record.type, self.schema)
            pieces.append(Annotation(piece_id, category, record.type, start, end, self.text[start:end]))
        if not _states_text_at(record, self.text):
            spans = ";".join(f"{start}-{end}" for start, end in record.spans[:3])
            spans += f" and {len(record.spans) - 3} more fragments" if len(record.spans) > 3 else ""
            hint = ""
            if self.text.startswith(BOM) and _states_text_at(record, self.text[1:]):
                hint = (
                    " (the .txt starts with a byte-order mark, which brat counts as a character; "
                    "these offsets skip it)"
                )
            raise InputError(
                f"line {number}: {record.id} text column is not the text of the .txt at {spans}{hint}",
                self.path,
            )
        self.annotations[record.id] = pieces

    def _note(self, record: NoteLine) -> None:
        if record.type == COMMENT_NOTE and record.target not in self.comments:
            self.comments[record.target] = record.text
        else:
            self.extras.setdefault(record.target, []).append((NOTE_PREFIX + record.type, record.text))


def _states_text_at(record: TextBound, text: str) -> bool:
    """Whether the text column of a ``T`` line is what the note holds at its offsets.

    As brat checks it: the pieces joined by a space (``""`` in files from brat before 1.3), at
    the start of the column, followed by nothing or by whitespace. A line break inside a span
    cannot stand in a one-line column, so it is written (by us and others) as a space; an empty
    column is filled from the offsets, as brat does, so there is nothing to compare.
    """
    stated = record.text.translate(LINE_BREAKS)
    if not stated.strip():
        return True
    pieces = [text[start:end] for start, end in record.spans]
    for joiner in (" ", ""):
        expected = joiner.join(pieces).translate(LINE_BREAKS)
        rest = stated[len(expected) :]
        if stated.startswith(expected) and (not rest or rest[0].isspace()):
            return True
        if stated.rstrip() == expected.rstrip():  # trailing blanks dropped by an editor
            return True
    return False


def _relation(record: AnnLine, number: int) -> Relation:
    if isinstance(record, RelationLine):
        arguments = tuple(Argument(role, target) for role, target in record.arguments)
        return Relation(record.id, record.type, RelationKind.LINK, arguments)
    if isinstance(record, EventLine):
        arguments = tuple(Argument(role, target) for role, target in record.arguments)
        return Relation(record.id, record.type, RelationKind.EVENT, arguments, record.trigger)
    if isinstance(record, NormalizationLine):
        attributes = ((RESOURCE, record.resource), (ENTRY, record.entry), (ENTRY_TEXT, record.text))
        target = (Argument("target", record.target),)
        return Relation(record.id, record.type, RelationKind.NORMALIZATION, target, attributes=attributes)
    assert isinstance(record, EquivalenceLine)
    members = tuple(Argument("", member) for member in record.members)
    return Relation(f"*{number}", record.type, RelationKind.EQUIVALENCE, members)


def _with_extras(annotation: Annotation, extras: list[tuple[str, str]], comment: str) -> Annotation:
    """An annotation with its attributes: provenance to its fields, ``TYPE`` to its type."""
    fields: dict[str, object] = {"comment": comment}
    kept = []
    for name, value in extras:
        name = name.removeprefix(NOTE_PREFIX) if name.removeprefix(NOTE_PREFIX) in _PROVENANCE else name
        if name == TYPE_ATTRIBUTE:
            fields.update(tag=annotation.type, type=value)
        elif name == "source" and value in _SOURCES:
            fields["source"] = _SOURCES[value]
        elif name == "confidence" and float_or_none(value) is not None:
            fields["confidence"] = float(value)
        elif name == "annotator":
            fields["annotator"] = value
        elif name == "pending" and value in (BINARY, "yes"):
            fields["pending"] = True
        else:
            kept.append((name, value))
    return annotation.replace(extra=tuple(kept), **fields)


# -- writing -----------------------------------------------------------------------------------
def _layout(document: Document) -> BratLayout | None:
    layout = document.origin.layout.get(LAYOUT_KEY)
    return layout if isinstance(layout, BratLayout) and layout.text == document.text else None


def brat_label(annotation: Annotation, schema: Schema | None, shared: frozenset[str] = frozenset()) -> str:
    """The label a ``T`` line gives an annotation: its TYPE when that gives its category back
    (being the category itself, or through ``schema``; without one, when no other category
    of the document uses that type: ``shared``), else its category."""
    if annotation.type == annotation.tag:
        return annotation.type
    plain = _LABEL.match(annotation.type) and annotation.type not in shared
    if plain and (schema is None or category_for(annotation.type, schema) == annotation.tag):
        return annotation.type
    return annotation.tag


def shared_types(document: Document) -> frozenset[str]:
    """Types more than one category of the document uses."""
    categories: dict[str, set[str]] = {}
    for annotation in document.annotations:
        categories.setdefault(annotation.type, set()).add(annotation.tag)
    return frozenset(t for t, tags in categories.items() if len(tags) > 1)


def flattened_lines(document: Document) -> int:
    """How many comments, attribute values and notes of a document hold a line break, which
    a ``.ann`` line cannot: brat gets a space in its place (see :func:`line_of`)."""
    texts = [a.comment for a in document.annotations] + [r.comment for r in document.relations]
    texts += [v for a in document.annotations for _, v in a.extra]
    texts += [v for r in document.relations for _, v in r.attributes]
    return sum(1 for text in texts if any(char in _BREAKS for char in text))


def document_to_brat(document: Document, schema: Schema | None = None) -> tuple[bytes, bytes]:
    """The ``.txt`` and ``.ann`` bytes of a document (``schema`` as in :func:`brat_label`)."""
    layout = _layout(document)
    if layout is not None and document.is_pristine():
        return document.text.encode("utf-8"), layout.ann
    records = document_records(document, schema)
    return document.text.encode("utf-8"), "".join(line_of(r) + "\n" for r in records).encode("utf-8")


def document_records(document: Document, schema: Schema | None = None) -> list[AnnLine]:
    """The ``.ann`` records of a document, in file order: its ``T`` lines, then relations,
    events, normalizations and equivalences, then attributes, then notes."""
    return _BratWriter(document, schema).records()


class _BratWriter:
    def __init__(self, document: Document, schema: Schema | None) -> None:
        self.document = document
        self.schema = schema
        self.shared = shared_types(document)
        self.ids: dict[str, str] = {}
        self.attributes: list[AttributeLine] = []
        self.notes: list[NoteLine] = []
        # Each tag's later pieces, gathered once: looking them up per tag took quadratic time
        # (a note of 60,000 tags did not convert in two minutes).
        self.fragments: dict[str, list[Annotation]] = {}

    def records(self) -> list[AnnLine]:
        document = self.document
        annotations = document.annotations
        heads = [a for a in annotations if not (a.fragment_of and a.fragment_of in document)]
        for annotation in annotations:
            if annotation.fragment_of:
                self.fragments.setdefault(annotation.fragment_of, []).append(annotation)
        for tag in document.document_tags:
            raise StorageError(
                f"document {document.doc_id}: brat has no place for the document tag {tag.id} ({tag.tag})",
                document.origin.path,
            )
        self._assign_ids([a.id for a in heads], "T")
        for kind, prefix in _PREFIXES.items():
            if prefix != "*":
                self._assign_ids([r.id for r in document.relations if r.kind is kind], prefix)
        records: list[AnnLine] = [self._text_bound(a) for a in heads]
        records += [self._relation(r) for r in document.relations]
        return records + self.attributes + self.notes

    def _assign_ids(self, ids: list[str], prefix: str) -> None:
        pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$")
        kept = {i for i in ids if pattern.match(i)}
        number = max((int(i[len(prefix) :]) for i in kept), default=0)
        for item_id in ids:
            if item_id in kept:
                self.ids[item_id] = item_id
            else:
                number += 1
                self.ids[item_id] = f"{prefix}{number}"

    def _target(self, item_id: str, owner: str) -> str:
        if item_id not in self.ids:
            what = "document tag" if any(t.id == item_id for t in self.document.document_tags) else "nothing"
            raise StorageError(
                f"document {self.document.doc_id}: {owner} names {item_id} ({what} brat can hold)",
                self.document.origin.path,
            )
        return self.ids[item_id]

    def _text_bound(self, head: Annotation) -> TextBound:
        pieces = [head, *self.fragments.get(head.id, [])]
        spans = tuple((a.start, a.end) for a in pieces)
        brat_id = self.ids[head.id]
        label = brat_label(head, self.schema, self.shared)
        text = " ".join(self.document.text[s:e] for s, e in spans)
        pairs = [
            (NOTE_PREFIX + n if n in _PROVENANCE else n, v)
            for n, v in annotation_attributes(head)[6:]
            if n != "continues"
        ]
        if label != head.type:
            if not (head.type.isascii() and is_xml_name(head.type)):
                # brat's reader (ours too) holds an attribute value to the label's rule.
                raise StorageError(
                    f"document {self.document.doc_id}: tag {printable_path(head.id)} has TYPE "
                    f"{shown_label(head.type)}, which a brat attribute cannot hold (nothing written)",
                    self.document.origin.path,
                )
            pairs.insert(0, (TYPE_ATTRIBUTE, head.type))
        self._attributes(brat_id, pairs)
        if head.comment:
            self._note(brat_id, COMMENT_NOTE, head.comment)
        return TextBound(brat_id, label, spans, text)

    def _relation(self, relation: Relation) -> AnnLine:
        owner = f"{relation.kind.value} {relation.id}"
        filled = [(a.role, self._target(a.target, owner)) for a in relation.filled]
        brat_id = self.ids.get(relation.id, "")
        attributes = list(relation.attributes)
        line: AnnLine
        if relation.kind is RelationKind.LINK:
            if len(filled) != 2 or filled[0][0] == filled[1][0]:
                raise StorageError(
                    f"document {self.document.doc_id}: link {relation.id} has {len(filled)} arguments; "
                    "a brat relation has two, with different roles",
                    self.document.origin.path,
                )
            line = RelationLine(brat_id, relation.type, tuple(filled))
        elif relation.kind is RelationKind.EVENT:
            line = EventLine(brat_id, relation.type, self._target(relation.trigger, owner), tuple(filled))
        elif relation.kind is RelationKind.NORMALIZATION:
            reference = dict(attributes)
            attributes = [(n, v) for n, v in attributes if n not in (RESOURCE, ENTRY, ENTRY_TEXT)]
            line = NormalizationLine(
                brat_id,
                relation.type,
                filled[0][1],
                reference.get(RESOURCE, ""),
                reference.get(ENTRY, ""),
                reference.get(ENTRY_TEXT, ""),
            )
        else:
            return EquivalenceLine(relation.type, tuple(target for _, target in filled))
        self._attributes(brat_id, attributes)
        if relation.comment:
            self._note(brat_id, COMMENT_NOTE, relation.comment)
        return line

    def _attributes(self, target: str, pairs: Sequence[tuple[str, str]]) -> None:
        for name, value in pairs:
            if name.startswith(NOTE_PREFIX):
                self._note(target, name[len(NOTE_PREFIX) :], value)
            elif value:
                number = len(self.attributes) + 1
                written = None if value == BINARY else value
                self.attributes.append(AttributeLine(f"A{number}", name, target, written))

    def _note(self, target: str, kind: str, text: str) -> None:
        self.notes.append(NoteLine(f"#{len(self.notes) + 1}", kind, target, text))


def write_brat(document: Document, path: str | Path, schema: Schema | None = None) -> None:
    """Save ``NAME.txt`` and ``NAME.ann`` (``path`` names either, or the stem), atomically each."""
    txt_path, ann_path = brat_paths(path)
    txt, ann = document_to_brat(document, schema)
    atomic_write(txt_path, txt)
    atomic_write(ann_path, ann)
    if document.origin.format == "brat":
        document.origin.layout = {LAYOUT_KEY: BratLayout(document.text, ann)}
        document.mark_pristine()
