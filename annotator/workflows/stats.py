"""Stats: counts per category and type, tokens and per-document averages of i2b2 files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.core.schema import load_schema
from annotator.core.statistics import corpus_statistics
from annotator.io.i2b2 import read_i2b2
from annotator.workflows.inputs import document_files
from annotator.workflows.notes import Cancelled, Progress, check_cancel


@dataclass(frozen=True)
class StatsRequest:
    """Files, or folders whose ``*.xml`` files (directly inside) are counted, once each."""

    paths: tuple[Path, ...]
    schema: str = "i2b2-2014"


def statistics(
    request: StatsRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> dict[str, Any]:
    """The statistics (see :func:`annotator.core.statistics.corpus_statistics`)."""
    files = document_files(request.paths)
    documents = []
    for done, path in enumerate(files, start=1):
        check_cancel(cancelled, "statistics")
        documents.append(read_i2b2(path))
        if progress is not None:
            progress(done, len(files))
    return corpus_statistics(documents, load_schema(request.schema))
