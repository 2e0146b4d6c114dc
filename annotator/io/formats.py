"""All file formats behind one interface: detect, read (file or folder), write.

Per-document formats (``i2b2``, ``mae``, ``brat``) write one file (or pair) per document
into a folder; corpus formats (``inline2006``, ``jsonl``, ``conll``) write one file. Each
format says what it holds beyond typed spans (:mod:`annotator.io.capacity`); a format is
added by one entry in :data:`FORMATS` (and, if its files can be told by their content, a
line in :func:`file_format`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from annotator.core.atomic import atomic_write
from annotator.core.brat_conf import CONF_NAME
from annotator.core.document import Document
from annotator.core.guidelines import I2B2_2014, SAFE_HARBOR
from annotator.core.project import PROJECT_FILE, Project
from annotator.core.schema import Schema
from annotator.core.task import task_file_name, task_to_dtd
from annotator.errors import InputError, UsageError, printable_path
from annotator.io.brat import brat_paths, read_brat, write_brat
from annotator.io.brat_conf_writer import brat_conf_for, covers
from annotator.io.capacity import EVERYTHING, Kind
from annotator.io.conll import write_conll
from annotator.io.corpus import is_document_file
from annotator.io.i2b2 import parse_i2b2_raw, read_i2b2, refuse_unread_tags, write_i2b2
from annotator.io.inline2006 import read_inline2006, write_inline2006
from annotator.io.jsonl import read_jsonl, write_jsonl
from annotator.io.mae import fill_task_defaults, parse_mae, write_mae
from annotator.io.mae_task_writer import root_of, task_for, task_name
from annotator.io.notetable import TABLE_SUFFIXES, NoteColumns, read_note_table
from annotator.io.outputs import check_file_name, file_in_folder, same_file_names
from annotator.io.physionet import TYPE_ATTRIBUTE as PHYSIONET_TYPE
from annotator.io.physionet import (
    coarsened_types,
    find_files,
    is_physionet_records,
    read_physionet,
    write_physionet,
)
from annotator.io.physionet import output_files as physionet_output_files
from annotator.io.xmlsafe import read_bytes

Reader = Callable[[Path, Schema | None, list[str]], list[Document]]


@dataclass(frozen=True)
class Format:
    """One file format.

    Attributes
    ----------
    name: what ``--from`` / ``--to`` take.
    suffix: the file suffix written.
    per_document: one file per document (written into a folder) or one file for all.
    read: ``(path, schema, warnings) -> documents``; None for export-only formats.
    write_one: saves one document to a path (per-document formats).
    write_all: saves all documents to one path (corpus formats).
    holds: what the format holds beyond typed spans; a conversion to it that would lose
        another kind is refused unless that kind is let go.
    carries: attributes the format keeps although it holds no others (PhysioNet's type).
    coarsened: how many tags of the documents the format would name by a coarser type
        (counted as :attr:`Kind.TYPES`); None for formats that keep every type.
    """

    name: str
    suffix: str
    per_document: bool
    description: str
    read: Reader | None = None
    write_one: Callable[[Document, Path], None] | None = None
    write_all: Callable[[list[Document], Path], None] | None = None
    holds: frozenset[Kind] = EVERYTHING
    carries: frozenset[str] = frozenset()
    coarsened: Callable[[Sequence[Document]], int] | None = None


def _read_i2b2(path: Path, _schema: Schema | None, _warnings: list[str]) -> list[Document]:
    return [read_i2b2(path)]


def _read_mae(path: Path, schema: Schema | None, warnings: list[str]) -> list[Document]:
    data = read_bytes(path)
    # The MAE reader takes the first TAGS' direct children: refuse what it would drop (a
    # name left out of the conversion is a name left in every copy made from it).
    refuse_unread_tags(parse_i2b2_raw(data, path), path)
    document = parse_mae(data, path, warnings=warnings)
    if schema is not None and schema.task is not None:
        # An attribute a tag leaves out has the task's default, for MAE and MedTator alike.
        fill_task_defaults(document, schema.task)
    return [document]


def _write_i2b2(document: Document, path: Path) -> None:
    # Converting to i2b2 means i2b2, even for a document read from a MAE file.
    write_i2b2(document, path, native=False)


def _read_brat(path: Path, schema: Schema | None, warnings: list[str]) -> list[Document]:
    return [read_brat(path, schema, warnings)]


def _read_inline(path: Path, schema: Schema | None, warnings: list[str]) -> list[Document]:
    return read_inline2006(path, schema, warnings)


def _read_jsonl(path: Path, schema: Schema | None, _warnings: list[str]) -> list[Document]:
    return read_jsonl(path, schema)


def _read_physionet(path: Path, _schema: Schema | None, _warnings: list[str]) -> list[Document]:
    return read_physionet(path)


def _write_physionet(documents: list[Document], out: Path) -> None:
    write_physionet(documents, out)


def _read_table(path: Path, _schema: Schema | None, _warnings: list[str]) -> list[Document]:
    return read_note_table(path, NoteColumns())


def _write_project_note(document: Document, path: Path) -> None:
    write_i2b2(document, path, native=False)


_BRAT_HOLDS = EVERYTHING - {Kind.DOCUMENT_TAGS, Kind.LINKS, Kind.ELEMENTS}
_INLINE_HOLDS = frozenset(
    {Kind.COMMENTS, Kind.ATTRIBUTES, Kind.NOTES, Kind.PROVENANCE, Kind.SUGGESTIONS, Kind.DISCONTINUOUS}
)

FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("i2b2", ".xml", True, "i2b2 2014 standoff XML", _read_i2b2, _write_i2b2),
        Format("mae", ".xml", True, "MAE 2 / MedTator XML (spans in UTF-16 units)", _read_mae, write_mae),
        Format(
            "brat", ".ann", True, "brat standoff (.txt + .ann)", _read_brat, write_brat, holds=_BRAT_HOLDS
        ),
        Format(
            "inline2006",
            ".xml",
            False,
            "i2b2 2006 inline PHI",
            _read_inline,
            None,
            write_inline2006,
            holds=_INLINE_HOLDS,
        ),
        Format(
            "jsonl",
            ".jsonl",
            False,
            "JSONL spans",
            _read_jsonl,
            None,
            write_jsonl,
            holds=EVERYTHING - {Kind.ELEMENTS},
        ),
        Format(
            "conll",
            ".conll",
            False,
            "CoNLL BIO tokens (export only)",
            None,
            None,
            write_conll,
            holds=frozenset(),
        ),
        Format(
            "physionet",
            ".text",
            False,
            "PhysioNet deid records (id.text) with id-phi.phrase or id.deid",
            _read_physionet,
            None,
            _write_physionet,
            holds=frozenset({Kind.OVERLAPS}),  # a phrase list is one line per span, however they lie
            carries=frozenset({PHYSIONET_TYPE}),
            coarsened=coarsened_types,
        ),
        Format(
            "table",
            ".csv",
            False,
            "an EHR export: CSV, TSV or JSON Lines, one note per row (read only)",
            _read_table,
        ),
        Format(
            "project",
            ".xml",
            True,
            "a project folder: project.toml and source/ (write only)",
            None,
            _write_project_note,
        ),
    )
}

_SNIFF_BYTES = 65536
_MAE_SPANS = re.compile(rb"""\sspans\s*=\s*["']""")
_START_ATTRIBUTE = re.compile(rb"""\sstart\s*=\s*["']""")
_INLINE_PHI = re.compile(rb"<PHI[\s>]")


def get_format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise UsageError(f"unknown format {name!r} (known: {', '.join(FORMATS)})") from None


def detect_format(path: str | Path) -> str:
    """The format of a file, or of the files of a folder, from a look at their content.

    In a folder, ``.txt`` files are brat notes only when ``.ann`` files sit beside them or
    nothing else is there (MAE and MedTator keep the raw notes beside their XML); a folder
    holding files of two formats is refused, so nothing is read as what it is not.
    """
    path = Path(path)
    if path.is_dir():
        records = [p for p in path.glob("*.text") if p.is_file()]
        if len(records) == 1 and is_physionet_records(read_bytes(records[0], head=64)):
            return "physionet"
        files = _data_files(path)
        if not files:
            raise InputError("no annotation files (.xml, .ann, .txt, .jsonl) in the folder", path)
        found = {f.suffix.lower(): set[str]() for f in files}
        for file in files:
            if file.suffix.lower() != ".txt":
                found[file.suffix.lower()].add(file_format(file))
        names = {name for formats in found.values() for name in formats}
        paired = any(f.suffix.lower() == ".txt" and f.with_suffix(".ann").is_file() for f in files)
        if ".ann" in found or paired or not names:
            names.add("brat")
        if names == {"i2b2", "mae"}:
            return "i2b2"  # the i2b2 reader reads MAE files as MAE
        if len(names) > 1:
            listed = " and ".join(sorted(names))
            raise InputError(f"the folder holds {listed} files; name the format to read with --from", path)
        return names.pop()
    return file_format(path)


def file_format(path: Path) -> str:
    """The format of one file, from its suffix and a look at its content."""
    suffix = path.suffix.lower()
    if suffix == ".text" and is_physionet_records(read_bytes(path, head=64)):
        return "physionet"
    if suffix in TABLE_SUFFIXES:
        return "table"
    if suffix in (".ann", ".txt"):
        return "brat"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix == ".conll":
        return "conll"
    if suffix == ".xml":
        head = read_bytes(path, head=_SNIFF_BYTES)
        if _INLINE_PHI.search(head) and b"<RECORD" in head:
            return "inline2006"
        if _MAE_SPANS.search(head) and not _START_ATTRIBUTE.search(head):
            return "mae"
        return "i2b2"
    raise InputError(f"cannot tell the format of a {suffix or 'suffix-less'} file; name it with --from", path)


def _data_files(folder: Path) -> list[Path]:
    named = sorted(
        p
        for p in folder.iterdir()
        if not p.name.startswith((".", "~"))
        and p.suffix.lower() in (".xml", ".ann", ".txt", ".jsonl", ".ndjson")
    )
    files = [p for p in named if is_document_file(p)]
    # A brat document is one .txt (+ .ann) pair: list it once, by its .txt.
    stems_with_txt = {p.with_suffix("") for p in files if p.suffix == ".txt"}
    return [p for p in files if not (p.suffix == ".ann" and p.with_suffix("") in stems_with_txt)]


def input_files(path: str | Path, format: str) -> list[Path]:
    """The files that :func:`read_documents` reads for ``path`` (brat: both of each pair)."""
    path = Path(path)
    if format == "physionet":
        return find_files(path).inputs
    files = _data_files(path) if path.is_dir() else [path]
    if format == "brat":
        pairs = [brat_paths(f) for f in files if f.suffix in (".txt", ".ann")]
        # The .txt is required (reading reports it missing); the .ann is optional.
        return [p for txt, ann in pairs for p in (txt, ann) if p == txt or p.exists()]
    suffixes = {"i2b2": ".xml", "mae": ".xml", "inline2006": ".xml", "jsonl": ".jsonl"}
    if path.is_dir():
        return [f for f in files if f.suffix.lower() == suffixes.get(format, f.suffix.lower())]
    return files


def read_documents(
    path: str | Path,
    format: str | None = None,
    schema: Schema | None = None,
    warnings: list[str] | None = None,
    columns: NoteColumns | None = None,
) -> list[Document]:
    """Every document of a file or a folder (not recursive).

    ``columns`` names the columns of an EHR table (format ``table``).

    Raises
    ------
    InputError
        At the first file that cannot be read (nothing is returned then).
    """
    path = Path(path)
    name = format or detect_format(path)
    spec = get_format(name)
    if spec.read is None:
        raise UsageError(f"{name} is an export-only format; it cannot be read")
    if name == "physionet":
        return read_physionet(path)
    if name == "table":
        if path.is_dir():
            raise UsageError("a note table is one file (CSV, TSV or JSON Lines), not a folder")
        return read_note_table(path, columns or NoteColumns())
    notes = warnings if warnings is not None else []
    files = input_files(path, name)
    if name == "brat":
        files = [f for f in files if f.suffix == ".txt"]
    if not files and path.is_dir():
        # A folder of another format's files, read as this one, would convert to nothing.
        present = sorted(
            {
                f.suffix.lower()
                for f in path.iterdir()
                if f.is_file() and f.suffix and not f.name.startswith(".")
            }
        )
        held = f" (it holds {', '.join(present[:5])} files)" if present else ""
        raise InputError(f"no {name} files ({spec.suffix}) in the folder{held}; check --from", path)
    documents: list[Document] = []
    for file in files:
        read = spec.read(file, schema, notes)
        for document in read:
            # A file of many documents (JSON Lines) is still where each came from: errors
            # about a document, its id as an output name first, must name it.
            if document.origin.path is None:
                document.origin.path = file
        documents.extend(read)
    ids = [d.doc_id for d in documents]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise InputError(f"two documents are named {printable_path(duplicate)}", path)
    return documents


def output_paths(
    documents: Sequence[Document],
    out: str | Path,
    format: str,
    schema: Schema | None = None,
    schema_file: Path | None = None,
) -> list[Path]:
    """The files :func:`write_documents` would write (to check before writing anything).

    Raises
    ------
    InputError
        A document id that would name a file cannot (:func:`annotator.io.outputs.check_file_name`),
        or two would be one file on Windows or macOS; the file it was read from is named.
    """
    out = Path(out)
    spec = get_format(format)
    if format == "physionet":
        return physionet_output_files(out)
    if format == "project":
        _check_names(documents)
        source, gold = out / "source", out / "gold"
        in_source, in_gold = source.resolve(), gold.resolve()
        sources = [_document_file(source, d, ".xml", in_source) for d in documents]
        golds = [_document_file(gold, d, ".xml", in_gold) for d in documents if _tagged(d)]
        task = [out / _project_schema_name(schema_file)] if schema_file is not None else []
        return [*sources, *golds, *task, out / PROJECT_FILE]
    if not spec.per_document:
        return [out / f"documents{spec.suffix}" if _is_folder_target(out) else out]
    if _single_file(documents, out):
        targets = [out]
    else:
        _check_names(documents)
        resolved = out.resolve()
        targets = [_document_file(out, d, spec.suffix, resolved) for d in documents]
    if format == "brat":
        targets = [p for t in targets for p in brat_paths(t)]
    if _is_folder_target(out) and format == "brat":
        targets.append(out / CONF_NAME)
    if _is_folder_target(out) and format == "mae":
        targets.append(out / task_file_name(task_for(documents, schema)))
    return targets


def _mae_writer(documents: Sequence[Document], schema: Schema | None) -> Callable[[Document, Path], None]:
    """Writes each document with the root of the task written beside them (a document whose
    root already is that one keeps its bytes when unchanged)."""
    name = task_name(documents, schema)
    task_schema = schema if schema is not None and schema.task is not None else None

    def write(document: Document, path: Path) -> None:
        own = root_of(document) == name and task_schema is None
        write_mae(document, path, task=None if own else name, schema=task_schema)

    return write


def _is_folder_target(out: Path) -> bool:
    return out.is_dir() or not out.suffix


def _single_file(documents: Sequence[Document], out: Path) -> bool:
    """One document written to the file ``out`` names: its id names no file."""
    return len(documents) == 1 and out.suffix.lower() in (".xml", ".ann", ".txt")


def _document_file(folder: Path, document: Document, suffix: str, resolved: Path) -> Path:
    # Every per-document path goes through here: an id from the input never picks the folder.
    return file_in_folder(folder, document.doc_id, suffix, document.origin.path, resolved)


def _check_names(documents: Sequence[Document]) -> None:
    """Every id a plain file name, and no two of them one file on Windows or macOS."""
    for document in documents:
        check_file_name(document.doc_id, document.origin.path)
    same_file_names((d.doc_id, d.origin.path) for d in documents)


def _brat_conf(documents: Sequence[Document], schema: Schema | None, schema_file: Path | None) -> bytes:
    """The ``annotation.conf`` written with brat files: the one read, as it was, when it
    declares everything they use (its unused types and values are brat's palette); else
    one declaring what they use."""
    if schema_file is not None and schema_file.name == CONF_NAME:
        original = schema_file.read_bytes()
        try:
            text = original.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        if text and covers(text, documents, schema):
            return original
    return brat_conf_for(documents, schema).encode("utf-8")


def _tagged(document: Document) -> bool:
    """Whether a document holds anything a gold file keeps: a document of MedTator's
    document-level task has tags and no span."""
    return bool(len(document) or document.document_tags or document.relations)


def _project_schema_name(schema_file: Path) -> str:
    """The name a project keeps its task file (or ``annotation.conf``) under, at its root."""
    name = schema_file.name
    return f"schema-{name}" if name in (PROJECT_FILE, "source", "gold") else name


def _gold_guideline(documents: Sequence[Document]) -> str:
    """The guideline a converted gold follows: the PhysioNet corpus tags to HIPAA Safe Harbor."""
    tagged = [d for d in documents if len(d)]
    if tagged and all(d.origin.format == "physionet" for d in tagged):
        return SAFE_HARBOR
    return I2B2_2014


def write_documents(
    documents: Sequence[Document],
    out: str | Path,
    format: str,
    schema: Schema | None = None,
    project_name: str | None = None,
    schema_file: Path | None = None,
) -> list[Path]:
    """Write documents in a format; returns the paths written.

    Per-document formats write ``out/<doc_id><suffix>`` (or ``out`` itself when it is a
    file name and there is one document); corpus formats write ``out`` (or
    ``out/documents<suffix>`` when ``out`` is a folder). A schema read from a task file
    gives MAE files its root name and attribute set, and brat an ``annotation.conf``.
    ``schema_file``, the task file or ``annotation.conf`` the schema was read from, is
    copied into a project, whose ``project.toml`` names it (a task name alone names no file).
    """
    spec = get_format(format)
    out = Path(out)
    if format == "project":
        # The notes bare in source/ (what annotators start from); their tags, if any, as gold/.
        _check_names(documents)
        source, gold = out / "source", out / "gold"
        in_source, in_gold = source.resolve(), gold.resolve()
        for document in documents:
            _write_project_note(
                Document(document.doc_id, document.text), _document_file(source, document, ".xml", in_source)
            )
            if _tagged(document):
                _write_project_note(document, _document_file(gold, document, ".xml", in_gold))
        schema_name = schema.name if schema is not None else "i2b2-2014"
        if schema_file is not None:
            schema_name = _project_schema_name(schema_file)
            atomic_write(out / schema_name, schema_file.read_bytes())
        Project(out, project_name or out.name, schema_name, guideline=_gold_guideline(documents)).save()
        return output_paths(documents, out, format, schema_file=schema_file)
    if spec.per_document:
        write_one = spec.write_one
        assert write_one is not None
        if format == "mae":
            write_one = _mae_writer(documents, schema)
        elif format == "brat":
            write_one = functools.partial(write_brat, schema=schema)
        single = _single_file(documents, out)
        if not single:
            _check_names(documents)
        resolved = out.resolve()
        for document in documents:
            target = out if single else _document_file(out, document, spec.suffix, resolved)
            write_one(document, target)
    else:
        assert spec.write_all is not None
        spec.write_all(list(documents), output_paths(documents, out, format)[0])
    if format == "brat" and _is_folder_target(out):
        atomic_write(out / CONF_NAME, _brat_conf(documents, schema, schema_file))
    if format == "mae" and _is_folder_target(out):
        task = task_for(documents, schema)
        atomic_write(out / task_file_name(task), task_to_dtd(task).encode("utf-8"))
    return output_paths(documents, out, format, schema)
