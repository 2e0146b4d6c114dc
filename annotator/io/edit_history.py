"""The kept history of a document's edits, per annotator: what the effort report is built from.

The write-ahead journal (:mod:`annotator.io.journal`) is emptied whenever a document is saved;
this history is never emptied. Every edit goes to both: the history line is the journal line
plus ``at``, the wall-clock time in seconds since 1970. Before the first edit of a document
the history gets a ``start`` line holding the annotations the document had then (the
model's pending suggestions among them), so each suggestion can be followed from the moment
it was shown to what the annotator made of it.

The history lives in ``<project>/.annotator/history/<annotator>/<doc_id>.jsonl`` (0600, like
the journal), holds annotation offsets, types and provenance, and never the note text.

API
---
``history_path(state_dir, annotator, doc_id) -> Path``
``start_entry(annotations, at) -> dict``: the first line of a history.
``timed(entry, at) -> dict``: a journal entry stamped with its time.
``read_history(path) -> list[dict]``: the lines (a torn last line is dropped, as in the journal).
``history_annotators(state_dir) -> list[str]`` / ``history_documents(state_dir, annotator)``
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from annotator.core.annotation import Annotation
from annotator.io.journal import annotation_record, read_journal

HISTORY_DIR = "history"
HISTORY_SUFFIX = ".jsonl"


def history_path(state_dir: Path, annotator: str, doc_id: str) -> Path:
    return state_dir / HISTORY_DIR / annotator / f"{doc_id}{HISTORY_SUFFIX}"


def start_entry(annotations: Iterable[Annotation], at: float) -> dict[str, Any]:
    return {"op": "start", "at": round(at, 3), "annotations": [annotation_record(a) for a in annotations]}


def timed(entry: dict[str, Any], at: float) -> dict[str, Any]:
    return {**entry, "at": round(at, 3)}


def read_history(path: Path) -> list[dict[str, Any]]:
    """The history's lines, oldest first (a missing file is an empty history)."""
    return read_journal(path, "edit history")


def history_annotators(state_dir: Path) -> list[str]:
    folder = state_dir / HISTORY_DIR
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def history_documents(state_dir: Path, annotator: str) -> list[str]:
    folder = state_dir / HISTORY_DIR / annotator
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(HISTORY_SUFFIX) for p in folder.glob(f"*{HISTORY_SUFFIX}"))
