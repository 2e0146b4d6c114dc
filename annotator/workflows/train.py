"""Train: the CRF pre-annotation tagger from a gold folder, optionally cross-validated first."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.core.mapping import load_mapping
from annotator.core.schema import Schema, load_schema
from annotator.crf.crossval import CrossValidation, cross_validate
from annotator.crf.phi_memory import PhiMemory
from annotator.crf.tagger import TRAINING_ALGORITHM, TRAINING_ITERATIONS, CrfTagger, ModelMetadata
from annotator.errors import UsageError
from annotator.io.corpus import no_documents, read_corpus
from annotator.io.outputs import plan_files, publishing
from annotator.io.publish import job_identity
from annotator.workflows.inputs import require_folder
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress


@dataclass(frozen=True)
class TrainRequest:
    """Learn ``schema``'s types from ``gold_dir`` and save the tagger as ``model``.

    ``cv_folds`` >= 2 runs K-fold cross-validation by patient first; ``mapping`` maps the
    gold's annotations into the schema; ``iterations`` overrides the training epochs. An
    existing model file is replaced only with ``force`` (the GUI's retrain sets it: replacing
    is its point; ``annotator train`` needs ``--force``). ``keep_private_features``
    lets the model's features name rare tokens of the gold (names, record numbers): such a
    model must never leave the site.
    """

    gold_dir: Path
    model: Path
    schema: Schema | str = "i2b2-2014"
    mapping: str | None = None
    iterations: int | None = None
    cv_folds: int = 0
    postprocess: bool = True
    keep_private_features: bool = False
    force: bool = True


@dataclass
class TrainResult:
    gold_dir: Path
    model: Path
    documents: int
    metadata: ModelMetadata
    schema: str
    cross_validation: CrossValidation | None = None
    notes: list[Note] = field(default_factory=list)
    # The names and places the model remembers (with --keep-private-features).
    memory: PhiMemory = field(default_factory=PhiMemory)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "gold": str(self.gold_dir),
            "model": str(self.model),
            "documents": self.documents,
            "remembered_phrases": len(self.memory),
        }
        if self.cross_validation is not None:
            data["cross_validation"] = self.cross_validation.to_dict()
        data["metadata"] = {k: v for k, v in self.metadata.to_dict().items() if k != "categories"}
        return data


def train(
    request: TrainRequest, progress: Progress | None = None, cancelled: Cancelled | None = None
) -> TrainResult:
    """Train (after cross-validating, if asked) and save the model atomically.

    Progress restarts for each phase (cross-validation, then training).
    """
    gold_dir = require_folder(request.gold_dir)
    if request.model.is_dir():
        raise UsageError("is a folder; give the model file to write", request.model)
    if request.cv_folds == 1 or request.cv_folds < 0:
        raise UsageError("--cv needs at least 2 folds")
    if request.iterations is not None and request.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    # Never onto a gold note nor inside the gold folder; an existing model only with force.
    plan = plan_files(
        [request.model],
        inputs=[gold_dir],
        force=request.force,
        job=job_identity(request),
        input_clash="would overwrite an input; choose another model file",
        exists_clash="the model file exists already (use --force to overwrite)",
    )
    schema = request.schema if isinstance(request.schema, Schema) else load_schema(request.schema)
    documents: list[Document] = read_corpus(gold_dir).documents
    if not documents:
        raise no_documents(gold_dir)
    if request.mapping:
        mapping = load_mapping(request.mapping)
        documents = [Document(d.doc_id, d.text, mapping.map_annotations(d.annotations)) for d in documents]

    def make_tagger() -> CrfTagger:
        tagger = CrfTagger(
            schema,
            algorithm=TRAINING_ALGORITHM,
            max_iterations=TRAINING_ITERATIONS,
            postprocess=request.postprocess,
            private_features=request.keep_private_features,
        )
        if request.iterations is not None:
            tagger.max_iterations = request.iterations
        return tagger

    cv = None
    if request.cv_folds:
        cv = cross_validate(documents, request.cv_folds, make_tagger, progress=progress, cancelled=cancelled)
    tagger = make_tagger()
    metadata = tagger.train(documents, progress, cancelled)
    with publishing(plan) as staged:
        atomic_write(staged(request.model), tagger.to_bytes())
    notes = []
    if metadata.skipped_annotations:
        notes.append(
            Note(NoteKind.UNKNOWN_TYPES_SKIPPED, count=metadata.skipped_annotations, detail=schema.name)
        )
    return TrainResult(
        gold_dir, request.model, len(documents), metadata, schema.name, cv, notes, tagger.memory
    )
