"""Where a batch job's results land: one output per partition, published atomically, and a
manifest so that a killed job resumes where it stopped.

A partition's XML files are written into a private staging folder inside the output
(``.staging-part-00007-XXXX``, mode 0700) and published by renaming it to ``part-00007``; a
JSONL partition is one shard ``part-00007.jsonl`` written to a temporary file and renamed. So
an output either exists whole under its final name or not at all: the published outputs are
the record of what is done, and ``batch-manifest.json`` records which job (parameters, input
fingerprint) they belong to, so ``--resume`` never mixes two jobs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.batch.partitions import JSONL, Partition
from annotator.core.atomic import atomic_write, atomic_write_text, fsync_folder
from annotator.core.document import Document
from annotator.core.text_files import refuse_special_file
from annotator.errors import UsageError
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.jsonl import documents_to_jsonl, parse_jsonl
from annotator.io.publish import cannot

MANIFEST = "batch-manifest.json"
STAGING_PREFIX = ".staging-"
# One line per published partition, appended by the client as each partition's outcome
# arrives: a resumed job adds the counts of the partitions an earlier run published.
COUNTS_LEDGER = ".batch-counts.jsonl"


def published_name(partition: Partition) -> str:
    return f"{partition.name}.jsonl" if partition.kind == JSONL else partition.name


def _manifest(out_dir: Path) -> dict[str, Any] | None:
    path = out_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError("the batch manifest is unreadable; use --force to start over", path) from None
    return data if isinstance(data, dict) else None


_BATCH_ENTRY = re.compile(
    r"part-\d{5,}(?:\.jsonl)?|"
    + "|".join(map(re.escape, (MANIFEST, COUNTS_LEDGER)))
    + "|"
    + re.escape(STAGING_PREFIX)
    + r".*"
)


def _foreign_entries(out_dir: Path) -> list[str]:
    """What a batch job never writes in its output folder (a thesis, another export)."""
    return sorted(entry.name for entry in out_dir.iterdir() if not _BATCH_ENTRY.fullmatch(entry.name))


def _clear(out_dir: Path) -> None:
    for entry in out_dir.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


ResumeCheck = Callable[[dict[str, Any], list[Partition]], None]


def prepare_output(
    out_dir: Path,
    job: dict[str, Any],
    partitions: Sequence[Partition],
    resume: bool,
    force: bool,
    check: ResumeCheck | None = None,
) -> set[int]:
    """Check, clean and claim the output folder; the indexes of partitions already published.

    ``job`` holds the job's name, parameters and input fingerprint; a resume must match it.
    ``check`` sees, on a resume of a job over the same inputs, the job the manifest records and
    the partitions already published, before anything is changed: it raises to refuse the
    resume with its own reason (a ``--seed`` other than the job's).
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError("output exists and is not a folder", out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise cannot("create the output folder", error, out_dir) from None
    manifest = _manifest(out_dir)
    occupied = any(out_dir.iterdir())
    if resume:
        if manifest is None:
            if occupied:
                raise UsageError("no batch manifest here to resume (use --force to start over)", out_dir)
            return _claim(out_dir, job, partitions)
        recorded = manifest.get("job")
        same_inputs = isinstance(recorded, dict) and all(
            recorded.get(key) == job.get(key) for key in ("command", "input", "inputs", "partition_size")
        )
        if check is not None and same_inputs and isinstance(recorded, dict):
            check(recorded, [p for p in partitions if (out_dir / published_name(p)).exists()])
        if recorded != job:
            raise UsageError(
                "the output holds another batch job (other inputs or options); use --force to replace it",
                out_dir,
            )
    elif occupied:
        if not force:
            if manifest is None:
                raise UsageError("output folder is not empty (use --force to replace it)", out_dir)
            if manifest.get("complete"):
                raise UsageError(
                    "output folder holds a finished batch job (use --force to replace it)", out_dir
                )
            raise UsageError(
                "output folder holds an unfinished batch job (use --resume to finish it or --force "
                "to replace it)",
                out_dir,
            )
        foreign = _foreign_entries(out_dir)
        if foreign:
            # --force replaces an earlier batch output, never a folder given by mistake.
            shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise UsageError(
                f"output folder holds what a batch job does not write ({shown}); --force replaces only "
                "an earlier batch output: choose an empty folder",
                out_dir,
            )
        try:
            _clear(out_dir)
        except OSError as error:
            raise cannot("empty the output folder", error, out_dir) from None
    return _claim(out_dir, job, partitions)


def _claim(out_dir: Path, job: dict[str, Any], partitions: Sequence[Partition]) -> set[int]:
    for leftover in out_dir.glob(f"{STAGING_PREFIX}*"):
        # A killed run's half-written partition: never output, removed before anything else.
        shutil.rmtree(leftover, ignore_errors=True) if leftover.is_dir() else leftover.unlink()
    write_manifest(out_dir, job, partitions, complete=False)
    return {p.index for p in partitions if (out_dir / published_name(p)).exists()}


def write_manifest(
    out_dir: Path,
    job: dict[str, Any],
    partitions: Sequence[Partition],
    complete: bool,
    summary: dict[str, Any] | None = None,
) -> None:
    data = {
        "job": job,
        "partitions": [{"name": published_name(p), "inputs": len(p.files)} for p in partitions],
        "complete": complete,
        "summary": summary or {},
    }
    # ASCII: a path's undecodable bytes (lone surrogates) are kept as JSON escapes.
    atomic_write_text(out_dir / MANIFEST, json.dumps(data, indent=1, ensure_ascii=True) + "\n")


def publish(
    documents: Sequence[Document],
    out_dir: Path,
    partition: Partition,
    check: Callable[[Sequence[Document]], None] | None = None,
) -> None:
    """Write a partition's documents under their final name in one atomic step.

    ``check`` sees the documents as read back from what was written (the de-identified
    export's leak check); if it raises, nothing is published and the staging is removed.
    """
    target = out_dir / published_name(partition)
    if partition.kind == JSONL:
        data = documents_to_jsonl(list(documents))
        if check is not None:
            check(parse_jsonl(data, target))
        atomic_write(target, data)
        return
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{partition.name}-", dir=out_dir))
    try:
        paths = [staging / f"{document.doc_id}.xml" for document in documents]
        for document, path in zip(documents, paths, strict=True):
            write_i2b2(document, path)
        if check is not None:
            check([read_i2b2(path) for path in paths])
        try:
            os.replace(staging, target)
        except OSError:
            # Already published by an earlier attempt of this task (a worker presumed dead that
            # finished after all): the outputs are deterministic, so that copy is the same.
            if not target.is_dir():
                raise
        fsync_folder(out_dir)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


@dataclass(frozen=True)
class RecordedCounts:
    """A published partition's document count and counts, as the ledger holds them."""

    documents: int
    counts: dict[str, int]


def record_counts(out_dir: Path, partition_name: str, documents: int, counts: dict[str, int]) -> None:
    """Append a published partition's counts to the ledger (flushed to disk: it outlives a kill)."""
    line = json.dumps(
        {"partition": partition_name, "documents": documents, "counts": counts}, ensure_ascii=True
    )
    path = out_dir / COUNTS_LEDGER
    if path.is_symlink():  # appending through a link would write into whatever it names
        raise UsageError("the batch counts ledger is a symbolic link; use --force to start over", path)
    try:
        with path.open("a+b") as ledger:
            size = ledger.seek(0, os.SEEK_END)
            if size:
                ledger.seek(size - 1)
                if ledger.read(1) != b"\n":
                    line = "\n" + line  # the last line was cut short by a kill: this one is whole
            ledger.write(line.encode("ascii") + b"\n")
            ledger.flush()
            os.fsync(ledger.fileno())
    except OSError as error:
        raise cannot("record the partition's counts", error, path) from None


def recorded_counts(out_dir: Path) -> dict[str, RecordedCounts]:
    """The ledger's counts by partition name; the last line of a partition wins, and a line
    that a kill cut short, or any line that is not the ledger's, is left out. A pipe or device
    in its place is refused unread (a FIFO hung the resumed job)."""
    path = out_dir / COUNTS_LEDGER
    refuse_special_file(path, "a batch job's counts ledger")
    try:
        lines = path.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return {}
    found: dict[str, RecordedCounts] = {}
    for line in lines:
        try:
            entry = json.loads(line)
            name, documents, counts = entry["partition"], entry["documents"], entry["counts"]
        except (ValueError, TypeError, KeyError):
            continue
        if (
            isinstance(name, str)
            and isinstance(documents, int)
            and isinstance(counts, dict)
            and all(isinstance(k, str) and isinstance(v, int) for k, v in counts.items())
        ):
            found[name] = RecordedCounts(documents, counts)
    return found
