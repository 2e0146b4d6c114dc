"""The i2b2 2006 de-identification format: PHI marked inline inside the text.

``<ROOT><RECORD ID="1"><TEXT> ... <PHI TYPE="DOCTOR">Smith</PHI> ...</TEXT></RECORD></ROOT>``

Each RECORD becomes one document; offsets are computed on the text with the markup
removed. The category of a TYPE comes from the schema (``DOCTOR`` -> ``NAME`` in the i2b2
2014 schema); a TYPE the schema does not know is its own category, unless a ``category``
attribute names it (we write one when the i2b2 2014 schema would not give it back).
Comments, attributes and provenance ride on each PHI element as attributes.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from lxml import etree

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin, document_id_of
from annotator.core.schema import Schema, load_schema
from annotator.errors import InputError, StorageError, printable_path
from annotator.io.i2b2 import (
    RawTag,
    annotation_attributes,
    check_xml_chars,
    extent_annotation,
    shown_label,
    type_problem,
    xml_attribute,
)
from annotator.io.xml_items import is_xml_name, xml_name
from annotator.io.xmlsafe import parse_xml, read_bytes

PHI_TAG = "PHI"
CATEGORY = "category"
_TEXT_ESCAPES = {"\r": "&#13;"}


def check_label(label: str, where: str, path: str | Path | None) -> str:
    """``label`` when it may name a tag, else an InputError naming ``path`` and ``where``.

    A label read from a file becomes an element name in the i2b2 and MAE files we write
    (``<PATIENT .../>``), so it must be an XML name. The rule is stricter than XML's: ASCII
    letters, digits, ``_``, ``.`` and ``-``, not starting with a digit, ``.`` or ``-``. No
    bundled schema, test file or public MAE / MedTator sample uses any other character, and a
    non-ASCII letter XML allows can pass for an ASCII one (``AGE`` spelt with a Cyrillic A,
    U+0410, would be a tag of its own that no schema knows), so those are refused too.
    """
    if label.isascii() and is_xml_name(label):
        return label
    raise InputError(
        f"{where}: label {shown_label(label)} cannot be a tag name (use ASCII letters, digits, "
        "'_', '.' and '-', starting with a letter or '_')",
        path,
    )


def check_type(type_name: str, where: str, path: str | Path | None) -> str:
    """``type_name`` when it may be a TYPE value beside a category (see ``type_problem``),
    else an InputError naming ``path`` and ``where``. Where the type is its own category,
    ``check_label`` holds it to the element name's rule as well."""
    problem = type_problem(type_name)
    if problem is not None:
        raise InputError(f"{where}: TYPE {shown_label(type_name)}: {problem}", path)
    return type_name


def category_for(type_name: str, schema: Schema | None) -> str:
    """The category of a TYPE under ``schema``; the TYPE itself when unknown."""
    if schema is not None and schema.has_type(type_name):
        return schema.category_of(type_name)
    return type_name


def parse_inline2006(
    data: bytes,
    path: str | Path | None = None,
    schema: Schema | None = None,
    warnings: list[str] | None = None,
) -> list[Document]:
    """The documents (one per RECORD) of the bytes of an inline 2006 file."""
    notes = warnings if warnings is not None else []
    root = parse_xml(data, path)
    records = [root] if root.tag == "RECORD" else list(root.iter("RECORD"))
    stem = document_id_of(path, "record")
    documents = []
    for number, record in enumerate(records, start=1):
        text_element = record.find("TEXT")
        if text_element is None:
            raise InputError(f"RECORD {record.get('ID', number)} has no TEXT element", path)
        pieces = _Pieces()
        raw_tags: list[RawTag] = []
        _walk(text_element, pieces, raw_tags, schema, notes, path)
        text = "".join(pieces.parts)
        for raw_tag in raw_tags:
            attributes = raw_tag.attributes
            attributes["text"] = text[int(attributes["start"]) : int(attributes["end"])]
        annotations = [extent_annotation(raw_tag, path) for raw_tag in raw_tags]
        doc_id = str(record.get("ID") or f"{stem}-{number:02d}")
        # The file names the document in errors (its id too may be refused as a file name).
        origin = Origin(path=Path(path) if path is not None else None, format="inline2006")
        document = Document(doc_id, text, [a for a in annotations if a.id], origin)
        for annotation in annotations:
            if not annotation.id:
                document.add(annotation.replace(id=document.new_id()))
        document.mark_pristine()
        documents.append(document)
    return documents


class _Pieces:
    """The text read so far and its length, kept as it grows: summing the pieces at every PHI
    took quadratic time (a 2.6 MB record of 60,000 PHI ran for over ten minutes)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0

    def append(self, piece: str) -> None:
        self.parts.append(piece)
        self.length += len(piece)


def _walk(
    element: etree._Element,
    pieces: _Pieces,
    raw_tags: list[RawTag],
    schema: Schema | None,
    notes: list[str],
    path: str | Path | None,
) -> None:
    pieces.append(element.text or "")
    for child in element:
        if isinstance(child.tag, str):
            start = pieces.length
            _walk(child, pieces, raw_tags, schema, notes, path)
            end = pieces.length
            if child.tag == PHI_TAG:
                attributes = {str(k): str(v) for k, v in child.attrib.items()}
                number = printable_path(attributes["id"]) if attributes.get("id") else f"#{len(raw_tags) + 1}"
                where = f"line {child.sourceline}: PHI {number}"
                type_name = check_type(attributes.get("TYPE", PHI_TAG), where, path)
                attributes.update(start=str(start), end=str(end), TYPE=type_name)
                category = attributes.pop(CATEGORY, "")
                category = check_label(category or category_for(type_name, schema), where, path)
                raw_tags.append(RawTag(len(raw_tags), category, attributes))
            else:
                note = (
                    f"{printable_path(path or '')}: an element other than PHI inside TEXT; its text is "
                    "kept, the markup dropped"
                )
                if note not in notes:  # once per file, not once per element
                    notes.append(note)
        pieces.append(child.tail or "")


def read_inline2006(
    path: str | Path, schema: Schema | None = None, warnings: list[str] | None = None
) -> list[Document]:
    """Read an inline 2006 file (one document per RECORD)."""
    return parse_inline2006(read_bytes(path), path, schema, warnings)


def documents_to_inline2006(documents: list[Document]) -> bytes:
    """Inline 2006 bytes; overlapping annotations cannot be nested and raise a StorageError."""
    out = ['<?xml version="1.0" encoding="UTF-8" ?>', "<ROOT>"]
    for document in documents:
        check_xml_chars(document.text, document)
        out.append(f'<RECORD ID="{xml_attribute(document.doc_id)}">')
        out.append("<TEXT>" + _inline_text(document) + "</TEXT>")
        out.append("</RECORD>")
    out.append("</ROOT>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _inline_text(document: Document) -> str:
    parts: list[str] = []
    position = 0
    previous: Annotation | None = None
    # A tag whose later pieces name it (``continues``) keeps its id so they still can.
    named = {a.fragment_of for a in document.annotations if a.fragment_of}
    for annotation in document.sorted_annotations():
        if previous is not None and annotation.start < previous.end:
            raise StorageError(
                f"document {document.doc_id}: tags {previous.id} and {annotation.id} overlap; "
                "the inline 2006 format cannot nest them",
                document.origin.path,
            )
        parts.append(escape(document.text[position : annotation.start], _TEXT_ESCAPES))
        attributes = [("id", annotation.id)] if annotation.id in named else []
        attributes.append(("TYPE", annotation.type))
        if category_for(annotation.type, load_schema()) != annotation.tag:
            attributes.append((CATEGORY, annotation.tag))
        # Our provenance rides along as extra attributes; 2006 readers ignore them.
        for name, value in annotation_attributes(annotation):
            if name not in ("id", "start", "end", "text", "TYPE", "comment") or (name == "comment" and value):
                attributes.append((xml_name(name, document), value))
        body = " ".join(f'{name}="{xml_attribute(value)}"' for name, value in attributes)
        span = escape(document.text[annotation.start : annotation.end], _TEXT_ESCAPES)
        parts.append(f"<{PHI_TAG} {body}>{span}</{PHI_TAG}>")
        position = annotation.end
        previous = annotation
    parts.append(escape(document.text[position:], _TEXT_ESCAPES))
    return "".join(parts)


def write_inline2006(documents: list[Document], path: str | Path) -> None:
    """Save documents as one inline 2006 file, atomically."""
    atomic_write(path, documents_to_inline2006(documents))
