"""MAE 2 / MedTator XML: read every tag, write files MAE and MedTator open again.

A MAE file looks like an i2b2 file whose root is named after the task and whose tags carry
``spans="start~end"`` instead of ``start``/``end``. MAE (Java) and MedTator (JavaScript)
count offsets in UTF-16 code units: we convert to code points on reading (and back on
writing), so characters outside the Basic Multilingual Plane do not shift tags.

As MAE does, ``spans`` is trusted: a ``text`` attribute that disagrees is reported (a note
when only the case differs, a warning otherwise), never a reason to refuse the file. Each
fragment of a discontinuous tag (``spans="1~5,9~12"``) becomes an annotation (the later
ones name the first in ``fragment_of``), so masking covers all of them. Link tags become
relations, non-consuming (``spans="-1~-1"`` or empty) and document-level tags document tags
(:mod:`annotator.core.relations`, :mod:`annotator.io.xml_items`); any other negative offset is
refused, so damaged spans never turn PHI into an unmasked document tag. ``<META>``, the order of
the tags and their attributes as written are kept (:mod:`annotator.io.mae_layout`).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin, document_id_of
from annotator.core.relations import DocumentTag, Relation
from annotator.core.schema import Schema
from annotator.core.task import (
    TYPE_ATTRIBUTES,
    TaskAttribute,
    TaskDefinition,
    TaskTag,
    load_task_schema,
    parse_dtd,
    task_to_dtd,
    task_to_schema,
)
from annotator.errors import InputError
from annotator.io.i2b2 import RawTag, raw_tag_to_annotation
from annotator.io.mae_layout import LAYOUT_KEY, MaeLayout, OriginalItem, OriginalTag, mae_layout
from annotator.io.mae_writer import document_to_mae
from annotator.io.realign import text_matches, utf16_map
from annotator.io.xml_items import document_tag_from_xml, link_arguments, model_name, relation_from_xml
from annotator.io.xmlsafe import coded, parse_xml, read_bytes

__all__ = [
    "document_to_mae",
    "is_mae_root",
    "parse_mae",
    "parse_mae_dtd",
    "read_mae",
    "read_mae_dtd",
    "schema_to_mae_dtd",
    "write_mae",
]

# [0-9], not \d, which also takes other scripts' digits: MAE and MedTator write ASCII.
_SPAN = re.compile(r"^\s*(-?[0-9]+)\s*~\s*(-?[0-9]+)\s*$")
# What MAE (NCSPAN_PLACEHOLDER, "-1,-1" in some of its versions) and MedTator write for a
# non-consuming tag; an empty or absent spans means the same.
_NON_CONSUMING = ("-1~-1", "-1,-1")
# Far past the 10 MB a file may hold; a longer number is damage (and int() stops at 4,300 digits).
_MAX_DIGITS = 12
# Attributes the reader turns into annotation fields (the type attribute is added per tag).
_FIELDS = ("id", "spans", "text", "comment")
# How a tag in pieces states its text: MAE joins the pieces with " ... ", MedTator with "..."
# (its get_text_by_spans); older files with a space or nothing.
_JOINS = (" ... ", "...", " ", "")


def is_mae_root(root: etree._Element) -> bool:
    """True when a parsed file's tags use MAE ``spans`` rather than i2b2 ``start``/``end``."""
    tags = root.find("TAGS")
    if tags is None:
        return False
    for element in tags:
        if isinstance(element.tag, str):
            if "spans" in element.attrib:
                return True
            if "start" in element.attrib:
                return False
    return False


def parse_mae(
    data: bytes, path: str | Path | None = None, doc_id: str | None = None, warnings: list[str] | None = None
) -> Document:
    """A document from the bytes of a MAE / MedTator XML file.

    Parameters
    ----------
    warnings:
        Receives one line per tag whose ``text`` attribute disagrees with its ``spans``
        (``note:`` when only the case differs).
    """
    notes = warnings if warnings is not None else []
    root = parse_xml(data, path)
    text_element = root.find("TEXT")
    if text_element is None:
        raise InputError(f"no TEXT element under <{root.tag}>", path)
    if len(text_element) > 0:
        raise InputError("TEXT contains elements (inline markup); it is not a MAE file", path)
    text = text_element.text or ""
    layout = MaeLayout(
        root_tag=str(root.tag),
        text=text,
        root_attributes=tuple((str(k), str(v)) for k, v in root.attrib.items()),
    )
    tags_element = None
    for child in root:
        if isinstance(child.tag, str) and child.tag == "TEXT" and child is text_element:
            continue
        if isinstance(child.tag, str) and child.tag == "TAGS" and tags_element is None:
            tags_element = child
            continue
        serialised = etree.tostring(child, encoding="unicode", with_tail=False)
        (layout.before if tags_element is None else layout.after).append(serialised)
    elements = [e for e in (tags_element if tags_element is not None else []) if isinstance(e.tag, str)]
    used_ids = {str(e.get("id")) for e in elements if e.get("id")}
    reader = _TagReader(text, path, notes, used_ids)
    annotations = []
    others: list[Relation | DocumentTag] = []
    for index, element in enumerate(elements):
        attributes = tuple((str(k), str(v)) for k, v in element.items())
        tag = str(element.tag)
        layout.attribute_sets.setdefault(tag, tuple(name for name, _ in attributes))
        read = reader.read(index, tag, attributes)
        if isinstance(read, Relation | DocumentTag):
            layout.order.append(read.id)
            layout.items[read.id] = OriginalItem(tag, attributes, read)
            others.append(read)
            continue
        original, pieces = read
        layout.order.append(pieces[0].id)
        layout.originals[pieces[0].id] = original
        annotations.extend(pieces)
    seen: set[str] = set()
    for item_id in [*(a.id for a in annotations), *(o.id for o in others)]:
        if item_id in seen:
            # MedTator lists both; a link naming the id could mean either, so refuse by name.
            raise coded(
                InputError(f"two tags share the id {item_id!r} (give one another id)", path), "duplicate-id"
            )
        seen.add(item_id)
    stem = doc_id or document_id_of(path)
    document = Document(
        stem,
        text,
        annotations,
        Origin(format="mae", raw=data),
        [o for o in others if isinstance(o, Relation)],
        [o for o in others if isinstance(o, DocumentTag)],
    )
    document.origin.path = Path(path) if path is not None else None
    document.origin.layout = {"root_tag": layout.root_tag, LAYOUT_KEY: layout}
    document.mark_pristine()
    return document


def _offset(digits: str) -> int:
    return int(digits.lstrip("0") or "0")


class _TagReader:
    """Turns one TAGS child into annotations (one per fragment), a relation or a document tag."""

    def __init__(self, text: str, path: str | Path | None, notes: list[str], used_ids: set[str]) -> None:
        self.text = text
        self.path = path
        self.notes = notes
        self.used_ids = used_ids
        self.unit_map = utf16_map(text)
        self.number = 0

    def _refuse_text_without_spans(self, label: str, tag: str, values: dict[str, str]) -> None:
        # A tag about the whole note has no text; one with text lost its spans, and read as
        # a document tag its phrase would never be masked.
        if (values.get("text") or "").strip():
            raise InputError(f"tag {label} ({tag}) has text but no spans", self.path)

    def _fresh_id(self, stem: str) -> str:
        while True:
            candidate = f"{stem}{self.number}"
            self.number += 1
            if candidate not in self.used_ids:
                self.used_ids.add(candidate)
                return candidate

    def read(
        self, index: int, tag: str, attributes: tuple[tuple[str, str], ...]
    ) -> Relation | DocumentTag | tuple[OriginalTag, list[Annotation]]:
        values = dict(attributes)
        label = values.get("id") or f"#{index + 1}"
        spans = values.get("spans")
        if spans is None:
            item_id = values.get("id") or self._fresh_id("L")
            if link_arguments(attributes):
                return relation_from_xml(tag, attributes, item_id)
            self._refuse_text_without_spans(label, tag, values)
            return document_tag_from_xml(tag, attributes, item_id)
        fragments = [f for f in spans.split(",") if f.strip()]
        if not fragments or "".join(spans.split()) in _NON_CONSUMING:
            self._refuse_text_without_spans(label, tag, values)
            return document_tag_from_xml(tag, attributes, values.get("id") or self._fresh_id("D"))
        matched = [_SPAN.match(f) for f in fragments]
        if not all(matched):
            raise InputError(f"tag {label} ({tag}) has malformed spans", self.path)
        numbers = [n for m in matched if m is not None for n in m.groups()]
        if any(len(n.lstrip("-0")) > _MAX_DIGITS for n in numbers):
            raise InputError(f"tag {label} ({tag}) has an offset over {_MAX_DIGITS} digits", self.path)
        if any(n.startswith("-") for n in numbers):
            # Only the exact placeholder marks a tag without a span; any other negative offset
            # is damage, and reading it as a document-level tag would leave its PHI unmasked.
            raise InputError(f"tag {label} ({tag}) has a negative offset in its spans", self.path)
        # Leading zeros do not count against the digit limit, so strip them before int()
        # (which refuses over 4,300 digits).
        units = [(_offset(m.group(1)), _offset(m.group(2))) for m in matched if m is not None]
        expected = values.get("text")
        points = [self._to_codepoints(s, e, expected if len(units) == 1 else None) for s, e in units]
        for start, end in points:
            if not 0 <= start <= end <= len(self.text):
                raise InputError(f"tag {label} ({tag}) offsets {start}-{end} do not fit the text", self.path)
        if expected is not None:
            self._check_text(label, tag, expected, [self.text[s:e] for s, e in points])
        first_id = values.get("id") or self._fresh_id("T")
        type_attribute = next((n for n in TYPE_ATTRIBUTES if values.get(n)), "")
        fields = {
            model_name(name): value
            for name, value in attributes
            if name not in _FIELDS
            and name != type_attribute
            and not (name in TYPE_ATTRIBUTES and not value)
            and name not in ("start", "end")
        }
        base = {
            "TYPE": values[type_attribute] if type_attribute else tag,
            "comment": values.get("comment", ""),
        }
        pieces = []
        ids = [first_id] + [self._fresh_id(f"{first_id}.") for _ in points[1:]]
        for piece_id, (start, end) in zip(ids, points, strict=True):
            raw = {"id": piece_id, "start": str(start), "end": str(end), "text": self.text[start:end]}
            raw.update(base)
            raw.update(fields)
            piece = raw_tag_to_annotation(RawTag(index, tag, raw), self.path)
            pieces.append(piece.replace(fragment_of=first_id) if piece_id != first_id else piece)
        original = OriginalTag(tag, attributes, spans, tuple(points), type_attribute)
        return original, pieces

    def _to_codepoints(self, start: int, end: int, expected: str | None) -> tuple[int, int]:
        # Some tools write code points although the format counts UTF-16 units: trust whichever
        # reading makes the text attribute match, preferring the documented UTF-16 one.
        start16, end16 = self.unit_map.to_codepoint(start), self.unit_map.to_codepoint(end)
        if start16 is None or end16 is None:
            return start, end
        if expected is None or text_matches(self.text, start16, end16, expected):
            return start16, end16
        if text_matches(self.text, start, end, expected):
            return start, end
        return start16, end16

    def _check_text(self, label: str, tag: str, expected: str, pieces: list[str]) -> None:
        stated = " ".join(expected.split())
        candidates = [" ".join(joiner.join(pieces).split()) for joiner in _JOINS]
        if stated in candidates:
            return
        if stated.casefold() in [c.casefold() for c in candidates]:
            self.notes.append(
                f"{self.path}: note: tag {label} ({tag}) text attribute differs from its spans "
                "only in case; spans kept, as MAE does"
            )
            return
        self.notes.append(
            f"{self.path}: warning: tag {label} ({tag}) text attribute disagrees with its spans; "
            "spans kept, as MAE does"
        )


def read_mae(path: str | Path, warnings: list[str] | None = None) -> Document:
    """Read a MAE / MedTator XML file."""
    return parse_mae(read_bytes(path), path, warnings=warnings)


def fill_task_defaults(document: Document, task: TaskDefinition) -> int:
    """Give each extent tag the task's default for every attribute its element leaves out,
    as MAE and MedTator read it (``<NOUN spans="1~11" />`` under ``type (...) "other"`` and
    ``comment CDATA "default value"`` is a NOUN of type other with that comment); returns how
    many values were filled. Written to another format, the values are then the tool's.
    The document still counts as unchanged: the file says the same."""
    layout = mae_layout(document)
    if layout is None or layout.root_tag != task.name:
        return 0
    filled = 0
    for annotation_id, original in layout.originals.items():
        task_tag = task.tag(original.tag)
        if task_tag is None or annotation_id not in document:
            continue
        stated = {name for name, _ in original.attributes}
        annotation = document.get(annotation_id)
        changes: dict[str, object] = {}
        extra = list(annotation.extra)
        for attribute in task_tag.attributes:
            if attribute.idref or not attribute.default or attribute.name in stated:
                continue
            if attribute.name in TYPE_ATTRIBUTES:
                if annotation.type == annotation.tag and not stated & set(TYPE_ATTRIBUTES):
                    changes["type"] = attribute.default
            elif attribute.name == "comment":
                if not annotation.comment:
                    changes["comment"] = attribute.default
            elif attribute.name not in dict(extra):
                extra.append((attribute.name, attribute.default))
        if len(extra) != len(annotation.extra):
            changes["extra"] = tuple(extra)
        if not changes:
            continue
        filled += len(changes) + len(extra) - len(annotation.extra) - ("extra" in changes)
        document.replace(annotation_id, annotation.replace(**changes))
        if "type" in changes:
            for piece in [a for a in document.annotations if a.fragment_of == annotation_id]:
                document.replace(piece.id, piece.replace(type=changes["type"]))
    if filled:
        document.mark_pristine()
    return filled


def write_mae(
    document: Document, path: str | Path, task: str | None = None, schema: Schema | None = None
) -> None:
    """Save a document as MAE XML, atomically; a document read from MAE then counts as saved."""
    data = document_to_mae(document, task, schema)
    atomic_write(path, data)
    if document.origin.format == "mae" and task is None and schema is None:
        document.origin.raw = data
        document.origin.path = Path(path)
        document.mark_pristine()


# -- DTD task files (kept for callers that want a Schema straight from a DTD) -------------------
def parse_mae_dtd(text: str, source: str = "<dtd>") -> Schema:
    """A schema from a MAE DTD task file, read as text (never with an XML DTD loader)."""
    return task_to_schema(parse_dtd(text, source))


def read_mae_dtd(path: str | Path) -> Schema:
    """Read a MAE DTD (or MedTator YAML / JSON) task file into a schema."""
    return load_task_schema(path)


def schema_to_mae_dtd(schema: Schema, task: str | None = None) -> str:
    """A MAE DTD task file for a schema: its own task's, or extent tags with a TYPE list."""
    if schema.task is not None and task in (None, schema.task.name):
        return task_to_dtd(schema.task)
    tags = tuple(
        TaskTag(
            category.name,
            attributes=(
                TaskAttribute("TYPE", tuple(t.name for t in category.types)),
                TaskAttribute("comment"),
            ),
        )
        for category in schema.categories
    )
    return task_to_dtd(TaskDefinition(task or schema.name, tags))
