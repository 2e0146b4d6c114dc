"""IAA: agreement between two or more annotators' folders, optionally each against gold."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.adjudication.versions import drop_pending
from annotator.errors import InputError, UsageError, printable_path
from annotator.evaluation.iaa import AgreementReport, PairAgreement, agreement
from annotator.evaluation.loading import labels_of, read_folder, refuse_unscorable
from annotator.io.pairing import align_annotator_prefixes
from annotator.workflows.inputs import require_documents
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress, check_cancel
from annotator.workflows.scoring import ScoringRequest


@dataclass(frozen=True)
class IaaRequest:
    """Compare the annotators of ``folders`` (two or more) with each other and with ``gold``."""

    folders: tuple[Path, ...]
    gold: Path | None = None
    scoring: ScoringRequest = field(default_factory=ScoringRequest)

    @property
    def inputs(self) -> tuple[Path, ...]:
        """The folders read: a report is never written onto or inside them."""
        return (*self.folders, *((self.gold,) if self.gold is not None else ()))


@dataclass
class IaaResult:
    """The agreement report, the annotators' display names, and notes."""

    report: AgreementReport
    names: list[str]
    notes: list[Note] = field(default_factory=list)


def annotator_names(folders: Sequence[Path]) -> list[str]:
    """Folder names, or whole paths when two folders share a name."""
    names = [printable_path(folder.resolve().name or str(folder)) for folder in folders]
    if len(set(names)) < len(names):
        names = [printable_path(folder) for folder in folders]
    return names


def inter_annotator_agreement(
    request: IaaRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> IaaResult:
    """Pairwise agreement (each pair on the documents both have) and each annotator vs gold."""
    if len(request.folders) < 2:
        raise UsageError("give at least two annotator folders")
    options = request.scoring.options()
    mapping = request.scoring.mapping_chain()
    if len({Path(folder).resolve() for folder in request.folders}) < len(request.folders):
        raise UsageError("the same annotator folder is given twice; give each annotator's folder once")
    names = annotator_names(request.folders)
    for folder in [*request.folders, *([request.gold] if request.gold else [])]:
        require_documents(Path(folder))
    annotations = {name: read_folder(folder) for name, folder in zip(names, request.folders, strict=True)}
    for documents in annotations.values():
        for document in documents:
            drop_pending(document)  # the model's unreviewed suggestions are nobody's judgement
    gold = read_folder(request.gold) if request.gold else None
    align_annotator_prefixes(list(annotations.values()))  # MedTator's A_doc / B_doc names
    check_cancel(cancelled, "agreement")
    report = agreement(annotations, gold, options, mapping, progress)
    # A comparison with nothing to score (every shared document's TEXT differs) is refused.
    folder_of = dict(zip(names, request.folders, strict=True))
    for item in report.pairs:
        refuse_unscorable(
            item.text_differs,
            item.result.documents,
            folder_of[item.reference],
            folder_of[item.predicted],
            ("annotator", "annotator"),
        )
    if request.gold is None:  # with gold, each annotator is still compared with it
        _refuse_nothing_in_common(report.pairs, folder_of)
    for item in report.versus_gold:
        assert request.gold is not None
        refuse_unscorable(
            item.text_differs,
            item.result.documents,
            request.gold,
            folder_of[item.predicted],
            ("gold", "annotator"),
        )
    notes = [
        Note(NoteKind.TEXT_DIFFERS, doc_id, detail=f"{item.reference} vs {item.predicted}")
        for item in [*report.pairs, *report.versus_gold]
        for doc_id in item.text_differs
    ]
    if gold is not None:
        gold_ids = {d.doc_id for d in gold}
        for name, documents in annotations.items():
            lacking = len(gold_ids - {d.doc_id for d in documents})
            if lacking:
                notes.append(Note(NoteKind.NOT_ANNOTATED, name, count=lacking))
    every = [document for documents in annotations.values() for document in documents]
    notes += request.scoring.exclusion_notes(labels_of([*every, *(gold or [])]))
    return IaaResult(report, names, notes)


def _refuse_nothing_in_common(pairs: Sequence[PairAgreement], folder_of: dict[str, Path]) -> None:
    """Refuse folders no two of which share a file name: every figure would be n/a over 0 documents.

    One pair without shared documents is normal (annotators given different notes); all of them
    is the wrong folders.
    """
    if not pairs or any(item.result.documents or item.text_differs for item in pairs):
        return
    folders = ", ".join(printable_path(folder) for folder in folder_of.values())
    raise InputError(
        f"no two of the annotator folders {folders} have a document in common (documents are paired "
        "by file name); nothing to compare",
        next(iter(folder_of.values())),
    )
