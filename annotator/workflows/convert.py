"""Convert: annotation files between formats, every input read before anything is written."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from annotator.errors import InputError
from annotator.io.formats import detect_format, input_files, output_paths, read_documents, write_documents
from annotator.io.outputs import plan_files, publishing
from annotator.io.publish import job_identity
from annotator.io.validate import validate_document
from annotator.workflows.inputs import schema_by_name
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel


@dataclass(frozen=True)
class ConvertRequest:
    """Convert ``source`` (a file or a folder) to ``output`` in format ``to``.

    ``source_format`` is detected when None; ``schema`` gives each TYPE's category for
    formats without one (a bundled name, a ``.toml`` or a MAE ``.dtd``).
    """

    source: Path
    output: Path
    to: str
    source_format: str | None = None
    schema: str = "i2b2-2014"
    force: bool = False


@dataclass
class ConvertResult:
    documents: int
    written: list[Path]
    notes: list[Note] = field(default_factory=list)


def convert(
    request: ConvertRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> ConvertResult:
    """Read, check, plan, then write; a bad input or a clash writes nothing."""
    schema = schema_by_name(request.schema)
    warnings: list[str] = []
    documents = read_documents(request.source, request.source_format, schema, warnings)
    for document in documents:
        # A tag whose text does not match its offsets would be silently moved by formats
        # that re-slice the text: refuse, and point at validate --realign.
        errors = [p for p in validate_document(document) if p.is_error]
        if errors:
            raise InputError(f"{errors[0].one_line()} (nothing written; see annotator validate --realign)")
    source_format = request.source_format or detect_format(request.source)
    plan = plan_files(
        output_paths(documents, request.output, request.to),
        inputs=[*input_files(request.source, source_format), request.source],
        force=request.force,
        job=job_identity(request),
    )
    check_cancel(cancelled, "conversion")
    # The schema gives MAE output its task root and attribute set, brat its annotation.conf.
    with publishing(plan) as staged:
        staged_paths = write_documents(documents, staged(request.output), request.to, schema)
        written = [staged.final(path) for path in staged_paths]
    if progress is not None:
        progress(len(documents), len(documents))
    notes = [Note(NoteKind.INPUT_WARNING, detail=warning) for warning in warnings]
    return ConvertResult(len(documents), written, notes)
