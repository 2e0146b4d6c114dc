"""The i2b2 2014 standoff XML format, read and written without loss.

``<ROOT><TEXT><![CDATA[...]]></TEXT><TAGS><CATEGORY id start end text TYPE comment/>...``

An unchanged document saves byte-identical (the bytes read are written back). A changed
one is written in the canonical layout of the i2b2 2014 release, keeping every unknown
attribute (in file order) and every unknown element. Links, events, equivalences,
normalizations and document tags are read and written as MAE writes them (the i2b2 2012
relations corpus did the same: ``<TLINK fromID=.. fromText=.. toID=.. toText=.. />``), see
:mod:`annotator.io.xml_items`; a later fragment of a discontinuous tag names the tag holding
the first in ``continues``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from lxml import etree

from annotator.core.annotation import Annotation, Source
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin, document_id_of
from annotator.core.relations import DocumentTag, Relation
from annotator.core.schema import Schema, type_name_problem
from annotator.core.span import offsets_problem
from annotator.errors import InputError, OffsetError, StorageError, printable_path
from annotator.io.mae_layout import mae_layout
from annotator.io.xml_items import (
    CONTINUES,
    TargetTexts,
    document_tag_from_xml,
    document_tag_to_xml,
    is_document_offsets,
    is_xml_name,
    link_arguments,
    model_name,
    relation_element,
    relation_to_xml,
    xml_name,
)
from annotator.io.xml_items import (
    relation_from_xml as _relation_from_xml,
)
from annotator.io.xmlsafe import coded, parse_xml, read_bytes

ROOT_TAG = "deIdi2b2"
_ATTRIBUTE_ESCAPES = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
_SOURCES = {source.value: source for source in Source}


@dataclass(slots=True)
class RawTag:
    """A tag element as it stands in the file, before any interpretation."""

    index: int
    tag: str
    attributes: dict[str, str]
    line: int | None = None


@dataclass
class RawI2b2:
    """The parts of an i2b2 file, for readers and for the validator."""

    root_tag: str
    text: str | None
    tags: list[RawTag] = field(default_factory=list)
    has_tags_element: bool = True
    text_has_elements: bool = False
    # Root children in order: "TEXT", "TAGS" or the serialised unknown element.
    layout: list[str] = field(default_factory=list)
    # Unknown attributes of the root element, and comments or processing instructions
    # before it, kept so that an edited file loses nothing but its formatting.
    root_attributes: list[tuple[str, str]] = field(default_factory=list)
    prolog: list[str] = field(default_factory=list)
    # TEXT elements after the first (kept in the layout, never read) and the DOCTYPE, if any:
    # legal, but the validator warns about them.
    extra_text_elements: int = 0
    doctype: str = ""
    # TAGS elements after the first, and tags holding elements: no reader reads what they
    # hold, so a file with either is refused (a tag never read is a name never masked).
    extra_tags_elements: int = 0
    tags_with_children: list[RawTag] = field(default_factory=list)
    # Elements beside TEXT and TAGS that carry offsets: tags put outside TAGS.
    stray_tags: list[RawTag] = field(default_factory=list)


_CARRIES_OFFSETS = frozenset(("start", "end", "spans"))


def parse_i2b2_raw(data: bytes, path: str | Path | None = None) -> RawI2b2:
    """Parse the bytes of an i2b2 file into its raw parts (safe parsing)."""
    root = parse_xml(data, path)
    raw = RawI2b2(root_tag=str(root.tag), text=None, has_tags_element=False)
    raw.root_attributes = [(str(k), str(v)) for k, v in root.attrib.items()]
    raw.doctype = str(getattr(root.getroottree().docinfo, "doctype", "") or "")  # untyped in lxml-stubs
    previous = root.getprevious()
    while previous is not None:
        raw.prolog.insert(0, etree.tostring(previous, encoding="unicode", with_tail=False))
        previous = previous.getprevious()
    for child in root:
        if not isinstance(child.tag, str):  # comments, processing instructions
            raw.layout.append(etree.tostring(child, encoding="unicode", with_tail=False))
            continue
        if child.tag == "TEXT" and raw.text is None:
            raw.text = child.text or ""
            raw.text_has_elements = len(child) > 0
            raw.layout.append("TEXT")
        elif child.tag == "TAGS" and not raw.has_tags_element:
            raw.has_tags_element = True
            raw.layout.append("TAGS")
            tags = raw.tags
            append = tags.append
            # Runs once per tag of every file read: no more than it must do. lxml attribute
            # names and values are already str; items() avoids the attrib proxy.
            for element in child:
                name = element.tag
                if name.__class__ is str:
                    attributes: dict[str, str] = dict(element.items())  # type: ignore[arg-type]
                    line = element.sourceline  # an int (lxml-stubs type it otherwise)
                    append(RawTag(len(tags), name, attributes, line))  # type: ignore[arg-type]
                    if len(element) and any(isinstance(inner.tag, str) for inner in element):
                        raw.tags_with_children.append(tags[-1])
        else:
            raw.extra_text_elements += child.tag == "TEXT"
            # <tags> in lower case is a TAGS element someone mistyped, not an unknown one.
            raw.extra_tags_elements += child.tag.upper() == "TAGS"
            if _CARRIES_OFFSETS.intersection(child.attrib):
                line = child.sourceline
                raw.stray_tags.append(RawTag(-1, child.tag, dict(child.items()), line))  # type: ignore[arg-type]
            raw.layout.append(etree.tostring(child, encoding="unicode", with_tail=False))
    return raw


# Attributes that map to Annotation fields without checks; source and confidence are
# fields only when their values make sense, else they are kept as unknown attributes.
_FIELD_ATTRIBUTES = frozenset(("id", "start", "end", "text", "TYPE", "comment", "annotator", "pending"))


def raw_tag_to_annotation(raw_tag: RawTag, path: str | Path | None = None) -> Annotation:
    """Interpret one raw tag; offsets that are not integers raise an InputError."""
    attributes = raw_tag.attributes
    get = attributes.get
    try:
        start = parse_offset(attributes["start"])
        end = parse_offset(attributes["end"])
    except (KeyError, ValueError):
        label = get("id") or f"#{raw_tag.index}"
        for name in ("start", "end"):
            value = get(name)
            if value is None:
                raise InputError(f"tag {label} ({raw_tag.tag}) has no {name} attribute", path) from None
            if not _is_int(value):
                raise InputError(
                    f"tag {label} ({raw_tag.tag}) has a non-integer {name} offset", path
                ) from None
        raise
    source = _SOURCES.get(get("source", "human"))
    confidence_value = get("confidence")
    confidence = float_or_none(confidence_value) if confidence_value is not None else None
    extra: tuple[tuple[str, str], ...] = ()
    if not attributes.keys() <= _FIELD_ATTRIBUTES:
        extra = tuple(
            (name, value)
            for name, value in attributes.items()
            if name not in _FIELD_ATTRIBUTES
            and not (name == "source" and source is not None)
            and not (name == "confidence" and confidence is not None)
        )
    type_name = get("TYPE", raw_tag.tag)
    problem = type_problem(type_name)
    if problem is not None:
        label = get("id") or f"#{raw_tag.index}"
        raise InputError(f"tag {label} ({raw_tag.tag}) has TYPE {shown_label(type_name)}: {problem}", path)
    return Annotation(
        get("id", ""),
        raw_tag.tag,
        type_name,
        start,
        end,
        get("text", ""),
        get("comment", ""),
        source or Source.HUMAN,
        confidence,
        get("annotator", ""),
        get("pending", "") in ("yes", "true", "1"),
        extra,
    )


def parse_offset(value: str) -> int:
    """An offset written in ASCII digits (a leading minus allowed: the message says it is negative).

    int() alone also takes other scripts' digits ("\u0661\u0661" is 11), "+11", " 11 " and "1_1":
    no tool writes those, a person reading the file sees another number, and the official
    scorer compares offsets as strings.
    """
    digits = value[1:] if value[:1] == "-" else value
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"not an offset: {value!r}")
    return int(value)


def _is_int(value: str) -> bool:
    try:
        parse_offset(value)
    except ValueError:
        return False
    return True


def float_or_none(value: str) -> float | None:
    """A finite number, else None (the attribute is then kept as written, not as a confidence:
    ``nan`` would sort anywhere in a review by confidence)."""
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def parse_i2b2(
    data: bytes, path: str | Path | None = None, doc_id: str | None = None, check_offsets: bool = True
) -> Document:
    """A document from the bytes of an i2b2 file.

    Tags without an id get a fresh one; a duplicate id, a missing TEXT or an inline TEXT
    raise an :class:`InputError`. With ``check_offsets`` (the default) a tag whose offsets
    cannot lie in the text raises an :class:`OffsetError`, so no tool scores, trains on or
    merges a broken tag; ``validate`` and re-alignment read with ``check_offsets=False``.
    A ``text`` attribute that disagrees with the offsets is left to ``validate``.
    """
    # The plain shape every tool here writes is parsed faster; anything else by lxml.
    from annotator.io.i2b2_fast import parse_plain_i2b2

    raw = parse_plain_i2b2(data) or parse_i2b2_raw(data, path)
    refuse_unread_tags(raw, path)  # a MAE file too: its reader would drop them as well
    if any("spans" in tag.attributes and "start" not in tag.attributes for tag in raw.tags):
        # A MAE / MedTator file: every tool that reads i2b2 files reads those too. Imported
        # here because the MAE reader builds on this module.
        from annotator.io.mae import parse_mae

        return parse_mae(data, path, doc_id)
    document = document_from_raw(raw, data, path, doc_id)
    if check_offsets:
        check_offsets_fit(document, path)
    return document


def check_offsets_fit(document: Document, path: str | Path | None = None) -> None:
    """Raise an OffsetError for the first tag whose offsets fall outside the text."""
    length = len(document.text)
    for annotation in document.annotations:
        problem = offsets_problem(annotation.start, annotation.end, length)
        if problem is not None:
            raise OffsetError(
                f"tag {annotation.id} {problem}; run 'annotator validate --realign' on it", path
            )


def unread_tags(raw: RawI2b2) -> list[tuple[str, str]]:
    """What of a file's tags no reader would read, as (problem code, message) pairs.

    A second TAGS element and a tag inside a tag: a reader that took the first TAGS' direct
    children would lose the others without a word.
    """
    found = []
    if raw.stray_tags:
        stray = raw.stray_tags[0]
        label = printable_path(stray.attributes.get("id") or stray.tag)
        where = f", line {stray.line}" if stray.line else ""
        found.append(
            (
                "tag-outside-tags",
                f"tag {label} ({stray.tag}{where}) stands outside TAGS: move it into TAGS "
                "(it would be ignored)",
            )
        )
    if raw.extra_tags_elements:
        found.append(
            (
                "second-tags",
                f"{raw.extra_tags_elements + 1} TAGS elements: only one is allowed "
                "(merge them into one; the tags of the others would be ignored)",
            )
        )
    if raw.tags_with_children:
        outer = raw.tags_with_children[0]
        label = printable_path(outer.attributes.get("id") or f"number {outer.index + 1}")
        where = f", line {outer.line}" if outer.line else ""
        more = len(raw.tags_with_children) - 1
        others = f"; {more:,} more tag(s) hold elements too" if more else ""
        found.append(
            (
                "nested-tag",
                f"tag {label} ({outer.tag}{where}) holds other elements: tags must not be nested "
                f"(the inner ones would be ignored){others}",
            )
        )
    return found


def refuse_unread_tags(raw: RawI2b2, path: str | Path | None) -> None:
    """Raise the first of :func:`unread_tags` as an InputError naming ``path`` (coded)."""
    found = unread_tags(raw)
    if found:
        code, message = found[0]
        raise coded(InputError(message, path), code)


def document_from_raw(
    raw: RawI2b2, data: bytes, path: str | Path | None = None, doc_id: str | None = None
) -> Document:
    """A document from an already parsed file (lets the validator and the reader share one parse)."""
    refuse_unread_tags(raw, path)
    if raw.text is None:
        raise InputError(f"no TEXT element under <{raw.root_tag}>", path)
    if raw.text_has_elements:
        raise InputError("TEXT contains elements (inline markup); read it as the inline 2006 format", path)
    annotations: list[Annotation] = []
    others: list[Relation | DocumentTag] = []
    for raw_tag in raw.tags:
        attributes = raw_tag.attributes
        if "start" not in attributes and "end" not in attributes and link_arguments(attributes.items()):
            others.append(
                _relation_from_xml(raw_tag.tag, tuple(attributes.items()), attributes.get("id", ""))
            )
        elif is_document_offsets(attributes):
            others.append(
                document_tag_from_xml(raw_tag.tag, tuple(attributes.items()), attributes.get("id", ""))
            )
        else:
            annotations.append(extent_annotation(raw_tag, path))
    seen: dict[str, int] = {}
    for item in [*annotations, *others]:
        if item.id in seen and item.id:
            raise InputError(f"duplicate tag id {item.id}", path)
        seen[item.id] = 1
    stem = doc_id or document_id_of(path)
    origin = Origin(
        path=Path(path) if path is not None else None,
        format="i2b2",
        raw=data,
        layout={
            "root_tag": raw.root_tag,
            "children": raw.layout,
            "root_attributes": raw.root_attributes,
            "prolog": raw.prolog,
        },
    )
    document = Document(
        stem,
        raw.text,
        [a for a in annotations if a.id],
        origin,
        [o for o in others if isinstance(o, Relation) and o.id],
        [o for o in others if isinstance(o, DocumentTag) and o.id],
    )
    for annotation in annotations:
        if not annotation.id:
            document.add(annotation.replace(id=document.new_id()))
    for other in others:
        if not other.id:
            if isinstance(other, Relation):
                document.add_relation(other.replace(id=document.new_id("L")))
            else:
                document.add_document_tag(other.replace(id=document.new_id("D")))
    document.mark_pristine()
    return document


def extent_annotation(raw_tag: RawTag, path: str | Path | None = None) -> Annotation:
    """An extent tag as an annotation (notes and ``continues`` read as the model has them)."""
    annotation = raw_tag_to_annotation(raw_tag, path)
    if not annotation.extra:
        return annotation
    # Notes written as _note_KIND, and the fragment a later fragment continues.
    extra = tuple((model_name(name), value) for name, value in annotation.extra if name != CONTINUES)
    return annotation.replace(extra=extra, fragment_of=raw_tag.attributes.get(CONTINUES, ""))


def read_i2b2(path: str | Path, check_offsets: bool = True) -> Document:
    """Read an i2b2 2014 XML file (see :func:`parse_i2b2` for ``check_offsets``)."""
    return parse_i2b2(read_bytes(path), path, check_offsets=check_offsets)


def _attribute(value: str) -> str:
    return escape(value, _ATTRIBUTE_ESCAPES)


# The longest label an error message shows: enough to recognise it, not a page of a hostile one.
_SHOWN = 40


def type_problem(value: str) -> str | None:
    """Why a TYPE value cannot be a type, or None. A TYPE names a type in every format we
    write (a brat label or attribute, a CoNLL tag, a JSON Lines label) and in the window's
    menus, so it is one line of visible text; inner spaces are allowed (MedTator's sample
    task has ``Not bothersome``), spaces around it and invisible characters are not (the
    tag set's own rule, :func:`annotator.core.schema.type_name_problem`)."""
    return type_name_problem(value)


def shown_label(label: str) -> str:
    """A label for an error message: ``repr`` (control characters escaped), cut to 40 characters."""
    shown = repr(label)
    return shown if len(shown) <= _SHOWN else shown[: _SHOWN - 3] + "..."


def check_tag_name(tag: str, document: Document, tag_id: str = "") -> str:
    """``tag``, or a StorageError: the last guard before a label becomes an element name."""
    if not is_xml_name(tag):
        which = f"tag {printable_path(tag_id)}" if tag_id else "a tag"
        raise StorageError(
            f"document {document.doc_id}: {which} is named {shown_label(tag)}, which cannot name an "
            "XML element (nothing written)",
            document.origin.path,
        )
    return tag


def annotation_attributes(annotation: Annotation) -> list[tuple[str, str]]:
    """The attributes written for a tag, in the i2b2 order, then provenance, then extras."""
    attributes = [
        ("id", annotation.id),
        ("start", str(annotation.start)),
        ("end", str(annotation.end)),
        ("text", annotation.text),
        ("TYPE", annotation.type),
        ("comment", annotation.comment),
    ]
    if annotation.source is not Source.HUMAN:
        attributes.append(("source", annotation.source.value))
    if annotation.confidence is not None:
        attributes.append(("confidence", format_confidence(annotation.confidence)))
    if annotation.annotator:
        attributes.append(("annotator", annotation.annotator))
    if annotation.pending:
        attributes.append(("pending", "yes"))
    if annotation.fragment_of:
        attributes.append((CONTINUES, annotation.fragment_of))
    attributes.extend(annotation.extra)
    return attributes


# What XML 1.0 cannot hold. Every attribute value is checked (an id or a TYPE from any reader
# may hold U+0001 as well as a comment may), so it is a regex rather than a loop in Python.
_NOT_XML_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _check_xml_chars(text: str, document: Document) -> None:
    found = _NOT_XML_CHAR.search(text)
    if found is not None:
        raise StorageError(
            f"document {document.doc_id}: character U+{ord(found.group()):04X} at offset {found.start()} "
            "cannot be stored in XML",
            document.origin.path,
        )


def _cdata(text: str) -> str:
    # "]]>" cannot appear inside one CDATA section: close and reopen around it. A carriage
    # return would be turned into a line feed by any XML parser, so it goes out as a
    # character reference between two sections, which parsers keep as it is.
    body = text.replace("]]>", "]]]]><![CDATA[>").replace("\r", "]]>&#13;<![CDATA[")
    return "<![CDATA[" + body + "]]>"


def format_confidence(confidence: float) -> str:
    """Four significant digits when that is exact, else the shortest exact form."""
    short = f"{confidence:.4g}"
    return short if float(short) == confidence else repr(confidence)


def document_to_i2b2(
    document: Document, reuse_original: bool = True, native: bool = True, schema: Schema | None = None
) -> bytes:
    """The i2b2 bytes of a document.

    Parameters
    ----------
    reuse_original:
        When true (the default) an unchanged document read from an i2b2 file gives back the
        very bytes read; when false the canonical serialisation is always produced.
    native:
        When true (the default) a document read from a MAE / MedTator file is written back
        as MAE, so saving, autosave and recovery keep its task, links and META.
    schema:
        For a MAE file, the task's schema: a new tag gets the task's attribute set and
        defaults (``certainty="positive"``), as MAE gives them.
    """
    if native and document.origin.format == "mae":
        from annotator.io.mae_writer import document_to_mae

        return document_to_mae(document, schema=schema if schema is not None and schema.task else None)
    if (
        reuse_original
        and document.is_pristine()
        and document.origin.raw is not None
        and document.origin.format == "i2b2"
    ):
        return document.origin.raw
    _check_xml_chars(document.text, document)
    layout = document.origin.layout if document.origin.format == "i2b2" else {}
    root_tag = check_tag_name(str(layout.get("root_tag", ROOT_TAG)), document)
    children = list(layout.get("children", ["TEXT", "TAGS"]))  # type: ignore[call-overload]
    mae = mae_layout(document) if document.origin.format == "mae" else None
    if mae is not None:
        # A MAE / MedTator file's <META> (its labels) and other elements go along, as the
        # unknown elements of an i2b2 file do, and come back when it is written as MAE.
        children = ["TEXT", *mae.before, "TAGS", *mae.after]
    if "TAGS" not in children:
        children.append("TAGS")
    root_attributes = "".join(
        f' {name}="{_attribute(value)}"'
        for name, value in layout.get("root_attributes", [])  # type: ignore[attr-defined]
    )
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>']
    lines.extend(str(item) for item in layout.get("prolog", []))  # type: ignore[attr-defined]
    lines.append(f"<{root_tag}{root_attributes}>")
    for child in children:
        if child == "TEXT":
            lines.append(f"<TEXT>{_cdata(document.text)}</TEXT>")
        elif child == "TAGS":
            lines.append("<TAGS>")
            lines.extend(_tag_lines(document))
            lines.append("</TAGS>")
        else:
            lines.append(str(child))
    lines.append(f"</{root_tag}>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def element_line(tag: str, pairs: list[tuple[str, str]], document: Document) -> str:
    """``<TAG name="value" ... />``: the tag and every attribute name checked as XML names,
    every value for characters XML cannot hold (and escaped), so no label or value can end the
    element early, add one, or make a file XML parsers refuse."""
    tag_id = next((value for name, value in pairs if name == "id"), "")
    check_tag_name(tag, document, tag_id)
    for name, value in pairs:
        # "xmlns" is a namespace declaration, not an attribute: it would rename the element.
        if not is_xml_name(name) or name == "xmlns":
            raise StorageError(
                f"document {document.doc_id}: tag {printable_path(tag_id or tag)} has an attribute named "
                f"{shown_label(name)}, which XML cannot hold (nothing written)",
                document.origin.path,
            )
        _check_xml_chars(value, document)
    return f"<{tag} " + " ".join(f'{name}="{_attribute(value)}"' for name, value in pairs) + " />"


def _tag_lines(document: Document) -> list[str]:
    lines = []
    for annotation in document.annotations:
        # element_line checks the tag name: a label written unchecked can close the element and
        # open one of its own ('DATE id="X9" ... /><NAME x=""').
        pairs = annotation_attributes(annotation)
        if annotation.extra:
            pairs = pairs[: len(pairs) - len(annotation.extra)]
            pairs += [(xml_name(name, document), value) for name, value in annotation.extra]
        lines.append(element_line(annotation.tag, pairs, document))
    for tag in document.document_tags:
        lines.append(element_line(tag.tag, document_tag_to_xml(tag, document, mae=False), document))
    texts = TargetTexts(document)
    for relation in document.relations:
        pairs = relation_to_xml(relation, document, texts)
        lines.append(element_line(relation_element(relation), pairs, document))
    return lines


def write_i2b2(
    document: Document, path: str | Path, native: bool = True, schema: Schema | None = None
) -> None:
    """Save a document as i2b2 XML, atomically; it then counts as unchanged.

    A document read from a MAE / MedTator file is saved as MAE unless ``native`` is false
    (``schema``: its task's, see :func:`document_to_i2b2`).
    """
    data = document_to_i2b2(document, native=native, schema=schema)
    atomic_write(path, data)
    if document.origin.format == "i2b2" or (native and document.origin.format == "mae"):
        document.origin.raw = data
        document.origin.path = Path(path)
        document.mark_pristine()


# Shared with the other XML writers (MAE, inline 2006).
cdata_section = _cdata
xml_attribute = _attribute
check_xml_chars = _check_xml_chars
