"""Notes exported from an EHR as a table: CSV (or TSV) or JSON Lines, one note per row.

Sites start from such exports. The columns are named by the caller (:class:`NoteColumns`):
the note's text (required), and optionally its id, its patient and its date. Each note becomes
the document ``PPP-RR``: patients are numbered 001, 002 ... in order of first appearance (a
patient id from the EHR, often a record number, never becomes a file name), and each
patient's notes 01, 02 ... by date, then by row. :func:`note_index` gives the table that
maps each document back to its row, note id, patient id and date; the importer writes it
beside the notes (it holds identifiers: it stays with the project, like the notes). With the
columns of the patient's names (:attr:`NoteColumns.names`), :func:`patient_site_list` gives
the site list (:mod:`annotator.io.site_lists`) that makes each patient's names PHI in that
patient's notes.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from annotator.core.document import Document, Origin
from annotator.errors import InputError
from annotator.io.csv_cells import inert_cell
from annotator.io.jsonl import RepeatedKeyError, first_non_xml_char, unique_keys
from annotator.io.xmlsafe import read_bytes

INDEX_NAME = "notes-index.csv"
SITE_LIST_NAME = "site-lists.tsv"
TABLE_SUFFIXES = (".csv", ".tsv")
JSON_LINES_SUFFIXES = (".jsonl", ".ndjson", ".json")
# A clinical note far longer than any real one is a broken export (an unclosed quote).
_FIELD_LIMIT = 64 * 1024 * 1024
# A table holds many notes: an EHR export of 100,000 notes is a few hundred megabytes. It is
# read whole (about three times its size in memory); a larger export is split or sampled.
TABLE_LIMIT = 1024 * 1024 * 1024
_TABLE_ADVICE = " (split the export, or export only the notes to annotate)"


@dataclass(frozen=True)
class NoteColumns:
    """Which columns (CSV header names, JSON keys) hold what."""

    text: str = "text"
    note_id: str | None = None
    patient: str | None = None
    date: str | None = None
    #: columns holding the patient's names (first, last, or the whole name)
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class NoteRow:
    """One note of the table and where it came from."""

    row: int
    text: str
    note_id: str
    patient: str
    date: str
    names: tuple[str, ...] = ()


def _decode(data: bytes, path: Path) -> str:
    if _looks_utf16(data[:_SNIFF]):
        # Excel's "Unicode text" export: without a BOM it even decodes as UTF-8 (a NUL after
        # every ASCII letter) and fails later with a misleading row count.
        raise InputError("UTF-16 text; export the table as UTF-8", path)
    try:
        # Every byte-order mark: a second tool re-saving the file may add its own.
        return data.decode("utf-8-sig").lstrip("\ufeff")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start}); export the table as UTF-8", path) from None


_SNIFF = 512


def _looks_utf16(head: bytes) -> bool:
    """A UTF-16 byte-order mark, or a NUL in most of the first pairs of bytes (ASCII as UTF-16)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    pairs = len(head) // 2
    return pairs >= 2 and sum(b"\x00" in head[i : i + 2] for i in range(0, 2 * pairs, 2)) > pairs * 3 // 4


_QUOTED = re.compile(r'"[^"]*"')
_LINE_BREAK = re.compile(r"\r\n?|\n")


def _delimiter(content: str, path: Path) -> str:
    """A tab for .tsv; for .csv a comma, unless the header row holds none but a semicolon, a
    tab or a bar (a spreadsheet set to a European locale writes ``note_id;mrn;text``)."""
    if path.suffix.lower() == ".tsv":
        return "\t"
    # Marks inside a quoted column name ("text, as written") separate nothing; a line may end
    # with a carriage return alone (old Mac exports), else the "header" is the whole file.
    header = _QUOTED.sub("", _LINE_BREAK.split(content, maxsplit=1)[0])
    if "," in header:
        return ","
    return next((mark for mark in (";", "\t", "|") if mark in header), ",")


def _csv_rows(content: str, path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    delimiter = _delimiter(content, path)
    csv.field_size_limit(_FIELD_LIMIT)
    # strict: a lenient reader runs an unclosed quote on to the end of the file and returns
    # every row after it as part of one note, without a word.
    reader = csv.reader(io.StringIO(content, newline=""), delimiter=delimiter, strict=True)
    first_line = 1
    try:
        header = next(reader, None)
        if header is None:
            raise InputError("the table is empty (no header row)", path)
        if not any(cell.strip() for cell in header):
            # Else every row after it is refused for holding more fields than its none.
            raise InputError("the first row is empty (it must be the header naming the columns)", path)
        _refuse_repeated_columns(header, path)
        rows = []
        # Rows as a spreadsheet numbers them (the header is row 1), not lines: a note of ten
        # lines is one row.
        number = 1
        while True:
            first_line = reader.line_num + 1
            record = next(reader, None)
            if record is None:
                break
            number += 1
            if not any(cell.strip() for cell in record):
                continue
            if len(record) != len(header):
                raise InputError(
                    f"row {number} (from line {first_line}): {len(record)} fields where the header has "
                    f"{len(header)}",
                    path,
                )
            rows.append((number, dict(zip(header, record, strict=True))))
    except csv.Error as error:
        if "unexpected end of data" in str(error):
            raise InputError(
                f"row starting on line {first_line}: a quoted field is never closed "
                "(every line after its opening quote would be one note)",
                path,
            ) from None
        raise InputError(
            f"not a valid table in the row starting on line {first_line} ({error})", path
        ) from None
    return header, rows


def _refuse_repeated_columns(header: list[str], path: Path) -> None:
    # A dict keeps the last of two same-named columns: the note would silently be the wrong one.
    seen: dict[str, int] = {}
    for number, name in enumerate(header, start=1):
        if name.strip() and name in seen:
            if not _looks_like_header(header):
                raise InputError(
                    f"columns {seen[name]} and {number} of the first row are the same{_NO_HEADER}", path
                )
            raise InputError(f"the header names the column {name!r} twice", path)
        seen[name] = number


# A column name is a short name of a few words. A first row with any other cell is no header
# but a note (an export without a header row): its cells are PHI and never printed.
_COLUMN_NAME = re.compile(r"[^\W\d][\w.#-]*(?: [\w.#()/-]+){0,2}")
_COLUMN_NAME_LIMIT = 40
_NO_HEADER = "; it does not look like a header row naming the columns (a table needs one)"


def _looks_like_header(header: Sequence[str]) -> bool:
    """Whether every cell of a first row could be a column name (may be shown in a message)."""
    return all(
        not cell.strip() or (len(cell) <= _COLUMN_NAME_LIMIT and _COLUMN_NAME.fullmatch(cell.strip()))
        for cell in header
    )


def _json_rows(content: str, path: Path) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    rows = []
    keys: dict[str, None] = {}
    for number, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, object_pairs_hook=unique_keys)
        except RepeatedKeyError as error:
            # json.loads keeps the last of two same keys, as a dict would a repeated column.
            raise InputError(f"line {number}: the key {error.args[0]!r} appears twice", path) from None
        except (ValueError, RecursionError):
            # ValueError also covers an integer of more than 4,300 digits, which int() refuses.
            raise InputError(f"line {number}: not a JSON object", path) from None
        if not isinstance(record, dict):
            raise InputError(f"line {number}: not a JSON object", path)
        keys.update(dict.fromkeys(record))
        rows.append((number, record))
    return list(keys), rows


def read_note_rows(path: str | Path, columns: NoteColumns) -> list[NoteRow]:
    """The notes of a CSV/TSV or JSON Lines table, checked: every named column exists."""
    path = Path(path)
    try:
        status = path.stat()
    except OSError:
        return _read_note_rows(path, columns)  # read_bytes says what is wrong
    # An import reads the table for its notes, its index and its names: parse it once.
    return list(_cached_note_rows(path.resolve(), columns, status.st_size, status.st_mtime_ns))


@lru_cache(maxsize=1)
def _cached_note_rows(path: Path, columns: NoteColumns, _size: int, _mtime_ns: int) -> tuple[NoteRow, ...]:
    return tuple(_read_note_rows(path, columns))


def _read_note_rows(path: Path, columns: NoteColumns) -> list[NoteRow]:
    if path.suffix.lower() not in (*TABLE_SUFFIXES, *JSON_LINES_SUFFIXES):
        raise InputError(
            "not a note table by its name: an EHR export is read from a .csv, .tsv or JSON Lines "
            f"({', '.join(JSON_LINES_SUFFIXES)}) file",
            path,
        )
    try:
        data = read_bytes(path, TABLE_LIMIT, holding="a note table")
    except InputError as error:
        if "-byte limit" in error.message:
            raise InputError(error.message + _TABLE_ADVICE, path) from None
        raise
    content = _decode(data, path)
    del data
    if path.suffix.lower() in TABLE_SUFFIXES:
        header, raw = _csv_rows(content, path)
    else:
        header, raw = _json_rows(content, path)
    columns = _as_in_header(columns, header, path)
    notes = []
    first_row_of_id: dict[str, int] = {}
    for number, record in raw:
        text = record.get(columns.text)
        if not isinstance(text, str):
            raise InputError(f"row {number}: the {columns.text!r} value is not text", path)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        bad = first_non_xml_char(text)
        if bad is not None:
            raise InputError(
                f"row {number}: character U+{bad[1]:04X} at offset {bad[0]} of the note cannot be stored in XML",
                path,
            )
        note_id = _cell(record, columns.note_id)
        if note_id and note_id in first_row_of_id:
            # The id itself is left out: an EHR note id is an identifier.
            raise InputError(f"row {number}: the same note id as row {first_row_of_id[note_id]}", path)
        first_row_of_id.setdefault(note_id, number)
        notes.append(
            NoteRow(
                row=number,
                text=text,
                note_id=note_id,
                patient=_cell(record, columns.patient),
                date=_cell(record, columns.date),
                names=tuple(_cell(record, column) for column in columns.names),
            )
        )
    if not notes:
        raise InputError("the table holds no note", path)
    return notes


def _as_in_header(columns: NoteColumns, header: list[str], path: Path) -> NoteColumns:
    """``columns`` as the header spells them: a name that is no column is the one column that
    differs from it only in case (MIMIC-III's ``TEXT`` for the default ``text``), else an error."""

    def find(name: str) -> str:
        if name in header:
            return name
        alike = [column for column in header if column.casefold() == name.casefold()]
        if len(alike) == 1:
            return alike[0]
        if not _looks_like_header(header):
            raise InputError(f"no column {name!r}{_NO_HEADER}", path)
        known = ", ".join(header[:12]) or "none"
        raise InputError(f"no column {name!r} (columns: {known})", path)

    def maybe(name: str | None) -> str | None:
        return None if name is None else find(name)

    return replace(
        columns,
        text=find(columns.text),
        note_id=maybe(columns.note_id),
        patient=maybe(columns.patient),
        date=maybe(columns.date),
        names=tuple(find(name) for name in columns.names),
    )


def _cell(record: dict[str, Any], column: str | None) -> str:
    if column is None:
        return ""
    value = record.get(column)
    return "" if value is None else str(value).strip()


def number_notes(rows: Sequence[NoteRow]) -> list[tuple[str, NoteRow]]:
    """``(PPP-RR, row)`` for every row: patients by first appearance, their notes by date then row.

    Without a patient column every note is a patient of its own.
    """
    patients: dict[str, list[NoteRow]] = {}
    for index, row in enumerate(rows):
        patients.setdefault(row.patient or f"\0row{index}", []).append(row)
    width = max(3, len(str(len(patients))))
    numbered = []
    for number, notes in enumerate(patients.values(), start=1):
        ordered = sorted(notes, key=lambda r: (_date_key(r.date), r.row))
        record_width = max(2, len(str(len(ordered))))
        for record, row in enumerate(ordered, start=1):
            numbered.append((f"{number:0{width}d}-{record:0{record_width}d}", row))
    return numbered


@lru_cache(maxsize=65536)
def _date_key(value: str) -> str:
    """A sortable form of a date cell: ISO when it reads as a date, else the cell itself."""
    if not value:
        return ""
    from dateutil import parser

    try:
        return parser.parse(value).isoformat()
    except (ValueError, OverflowError):
        return value


def read_note_table(path: str | Path, columns: NoteColumns) -> list[Document]:
    """Documents ``PPP-RR`` of a note table (no tags), in document-id order."""
    path = Path(path)
    return [
        Document(doc_id, row.text, origin=Origin(path=path, format="table"))
        for doc_id, row in sorted(number_notes(read_note_rows(path, columns)), key=lambda item: item[0])
    ]


def note_index(path: str | Path, columns: NoteColumns) -> str:
    """The CSV that maps each document id to its row, note id, patient id and date.

    The ids and dates are the export's own text; one that starts like a formula
    (``=HYPERLINK(...)``) is written with an apostrophe before it, so a supervisor opening the
    index in a spreadsheet sees it and nothing runs.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["document", "row", "note_id", "patient_id", "date"])
    for doc_id, row in sorted(number_notes(read_note_rows(path, columns)), key=lambda item: item[0]):
        writer.writerow(
            [doc_id, row.row, *(inert_cell(cell) for cell in (row.note_id, row.patient, row.date))]
        )
    return buffer.getvalue()


_NAME_WORD = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:['’-][^\W\d_]+)*")


def patient_site_list(path: str | Path, columns: NoteColumns) -> str:
    """``PATIENT<tab>name<tab>PPP`` lines: each patient's names as the name columns hold them,
    and each word of them ("MASCI, GERRY" gives "MASCI, GERRY", "MASCI" and "GERRY"), for
    that patient's notes only."""
    lines = ["# Each patient's names from the EHR export, PHI in that patient's notes (site lists)."]
    seen: set[tuple[str, str]] = set()
    for doc_id, row in sorted(number_notes(read_note_rows(path, columns)), key=lambda item: item[0]):
        patient = doc_id.split("-")[0]
        for cell in row.names:
            for phrase in [" ".join(cell.split()), *_NAME_WORD.findall(cell)]:
                if sum(c.isalpha() for c in phrase) >= 2 and (patient, phrase.lower()) not in seen:
                    seen.add((patient, phrase.lower()))
                    lines.append(f"PATIENT\t{phrase}\t{patient}")
    return "\n".join(lines) + "\n"
