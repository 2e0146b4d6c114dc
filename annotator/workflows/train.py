"""Train: the CRF pre-annotation tagger from a gold folder, optionally cross-validated first."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.core.atomic import atomic_write
from annotator.core.document import Document
from annotator.core.mapping import load_mapping
from annotator.core.schema import Schema, load_schema
from annotator.crf.crossval import CrossValidation, combine_folds, cross_validate, patient_folds, run_fold
from annotator.crf.guidelines import I2B2_2014, SAFE_HARBOR, check_guideline, tag_guideline_gaps
from annotator.crf.parallel import MAX_AUTO_WORKERS, auto_workers_allowed, run_calls
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
    #: processes for cross-validation's trainings (:func:`annotator.crf.parallel.run_calls`):
    #: the folds and the final model are trained side by side; None: one per core, up to 4
    workers: int | None = field(default=None, metadata={"identity": False})


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


@dataclass(frozen=True)
class _Recipe:
    """How each tagger of a run is made and trained; picklable, for worker processes."""

    schema: Schema
    request: TrainRequest
    synthetic: tuple[Document, ...]

    def make_tagger(self) -> CrfTagger:
        tagger = CrfTagger(
            self.schema,
            algorithm=TRAINING_ALGORITHM,
            max_iterations=TRAINING_ITERATIONS,
            postprocess=self.request.postprocess,
            private_features=self.request.keep_private_features,
        )
        if self.request.iterations is not None:
            tagger.max_iterations = self.request.iterations
        tagger.guideline = self.request.guideline
        return tagger

    def fit(
        self,
        tagger: CrfTagger,
        gold: Sequence[Document],
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> ModelMetadata:
        return fit_tagger(tagger, gold, self.synthetic, self.request.guideline, progress, cancelled)

    def train_final(
        self,
        documents: Sequence[Document],
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> tuple[CrfTagger, ModelMetadata]:
        tagger = self.make_tagger()
        return tagger, self.fit(tagger, documents, progress, cancelled)


# crfsuite holds every token it learns in memory: about 0.6 GB per million tokens (the long
# note benchmark in docs/preannotation.md), a token being about 5 characters, and a third of
# the notes learnt twice (their upper-cased copy); plus the process itself.
_TRAINING_BYTES_PER_CHARACTER = 0.6e9 / 1e6 / 5 * 4 / 3
_PROCESS_BYTES = 300e6


def default_training_workers(characters: int) -> int:
    """One process per core, up to four, and no more than the free memory holds trainings
    of ``characters`` of notes (each holds its notes' features in memory); one unless the
    program's entry point allowed more (:func:`annotator.crf.parallel.allow_auto_workers`)."""
    if not auto_workers_allowed():
        return 1
    workers = max(1, min(os.cpu_count() or 1, MAX_AUTO_WORKERS))
    free = available_memory()
    if free is not None:
        need = characters * _TRAINING_BYTES_PER_CHARACTER + _PROCESS_BYTES
        workers = max(1, min(workers, int(free // need)))
    return workers


def available_memory() -> int | None:
    """Bytes of memory available for new work now, where the system says (Linux); else None.

    Linux's ``MemAvailable`` counts the file cache it would give back; free pages alone
    (``sysconf``) would read a busy machine as full."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _train_side_by_side(
    recipe: _Recipe,
    documents: Sequence[Document],
    workers: int,
    progress: Progress | None,
    cancelled: Cancelled | None,
) -> tuple[CrossValidation, CrfTagger, ModelMetadata]:
    """The folds' trainings and the final model's, on ``workers`` processes at once: the
    same models one process trains one after another (crfsuite's training is deterministic)."""
    folds = patient_folds(documents, recipe.request.cv_folds)
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
        (run_fold, (recipe.make_tagger, recipe.fit, folds, index)) for index in range(len(folds))
    ]
    calls.append((recipe.train_final, (documents,)))
    results = run_calls(calls, workers, progress, cancelled, "training")
    cv = combine_folds(folds, results[:-1], recipe.schema)
    tagger, metadata = results[-1]
    return cv, tagger, metadata


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
    recipe = _Recipe(schema, request, tuple(synthetic))
    characters = sum(len(d.text) for d in (*documents, *synthetic))
    workers = request.workers if request.workers is not None else default_training_workers(characters)
    cv = None
    if request.cv_folds and workers > 1:
        cv, tagger, metadata = _train_side_by_side(recipe, documents, workers, progress, cancelled)
    else:
        if request.cv_folds:
            cv = cross_validate(
                documents,
                request.cv_folds,
                recipe.make_tagger,
                progress=progress,
                cancelled=cancelled,
                fit=recipe.fit,
            )
        tagger, metadata = recipe.train_final(documents, progress, cancelled)
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
