"""Adjudicate: auto-merge two or more annotators' folders into gold files, report the rest."""

from __future__ import annotations

import getpass
from dataclasses import dataclass, field
from pathlib import Path

from annotator.adjudication.consistency import Scope
from annotator.adjudication.corpus import AdjudicationReport, adjudicate_corpus, prepare_corpus
from annotator.adjudication.decisions import AutoAccept
from annotator.adjudication.versions import refuse_repeated_folders
from annotator.errors import UsageError
from annotator.io.outputs import FolderMode, plan_folder, publishing
from annotator.io.publish import job_identity
from annotator.io.workstate import load_identity
from annotator.workflows.inputs import require_documents, require_folder
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel


def default_adjudicator() -> str:
    """The name the program remembers (identity.json, as the windows use), else the login name."""
    remembered = load_identity()  # a damaged identity file is an error naming it, not ignored
    if remembered:
        return remembered
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no user database entry (containers)
        return "adjudicator"


@dataclass(frozen=True)
class AdjudicateRequest:
    """Merge ``folders`` into ``gold_dir``.

    ``force`` redoes documents already finalised and overwrites gold files that no
    adjudication wrote; without it they are reported and left alone.
    """

    folders: tuple[Path, ...]
    gold_dir: Path
    auto: AutoAccept = AutoAccept.UNANIMOUS
    adjudicator: str | None = None
    scope: Scope = "patient"
    candidates: bool = True
    suggestions: Path | None = None
    force: bool = False


@dataclass
class AdjudicateResult:
    report: AdjudicationReport
    notes: list[Note] = field(default_factory=list)


def adjudicate(
    request: AdjudicateRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> AdjudicateResult:
    """Read and align every document, then auto-merge and write each gold file and its log.

    Progress runs over both phases: reading is the first half, adjudicating the second.
    """
    if len(request.folders) < 2:
        raise UsageError("adjudicate needs at least two annotator folders")
    resolved_inputs = {Path(f).resolve() for f in request.folders}
    if request.gold_dir.resolve() in resolved_inputs:
        raise UsageError("the gold folder must not be one of the annotator folders", request.gold_dir)
    refuse_repeated_folders(request.folders)
    inputs = [*request.folders, *([request.suggestions] if request.suggestions else [])]
    for folder in inputs:
        require_folder(Path(folder))
    for folder in request.folders:
        require_documents(Path(folder))
    # A gold folder holding files is what adjudication resumes (or, with force, redoes): it
    # decides per document itself, so the folder is planned as one it may always write into.
    plan = plan_folder(
        request.gold_dir,
        mode=FolderMode.MERGE,
        force=True,
        inputs=inputs,
        # Gold written around the inputs (-o adj for adj/a adj/b) would mix with them.
        protected=inputs,
        protected_clash="refusing to write the gold folder into (or around) an annotator or suggestions folder",
        job=job_identity(request),
    )

    def reading(done: int, total: int) -> None:
        check_cancel(cancelled, "adjudication")
        if progress is not None:
            progress(done, 2 * total)

    def adjudicating(done: int, total: int) -> None:
        if progress is not None:
            progress(total + done, 2 * total)

    # Locked, a killed earlier run finished first, and every gold file published with its
    # decision log, together, at the end.
    with publishing(plan) as staged:
        prepared = prepare_corpus(
            list(request.folders),
            request.gold_dir,
            candidates=request.candidates,
            scope=request.scope,
            suggestions_dir=request.suggestions,
            progress=reading,
        )
        check_cancel(cancelled, "adjudication")
        report = adjudicate_corpus(
            prepared,
            adjudicator=request.adjudicator or default_adjudicator(),
            auto=request.auto,
            force=request.force,
            progress=adjudicating,
            stage=staged,
        )
    adjudicated = {d.doc_id for d in report.documents}
    notes = [
        Note(NoteKind.MISSING_VERSION, doc_id, detail=", ".join(lacking))
        for doc_id, lacking in sorted(report.missing.items())
        if doc_id not in adjudicated
    ]
    # One note per set of folders lacking notes: carol, who did a third of them, is one line.
    fewer: dict[str, list[str]] = {}
    for doc_id, lacking in sorted(report.missing.items()):
        if doc_id in adjudicated:
            fewer.setdefault(", ".join(lacking), []).append(doc_id)
    notes += [
        Note(NoteKind.FEWER_VERSIONS, _listed(doc_ids), count=len(doc_ids), detail=folders)
        for folders, doc_ids in fewer.items()
    ]
    notes += [
        Note(NoteKind.VERSIONS_CHANGED, d.doc_id, count=len(d.stale), detail=", ".join(d.stale))
        for d in report.documents
        if d.stale
    ]
    notes += [
        Note(NoteKind.LINKS_LEFT_OUT, d.doc_id, count=d.links_left_out)
        for d in report.documents
        if d.links_left_out
    ]
    return AdjudicateResult(report, notes)


def _listed(doc_ids: list[str], shown: int = 10) -> str:
    more = len(doc_ids) - shown
    return ", ".join(doc_ids[:shown]) + (f" and {more} more" if more > 0 else "")
