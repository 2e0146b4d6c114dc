"""Pre-annotate: add CRF suggestions to notes, never changing or removing an existing tag.

Three uses, one tagger path: files to files (``annotator preannotate``), every document of
a project that no annotator has started (the GUI's Model menu writes
``preannotations/<doc>.xml``), and one open document in memory (the GUI adds the
suggestions as one undo step).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.limits import refuse_long_notes
from annotator.core.project import PROJECT_FILE, Project
from annotator.crf.guidelines import I2B2_2014, check_guideline
from annotator.crf.parallel import auto_workers
from annotator.crf.preannotation import Suggestions, add_suggestions, suggest
from annotator.crf.tagger import MARGINAL_CEILING, CrfTagger
from annotator.errors import AnnotatorError, InputError, UsageError
from annotator.io.corpus import list_document_files, no_documents
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.outputs import plan_files, publishing
from annotator.io.publish import job_identity
from annotator.io.site_lists import read_site_lists
from annotator.io.workstate import NOT_STARTED, WorkState
from annotator.workflows.notes import Cancelled, Progress, check_cancel


@dataclass(frozen=True)
class PreannotateRequest:
    """Tag each of ``inputs`` with the tagger ``model`` and write it to the matching output.

    ``force`` lets existing output files be replaced; an input is never overwritten.
    """

    model: Path
    inputs: tuple[Path, ...]
    outputs: tuple[Path, ...]
    recall_bias: float | None = None
    force: bool = False
    #: the inputs are a folder's notes: no output may go inside that folder
    source_folder: bool = False
    #: what the gold tags (:mod:`annotator.crf.guidelines`): only that is suggested
    guideline: str = I2B2_2014
    #: the site's own names and places (:mod:`annotator.crf.site_lists`), a file or a folder
    site_lists: Path | None = None
    #: processes to tag with (:mod:`annotator.crf.parallel`); None: as many as pay off
    workers: int | None = field(default=None, metadata={"identity": False})


@dataclass(frozen=True)
class DocumentSuggestions:
    doc_id: str
    output: Path
    suggestions: int
    dropped: int


@dataclass
class PreannotateResult:
    model: Path
    recall_bias: float | None
    guideline: str = I2B2_2014
    documents: list[DocumentSuggestions] = field(default_factory=list)
    #: how many phrases the site's lists held (0 without lists)
    site_phrases: int = 0

    @property
    def suggestions(self) -> int:
        return sum(d.suggestions for d in self.documents)

    @property
    def dropped(self) -> int:
        return sum(d.dropped for d in self.documents)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": str(self.model),
            "recall_bias": self.recall_bias,
            "guideline": self.guideline,
            "site_list_phrases": self.site_phrases,
            "documents": len(self.documents),
            "suggestions": self.suggestions,
            "dropped_overlapping": self.dropped,
            "per_document": [
                {
                    "document": d.doc_id,
                    "output": str(d.output),
                    "suggestions": d.suggestions,
                    "dropped": d.dropped,
                }
                for d in self.documents
            ],
        }


def files_request(
    model: Path,
    source: Path,
    output: Path,
    recall_bias: float | None = None,
    force: bool = False,
    guideline: str | None = None,
    site_lists: Path | None = None,
) -> PreannotateRequest:
    """``source`` (a file, a folder of i2b2 files or a project) to ``output`` (a file or a folder).

    A project gives its notes (``source/``) and, unless they are given here, its guideline and
    site lists, as its window's pre-annotation would use them; else the guideline is i2b2 2014.
    """
    if source.is_dir() and (source / PROJECT_FILE).is_file():
        project = Project.open(source)
        if output.resolve() == project.source_dir.resolve():
            raise UsageError(
                "OUT is the project's notes folder; pre-annotation never overwrites its input", output
            )
        guideline = guideline or project.guideline
        site_lists = site_lists or project.site_lists_path
        source = project.source_dir
    guideline = guideline or I2B2_2014
    if source.is_dir():
        if output.exists() and not output.is_dir():
            raise UsageError("IN is a folder, so OUT must be a folder", output)
        if output.resolve() == source.resolve():
            raise UsageError("OUT is the input folder; pre-annotation never overwrites its input", output)
        inputs = list_document_files(source)
        if not inputs:
            raise no_documents(source)
        return PreannotateRequest(
            model,
            tuple(inputs),
            tuple(output / p.name for p in inputs),
            recall_bias,
            force,
            source_folder=True,
            guideline=check_guideline(guideline),
            site_lists=site_lists,
        )
    target = output / source.name if output.is_dir() else output
    if target.resolve() == source.resolve():
        raise UsageError("OUT is the input file; pre-annotation never overwrites its input", output)
    return PreannotateRequest(
        model,
        (source,),
        (target,),
        recall_bias,
        force,
        guideline=check_guideline(guideline),
        site_lists=site_lists,
    )


def not_started_documents(project: Project, annotator: str | None = None) -> list[str]:
    """Ids of the source documents not started.

    With ``annotator``: those the annotator has neither a working copy of nor a recorded
    status for, the documents their list shows as not started (the same rule,
    :func:`~annotator.io.workstate.effective_status`). Without: those nobody has started.
    """
    if project.plain_folder:
        return []
    names = [annotator] if annotator is not None else list(project.annotators)
    annotations_root = project.root / "annotations"
    if annotator is not None:
        copies = project.annotations_dir(annotator).glob("*.xml")  # a name is never a pattern
    else:
        copies = annotations_root.glob("*/*.xml")
    started = {p.stem for p in copies}
    try:
        state = WorkState.load(project)
        for name in names:
            started |= {doc for doc, status in state.statuses(name).items() if status != NOT_STARTED}
    except AnnotatorError:
        pass  # no readable work state yet: only the working copies tell who started what
    return [doc_id for doc_id in project.document_ids() if doc_id not in started]


def project_request(
    project: Project, model: Path, recall_bias: float | None = None, guideline: str | None = None
) -> PreannotateRequest:
    """Every document nobody has started, from ``source/`` to ``preannotations/`` (replacing
    older ones), with the project's site lists and, unless ``guideline`` says otherwise, its
    guideline.

    ``preannotations/`` is shared: a note someone has started keeps the suggestions they were
    shown, or their review of them (the effort report, agreement by origin) would be measured
    against suggestions they never saw."""
    doc_ids = not_started_documents(project)
    return PreannotateRequest(
        model,
        tuple(project.source_dir / f"{doc_id}.xml" for doc_id in doc_ids),
        tuple(project.preannotations_dir / f"{doc_id}.xml" for doc_id in doc_ids),
        recall_bias,
        force=True,
        guideline=check_guideline(guideline or project.guideline),
        site_lists=project.site_lists_path,
    )


def _check_bias(recall_bias: float | None) -> None:
    if recall_bias is not None and not 0 < recall_bias <= MARGINAL_CEILING:
        raise UsageError(f"--recall-bias must be in (0, {MARGINAL_CEILING}]")


def preannotate(
    request: PreannotateRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> PreannotateResult:
    """Read every input, tag them (patients together), then write every output.

    A bad input file stops the run before anything is written; so does a cancel.
    """
    _check_bias(request.recall_bias)
    # Neither a note nor the model is ever written over, and no output lands in an input folder.
    input_folders = {p.parent for p in request.inputs} if request.source_folder else set()
    plan = plan_files(
        request.outputs,
        inputs=[*request.inputs, request.model, *input_folders, *filter(None, [request.site_lists])],
        force=request.force,
        job=job_identity(request),
    )
    tagger = load_tagger(request.model, request.guideline, request.site_lists)
    documents = [read_i2b2(p) for p in request.inputs]
    _refuse_shared_ids(documents, request.inputs)
    workers = request.workers if request.workers is not None else auto_workers(documents)
    results = tag_documents(tagger, documents, request.recall_bias, progress, cancelled, workers)
    outcome = PreannotateResult(request.model, request.recall_bias, request.guideline)
    outcome.site_phrases = len(tagger.site_lists) if tagger.site_lists is not None else 0
    with publishing(plan) as staged:
        for result, target in zip(results, plan.targets, strict=True):
            write_i2b2(result.document, staged(target))
            outcome.documents.append(
                DocumentSuggestions(result.document.doc_id, target, len(result.kept), result.dropped)
            )
    return outcome


def _refuse_shared_ids(documents: Sequence[Document], paths: Sequence[Path]) -> None:
    """An :class:`InputError` when two files hold one document id (``100-01.xml`` and
    ``100-01.XML``): the tagger keeps a note's suggestions by its id, and one note's would be
    written into the other, at offsets that hold other words."""
    first: dict[str, Path] = {}
    for document, path in zip(documents, paths, strict=True):
        other = first.setdefault(document.doc_id, path)
        if other != path:
            raise InputError(f"the same document id {document.doc_id} as {other.name}; rename one", path)


def load_tagger(model: Path, guideline: str = I2B2_2014, site_lists: Path | None = None) -> CrfTagger:
    """The tagger ``model`` set up for a run: the gold's guideline, the site's lists."""
    tagger = CrfTagger.load(model)
    tagger.guideline = check_guideline(guideline)
    if site_lists is not None:
        tagger.site_lists = read_site_lists(site_lists, tagger.schema)
    return tagger


def tag_documents(
    tagger: CrfTagger,
    documents: Sequence[Document],
    recall_bias: float | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    workers: int = 1,
) -> list[Suggestions]:
    """Add the tagger's suggestions to documents (patients together), in place.

    The step every face shares: this command, the GUI's Model menu and each partition of
    ``annotator batch preannotate``. ``workers`` > 1: that many processes, whole patients each.
    """
    _check_bias(recall_bias)
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    refuse_long_notes(documents, "pre-annotation")
    results = suggest(tagger, documents, recall_bias, progress, cancelled, workers)
    check_cancel(cancelled, "pre-annotation")
    for result in results:
        add_suggestions(result.document, result.kept)
    return results


def suggest_for_document(
    model: Path,
    document: Document,
    recall_bias: float | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    guideline: str = I2B2_2014,
    site_lists: Path | None = None,
) -> list[Annotation]:
    """The tagger's raw suggestions for one document (a snapshot: it is not changed).

    The caller drops those overlapping the document as it is by then
    (:func:`annotator.crf.preannotation.non_overlapping`): it may have been edited meanwhile.
    """
    _check_bias(recall_bias)
    refuse_long_notes([document], "pre-annotation")
    tagger = load_tagger(model, guideline, site_lists)
    suggestions = tagger.predict_corpus([document], recall_bias, progress, cancelled)[document.doc_id]
    check_cancel(cancelled, "pre-annotation")
    return suggestions
