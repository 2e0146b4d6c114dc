"""Stats: counts per category and type, tokens and per-document averages of i2b2 files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.core.schema import DEFAULT_SCHEMA, load_schema
from annotator.core.statistics import corpus_statistics
from annotator.io.i2b2 import read_i2b2
from annotator.io.task_files import find_task
from annotator.workflows.inputs import document_files
from annotator.workflows.notes import Cancelled, Progress, check_cancel


@dataclass(frozen=True)
class StatsRequest:
    """Files, or folders whose ``*.xml`` files (directly inside) are counted, once each."""

    paths: tuple[Path, ...]
    # None: the MAE / MedTator task found with the first path (its folder or up to two
    # above), else i2b2 2014.
    schema: str | None = None


def statistics(
    request: StatsRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> dict[str, Any]:
    """The statistics (see :func:`annotator.core.statistics.corpus_statistics`).

    With several paths, ``parts`` also holds each path's own statistics: two folders (say two
    annotators' versions) are then never silently merged into one count.
    """
    files = document_files(request.paths)
    task = find_task(request.paths[0]) if request.schema is None else None
    schema = load_schema(request.schema or (str(task) if task is not None else DEFAULT_SCHEMA))
    by_file = {}
    for done, path in enumerate(files, start=1):
        check_cancel(cancelled, "statistics")
        by_file[path.resolve()] = read_i2b2(path)
        if progress is not None:
            progress(done, len(files))
    combined = corpus_statistics(by_file.values(), schema)
    if len(request.paths) > 1:
        combined["parts"] = [
            {
                "path": str(path),
                "statistics": corpus_statistics(
                    [by_file[file.resolve()] for file in document_files([path])], schema
                ),
            }
            for path in request.paths
        ]
    return combined
