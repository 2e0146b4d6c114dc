"""JSONL spans: one document per line, ``{"id", "text", "spans": [{"start", "end", "label"}]}``.

``label`` is the TYPE. Our own fields ride along in each span when they are not the
default (``id``, ``tag``, ``comment``, ``source``, ``confidence``, ``annotator``,
``pending``, ``attributes`` as ``[name, value]`` pairs, ``fragment_of``), and a document
carries its ``relations`` and ``document_tags`` (:mod:`annotator.io.records`), so a JSONL
file holds everything any other format can; other tools ignore what they do not know.
Offsets are JSON integers (not strings, floats or booleans); a fragment or a relation naming
an id the line lacks is refused, as is a text XML cannot hold and a file without any note.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from annotator.core.annotation import Annotation, Source
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin, document_id_of
from annotator.core.schema import Schema
from annotator.errors import AnnotatorError, InputError, StorageError, printable_path
from annotator.io.inline2006 import category_for, check_label, check_type
from annotator.io.records import (
    document_tag_record,
    pairs_record,
    record_document_tag,
    record_pairs,
    record_relation,
    relation_record,
)
from annotator.io.xml_items import relation_element
from annotator.io.xmlsafe import read_bytes

_SOURCES = {source.value: source for source in Source}
# Characters XML 1.0 cannot hold: a note with one could never be saved as a document, so it is
# refused where the file and line are still known rather than when it is first written.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# No note comes near a trillion characters; a longer offset is damage, not worth printing.
_MAX_OFFSET = 10**12


def first_non_xml_char(text: str) -> tuple[int, int] | None:
    """``(offset, code point)`` of the first character of ``text`` XML cannot hold, if any."""
    match = NOT_XML.search(text)
    return None if match is None else (match.start(), ord(match.group()))


class _FieldError(ValueError):
    """A span field of the wrong kind (its message says which)."""


def _flag(value: object) -> bool:
    # bool("false") is True: a pending flag written as a string would flip every "false".
    if not isinstance(value, bool):
        raise _FieldError("'pending' is true or false (a JSON boolean)")
    return value


def _confidence(value: object) -> float | None:
    if value is None:
        return None
    try:
        # A number, or a number written as a string as some exports do; never true/false.
        number = (
            float(value) if isinstance(value, int | float | str) and not isinstance(value, bool) else None
        )
    except ValueError:
        number = None
    if number is None or not math.isfinite(number):
        raise _FieldError("'confidence' is a finite number")
    return number


class RepeatedKeyError(ValueError):
    """A JSON object names one key twice (``json.loads`` would keep the last silently)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for ``json.loads`` that raises :class:`RepeatedKeyError`."""
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise RepeatedKeyError(key)
        record[key] = value
    return record


def parse_jsonl(data: bytes, path: str | Path | None = None, schema: Schema | None = None) -> list[Document]:
    """The documents of the bytes of a JSONL file."""
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", path) from None
    stem = document_id_of(path)
    documents: list[Document] = []
    seen: set[str] = set()
    for number, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, object_pairs_hook=unique_keys)
        except RepeatedKeyError as error:
            # json.loads keeps the last of two same keys: a second "spans" would drop the first's tags.
            raise InputError(f"line {number}: the key {error.args[0]!r} appears twice", path) from None
        except json.JSONDecodeError as error:
            raise InputError(f"line {number}: not valid JSON (column {error.colno})", path) from None
        except ValueError:
            # json reads integers with int(), which refuses more than 4,300 digits.
            raise InputError(f"line {number}: a number too long to read (over 4,300 digits)", path) from None
        except RecursionError:
            raise InputError(f"line {number}: not valid JSON (nested too deeply)", path) from None
        document = _document(record, number, stem, path, schema)
        if document.doc_id in seen:
            raise InputError(
                f"line {number}: a second document with id {printable_path(document.doc_id)}", path
            )
        seen.add(document.doc_id)
        documents.append(document)
    return documents


def _document(
    record: Any, number: int, stem: str, path: str | Path | None, schema: Schema | None
) -> Document:
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise InputError(f"line {number}: expected an object with a string 'text'", path)
    text: str = record["text"]
    doc_id = str(record.get("id") or f"{stem}-{number:02d}")
    spans = record.get("spans") or []
    if not isinstance(spans, list):
        raise InputError(f"line {number}: 'spans' is not a list", path)
    bad = first_non_xml_char(text)
    if bad is not None:
        raise InputError(
            f"line {number}: document {doc_id}: character U+{bad[1]:04X} at offset {bad[0]} "
            "cannot be stored in XML",
            path,
        )
    document = Document(doc_id, text, origin=Origin(format="jsonl"))
    pending_ids: list[Annotation] = []
    for index, span in enumerate(spans, start=1):
        try:
            start, end, label = _offset(span["start"]), _offset(span["end"]), str(span["label"])
            annotation = Annotation(
                id=str(span.get("id", "")),
                tag=str(span.get("tag") or category_for(label, schema)),
                type=label,
                start=start,
                end=end,
                text=text[start:end] if 0 <= start <= end else "",
                comment=str(span.get("comment", "")),
                source=_SOURCES.get(str(span.get("source", "human")), Source.HUMAN),
                confidence=_confidence(span.get("confidence")),
                annotator=str(span.get("annotator", "")),
                pending=_flag(span.get("pending", False)),
                extra=record_pairs(span.get("attributes")),
                fragment_of=str(span.get("fragment_of", "")),
            )
        except _FieldError as error:
            raise InputError(f"line {number}: span {index}: {error}", path) from None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise InputError(
                f"line {number}: span {index} needs integer start, end and a label", path
            ) from None
        # The tag (the label itself when none is given) names the element the i2b2 and MAE
        # writers write; a label beside a tag is only a TYPE value.
        where = f"line {number}: span {index}" + (
            f" ({printable_path(annotation.id)})" if annotation.id else ""
        )
        check_label(annotation.tag, where, path)
        check_type(annotation.type, where, path)
        if max(abs(start), abs(end)) > _MAX_OFFSET:
            raise InputError(f"line {number}: span {index} has an offset over {_MAX_OFFSET:,}", path)
        if not 0 <= start <= end <= len(text):
            raise InputError(f"line {number}: span {index} offsets {start}-{end} do not fit the text", path)
        if annotation.id and annotation.id in document:
            raise InputError(f"line {number}: duplicate span id {printable_path(annotation.id)}", path)
        if annotation.id:
            document.add(annotation)
        else:
            pending_ids.append(annotation)
    for annotation in pending_ids:
        document.add(annotation.replace(id=document.new_id()))
    try:
        for relation in record.get("relations") or []:
            document.add_relation(record_relation(relation))
        for tag in record.get("document_tags") or []:
            document.add_document_tag(record_document_tag(tag))
    except (ValueError, AnnotatorError, TypeError) as error:
        message = error.message if isinstance(error, AnnotatorError) else str(error)
        raise InputError(f"line {number}: {message}", path) from None
    # A link's type and a document tag's name are element names too.
    for relation in document.relations:
        check_label(
            relation_element(relation), f"line {number}: relation {printable_path(relation.id)}", path
        )
    for tag in document.document_tags:
        check_label(tag.tag, f"line {number}: document tag {printable_path(tag.id)}", path)
    problem = dangling(document)
    if problem is not None:
        raise InputError(f"line {number}: {problem}", path)
    document.mark_pristine()
    return document


def _offset(value: object) -> int:
    # bool is an int to Python, and int() would also take "19" or 19.5: only a JSON integer is
    # an offset, or a mistyped export would tag characters nobody chose.
    if type(value) is not int:
        raise TypeError
    return value


def dangling(document: Document) -> str | None:
    """What a fragment or a relation names that the document lacks, if anything.

    Another format would drop such a fragment or write a broken link, so the reader refuses
    it while the line is known, and the writer never writes what the reader refuses.
    """
    for annotation in document.annotations:
        if not annotation.fragment_of:
            continue
        head = document.find(annotation.fragment_of)
        if head is None or head.fragment_of or head.id == annotation.id:
            return (
                f"span {printable_path(annotation.id)} is a fragment of {printable_path(annotation.fragment_of)}, "
                "which is not a first fragment in the document"
            )
    for relation in document.relations:
        missing = next((t for t in relation.targets if not document.has_id(t)), None)
        if missing is not None:
            return (
                f"relation {printable_path(relation.id)} names {printable_path(missing)}, "
                "which is not in the document"
            )
    return None


def read_jsonl(path: str | Path, schema: Schema | None = None) -> list[Document]:
    """Read a JSONL spans file (an empty one is refused, as an empty note table is)."""
    documents = parse_jsonl(read_bytes(path), path, schema)
    if not documents:
        raise InputError("no notes in the file (it is empty or holds only blank lines)", path)
    return documents


def document_to_record(document: Document) -> dict[str, object]:
    """The JSON object of one document."""
    problem = dangling(document)
    if problem is not None:
        raise StorageError(f"document {document.doc_id}: {problem}", document.origin.path)
    spans: list[dict[str, object]] = []
    for annotation in document.annotations:
        span: dict[str, object] = {
            "start": annotation.start,
            "end": annotation.end,
            "label": annotation.type,
            "id": annotation.id,
            "tag": annotation.tag,
        }
        if annotation.comment:
            span["comment"] = annotation.comment
        if annotation.source is not Source.HUMAN:
            span["source"] = annotation.source.value
        if annotation.confidence is not None:
            span["confidence"] = annotation.confidence
        if annotation.annotator:
            span["annotator"] = annotation.annotator
        if annotation.pending:
            span["pending"] = True
        if annotation.extra:
            span["attributes"] = pairs_record(annotation.extra)
        if annotation.fragment_of:
            span["fragment_of"] = annotation.fragment_of
        spans.append(span)
    record: dict[str, object] = {"id": document.doc_id, "text": document.text, "spans": spans}
    if document.relations:
        record["relations"] = [relation_record(r) for r in document.relations]
    if document.document_tags:
        record["document_tags"] = [document_tag_record(t) for t in document.document_tags]
    return record


def documents_to_jsonl(documents: list[Document]) -> bytes:
    lines = [json.dumps(document_to_record(d), ensure_ascii=False) for d in documents]
    return "".join(line + "\n" for line in lines).encode("utf-8")


def write_jsonl(documents: list[Document], path: str | Path) -> None:
    """Save documents as one JSONL file, atomically."""
    atomic_write(path, documents_to_jsonl(documents))
