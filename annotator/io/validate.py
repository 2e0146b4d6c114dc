"""Checking annotation files: one precise problem per line, never the note text.

The validator works on the raw parse of a file (:func:`parse_i2b2_raw`), so one file can
report many problems at once: a reader stops at the first one, the validator does not.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, overload

from annotator.core.document import Document, document_id_of
from annotator.core.schema import Schema, load_schema
from annotator.errors import AnnotatorError, printable_path
from annotator.io.i2b2 import (
    RawI2b2,
    RawTag,
    document_from_raw,
    parse_i2b2_raw,
    parse_offset,
    shown_label,
    type_problem,
    unread_tags,
)
from annotator.io.mae import parse_mae
from annotator.io.realign import Realigner, text_matches
from annotator.io.xml_items import is_document_offsets, link_arguments
from annotator.io.xmlsafe import MAX_FILE_BYTES, error_code, read_bytes

Severity = Literal["error", "warning", "note"]

# Every problem code, its severity and what it means (docs/formats.md lists the same).
CODES: dict[str, tuple[Severity, str]] = {
    "unreadable": ("error", "the file cannot be read (missing, a folder, no permission)"),
    "file-name": ("error", "the file name is not valid UTF-8, so it cannot name the document"),
    "too-large": ("error", "the file is over the size limit for one document"),
    "empty": ("error", "the file is empty"),
    "binary": ("error", "the file holds binary data, not XML"),
    "encoding": ("error", "undeclared, wrong or unsupported character encoding"),
    "bom": ("warning", "the file starts with a byte-order mark (allowed, but unusual)"),
    "truncated": ("error", "the file ends before its root element is closed"),
    "not-well-formed": ("error", "the XML is not well-formed"),
    "entity": ("error", "entity or DTD declarations, or entity references (refused, never expanded)"),
    "no-text": ("error", "there is no TEXT element"),
    "no-tags": ("error", "there is no TAGS element"),
    "inline-markup": ("error", "TEXT contains elements (inline annotation, e.g. the i2b2 2006 format)"),
    "second-tags": ("error", "more than one TAGS element (refused: the tags of the others would be lost)"),
    "nested-tag": ("error", "a tag holds other elements (refused: the inner tags would be lost)"),
    "tag-outside-tags": ("error", "a tag outside TAGS (refused: it would be lost)"),
    "missing-id": ("warning", "a tag has no id (the reader gives it a fresh one)"),
    "duplicate-id": ("error", "two tags share an id"),
    "missing-offset": ("error", "a tag has no start or end attribute"),
    "bad-offset": ("error", "an offset is not an integer"),
    "negative-offset": ("error", "an offset is negative"),
    "start-after-end": ("error", "start is greater than end"),
    "offset-beyond-text": ("error", "an offset lies beyond the end of TEXT"),
    "text-mismatch": ("error", "the text attribute differs from TEXT[start:end]"),
    "mae-text-case": ("note", "MAE: the text attribute differs from the spans only in case (spans kept)"),
    "mae-text-mismatch": ("warning", "MAE: the text attribute disagrees with the spans (spans kept)"),
    "unknown-tag": ("error", "the tag (category) is not in the schema"),
    "bad-type": (
        "error",
        "the TYPE holds an invisible character or spaces around it (refused by every reader)",
    ),
    "unknown-type": ("error", "the TYPE is not in the schema"),
    "type-not-in-category": ("error", "the TYPE exists but belongs to another category"),
    "overlap": ("warning", "two tags overlap"),
    "dangling-link": ("warning", "a link names an id no tag of the file has (brat cannot hold it)"),
    "zero-length": ("warning", "a tag covers no text (start equals end)"),
    "second-text": ("warning", "more than one TEXT element (only the first is the note)"),
    "foreign-root": ("warning", "the root element is not <deIdi2b2> (no i2b2 2014 schema check)"),
    "doctype": ("warning", "the file has a DOCTYPE (never loaded; i2b2 files have none)"),
}

#: The root element of i2b2 2014 files, and the schema such a file is checked against
#: when ``validate`` is not given one.
I2B2_ROOT = "deIdi2b2"
I2B2_SCHEMA = "i2b2-2014"

_BOMS = {b"\xef\xbb\xbf": "UTF-8", b"\xff\xfe": "UTF-16 (little-endian)", b"\xfe\xff": "UTF-16 (big-endian)"}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file; the message never quotes note text."""

    path: str
    severity: Severity
    code: str
    message: str
    tag_id: str | None = None
    start: int | None = None
    end: int | None = None

    def one_line(self) -> str:
        """``FILE: [tag P3 12-20] message`` (warnings say so)."""
        where = ""
        if self.tag_id is not None or self.start is not None:
            parts = ["tag", self.tag_id or "?"]
            if self.start is not None or self.end is not None:
                parts.append(f"{_offset(self.start)}-{_offset(self.end)}")
            where = "[" + " ".join(parts) + "] "
        kind = f"{self.severity}: " if self.severity != "error" else ""
        # Tag ids and names come from the file: a terminal escape or a bidirectional override
        # in one would recolour or reorder the report, so they are shown escaped, as paths are.
        message = printable_path(f"{where}{kind}{' '.join(self.message.split())}")
        return f"{printable_path(self.path)}: {message}"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "tag_id": self.tag_id,
            "start": self.start,
            "end": self.end,
        }


def _offset(value: int | None) -> str:
    return "?" if value is None else str(value)


def problem(
    path: str | Path | None,
    code: str,
    message: str,
    tag_id: str | None = None,
    start: int | None = None,
    end: int | None = None,
) -> Problem:
    """A problem with the severity its code carries."""
    return Problem(
        str(path) if path is not None else "<document>", CODES[code][0], code, message, tag_id, start, end
    )


def has_errors(problems: Iterable[Problem]) -> bool:
    return any(p.is_error for p in problems)


# -- files -------------------------------------------------------------------------------
def validate_file(
    path: str | Path, schema: Schema | None = None, limit: int = MAX_FILE_BYTES, infer_schema: bool = False
) -> list[Problem]:
    """Every problem of one i2b2 file.

    Parameters
    ----------
    schema:
        When given, tags and TYPEs are checked against it.
    limit:
        The size limit in bytes.
    """
    return read_and_validate(path, schema, limit, infer_schema)[1]


def read_and_validate(
    path: str | Path, schema: Schema | None = None, limit: int = MAX_FILE_BYTES, infer_schema: bool = False
) -> tuple[Document | None, list[Problem]]:
    """Validate a file and, when its structure allows, read it, with a single parse.

    The document is returned even when offsets are wrong (so they can be realigned); it is
    None when the file cannot be read as a document at all.
    """
    try:
        data = read_bytes(path, limit)
    except AnnotatorError as error:
        return None, [problem(path, error_code(error), error.message)]
    problems, raw = validate_bytes(data, path, schema, limit, infer_schema)
    try:
        document_id_of(path)
    except AnnotatorError as error:
        problems.insert(0, problem(path, "file-name", error.message))
        return None, problems
    if raw is None or any(p.code in _STRUCTURAL for p in problems):
        return None, problems
    try:
        if any(p.code.startswith("mae-") for p in problems) or is_mae_raw(parse_i2b2_raw(data, path)):
            return parse_mae(data, path), problems
        return document_from_raw(raw, data, path), problems
    except AnnotatorError:
        return None, problems


_STRUCTURAL = {
    "no-text",
    "inline-markup",
    "second-tags",
    "nested-tag",
    "tag-outside-tags",
    "duplicate-id",
    "missing-offset",
    "bad-offset",
}


def validate_bytes(
    data: bytes,
    path: str | Path | None = None,
    schema: Schema | None = None,
    limit: int = MAX_FILE_BYTES,
    infer_schema: bool = False,
) -> tuple[list[Problem], RawI2b2 | None]:
    """Problems of the bytes of an i2b2 file, and its raw parse when it parsed.

    With ``infer_schema`` (and no ``schema``), a file whose root is ``<deIdi2b2>`` is checked
    against the i2b2 2014 schema: that root says which tag set the file claims.
    """
    problems: list[Problem] = []
    for bom, name in _BOMS.items():
        if data.startswith(bom) and len(data) > len(bom):
            problems.append(problem(path, "bom", f"the file starts with a {name} byte-order mark"))
            break
    try:
        raw = parse_i2b2_raw(data, path) if len(data) <= limit else None
    except AnnotatorError as error:
        problems.append(problem(path, error_code(error, "not-well-formed"), error.message))
        return problems, None
    if raw is None:
        problems.append(
            problem(path, "too-large", f"file is {len(data):,} bytes, over the {limit:,}-byte limit")
        )
        return problems, None
    mae = is_mae_raw(raw)
    problems.extend(_structure_warnings(raw, path, mae))
    if mae:
        mae_raw = _mae_as_raw(data, path, problems)
        if mae_raw is None:
            return problems, None
        raw = mae_raw
    if schema is None and infer_schema and raw.root_tag == I2B2_ROOT:
        schema = load_schema(I2B2_SCHEMA)
    problems.extend(validate_raw(raw, path, schema))
    return problems, raw


def _structure_warnings(raw: RawI2b2, path: str | Path | None, mae: bool) -> list[Problem]:
    """Legal but odd: a DOCTYPE, a second TEXT, a root that is not i2b2's (MAE files have theirs);
    and tags no reader would read (a second TAGS, a tag inside a tag)."""
    found = []
    if raw.doctype:
        found.append(problem(path, "doctype", "the file has a DOCTYPE declaration (ignored, never loaded)"))
    if raw.extra_text_elements:
        found.append(
            problem(
                path,
                "second-text",
                f"{raw.extra_text_elements + 1} TEXT elements: only the first is read as the note",
            )
        )
    # Errors, unlike a second TEXT: every reader refuses such a file (its tags would be lost).
    found.extend(problem(path, code, message) for code, message in unread_tags(raw))
    if raw.root_tag != I2B2_ROOT and not mae:
        found.append(
            problem(path, "foreign-root", f"the root element is <{raw.root_tag}>, not <{I2B2_ROOT}>")
        )
    return found


def is_mae_raw(raw: RawI2b2) -> bool:
    """True when the tags carry MAE ``spans`` instead of i2b2 offsets."""
    return any("spans" in tag.attributes and "start" not in tag.attributes for tag in raw.tags)


def _mae_as_raw(data: bytes, path: str | Path | None, problems: list[Problem]) -> RawI2b2 | None:
    # A MAE file is checked as MAE reads it: spans (UTF-16) trusted, text attributes
    # reported, links and non-consuming tags kept aside (the DTD declares them).
    lines: list[str] = []
    try:
        document = parse_mae(data, path, warnings=lines)
    except AnnotatorError as error:
        problems.append(problem(path, error_code(error, "bad-offset"), error.message))
        return None
    ids = {a.id for a in document.annotations} | {r.id for r in document.relations}
    ids |= {t.id for t in document.document_tags}
    links = [
        (relation.id, target)
        for relation in document.relations
        for target in (relation.trigger, *(argument.target for argument in relation.arguments))
    ]
    problems.extend(_dangling_links(links, ids, path))
    for line in lines:
        for marker, code in (("note: ", "mae-text-case"), ("warning: ", "mae-text-mismatch")):
            if marker in line:
                problems.append(problem(path, code, line[line.index(marker) + len(marker) :]))
    tags = [
        RawTag(
            index,
            a.tag,
            {"id": a.id, "start": str(a.start), "end": str(a.end), "text": a.text, "TYPE": a.type},
        )
        for index, a in enumerate(document.annotations)
    ]
    return RawI2b2(root_tag=str(document.origin.layout.get("root_tag")), text=document.text, tags=tags)


def validate_raw(raw: RawI2b2, path: str | Path | None = None, schema: Schema | None = None) -> list[Problem]:
    """Problems of a parsed i2b2 file: structure, ids, offsets, text, schema, overlaps."""
    problems: list[Problem] = []
    if raw.text is None:
        problems.append(problem(path, "no-text", f"no TEXT element under <{raw.root_tag}>"))
    elif raw.text_has_elements:
        problems.append(
            problem(path, "inline-markup", "TEXT contains elements; read it as the inline 2006 format")
        )
    if not raw.has_tags_element:
        problems.append(problem(path, "no-tags", f"no TAGS element under <{raw.root_tag}>"))
    items: list[_Item] = []
    append = items.append
    for raw_tag in raw.tags:
        attributes = raw_tag.attributes
        tag_id = attributes.get("id")
        label = tag_id or f"#{raw_tag.index + 1}"
        if is_document_offsets(attributes) or (
            "start" not in attributes and "end" not in attributes and link_arguments(attributes.items())
        ):
            # A link or a document tag (MAE's way, in i2b2 files too): no span to check.
            append((tag_id, label, raw_tag.tag, _NOT_A_SPAN, None, None, None))
            continue
        try:
            start: int | None = parse_offset(attributes["start"])
            end: int | None = parse_offset(attributes["end"])
        except (KeyError, ValueError):
            start, end = _offsets_with_problems(raw_tag.tag, attributes, label, path, problems)
        if not tag_id:
            problems.append(
                problem(
                    path, "missing-id", f"tag number {raw_tag.index + 1} ({raw_tag.tag}) has no id", label
                )
            )
        append(
            (
                tag_id,
                label,
                raw_tag.tag,
                attributes.get("TYPE", raw_tag.tag),
                start,
                end,
                attributes.get("text"),
            )
        )
    problems.extend(_check_items(items, raw.text, path, schema))
    ids = {tag.attributes.get("id") for tag in raw.tags}
    links = [
        (tag.attributes.get("id") or f"#{tag.index + 1}", target)
        for tag in raw.tags
        if "start" not in tag.attributes and "end" not in tag.attributes
        for _role, target in link_arguments(tag.attributes.items())
    ]
    problems.extend(_dangling_links(links, ids, path))
    return problems


def _dangling_links(
    links: Iterable[tuple[str, str]], ids: Collection[str | None], path: str | Path | None
) -> list[Problem]:
    """A link argument naming no tag of the file (an unset argument, empty, is MAE's own way)."""
    return [
        problem(path, "dangling-link", f"link {link} names {target}, which no tag of the file has", link)
        for link, target in links
        if target and target not in ids
    ]


def _offsets_with_problems(
    tag: str, attributes: dict[str, str], label: str, path: str | Path | None, problems: list[Problem]
) -> tuple[int | None, int | None]:
    offsets: list[int | None] = []
    for name in ("start", "end"):
        value = attributes.get(name)
        if value is None:
            hint = (
                " (it has MAE spans: convert the file with annotator convert --to i2b2)"
                if "spans" in attributes
                else ""
            )
            problems.append(
                problem(path, "missing-offset", f"{tag} tag has no {name} attribute{hint}", label)
            )
            offsets.append(None)
            continue
        try:
            offsets.append(parse_offset(value))
        except ValueError:
            problems.append(problem(path, "bad-offset", f"{tag} tag: {name} is not an integer", label))
            offsets.append(None)
    return offsets[0], offsets[1]


def validate_document(
    document: Document, schema: Schema | None = None, path: str | Path | None = None
) -> list[Problem]:
    """Problems of a document in memory: offsets, text, schema and overlaps."""
    items = [(a.id, a.id, a.tag, a.type, a.start, a.end, a.text) for a in document.annotations]
    return _check_items(items, document.text, path or document.origin.path or document.doc_id, schema)


# (id, label, tag, TYPE, start, end, text attribute); a plain tuple because files hold
# tens of thousands of tags and the validator must keep up with reading.
_Item = tuple[str | None, str, str, str, int | None, int | None, str | None]
# The TYPE of a link or document tag, which have no span and no PHI type (XML cannot hold it).
_NOT_A_SPAN = "\x00"


def _check_items(
    items: Sequence[_Item], text: str | None, path: str | Path | None, schema: Schema | None
) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    length = len(text) if text is not None else -1
    realigner: Realigner | None = None
    placed: list[tuple[int, int, str]] = []
    valid_pairs = _valid_pairs(schema) if schema is not None else frozenset()
    for tag_id, label, tag, type_name, start, end, expected in items:
        if tag_id:
            if tag_id in seen:
                problems.append(
                    problem(
                        path, "duplicate-id", f"id {tag_id} is used by more than one tag", label, start, end
                    )
                )
            seen.add(tag_id)
        wrong_type = type_problem(type_name) if type_name != _NOT_A_SPAN else None
        if wrong_type is not None:
            shown = shown_label(type_name)
            problems.append(problem(path, "bad-type", f"TYPE {shown}: {wrong_type}", label, start, end))
        elif schema is not None and type_name != _NOT_A_SPAN and (tag, type_name) not in valid_pairs:
            problems.append(_schema_problem(schema, tag, type_name, path, label, start, end))
        if start is None or end is None:
            continue
        if start == end:
            problems.append(problem(path, "zero-length", "the tag covers no text", label, start, end))
        if 0 <= start <= end <= length and text is not None:
            # The common case: offsets fit; only the text attribute is left to compare.
            if (
                expected is not None
                and text[start:end] != expected
                and not text_matches(text, start, end, expected)
            ):
                if realigner is None:
                    realigner = Realigner(text)
                problems.append(_mismatch(realigner, start, end, expected, path, label, beyond=False))
            placed.append((start, end, label))
            continue
        if start < 0 or end < 0:
            problems.append(problem(path, "negative-offset", "negative offset", label, start, end))
            continue
        if start > end:
            problems.append(problem(path, "start-after-end", "start is after end", label, start, end))
            continue
        if text is None:
            continue
        problems.append(
            problem(
                path, "offset-beyond-text", f"end is beyond the text (length {length})", label, start, end
            )
        )
        if expected is not None:
            if realigner is None:
                realigner = Realigner(text)
            mismatch = _mismatch(realigner, start, end, expected, path, label, beyond=True)
            if mismatch is not None:
                problems.append(mismatch)
    problems.extend(_overlaps(placed, path))
    return problems


_PAIRS: dict[int, tuple[Schema, frozenset[tuple[str, str]]]] = {}


def _valid_pairs(schema: Schema) -> frozenset[tuple[str, str]]:
    """The (category, TYPE) pairs of a schema, computed once per schema object."""
    cached = _PAIRS.get(id(schema))
    if cached is None or cached[0] is not schema:
        cached = (schema, frozenset((t.category, t.name) for t in schema.types))
        _PAIRS[id(schema)] = cached
    return cached[1]


def _schema_problem(
    schema: Schema,
    tag: str,
    type_name: str,
    path: str | Path | None,
    label: str,
    start: int | None,
    end: int | None,
) -> Problem:
    if tag not in schema.category_names:
        return problem(path, "unknown-tag", f"tag <{tag}> is not in schema {schema.name}", label, start, end)
    if not schema.has_type(type_name):
        return problem(
            path, "unknown-type", f"TYPE {type_name} is not in schema {schema.name}", label, start, end
        )
    return problem(
        path,
        "type-not-in-category",
        f"TYPE {type_name} belongs to {schema.category_of(type_name)}, not {tag}",
        label,
        start,
        end,
    )


@overload
def _mismatch(
    realigner: Realigner,
    start: int,
    end: int,
    expected: str,
    path: str | Path | None,
    label: str,
    beyond: Literal[False],
) -> Problem: ...
@overload
def _mismatch(
    realigner: Realigner,
    start: int,
    end: int,
    expected: str,
    path: str | Path | None,
    label: str,
    beyond: bool,
) -> Problem | None: ...
def _mismatch(
    realigner: Realigner,
    start: int,
    end: int,
    expected: str,
    path: str | Path | None,
    label: str,
    beyond: bool,
) -> Problem | None:
    """The text-mismatch problem, with a hint when re-alignment can place the tag.

    For offsets beyond the text it is only worth a line when there is such a hint.
    """
    found = realigner.locate(start, end, expected)
    if isinstance(found, str):
        if beyond:
            return None
        hint = ""
    else:
        hint = (
            f"; it is at {found[0]}-{found[1]} ({found[2]}): annotator validate --realign --write repairs it"
        )
    return problem(
        path,
        "text-mismatch",
        f"text attribute ({len(expected)} characters) differs from TEXT[{start}:{end}]{hint}",
        label,
        start,
        end,
    )


def _overlaps(placed: list[tuple[int, int, str]], path: str | Path | None) -> list[Problem]:
    """One warning per tag that overlaps earlier-starting tags (naming one, counting the rest).

    A sweep with a heap of the open tags' ends keeps this O(n log n) and the output linear,
    even for a file with thousands of tags stacked on one span.
    """
    problems: list[Problem] = []
    placed.sort()
    open_ends: list[tuple[int, int, str]] = []  # (end, start, label) of tags still open
    for start, end, label in placed:
        while open_ends and open_ends[0][0] <= start:
            heapq.heappop(open_ends)
        if open_ends:
            other_end, other_start, other_label = open_ends[0]
            more = len(open_ends) - 1
            message = f"overlaps tag {other_label} ({other_start}-{other_end})"
            if more:
                message += f" and {more:,} more"
            problems.append(problem(path, "overlap", message, label, start, end))
        if start < end:
            heapq.heappush(open_ends, (end, start, label))
    return problems
