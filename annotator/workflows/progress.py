"""A project's progress, from its files: what each annotator has done, for how long, and how alike.

What the supervisor's dashboard shows, computed from what is on disk:

* per annotator, the documents they have a working copy of (``annotations/<name>/``), their
  status by the rule the document list uses (:func:`~annotator.io.workstate.effective_status`),
  the reviewed tags and pending suggestions in those copies, and the active working time the
  window recorded (copies made elsewhere, by ``annotator synth`` or by hand, have none);
* per pair of annotators, strict micro P/R/F1 and token kappa over the documents both have a
  copy of, pending suggestions left out (nobody has decided on them yet);
* what was compared and when, so a figure can be traced to its files.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.errors import AnnotatorError
from annotator.evaluation.counts import none_if_nan
from annotator.evaluation.engine import Options
from annotator.evaluation.iaa import agreement
from annotator.io.i2b2 import read_i2b2
from annotator.io.workstate import DONE, IN_PROGRESS, NOT_STARTED, WorkState, effective_status
from annotator.workflows.notes import Cancelled, Progress, check_cancel


@dataclass(frozen=True)
class AnnotatorProgress:
    """One annotator's figures (``seconds`` is the working time the window recorded)."""

    annotator: str
    folder: Path
    with_copy: int
    done: int
    in_progress: int
    not_started: int
    reviewed: int
    pending: int
    seconds: float
    timed_documents: int


@dataclass(frozen=True)
class PairProgress:
    """Agreement of two annotators on the documents both have judged: a copy marked done or
    holding a reviewed tag (NaN when none)."""

    a: str
    b: str
    compared: int
    done_by_both: int
    f1: float
    precision: float
    recall: float
    kappa: float


@dataclass
class ProjectProgress:
    """Everything the dashboard shows, with what it was computed from and when."""

    project: str
    root: Path
    documents: int
    computed_at: str
    annotators: list[AnnotatorProgress] = field(default_factory=list)
    pairs: list[PairProgress] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "phi-annotator/progress/1",
            "project": self.project,
            "root": str(self.root),
            "documents": self.documents,
            "computed_at": self.computed_at,
            "annotators": [
                {**vars(a), "folder": str(a.folder), "seconds": round(a.seconds, 1)} for a in self.annotators
            ],
            "pairs": [
                {k: none_if_nan(v) if isinstance(v, float) else v for k, v in vars(p).items()}
                for p in self.pairs
            ],
            "problems": list(self.problems),
        }


def _reviewed_only(document: Document) -> Document:
    return Document(document.doc_id, document.text, [a for a in document.annotations if not a.pending])


def _read_copies(folder: Path, doc_ids: list[str], problems: list[str]) -> dict[str, Document]:
    copies = {}
    for doc_id in doc_ids:
        path = folder / f"{doc_id}.xml"
        try:
            copies[doc_id] = read_i2b2(path)
        except AnnotatorError as error:
            problems.append(error.one_line())  # one broken copy must not hide everyone's figures
    return copies


def project_progress(
    project: Project,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    now: dt.datetime | None = None,
) -> ProjectProgress:
    """Figures per annotator and per pair, read from the project's files.

    Raises
    ------
    InputError: the work state file is unreadable (its own error names it).
    """
    state = WorkState.load(project)
    doc_ids = project.document_ids()
    when = (now or dt.datetime.now().astimezone()).strftime("%Y-%m-%d %H:%M %Z").strip()
    result = ProjectProgress(project.name, project.root, len(doc_ids), when)
    copies: dict[str, dict[str, Document]] = {}
    statuses: dict[str, dict[str, str]] = {}
    names = list(project.annotators)
    for number, name in enumerate(names, 1):
        check_cancel(cancelled, "the progress figures")
        folder = project.annotations_dir(name)
        existing = {p.stem for p in folder.glob("*.xml")} if folder.is_dir() else set()
        own = [d for d in doc_ids if d in existing]
        copies[name] = _read_copies(folder, own, result.problems)
        statuses[name] = {d: effective_status(state.status(d, name), d in existing) for d in doc_ids}
        counted = list(statuses[name].values())
        documents = copies[name].values()
        result.annotators.append(
            AnnotatorProgress(
                annotator=name,
                folder=folder,
                with_copy=len(own),
                done=counted.count(DONE),
                in_progress=counted.count(IN_PROGRESS),
                not_started=counted.count(NOT_STARTED),
                reviewed=sum(1 for d in documents for a in d.annotations if not a.pending),
                pending=sum(1 for d in documents for a in d.annotations if a.pending),
                seconds=sum(state.seconds(d, name) for d in doc_ids),
                timed_documents=sum(1 for d in doc_ids if state.seconds(d, name) > 0),
            )
        )
        if progress is not None:
            progress(number, len(names) + 1)
    check_cancel(cancelled, "the progress figures")
    reviewed = {name: {d: _reviewed_only(doc) for d, doc in copies[name].items()} for name in names}
    # A copy holds a judgement once it is marked done or has a tag its annotator reviewed; one
    # still untouched (suggestions only, or tags "annotate all" put in a record never opened)
    # would count every tag of the other annotator as a disagreement.
    judged = {
        name: {
            d
            for d, doc in reviewed[name].items()
            if statuses[name][d] == DONE or any(a.source != Source.PROPAGATED for a in doc.annotations)
        }
        for name in names
    }
    for a, b in itertools.combinations(names, 2):
        shared = set(copies[a]) & set(copies[b])
        both = sorted(judged[a] & judged[b])
        done_by_both = sum(1 for d in shared if statuses[a][d] == DONE and statuses[b][d] == DONE)
        if not both:
            result.pairs.append(PairProgress(a, b, 0, done_by_both, math.nan, math.nan, math.nan, math.nan))
            continue
        pair = {a: [reviewed[a][d] for d in both], b: [reviewed[b][d] for d in both]}
        item = next(p for p in agreement(pair, options=Options(match="strict")).pairs if p.reference == a)
        micro = item.result.micro
        result.pairs.append(
            PairProgress(
                a,
                b,
                compared=len(item.result.documents),
                done_by_both=done_by_both,
                f1=micro.f1,
                precision=micro.precision,
                recall=micro.recall,
                kappa=item.result.kappa_labelled.kappa,
            )
        )
    if progress is not None:
        progress(len(names) + 1, len(names) + 1)
    return result
