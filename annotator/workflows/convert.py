"""Convert: annotation files between formats, every input read before anything is written.

Nothing is lost without a word: when the target format cannot hold something the documents
hold (:mod:`annotator.io.capacity`), the conversion is refused with each kind and its count,
unless the request lets those kinds go; the result says what went.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from annotator.core.atomic import atomic_write_text
from annotator.core.brat_conf import CONF_NAME
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.core.schema import DEFAULT_SCHEMA, Schema
from annotator.core.task import is_task_file
from annotator.errors import InputError, UsageError, printable_path
from annotator.io.brat import flattened_lines
from annotator.io.capacity import EVERYTHING, Kind, content, describe, losses, without
from annotator.io.formats import (
    detect_format,
    get_format,
    input_files,
    output_paths,
    read_documents,
    write_documents,
)
from annotator.io.notetable import INDEX_NAME, SITE_LIST_NAME, NoteColumns, note_index, patient_site_list
from annotator.io.outputs import plan_files, publishing
from annotator.io.publish import common_folder, job_identity
from annotator.io.task_files import find_task
from annotator.io.validate import validate_document
from annotator.workflows.inputs import schema_by_name
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel


@dataclass(frozen=True)
class ConvertRequest:
    """Convert ``source`` (a file or a folder) to ``output`` in format ``to``.

    ``source_format`` is detected when None; ``schema`` gives each TYPE's category for
    formats without one (a bundled name, a ``.toml``, a MAE / MedTator task or a brat
    ``annotation.conf``); None takes the task or ``annotation.conf`` found with the input
    (:func:`annotator.io.task_files.find_task`), else i2b2 2014. ``drop`` lets kinds the
    target cannot hold go (:class:`~annotator.io.capacity.Kind`).
    """

    source: Path
    output: Path
    to: str
    source_format: str | None = None
    schema: str | None = None
    force: bool = False
    # The columns of an EHR table (format ``table``); None: a column named "text", nothing else.
    columns: NoteColumns | None = None
    drop: frozenset[Kind] = frozenset()


@dataclass
class ConvertResult:
    """What was converted; ``dropped``: kind -> how many the target could not hold."""

    documents: int
    written: list[Path]
    notes: list[Note] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)
    schema: str = ""


class LossError(InputError):
    """The target format cannot hold some of what the documents hold."""

    def __init__(self, message: str, lost: dict[str, int]) -> None:
        super().__init__(message)
        self.lost = lost


def resolve_schema(request: ConvertRequest, source_format: str) -> tuple[Schema, str]:
    """The schema a conversion reads and writes with, and its name (or path)."""
    name = request.schema
    if name is None:
        found = find_task(request.source, brat=source_format == "brat")
        name = str(found) if found is not None else DEFAULT_SCHEMA
    return schema_by_name(name), name


def _schema_file(name: str) -> Path | None:
    """The task file or ``annotation.conf`` a schema was read from (a project keeps a copy),
    or None for a bundled schema."""
    path = Path(name)
    named_file = is_task_file(path) or path.suffix == ".toml" or path.name == CONF_NAME
    return path if named_file and path.is_file() else None


def _table_extras(
    request: ConvertRequest, source_format: str, targets: list[Path]
) -> tuple[Path | None, Path | None]:
    """Where a table's note index and site list go: beside the notes (the project's root, or
    their folder); beside a one-file output, named after it (two exports to one folder
    then keep their own)."""
    if source_format != "table":
        return None, None
    names = bool(request.columns and request.columns.names)
    if request.to != "project" and targets == [request.output]:
        stem = request.output.stem
        index = request.output.with_name(f"{stem}.{INDEX_NAME}")
        return index, request.output.with_name(f"{stem}.{SITE_LIST_NAME}") if names else None
    folder = request.output if request.to == "project" else common_folder(targets)
    return folder / INDEX_NAME, folder / SITE_LIST_NAME if names else None


def _where(documents: list[Document], kinds: list[Kind], carried: frozenset[str]) -> str:
    """The files that hold what cannot go (the first three), so a refusal names them."""
    holding = [d for d in documents if any(content(d, carried)[kind] for kind in kinds)]
    names = [Path(d.origin.path).name if d.origin.path else d.doc_id for d in holding[:3]]
    if not names:
        return ""
    more = f" and {len(holding) - 3} more" if len(holding) > 3 else ""
    return f"; in {', '.join(names)}{more}"


def convert(
    request: ConvertRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> ConvertResult:
    """Read, check, plan, then write; a bad input, a loss not allowed or a clash writes nothing."""
    target = get_format(request.to)
    if target.write_one is None and target.write_all is None:
        raise UsageError(f"{request.to} is an import-only format; it cannot be written (--to)")
    source_format = request.source_format or detect_format(request.source)
    schema, schema_name = resolve_schema(request, source_format)
    warnings: list[str] = []
    documents = read_documents(request.source, source_format, schema, warnings, request.columns)
    for document in documents:
        # A tag whose text does not match its offsets would be silently moved by formats
        # that re-slice the text: refuse, and point at validate --realign.
        errors = [p for p in validate_document(document) if p.is_error]
        if errors:
            raise InputError(f"{errors[0].one_line()} (nothing written; see annotator validate --realign)")
    lost = losses(documents, target.holds, target.carries)
    if target.coarsened is not None and Kind.TYPES not in target.holds:
        coarsened = target.coarsened(documents)
        if coarsened:
            lost[Kind.TYPES] = coarsened
    refused = [kind for kind in lost if kind not in request.drop]
    if refused:
        kinds = ",".join(kind.value for kind in Kind if kind in refused)
        # A kind the target holds is lost only with what it names (a link to a document tag).
        with_others = [kind.value for kind in Kind if lost[kind] and kind in target.holds]
        because = f"; the {' and '.join(with_others)} name what goes" if with_others else ""
        raise LossError(
            f"{request.to} cannot hold {describe(lost)}{because} (nothing written; --drop {kinds} "
            f"converts without them){_where(documents, refused, target.carries)}",
            {kind.value: lost[kind] for kind in Kind if lost[kind]},
        )
    if lost:
        documents = [without(d, EVERYTHING - target.holds, target.carries) for d in documents]
    schema_file = _schema_file(schema_name) if request.to in ("project", "brat") else None
    targets = output_paths(documents, request.output, request.to, schema, schema_file)
    index, names = _table_extras(request, source_format, targets)
    plan = plan_files(
        targets + [p for p in (index, names) if p is not None],
        inputs=[*input_files(request.source, source_format), request.source],
        force=request.force,
        job=job_identity(request),
    )
    check_cancel(cancelled, "conversion")
    # The schema gives MAE output its task root and attribute set, brat its annotation.conf.
    with publishing(plan) as staged:
        staged_paths = write_documents(
            documents,
            staged(request.output),
            request.to,
            schema,
            project_name=request.output.name,
            schema_file=schema_file,
        )
        if index is not None:
            # Which row, note id, patient and date each PPP-RR document came from.
            atomic_write_text(staged(index), note_index(request.source, request.columns or NoteColumns()))
            staged_paths.append(staged(index))
        if names is not None and request.columns is not None:
            # Each patient's names, for the tagger and the leak check (site lists).
            atomic_write_text(staged(names), patient_site_list(request.source, request.columns))
            staged_paths.append(staged(names))
            if request.to == "project":
                project = Project.open(staged(request.output))
                project.site_lists = SITE_LIST_NAME
                project.save()
        written = [staged.final(path) for path in staged_paths]
    if progress is not None:
        progress(len(documents), len(documents))
    if request.to == "brat":
        # A .ann line holds no line break: a comment or value of several lines is written
        # with spaces in their place. Said once per document, naming its file.
        for document in documents:
            flattened = flattened_lines(document)
            if flattened:
                where = printable_path(document.origin.path or document.doc_id)
                warnings.append(
                    f"{where}: {flattened} comment(s) or attribute value(s) of several lines written "
                    "on one line (brat has no line breaks in a .ann line)"
                )
    notes = [Note(NoteKind.INPUT_WARNING, detail=warning) for warning in warnings]
    dropped = {kind.value: lost[kind] for kind in Kind if lost[kind]}
    return ConvertResult(len(documents), written, notes, dropped, schema_name)
