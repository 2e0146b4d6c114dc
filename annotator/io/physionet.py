"""The PhysioNet deid layout (Neamatullah et al. 2008): a records file and its PHI lists.

``id.text`` holds every note, each between ``START_OF_RECORD=P||||N||||`` and its newline and
``||||END_OF_RECORD`` (records separated by a blank line). PHI is listed apart, with
end-exclusive character offsets into each record's text:

* ``id-phi.phrase``: ``patient note start end type phrase`` per line (typed);
* ``id.deid`` (also deid.pl's ``*.phi`` output): a ``Patient P<TAB>Note N`` line per record,
  then ``start<TAB>start<TAB>end`` per PHI (type-blind).

A record becomes the document ``PPP-RR`` (patient, note; zero-padded), so a patient's notes
form a group as in every other folder the tool reads. PhysioNet's types map onto the i2b2 2014
schema (:data:`TO_I2B2`); the original type rides along in the ``physionet_type`` attribute,
so writing back gives the same lists. A type-blind list gives each span the type ``OTHER``
(``physionet_type="PHI"``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from annotator.core.annotation import Annotation
from annotator.core.atomic import atomic_write
from annotator.core.document import Document, Origin
from annotator.errors import InputError, UsageError, printable_path
from annotator.io.xmlsafe import read_bytes

TYPE_ATTRIBUTE = "physionet_type"
BLIND_TYPE = "PHI"
# PhysioNet type -> (i2b2 2014 category, type). Relatives' names are the patient's PHI (HIPAA
# names the relatives of the patient); i2b2 2014 tags them PATIENT.
TO_I2B2: dict[str, tuple[str, str]] = {
    "HCPName": ("NAME", "DOCTOR"),
    "PTName": ("NAME", "PATIENT"),
    "PTNameInitial": ("NAME", "PATIENT"),
    "RelativeProxyName": ("NAME", "PATIENT"),
    "Location": ("LOCATION", "LOCATION-OTHER"),
    "Date": ("DATE", "DATE"),
    "DateYear": ("DATE", "DATE"),
    "Age": ("AGE", "AGE"),
    "Phone": ("CONTACT", "PHONE"),
    "Other": ("OTHER", "OTHER"),
    BLIND_TYPE: ("OTHER", "OTHER"),
}
# i2b2 category -> PhysioNet type, for tags that did not come from a PhysioNet file.
_FROM_CATEGORY = {
    "NAME": "HCPName",
    "LOCATION": "Location",
    "DATE": "Date",
    "AGE": "Age",
    "CONTACT": "Phone",
}
_FROM_TYPE = {"PATIENT": "PTName", "DOCTOR": "HCPName"}

# [0-9], not \d: \d and str.isdigit also take other scripts' digits and superscripts, which
# deid.pl never writes and which int() partly refuses.
_RECORD_START = re.compile(r"START_OF_RECORD=([0-9]+)\|\|\|\|([0-9]+)\|\|\|\|\n")
_RECORD_MARK = "START_OF_RECORD="
_RECORD_END = "||||END_OF_RECORD"
_BLIND_HEADER = re.compile(r"Patient\s+([0-9]+)\s+Note\s+([0-9]+)\s*$")
_DIGITS = re.compile(r"[0-9]+")
_TYPE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,99}")
# Patient and note numbers and offsets of a real corpus have a few digits; a longer one is a
# damaged file, and past 4,300 digits int() refuses it outright.
MAX_DIGITS = 12
_YEAR = re.compile(r"'?\d{2}(?:\d{2})?")
PHRASE_SUFFIX = "-phi.phrase"
TEXT_SUFFIX = ".text"


@dataclass(frozen=True)
class PhysioNetFiles:
    """The files of one PhysioNet corpus: the records and, optionally, a PHI list."""

    text: Path
    phrases: Path | None = None
    blind: Path | None = None

    @property
    def inputs(self) -> list[Path]:
        return [p for p in (self.text, self.phrases, self.blind) if p is not None]


def find_files(path: str | Path) -> PhysioNetFiles:
    """The records file and its PHI list for a folder or a ``*.text`` file.

    Next to ``NAME.text``: ``NAME-phi.phrase`` (typed) is used when present, else ``NAME.deid``
    (type-blind); with neither, the notes come without tags.
    """
    path = Path(path)
    if path.is_dir():
        texts = sorted(p for p in path.glob(f"*{TEXT_SUFFIX}") if p.is_file())
        if len(texts) != 1:
            raise InputError(
                f"a PhysioNet folder holds one *{TEXT_SUFFIX} records file ({len(texts)} found)", path
            )
        path = texts[0]
    if path.suffix != TEXT_SUFFIX:
        raise InputError(f"a PhysioNet records file is named *{TEXT_SUFFIX}", path)
    stem = path.with_suffix("")
    phrases = stem.parent / (stem.name + PHRASE_SUFFIX)
    blind = stem.with_suffix(".deid")
    if phrases.is_file():
        return PhysioNetFiles(path, phrases=phrases)
    return PhysioNetFiles(path, blind=blind if blind.is_file() else None)


def is_physionet_records(head: bytes) -> bool:
    """Whether the first bytes of a file are those of a PhysioNet records file."""
    return head.lstrip().startswith(b"START_OF_RECORD=")


def document_id(patient: int, note: int) -> str:
    return f"{patient:03d}-{note:02d}"


def parse_records(content: str, path: Path | None = None) -> dict[tuple[int, int], str]:
    """Record texts by (patient, note), in file order."""
    records: dict[tuple[int, int], str] = {}
    position = 0
    while True:
        match = _RECORD_START.search(content, position)
        if match is None:
            if content[position:].strip():
                _refuse_stray_text(content, position, len(content), path)
                raise InputError(f"text after the last record (character {position}) is not a record", path)
            return records
        if content[position : match.start()].strip():
            _refuse_stray_text(content, position, match.start(), path)
            raise InputError(f"text outside a record before character {match.start()}", path)
        end = content.find(_RECORD_END, match.end())
        if end < 0 or _RECORD_START.search(content, match.end(), end):
            raise InputError(
                f"record {match[1]}/{match[2]} has no ||||END_OF_RECORD (character {match.start()})", path
            )
        key = (
            _record_number(match[1], content, match.start(), path),
            _record_number(match[2], content, match.start(), path),
        )
        if key in records:
            raise InputError(f"record {key[0]}/{key[1]} appears twice", path)
        records[key] = content[match.end() : end]
        position = end + len(_RECORD_END)


def _refuse_stray_text(content: str, start: int, end: int, path: Path | None) -> None:
    """Name the line of a record header that is not one (other digits, a missing bar)."""
    mark = content.find(_RECORD_MARK, start, end)
    if mark >= 0:
        line = content.count("\n", 0, mark) + 1
        raise InputError(
            f"line {line}: a record header that is not START_OF_RECORD=P||||N|||| "
            "(P and N in ASCII digits, then a line break)",
            path,
        )


def _record_number(digits: str, content: str, start: int, path: Path | None) -> int:
    # The line is counted only for a message: counting it for every record took quadratic time.
    if len(digits.lstrip("0")) > MAX_DIGITS:
        _bounded(digits, content.count("\n", 0, start) + 1, path)
    return int(digits.lstrip("0") or "0")


def _bounded(digits: str, line: int, path: Path | None) -> int:
    """The value of an ASCII number of at most :data:`MAX_DIGITS` significant digits."""
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise InputError(f"line {line}: a number of {len(digits):,} digits (at most {MAX_DIGITS})", path)
    return int(digits.lstrip("0") or "0")  # int() refuses over 4,300 digits, zeros included


def _numbers(parts: Sequence[str], line: int, path: Path | None, expected: str) -> list[int]:
    if not all(_DIGITS.fullmatch(part) for part in parts):
        raise InputError(f"line {line}: expected {expected}, numbers in ASCII digits", path)
    return [_bounded(part, line, path) for part in parts]


def _decode(path: Path) -> str:
    return _decode_crlf(path)[0]


def _decode_crlf(path: Path) -> tuple[str, bool]:
    """The text with CRLF read as LF, and whether the file had CRLF line ends."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text (byte {error.start})", path) from None
    return text.replace("\r\n", "\n"), "\r\n" in text


def parse_phrases(content: str, path: Path | None = None) -> list[tuple[int, int, int, int, str, str]]:
    """``(patient, note, start, end, type, phrase)`` rows of an ``id-phi.phrase`` list."""
    rows = []
    listed: dict[tuple[int, int, int, int], int] = {}
    for number, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        parts = line.split(" ", 5)
        expected = "'patient note start end type phrase'"
        if len(parts) < 5:
            raise InputError(f"line {number}: expected {expected}", path)
        patient, note, start, end = _numbers(parts[:4], number, path, expected)
        _refuse_repeat(listed, (patient, note, start, end), number, path)
        if not _TYPE_NAME.fullmatch(parts[4]):
            # The type rides along as an attribute into every format written from the notes.
            raise InputError(f"line {number}: the type is not a name of ASCII letters and digits", path)
        phrase = parts[5] if len(parts) > 5 else ""
        rows.append((patient, note, start, end, parts[4], phrase))
    return rows


def _refuse_repeat(
    listed: dict[tuple[int, int, int, int], int], key: tuple[int, int, int, int], line: int, path: Path | None
) -> None:
    # The same span twice (with one type or two) would become two tags on one phrase, counted
    # twice by every score; the PhysioNet lists never repeat a span.
    if key in listed:
        raise InputError(
            f"line {line}: record {key[0]}/{key[1]} offsets {key[2]}-{key[3]} are listed twice "
            f"(first on line {listed[key]})",
            path,
        )
    listed[key] = line


def parse_blind(content: str, path: Path | None = None) -> list[tuple[int, int, int, int]]:
    """``(patient, note, start, end)`` rows of a type-blind ``id.deid`` / ``*.phi`` list."""
    rows = []
    listed: dict[tuple[int, int, int, int], int] = {}
    current: tuple[int, int] | None = None
    expected = "'Patient P Note N' or 'start start end'"
    for number, line in enumerate(content.split("\n"), start=1):
        if not line.strip():
            continue
        header = _BLIND_HEADER.match(line.strip())
        if header is not None:
            current = (_bounded(header[1], number, path), _bounded(header[2], number, path))
            continue
        parts = line.split()
        if len(parts) != 3 or current is None:
            raise InputError(f"line {number}: expected {expected}", path)
        _, start, end = _numbers(parts, number, path, expected)
        _refuse_repeat(listed, (*current, start, end), number, path)
        rows.append((*current, start, end))
    return rows


def read_physionet(path: str | Path) -> list[Document]:
    """The notes of a PhysioNet folder or records file, with the PHI of its list.

    Raises
    ------
    InputError
        A malformed file, a PHI row naming no record, offsets outside the text, or a phrase
        that is not the text at its offsets.
    """
    files = find_files(path)
    content, crlf = _decode_crlf(files.text)
    if crlf and files.phrases is None and files.blind is not None:
        # Offsets counted with the CR (deid.pl on the file as it is) or without (a corpus
        # checked out on Windows): a phrase list tells which, a type-blind one cannot, and a
        # guess would put every tag after a line break on the wrong characters.
        raise InputError(
            f"the records have CRLF line ends and {printable_path(files.blind.name)} has no phrases "
            "to tell whether its offsets count each CR (if they do not, save the records with LF "
            "line ends)",
            files.text,
        )
    records = parse_records(content, files.text)
    if not records:
        raise InputError("holds no record (START_OF_RECORD=P||||N|||| ... ||||END_OF_RECORD)", files.text)
    tagged: dict[tuple[int, int], list[tuple[int, int, str, str | None]]] = {key: [] for key in records}
    source = files.phrases or files.blind
    if files.phrases is not None:
        for patient, note, start, end, kind, phrase in parse_phrases(_decode(files.phrases), files.phrases):
            _tags_of_record(tagged, files.phrases, patient, note).append((start, end, kind, phrase))
    elif files.blind is not None:
        for patient, note, start, end in parse_blind(_decode(files.blind), files.blind):
            _tags_of_record(tagged, files.blind, patient, note).append((start, end, BLIND_TYPE, None))
    documents = []
    for (patient, note), text in records.items():
        doc_id = document_id(patient, note)
        document = Document(doc_id, text, origin=Origin(path=files.text, format="physionet"))
        for start, end, kind, listed in tagged[(patient, note)]:
            if not 0 <= start < end <= len(text):
                raise InputError(
                    f"record {patient}/{note}: PHI offsets {start}-{end} outside its text ({len(text)} characters)",
                    source,
                )
            if listed is not None and text[start:end] != listed:
                raise InputError(
                    f"record {patient}/{note}: the phrase at {start}-{end} is not the text there", source
                )
            category, type_name = TO_I2B2.get(kind, ("OTHER", "OTHER"))
            document.add(
                Annotation(
                    id=document.new_id(),
                    tag=category,
                    type=type_name,
                    start=start,
                    end=end,
                    text=text[start:end],
                    extra=((TYPE_ATTRIBUTE, kind),),
                )
            )
        document.mark_pristine()
        documents.append(document)
    return documents


def _tags_of_record(
    tagged: dict[tuple[int, int], list[tuple[int, int, str, str | None]]], path: Path, patient: int, note: int
) -> list[tuple[int, int, str, str | None]]:
    try:
        return tagged[(patient, note)]
    except KeyError:
        raise InputError(
            f"PHI listed for record {patient}/{note}, which the records file lacks", path
        ) from None


def physionet_type(annotation: Annotation) -> str:
    """The PhysioNet type of a tag: the one it was read with, else one mapped from i2b2."""
    for key, value in annotation.extra:
        if key == TYPE_ATTRIBUTE and value in TO_I2B2 and value != BLIND_TYPE:
            return value
    if annotation.type in _FROM_TYPE:
        return _FROM_TYPE[annotation.type]
    if annotation.type == "DATE" and _YEAR.fullmatch(annotation.text):
        return "DateYear"
    return _FROM_CATEGORY.get(annotation.tag, "Other")


def coarsened_types(documents: Sequence[Document]) -> int:
    """How many tags the PhysioNet lists would name by a coarser type than their own (a
    HOSPITAL as Location, an IDNUM as Other): read back, they are that coarser type."""
    return sum(
        TO_I2B2[physionet_type(a)] != (a.tag, a.type)
        for document in documents
        for a in document.annotations
        if not a.pending
    )


def record_key(document: Document) -> tuple[int, int]:
    """(patient, note) numbers of a document named ``P-N`` with numbers."""
    patient, note = document.patient_id, document.record
    numbers = (patient, document.doc_id.rsplit("-", 1)[-1])
    if not all(_DIGITS.fullmatch(n) and len(n.lstrip("0")) <= MAX_DIGITS for n in numbers):
        raise UsageError(
            f"document {document.doc_id}: the PhysioNet layout numbers patients and notes; "
            "name documents PPP-RR with digits",
            document.origin.path,
        )
    return int(patient), note


def physionet_texts(documents: Sequence[Document]) -> tuple[str, str, str]:
    """The records file, the typed phrase list and the type-blind list of documents."""
    keyed = sorted(((record_key(d), d) for d in documents), key=lambda item: item[0])
    seen: set[tuple[int, int]] = set()
    records, phrases, blind = [], [], []
    for key, document in keyed:
        if key in seen:
            raise UsageError(f"two documents are record {key[0]}/{key[1]}")
        if _RECORD_END in document.text or _RECORD_START.search(document.text):
            raise UsageError(
                f"document {document.doc_id}: its text holds a record marker", document.origin.path
            )
        if "\r\n" in document.text:
            # The reader takes CRLF for LF (a corpus checked out on Windows): every offset after
            # one would shift, silently so in the type-blind list.
            raise UsageError(
                f"document {document.doc_id}: its text has CRLF line ends, which the PhysioNet "
                "layout reads as one character",
                document.origin.path,
            )
        seen.add(key)
        records.append(f"START_OF_RECORD={key[0]}||||{key[1]}||||\n{document.text}{_RECORD_END}\n\n")
        blind.append(f"Patient {key[0]}  Note {key[1]}\n")
        for annotation in sorted(document.annotations, key=lambda a: (a.start, a.end)):
            if annotation.pending:
                continue
            if "\n" in annotation.text:
                raise UsageError(
                    f"document {document.doc_id}: tag {annotation.id} runs across a line break, "
                    "which a PhysioNet phrase list cannot hold",
                    document.origin.path,
                )
            phrases.append(
                f"{key[0]} {key[1]} {annotation.start} {annotation.end} "
                f"{physionet_type(annotation)} {annotation.text}\n"
            )
            blind.append(f"{annotation.start}  {annotation.start}  {annotation.end}\n")
    return "".join(records), "".join(phrases), "".join(blind)


def write_physionet(documents: Sequence[Document], out: str | Path) -> list[Path]:
    """Write ``NAME.text``, ``NAME-phi.phrase`` and ``NAME.deid`` (``out``: ``NAME.text`` or a folder,
    where ``id.text`` and its lists are written). Pending suggestions are not PHI yet: left out."""
    targets = output_files(out)
    for target, content in zip(targets, physionet_texts(documents), strict=True):
        atomic_write(target, content.encode("utf-8"))
    return targets


def output_files(out: str | Path) -> list[Path]:
    """The three files :func:`write_physionet` writes for ``out``."""
    out = Path(out)
    text = out if out.suffix == TEXT_SUFFIX else out / f"id{TEXT_SUFFIX}"
    stem = text.with_suffix("")
    return [text, stem.parent / (stem.name + PHRASE_SUFFIX), stem.with_suffix(".deid")]
