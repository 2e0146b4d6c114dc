"""The annotation queue: the notes an annotator has not started, the most uncertain first.

Every note the annotator has not started (no working copy, no recorded status: the rule the
document list uses) is scored by the tagger (least confidence per token, see
:mod:`annotator.crf.uncertainty`) and served most uncertain first. A note is *claimed*, and
left out, once as many other annotators as the project wants per note
(``annotators_per_document``, 1 by default) have started it. With ``queue_by_patient`` a
patient's notes are served together, in record order, patients ordered by the uncertainty of
all their waiting notes taken together (their doubt summed over their tokens).

Both faces call :func:`build_queue`: ``annotator queue`` prints it, the window's "Next by
priority" opens its first note. :func:`rank_notes` is the ordering alone (the simulation
benchmark uses it on notes in memory).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.document import Document, split_record_name
from annotator.core.project import Project
from annotator.crf.parallel import SHARDS_PER_WORKER, auto_workers, document_shards, map_shards
from annotator.crf.tagger import CrfTagger
from annotator.crf.uncertainty import NoteUncertainty, note_uncertainty, notes_uncertainty
from annotator.errors import AnnotatorError
from annotator.io.corpus import no_documents
from annotator.io.i2b2 import read_i2b2
from annotator.io.workstate import NOT_STARTED, WorkState, effective_status
from annotator.workflows.notes import Cancelled, Progress, check_cancel

MEASURE = "least confidence per token"
PROJECT_MODEL = "crf.model"


@dataclass(frozen=True)
class QueueRequest:
    """Rank ``annotator``'s waiting notes of ``project`` with ``model`` (None: the project's
    ``models/crf.model``, else the bundled default model) on ``workers`` processes (None: as
    many as pay off; the order is the same)."""

    project: Project
    annotator: str
    model: Path | None = None
    workers: int | None = None


@dataclass(frozen=True)
class QueueEntry:
    """One waiting note, in queue order (``rank`` 1 is served first)."""

    rank: int
    doc_id: str
    patient_id: str
    tokens: int
    characters: int
    expected_errors: float
    uncertainty: float


@dataclass
class QueueResult:
    """The queue, what was left out, and how it was ordered."""

    annotator: str
    model: Path
    by_patient: bool
    entries: list[QueueEntry]
    claimed: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    measure: str = MEASURE

    @property
    def next_doc_id(self) -> str | None:
        return self.entries[0].doc_id if self.entries else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "annotator": self.annotator,
            "model": str(self.model),
            "measure": self.measure,
            "by_patient": self.by_patient,
            "queue": [asdict(entry) for entry in self.entries],
            "claimed": list(self.claimed),
            "unreadable": list(self.unreadable),
        }


def project_model(project: Project) -> Path:
    """The tagger the queue and suggestions use: the project's own, else the bundled one."""
    own = project.models_dir / PROJECT_MODEL
    if own.is_file():
        return own
    from annotator.crf.default_model import resolve_model

    return resolve_model("default")


def waiting_notes(project: Project, annotator: str) -> tuple[list[str], list[str]]:
    """``(waiting, claimed)``: the notes ``annotator`` has not started, and those of them
    enough other annotators have started already."""
    state = WorkState.load(project)
    others = [name for name in project.annotators if name != annotator]

    def started(doc_id: str, name: str) -> bool:
        copy = not project.plain_folder and (project.annotations_dir(name) / f"{doc_id}.xml").is_file()
        return effective_status(state.status(doc_id, name), copy) != NOT_STARTED

    waiting: list[str] = []
    claimed: list[str] = []
    for doc_id in project.document_ids():
        if started(doc_id, annotator):
            continue
        if sum(started(doc_id, name) for name in others) >= project.annotators_per_document:
            claimed.append(doc_id)
        else:
            waiting.append(doc_id)
    return waiting, claimed


def rank_notes(scores: Iterable[NoteUncertainty], by_patient: bool = False) -> list[QueueEntry]:
    """Queue order: most uncertain first; with ``by_patient``, whole patients at a time."""
    scores = list(scores)
    if by_patient:
        groups: dict[str, list[NoteUncertainty]] = {}
        for score in scores:
            groups.setdefault(split_record_name(score.doc_id)[0], []).append(score)

        def patient_doubt(members: list[NoteUncertainty]) -> float:
            tokens = sum(s.tokens for s in members)
            return sum(s.expected_errors for s in members) / tokens if tokens else 0.0

        patients = sorted(groups, key=lambda p: (-patient_doubt(groups[p]), p))
        ordered = [s for p in patients for s in sorted(groups[p], key=_record_order)]
    else:
        ordered = sorted(scores, key=lambda s: (-s.per_token, _record_order(s)))
    return [
        QueueEntry(
            rank,
            s.doc_id,
            split_record_name(s.doc_id)[0],
            s.tokens,
            s.characters,
            round(s.expected_errors, 6),
            round(s.per_token, 6),
        )
        for rank, s in enumerate(ordered, start=1)
    ]


def _record_order(score: NoteUncertainty) -> tuple[str, int, str]:
    patient, record = split_record_name(score.doc_id)
    return patient, record, score.doc_id


def score_notes(
    tagger: CrfTagger,
    documents: Sequence[Document],
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    workers: int | None = None,
) -> list[NoteUncertainty]:
    """Each note's uncertainty, on ``workers`` processes (None: as many as pay off)."""
    workers = auto_workers(documents) if workers is None else workers
    if workers > 1 and len(documents) > 1:
        shards = document_shards(documents, workers * SHARDS_PER_WORKER)
        found = map_shards(tagger, shards, notes_uncertainty, None, workers, progress, cancelled, "ranking")
        return [found[d.doc_id] for d in documents]
    scores = []
    for done, document in enumerate(documents, start=1):
        check_cancel(cancelled, "ranking")
        scores.append(note_uncertainty(tagger, document))
        if progress is not None:
            progress(done, len(documents))
    return scores


def build_queue(
    request: QueueRequest,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    tagger: CrfTagger | None = None,
) -> QueueResult:
    """Score the annotator's waiting notes and order them (``tagger``: one already loaded)."""
    project = request.project
    model = request.model or project_model(project)
    project.require_source()
    if not project.document_ids():
        # "0 note(s) not started" would read as a finished project.
        raise no_documents(project.source_dir)
    if tagger is None:
        tagger = CrfTagger.load(model)
    waiting, claimed = waiting_notes(project, request.annotator)
    documents = []
    unreadable = []
    for doc_id in waiting:
        try:
            documents.append(read_i2b2(project.source_dir / f"{doc_id}.xml"))
        except AnnotatorError:
            unreadable.append(doc_id)  # listed, not queued; opening it says what is wrong
    scores = score_notes(tagger, documents, progress, cancelled, request.workers)
    entries = rank_notes(scores, project.queue_by_patient)
    return QueueResult(request.annotator, model, project.queue_by_patient, entries, claimed, unreadable)
