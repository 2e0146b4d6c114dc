"""MAE 2 / MedTator XML and their DTD task files.

A MAE file looks like an i2b2 file whose root is named after the task and whose tags carry
``spans="start~end"`` instead of ``start``/``end``. MAE (Java) and MedTator (JavaScript)
count offsets in UTF-16 code units: we convert to code points on reading (and back on
writing), so characters outside the Basic Multilingual Plane do not shift tags.

Discontinuous tags (``spans="1~5,9~12"``) keep their first fragment, with a warning;
non-consuming tags (``spans="-1~-1"`` or empty) and link tags have no place in a
PHI document and are skipped, with a warning.
"""

from __future__ import annotations

import re
from pathlib import Path

from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin
from annotator.core.schema import Category, Schema, TypeDef
from annotator.errors import InputError, SchemaError
from annotator.io.i2b2 import (
    RawTag,
    annotation_attributes,
    cdata_section,
    check_xml_chars,
    raw_tag_to_annotation,
    xml_attribute,
)
from annotator.io.realign import text_matches, utf16_map
from annotator.io.xmlsafe import parse_xml, read_bytes

DEFAULT_TASK = "PHI"
_SPAN = re.compile(r"^\s*(-?\d+)\s*~\s*(-?\d+)\s*$")
# Okabe-Ito, then greys: distinguishable with the common colour-vision deficiencies.
_PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999", "#000000")


def parse_mae(
    data: bytes, path: str | Path | None = None, doc_id: str | None = None, warnings: list[str] | None = None
) -> Document:
    """A document from the bytes of a MAE / MedTator XML file.

    Parameters
    ----------
    warnings:
        Receives one line per tag that could not be kept as it stood.
    """
    notes = warnings if warnings is not None else []
    root = parse_xml(data, path)
    text_element = root.find("TEXT")
    if text_element is None:
        raise InputError(f"no TEXT element under <{root.tag}>", path)
    text = text_element.text or ""
    unit_map = utf16_map(text)
    tags = root.find("TAGS")
    annotations = []
    for index, element in enumerate(tags if tags is not None else []):
        if not isinstance(element.tag, str):
            continue
        attributes = {str(k): str(v) for k, v in element.attrib.items()}
        label = attributes.get("id") or f"#{index + 1}"
        spans = attributes.pop("spans", None)
        if spans is not None:
            fragments = [f for f in spans.split(",") if f.strip()]
            matched = [_SPAN.match(f) for f in fragments]
            if not fragments or not matched[0] or int(matched[0].group(1)) < 0:
                notes.append(f"{path}: tag {label} ({element.tag}) has no extent (non-consuming); skipped")
                continue
            if not all(matched):
                raise InputError(f"tag {label} ({element.tag}) has malformed spans", path)
            if len(fragments) > 1:
                notes.append(f"{path}: tag {label} is discontinuous; only its first fragment is kept")
                attributes.pop("text", None)
            first = matched[0]
            assert first is not None
            start, end = int(first.group(1)), int(first.group(2))
        elif "start" in attributes and "end" in attributes:
            try:
                start, end = int(attributes["start"]), int(attributes["end"])
            except ValueError:
                raise InputError(f"tag {label} ({element.tag}) has a non-integer offset", path) from None
        else:
            notes.append(f"{path}: tag {label} ({element.tag}) is a link or has no span; skipped")
            continue
        start, end = _to_codepoints(
            text, unit_map.to_codepoint(start), unit_map.to_codepoint(end), start, end, attributes
        )
        if not 0 <= start <= end <= len(text):
            raise InputError(f"tag {label} ({element.tag}) offsets {start}-{end} do not fit the text", path)
        attributes["start"], attributes["end"] = str(start), str(end)
        attributes.setdefault("text", text[start:end])
        annotations.append(raw_tag_to_annotation(RawTag(index, str(element.tag), attributes), path))
    stem = doc_id or (Path(path).stem if path is not None else "document")
    document = Document(stem, text, [a for a in annotations if a.id], Origin(format="mae", raw=data))
    document.origin.path = Path(path) if path is not None else None
    document.origin.layout = {"root_tag": str(root.tag)}
    for annotation in annotations:
        if not annotation.id:
            document.add(annotation.replace(id=document.new_id()))
    document.mark_pristine()
    return document


def _to_codepoints(
    text: str, start16: int | None, end16: int | None, start: int, end: int, attributes: dict[str, str]
) -> tuple[int, int]:
    # Some tools write code points although the format counts UTF-16 units: trust whichever
    # reading makes the text attribute match, preferring the documented UTF-16 one.
    expected = attributes.get("text")
    if start16 is not None and end16 is not None:
        if expected is None or text_matches(text, start16, end16, expected):
            return start16, end16
        if text_matches(text, start, end, expected):
            return start, end
        return start16, end16
    return start, end


def read_mae(path: str | Path, warnings: list[str] | None = None) -> Document:
    """Read a MAE / MedTator XML file."""
    return parse_mae(read_bytes(path), path, warnings=warnings)


def document_to_mae(document: Document, task: str | None = None) -> bytes:
    """MAE XML bytes: ``spans`` in UTF-16 units, then our attributes (TYPE, provenance...)."""
    if task is None and document.is_pristine() and document.origin.format == "mae" and document.origin.raw:
        return document.origin.raw
    check_xml_chars(document.text, document)
    root = task or str(document.origin.layout.get("root_tag") or DEFAULT_TASK)
    unit_map = utf16_map(document.text)
    lines = [
        '<?xml version="1.0" encoding="UTF-8" ?>',
        f"<{root}>",
        f"<TEXT>{cdata_section(document.text)}</TEXT>",
        "<TAGS>",
    ]
    for annotation in document.annotations:
        check_xml_chars(annotation.text + annotation.comment, document)
        spans = f"{unit_map.from_codepoint(annotation.start)}~{unit_map.from_codepoint(annotation.end)}"
        attributes = [
            ("spans", spans) if name == "start" else (name, value)
            for name, value in annotation_attributes(annotation)
            if name != "end"
        ]
        body = " ".join(f'{name}="{xml_attribute(value)}"' for name, value in attributes)
        lines.append(f"<{annotation.tag} {body} />")
    lines += ["</TAGS>", f"</{root}>"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_mae(document: Document, path: str | Path, task: str | None = None) -> None:
    """Save a document as MAE XML, atomically."""
    atomic_write(path, document_to_mae(document, task))


# -- DTD task files -----------------------------------------------------------------------
_TASK_NAME = re.compile(r"""<!ENTITY\s+name\s+["']([^"']+)["']\s*>""")
_EXTENT_ELEMENT = re.compile(r"<!ELEMENT\s+([\w.-]+)\s*\(\s*#PCDATA\s*\)\s*>")
_TYPE_LIST = re.compile(r"<!ATTLIST\s+([\w.-]+)\s+TYPE\s*\(([^)]*)\)")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def parse_mae_dtd(text: str, source: str = "<dtd>") -> Schema:
    """A schema from a MAE DTD task file, read as text (never with an XML DTD loader).

    Extent elements (``#PCDATA``) become categories; a ``TYPE`` value list gives their
    types; an element without one is a category with a single type of its own name.
    """
    text = _COMMENT.sub("", text)
    task = _TASK_NAME.search(text)
    elements = _EXTENT_ELEMENT.findall(text)
    if not elements:
        raise SchemaError("no extent tags (<!ELEMENT NAME ( #PCDATA ) >) in the DTD", source)
    types: dict[str, list[str]] = {}
    for element, values in _TYPE_LIST.findall(text):
        types[element] = [v.strip() for v in values.split("|") if v.strip()]
    categories = []
    for number, element in enumerate(dict.fromkeys(elements)):
        color = _PALETTE[number % len(_PALETTE)]
        names = types.get(element) or [element]
        categories.append(
            Category(name=element, color=color, types=tuple(TypeDef(n, element, "", color) for n in names))
        )
    name = task.group(1) if task else Path(source).stem
    return Schema(name=name, title=name, categories=tuple(categories))


def read_mae_dtd(path: str | Path) -> Schema:
    """Read a MAE DTD task file into a schema."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise SchemaError(f"cannot read DTD: {error.strerror}", path) from None
    except UnicodeDecodeError:
        raise SchemaError("the DTD is not UTF-8 text", path) from None
    return parse_mae_dtd(text, str(path))


def schema_to_mae_dtd(schema: Schema, task: str | None = None) -> str:
    """A MAE DTD task file for a schema (extent tags with a TYPE list and a comment)."""
    lines = [f'<!ENTITY name "{task or schema.name}">', ""]
    for category in schema.categories:
        prefix = category.name[:1].upper() or "T"
        lines.append(f"<!ELEMENT {category.name} ( #PCDATA ) >")
        lines.append(f'<!ATTLIST {category.name} id ID prefix="{prefix}" #REQUIRED >')
        lines.append(
            f"<!ATTLIST {category.name} TYPE ( {' | '.join(t.name for t in category.types)} ) #IMPLIED >"
        )
        lines.append(f"<!ATTLIST {category.name} comment CDATA #IMPLIED >")
        lines.append("")
    return "\n".join(lines)
