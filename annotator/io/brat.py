"""brat standoff: the note in ``NAME.txt``, its annotations in ``NAME.ann``.

``T1<TAB>DOCTOR 10 15<TAB>Smith``: the label is our TYPE; its category comes from the
schema. Offsets are code points of the ``.txt`` file as it is on disk (no line-end
translation). Comments travel as ``#`` AnnotatorNotes lines. A discontinuous span
(``10 15;20 25``) is edited as its first fragment and written back whole while that
fragment is unchanged. Relations, events, attributes, normalizations, equivalences and
other notes are kept as they stand (``Document.origin.layout["brat"]``) and written back
while the text is the one read; a line that names an annotation since deleted is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.brat_conf import schema_to_brat_conf
from annotator.core.document import Document, Origin
from annotator.core.schema import Category, Schema, TypeDef
from annotator.errors import InputError
from annotator.io.inline2006 import category_for
from annotator.io.xmlsafe import MAX_FILE_BYTES, read_bytes

_TEXT_BOUND = re.compile(r"^(T\d+)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t?(.*)$")
_NOTE = re.compile(r"^#\d+\tAnnotatorNotes (T\d+)\t?(.*)$")
_BRAT_ID = re.compile(r"^T(\d+)$")
_REFERENCE = re.compile(r"(?<![\w.#])([TREAN]\d+)\b")
LAYOUT_KEY = "brat"
# Every character str.splitlines() breaks on, and the tab that separates columns.
_LINE_BREAKS = str.maketrans(dict.fromkeys("\n\r\t\v\f\x1c\x1d\x1e\x85\u2028\u2029", " "))


def brat_paths(path: str | Path) -> tuple[Path, Path]:
    """The ``.txt`` and ``.ann`` paths for either of them (or their common stem)."""
    path = Path(path)
    base = path.with_suffix("") if path.suffix in (".txt", ".ann") else path
    return base.with_name(base.name + ".txt"), base.with_name(base.name + ".ann")


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", path) from None


def read_brat(path: str | Path, schema: Schema | None = None, warnings: list[str] | None = None) -> Document:
    """Read a brat document from its ``.txt`` or ``.ann`` path.

    A missing ``.ann`` gives a document without annotations.
    """
    del warnings  # nothing is dropped any more; the parameter keeps the readers' signature
    txt_path, ann_path = brat_paths(path)
    text = _decode(read_bytes(txt_path, MAX_FILE_BYTES), txt_path)
    ann = _decode(read_bytes(ann_path), ann_path) if ann_path.exists() else ""
    annotations: dict[str, Annotation] = {}
    comments: dict[str, str] = {}
    kept: list[str] = []
    discontinuous: dict[str, tuple[int, int, str, str]] = {}
    for number, line in enumerate(ann.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        match = _TEXT_BOUND.match(line)
        if match is None:
            note = _NOTE.match(line)
            if note is not None:
                comments[note.group(1)] = note.group(2)
            elif line.startswith("T"):
                raise InputError(f"line {number}: malformed text-bound annotation", ann_path)
            else:
                kept.append(line)
            continue
        tag_id, label, spans, shown_text = match.groups()
        fragments = [tuple(int(v) for v in f.split()) for f in spans.split(";")]
        if len(fragments) > 1:
            discontinuous[tag_id] = (fragments[0][0], fragments[0][1], spans, shown_text)
        start, end = fragments[0]
        if not 0 <= start <= end <= len(text):
            raise InputError(
                f"line {number}: {tag_id} offsets {start}-{end} do not fit the text (length {len(text)})",
                ann_path,
            )
        if tag_id in annotations:
            raise InputError(f"line {number}: duplicate id {tag_id}", ann_path)
        annotations[tag_id] = Annotation(
            tag_id, category_for(label, schema), label, start, end, text[start:end]
        )
    for tag_id, comment in comments.items():
        if tag_id in annotations:
            annotations[tag_id] = annotations[tag_id].replace(comment=comment)
    layout = {LAYOUT_KEY: BratLayout(text, tuple(kept), discontinuous)}
    origin = Origin(path=txt_path, format="brat", layout=layout)  # type: ignore[arg-type]
    document = Document(txt_path.stem, text, annotations.values(), origin)
    document.mark_pristine()
    return document


@dataclass(frozen=True)
class BratLayout:
    """What a ``.ann`` holds beyond text-bound annotations and their notes.

    Attributes
    ----------
    text: the note as read (the kept lines are written back only while it is unchanged).
    lines: relation, event, attribute, normalization, equivalence and other lines, as read.
    discontinuous: id -> (first fragment start, end, the whole span list and text as read).
    """

    text: str
    lines: tuple[str, ...]
    discontinuous: dict[str, tuple[int, int, str, str]] = field(default_factory=dict)


def _layout(document: Document) -> BratLayout | None:
    layout = document.origin.layout.get(LAYOUT_KEY)
    return layout if isinstance(layout, BratLayout) and layout.text == document.text else None


def document_to_brat(document: Document) -> tuple[bytes, bytes]:
    """The ``.txt`` and ``.ann`` bytes of a document.

    Ids of the form ``T<n>`` are kept; others get fresh ``T`` numbers.
    """
    layout = _layout(document)
    used = {a.id for a in document.annotations if _BRAT_ID.match(a.id)}
    numbers = [int(i[1:]) for i in used]
    next_number = max(numbers, default=0) + 1
    lines: list[str] = []
    notes: list[str] = []
    for annotation in document.sorted_annotations():
        brat_id = annotation.id
        if brat_id not in used or not _BRAT_ID.match(brat_id):
            brat_id = f"T{next_number}"
            next_number += 1
        shown = annotation.text.translate(_LINE_BREAKS)
        spans = f"{annotation.start} {annotation.end}"
        whole = layout.discontinuous.get(annotation.id) if layout is not None else None
        if whole is not None and whole[:2] == (annotation.start, annotation.end):
            spans, shown = whole[2], whole[3]
        lines.append(f"{brat_id}\t{annotation.type} {spans}\t{shown}")
        if annotation.comment:
            notes.append(
                f"#{len(notes) + 1}\tAnnotatorNotes {brat_id}\t{annotation.comment.translate(_LINE_BREAKS)}"
            )
    if layout is not None:
        lines.extend(_live_lines(layout.lines, {a.id for a in document.annotations if _BRAT_ID.match(a.id)}))
    ann = "".join(line + "\n" for line in lines + notes)
    return document.text.encode("utf-8"), ann.encode("utf-8")


def write_brat(document: Document, path: str | Path) -> None:
    """Save ``NAME.txt`` and ``NAME.ann`` (``path`` names either, or the stem), atomically each."""
    txt_path, ann_path = brat_paths(path)
    txt, ann = document_to_brat(document)
    atomic_write(txt_path, txt)
    atomic_write(ann_path, ann)


def _column(line: str, number: int) -> str:
    # The second column names the references; the third is free text (a note may say "T5").
    columns = line.split("\t")
    return columns[number] if len(columns) > number else ""


def _live_lines(lines: Sequence[str], present: set[str]) -> list[str]:
    """The kept lines whose references all still exist (a relation on a deleted tag would
    not load in brat; then neither would a note or attribute on that relation)."""
    alive = list(lines)
    while True:
        known = present | {line.split("\t", 1)[0] for line in alive}
        kept = [line for line in alive if set(_REFERENCE.findall(_column(line, 1))) <= known]
        if len(kept) == len(alive):
            return kept
        alive = kept


def brat_conf_for(documents: Sequence[Document], schema: Schema | None = None) -> str:
    """An ``annotation.conf`` declaring the documents' labels and kept relation/event types."""
    if schema is not None and not all(schema.has_type(a.type) for d in documents for a in d.annotations):
        schema = None  # declare the labels the documents use, not a tag set they do not follow
    if schema is None:
        by_category: dict[str, list[str]] = {}
        for document in documents:
            for annotation in document.annotations:
                names = by_category.setdefault(annotation.tag, [])
                if annotation.type not in names:
                    names.append(annotation.type)
        seen: set[str] = set()
        categories = []
        for category, names in by_category.items():
            fresh = [n for n in names if n not in seen]
            seen.update(fresh)
            if fresh:
                types = tuple(TypeDef(n, category, "", "#999999") for n in fresh)
                categories.append(Category(category, "#999999", types))
        schema = Schema("brat", "brat", tuple(categories))
    relations: list[str] = []
    events: list[str] = []
    for document in documents:
        layout = _layout(document)
        for line in layout.lines if layout is not None else ():
            kind, _, rest = line.partition("\t")
            label = rest.split(" ", 1)[0].split(":", 1)[0]
            target = relations if kind.startswith("R") else events if kind.startswith("E") else None
            if target is not None and label and label not in target:
                target.append(label)
    return schema_to_brat_conf(schema, relations, events)
