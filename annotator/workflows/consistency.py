"""Consistency: text annotated as PHI in one place of a gold folder but not in another."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from annotator.adjudication.consistency import Finding, Scope, check_consistency
from annotator.io.corpus import read_corpus
from annotator.workflows.inputs import require_documents
from annotator.workflows.notes import Cancelled, Progress, check_cancel


@dataclass(frozen=True)
class ConsistencyRequest:
    gold_dir: Path
    scope: Scope = "patient"


@dataclass
class ConsistencyResult:
    documents: int
    findings: list[Finding]


def consistency(
    request: ConsistencyRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> ConsistencyResult:
    """Every whole-word, case-insensitive unannotated occurrence of PHI annotated elsewhere."""
    corpus = read_corpus(require_documents(request.gold_dir))
    check_cancel(cancelled, "consistency check")
    findings = check_consistency(corpus.documents, scope=request.scope)
    if progress is not None:
        progress(1, 1)
    return ConsistencyResult(len(corpus), findings)
