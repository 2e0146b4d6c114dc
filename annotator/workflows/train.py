"""Train: the CRF pre-annotation tagger from a gold folder, optionally cross-validated first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.core.mapping import load_mapping
from annotator.core.schema import Schema, load_schema
from annotator.crf.crossval import CrossValidation, cross_validate
from annotator.crf.guidelines import I2B2_2014, SAFE_HARBOR, check_guideline, tag_guideline_gaps
from annotator.crf.phi_memory import PhiMemory
from annotator.crf.tagger import TRAINING_ALGORITHM, TRAINING_ITERATIONS, CrfTagger, ModelMetadata
from annotator.errors import UsageError
from annotator.io.corpus import no_documents, read_corpus
from annotator.io.outputs import plan_files, publishing
from annotator.io.publish import job_identity
from annotator.workflows.default_model import synthetic_training_notes
from annotator.workflows.inputs import require_folder
from annotator.workflows.notes import Cancelled, Note, NoteKind, Progress

# The tag set of the synthetic notes (--with-synthetic).
SYNTHETIC_SCHEMA = "i2b2-2014"

# Far beyond any use (the default is 60; L-BFGS converges in a few hundred).
MAX_ITERATIONS = 100_000
MAX_FOLDS = 100


@dataclass(frozen=True)
class TrainRequest:
    """Learn ``schema``'s types from ``gold_dir`` and save the tagger as ``model``.

    ``cv_folds`` >= 2 runs K-fold cross-validation by patient first; ``mapping`` maps the
    gold's annotations into the schema; ``iterations`` overrides the training epochs. An
    existing model file is replaced only with ``force`` (the GUI's retrain sets it: replacing
    is its point; ``annotator train`` needs ``--force``). ``keep_private_features``
    lets the model's features name rare tokens of the gold (names, record numbers): such a
    model must never leave the site.

    ``with_synthetic`` adds the synthetic notes the bundled model learnt from (three
    styles) to the gold, as the bundled model adds them to the PhysioNet notes: a site
    with a few annotated patients starts where the bundled model stands instead of from
    nothing (``synthetic_scale`` shrinks them, for tests). ``guideline`` is what the gold
    tags: cross-validation suggests only that, and with the synthetic notes a Safe Harbor
    gold is learnt with its young ages and weekdays tagged, as the synthetic notes tag them,
    so the model learns one convention (``annotator preannotate --guideline safe-harbor``
    then leaves them out again).
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
    with_synthetic: bool = False
    synthetic_scale: float = 1.0
    guideline: str = I2B2_2014


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
    # Synthetic notes learnt beside the gold (--with-synthetic).
    synthetic_documents: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "gold": str(self.gold_dir),
            "model": str(self.model),
            "documents": self.documents,
            "synthetic_documents": self.synthetic_documents,
            "remembered_phrases": len(self.memory),
        }
        if self.cross_validation is not None:
            data["cross_validation"] = self.cross_validation.to_dict()
        data["metadata"] = {k: v for k, v in self.metadata.to_dict().items() if k != "categories"}
        return data


def fit_tagger(
    tagger: CrfTagger,
    gold: Sequence[Document],
    synthetic: Sequence[Document] = (),
    guideline: str = I2B2_2014,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> ModelMetadata:
    """Train ``tagger`` on the gold, after the synthetic notes when given (``--with-synthetic``).

    With synthetic notes, a Safe Harbor gold is learnt with what our i2b2 guidelines tag
    tagged, as the synthetic notes are (one convention to learn), and the memory names the
    gold's places and clinicians only, never the synthetic notes'.
    """
    if not synthetic:
        return tagger.train(gold, progress, cancelled)
    fitted = [tag_guideline_gaps(d) for d in gold] if guideline == SAFE_HARBOR else list(gold)
    # The bundled model's order: synthetic notes first (which notes get an upper-case copy
    # follows the order).
    metadata = tagger.train([*synthetic, *fitted], progress, cancelled)
    tagger.memory = PhiMemory.learn(gold, tagger.schema) if tagger.remember_phi else PhiMemory()
    return metadata


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
    if request.cv_folds > MAX_FOLDS:
        raise UsageError(f"--cv is at most {MAX_FOLDS} folds")
    # crfsuite keeps the count in 32 bits: 2**32 + 5 ran 5 iterations and said nothing.
    if request.iterations is not None and not 1 <= request.iterations <= MAX_ITERATIONS:
        raise UsageError(f"--iterations must be from 1 to {MAX_ITERATIONS:,}")
    check_guideline(request.guideline)
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
    if request.with_synthetic and schema.name != SYNTHETIC_SCHEMA:
        raise UsageError(
            f"--with-synthetic needs the {SYNTHETIC_SCHEMA} schema (the synthetic notes are tagged in it), "
            f"not {schema.name}"
        )
    documents: list[Document] = read_corpus(gold_dir).documents
    if not documents:
        raise no_documents(gold_dir)
    if request.mapping:
        mapping = load_mapping(request.mapping)
        documents = [Document(d.doc_id, d.text, mapping.map_annotations(d.annotations)) for d in documents]

    synthetic = synthetic_training_notes(request.synthetic_scale) if request.with_synthetic else []

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
        tagger.guideline = request.guideline
        return tagger

    def fit(
        tagger: CrfTagger, gold: Sequence[Document], progress: Progress | None, cancelled: Cancelled | None
    ) -> ModelMetadata:
        return fit_tagger(tagger, gold, synthetic, request.guideline, progress, cancelled)

    cv = None
    if request.cv_folds:
        cv = cross_validate(
            documents, request.cv_folds, make_tagger, progress=progress, cancelled=cancelled, fit=fit
        )
    tagger = make_tagger()
    metadata = fit(tagger, documents, progress, cancelled)
    with publishing(plan) as staged:
        atomic_write(staged(request.model), tagger.to_bytes())
    notes = []
    if metadata.skipped_annotations:
        notes.append(
            Note(NoteKind.UNKNOWN_TYPES_SKIPPED, count=metadata.skipped_annotations, detail=schema.name)
        )
    return TrainResult(
        gold_dir,
        request.model,
        len(documents),
        metadata,
        schema.name,
        cv,
        notes,
        tagger.memory,
        len(synthetic),
    )
