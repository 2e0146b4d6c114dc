"""brat standoff: the note in ``NAME.txt``, its annotations in ``NAME.ann``.

``T1<TAB>DOCTOR 10 15<TAB>Smith``: the label is our TYPE; its category comes from the
schema. Offsets are code points of the ``.txt`` file as it is on disk (no line-end
translation). Comments travel as ``#`` AnnotatorNotes lines. Discontinuous spans
(``10 15;20 25``) keep their first fragment, with a warning; relations, events and other
lines are ignored, with a warning.
"""

from __future__ import annotations

import re
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin
from annotator.core.schema import Schema
from annotator.errors import InputError
from annotator.io.inline2006 import category_for
from annotator.io.xmlsafe import MAX_FILE_BYTES, read_bytes

_TEXT_BOUND = re.compile(r"^(T\d+)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t?(.*)$")
_NOTE = re.compile(r"^#\d+\tAnnotatorNotes (T\d+)\t?(.*)$")
_BRAT_ID = re.compile(r"^T(\d+)$")
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
    notes = warnings if warnings is not None else []
    txt_path, ann_path = brat_paths(path)
    text = _decode(read_bytes(txt_path, MAX_FILE_BYTES), txt_path)
    ann = _decode(read_bytes(ann_path), ann_path) if ann_path.exists() else ""
    annotations: dict[str, Annotation] = {}
    comments: dict[str, str] = {}
    ignored = 0
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
                ignored += 1
            continue
        tag_id, label, spans, _shown = match.groups()
        fragments = [tuple(int(v) for v in f.split()) for f in spans.split(";")]
        if len(fragments) > 1:
            notes.append(f"{ann_path}: {tag_id} is discontinuous; only its first fragment is kept")
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
    if ignored:
        notes.append(f"{ann_path}: {ignored} relation, event, attribute or other line(s) ignored")
    for tag_id, comment in comments.items():
        if tag_id in annotations:
            annotations[tag_id] = annotations[tag_id].replace(comment=comment)
    document = Document(txt_path.stem, text, annotations.values(), Origin(path=txt_path, format="brat"))
    document.mark_pristine()
    return document


def document_to_brat(document: Document) -> tuple[bytes, bytes]:
    """The ``.txt`` and ``.ann`` bytes of a document.

    Ids of the form ``T<n>`` are kept; others get fresh ``T`` numbers.
    """
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
        lines.append(f"{brat_id}\t{annotation.type} {annotation.start} {annotation.end}\t{shown}")
        if annotation.comment:
            notes.append(
                f"#{len(notes) + 1}\tAnnotatorNotes {brat_id}\t{annotation.comment.translate(_LINE_BREAKS)}"
            )
    ann = "".join(line + "\n" for line in lines + notes)
    return document.text.encode("utf-8"), ann.encode("utf-8")


def write_brat(document: Document, path: str | Path) -> None:
    """Save ``NAME.txt`` and ``NAME.ann`` (``path`` names either, or the stem), atomically each."""
    txt_path, ann_path = brat_paths(path)
    txt, ann = document_to_brat(document)
    atomic_write(txt_path, txt)
    atomic_write(ann_path, ann)
