"""K-fold cross-validation split by patient, and the recall-bias precision/recall curve.

Folds hold whole patients, never part of one, so a name seen in training never leaks into
the test fold through another record of the same patient. Each fold's predictions are
scored by the evaluation engine (:mod:`annotator.evaluation.engine`, strict entity match
at type level), and the same token scores are decoded again at every recall-bias
threshold, so the curve costs one tagging pass per fold.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from annotator.core.document import Document
from annotator.core.schema import Schema, load_schema
from annotator.crf.evidence import PhiEvidence
from annotator.crf.labels import Prediction
from annotator.crf.postprocess import postprocess_document
from annotator.crf.tagger import CrfTagger, ScoredDocument, TrainingCancelled
from annotator.errors import UsageError
from annotator.evaluation.counts import Counts, none_if_nan
from annotator.evaluation.engine import (
    DocumentPair,
    EvaluationResult,
    Item,
    Options,
    evaluate_pairs,
    item_from_annotation,
)

DEFAULT_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)

Progress = Callable[[int, int], None]
# Trains a fresh tagger on a fold's training notes (``annotator train --with-synthetic`` adds
# its synthetic notes there, never to the test fold).
Fit = Callable[[CrfTagger, Sequence[Document], Progress | None, Callable[[], bool] | None], object]


def _train(
    tagger: CrfTagger,
    documents: Sequence[Document],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> object:
    return tagger.train(documents, progress, cancelled)


# Progress steps per fold (training is the first nine tenths, scoring the last).
_STEPS = 1000


def patient_folds(documents: Sequence[Document], k: int, seed: int = 0) -> list[list[Document]]:
    """Split documents into ``k`` folds of whole patients (shuffled with ``seed``)."""
    patients = sorted({d.patient_id for d in documents})
    if k < 2:
        raise UsageError(f"cross-validation needs at least 2 folds, not {k}")
    if len(patients) < k:
        raise UsageError(
            f"{k}-fold cross-validation needs at least {k} patients; the gold has {len(patients)}"
        )
    random.Random(seed).shuffle(patients)
    fold_of = {patient: index % k for index, patient in enumerate(patients)}
    folds: list[list[Document]] = [[] for _ in range(k)]
    for document in documents:
        folds[fold_of[document.patient_id]].append(document)
    return folds


@dataclass
class CurvePoint:
    """Micro scores at one recall-bias threshold (``None``: no bias).

    ``precision``/``recall``/``f1`` are strict entity scores; ``token_precision`` and
    ``token_recall`` are tag-blind token scores (was each PHI token caught at all), the
    measure recall bias is meant to raise.
    """

    threshold: float | None
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    token_precision: float = float("nan")
    token_recall: float = float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "precision": none_if_nan(self.precision),
            "recall": none_if_nan(self.recall),
            "f1": none_if_nan(self.f1),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "token_precision": none_if_nan(self.token_precision),
            "token_recall": none_if_nan(self.token_recall),
        }


@dataclass
class CrossValidation:
    """Results of k-fold cross-validation.

    Attributes
    ----------
    folds: k.
    result: the engine's result over all test folds (strict entity, type level, no bias).
    curve: micro precision/recall at each recall-bias threshold (``None`` = no bias).
    fold_f1: micro F1 of each fold.
    """

    folds: int
    result: EvaluationResult
    curve: list[CurvePoint] = field(default_factory=list)
    fold_f1: list[float] = field(default_factory=list)

    @property
    def micro(self) -> Counts:
        return self.result.micro

    def to_dict(self) -> dict[str, Any]:
        micro = self.micro
        return {
            "folds": self.folds,
            "match": "strict",
            "level": "type",
            "micro": micro.to_dict(),
            "fold_f1": self.fold_f1,
            "per_type": {label: counts.to_dict() for label, counts in self.result.per_type.items()},
            "per_category": {label: counts.to_dict() for label, counts in self.result.per_category.items()},
            "recall_bias_curve": [point.to_dict() for point in self.curve],
        }


def _items(predictions: Sequence[Prediction], schema: Schema) -> list[Item]:
    return [
        Item(schema.category_of(p.type), p.type, p.start, p.end)
        for p in predictions
        if schema.has_type(p.type)
    ]


def _pairs(
    documents: Sequence[Document], predictions: dict[str, list[Prediction]], schema: Schema
) -> list[DocumentPair]:
    return [
        DocumentPair(
            d.doc_id,
            d.text,
            [item_from_annotation(a) for a in d.annotations if schema.has_type(a.type)],
            _items(predictions[d.doc_id], schema),
        )
        for d in documents
    ]


def decode_all(
    tagger: CrfTagger, scored: Sequence[ScoredDocument], recall_bias: float | None
) -> dict[str, list[Prediction]]:
    """Predictions of already-scored documents at one recall bias, post-processed."""
    allowed = {t.name for t in tagger.schema.types}
    by_id = {}
    evidence: dict[str, PhiEvidence] = {}
    for item in scored:
        spans = tagger.decode(item, recall_bias)
        if tagger.postprocess:
            evidence[item.document.doc_id] = beliefs = PhiEvidence()
            beliefs.extend(item.tokens, (score.p_outside for score in item.scores))
            spans = postprocess_document(
                item.document.text, item.tokens, spans, allowed, beliefs, tagger.memory
            )
        by_id[item.document.doc_id] = spans
    if tagger.postprocess:
        by_id = tagger.propagate_patients([s.document for s in scored], by_id, evidence)
    # Scored against a gold of the tagger's guideline: suggest what it tags.
    return tagger.follow_guideline([s.document for s in scored], by_id)


def evaluate_predictions(
    documents: Sequence[Document],
    predictions: dict[str, list[Prediction]],
    schema: Schema | None = None,
    match: str = "strict",
) -> EvaluationResult:
    """Compare predictions with the documents' gold (strict entity, type level by default)."""
    schema = schema or load_schema()
    return evaluate_pairs(
        _pairs(documents, predictions, schema), Options(match=match, level="type"), details=False
    )


def curve_point(
    documents: Sequence[Document],
    predictions: dict[str, list[Prediction]],
    schema: Schema,
    threshold: float | None,
) -> CurvePoint:
    """Strict entity and tag-blind token scores of one set of predictions."""
    micro = evaluate_predictions(documents, predictions, schema).micro
    tokens = evaluate_predictions(documents, predictions, schema, match="tagblind").micro
    return CurvePoint(
        threshold,
        micro.precision,
        micro.recall,
        micro.f1,
        micro.tp,
        micro.fp,
        micro.fn,
        tokens.precision,
        tokens.recall,
    )


@dataclass
class FoldOutcome:
    """One fold's test predictions at every recall-bias setting, and its strict micro F1."""

    index: int
    predictions: dict[float | None, dict[str, list[Prediction]]]
    f1: float


def run_fold(
    make_tagger: Callable[[], CrfTagger],
    fit: Fit,
    folds: Sequence[Sequence[Document]],
    index: int,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FoldOutcome:
    """Train a fresh tagger on every fold but ``index`` and tag that one.

    ``progress`` counts thousandths of the fold (training nine tenths of it). Module-level
    and picklable arguments: a worker process runs it as it runs here.
    """
    train = [d for j, fold in enumerate(folds) if j != index for d in fold]
    test = folds[index]
    tagger = make_tagger()

    def fold_progress(done: int, total: int) -> None:
        if progress is not None and total:
            progress(_STEPS * done // total * 9 // 10, _STEPS)

    try:
        fit(tagger, train, fold_progress, cancelled)
    except UsageError as error:
        # Said of the whole gold, a fold's refusal ("no annotation") would read as wrong.
        documents = sum(len(fold) for fold in folds)
        raise UsageError(
            f"cross-validation fold {index + 1} of {len(folds)} (trained on {len(train)} of the "
            f"{documents} documents): {error.message}; try fewer folds",
            error.path,
        ) from None
    scored = [tagger.score(d) for d in test]
    predictions = {setting: decode_all(tagger, scored, setting) for setting in (None, *thresholds)}
    f1 = evaluate_predictions(test, predictions[None], tagger.schema).micro.f1
    if progress is not None:
        progress(_STEPS, _STEPS)
    return FoldOutcome(index, predictions, f1)


def combine_folds(
    folds: Sequence[Sequence[Document]],
    outcomes: Sequence[FoldOutcome],
    schema: Schema,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
) -> CrossValidation:
    """The folds' predictions scored together, and the recall-bias curve."""
    settings: list[float | None] = [None, *thresholds]
    by_setting: dict[float | None, dict[str, list[Prediction]]] = {s: {} for s in settings}
    for outcome in sorted(outcomes, key=lambda o: o.index):
        for setting in settings:
            by_setting[setting].update(outcome.predictions[setting])
    all_documents = [d for fold in folds for d in fold]
    result = evaluate_predictions(all_documents, by_setting[None], schema)
    curve = [curve_point(all_documents, by_setting[setting], schema, setting) for setting in settings]
    return CrossValidation(len(folds), result, curve, [o.f1 for o in sorted(outcomes, key=lambda o: o.index)])


def cross_validate(
    documents: Sequence[Document],
    k: int = 5,
    make_tagger: Callable[[], CrfTagger] | None = None,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    seed: int = 0,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    fit: Fit = _train,
) -> CrossValidation:
    """Train on k-1 folds, test on the last, k times; score and trace the recall-bias curve.

    Parameters
    ----------
    make_tagger:
        Builds a fresh untrained tagger per fold (default: ``CrfTagger()``).
    thresholds:
        Recall-bias thresholds for the curve.
    progress:
        Called with (thousandths of the folds done, 1000 k): each fold's training moves it,
        so a bar advances steadily rather than in k jumps.
    fit:
        Trains a fold's tagger on the fold's training notes (default: :meth:`CrfTagger.train`).
    """
    make_tagger = make_tagger or CrfTagger
    folds = patient_folds(documents, k, seed)
    schema = make_tagger().schema
    outcomes = []
    for index in range(len(folds)):
        if cancelled is not None and cancelled():
            raise TrainingCancelled("cross-validation cancelled")

        def fold_progress(done: int, total: int, base: int = index * _STEPS) -> None:
            if progress is not None:
                progress(base + done, k * _STEPS)

        outcomes.append(run_fold(make_tagger, fit, folds, index, thresholds, fold_progress, cancelled))
    return combine_folds(folds, outcomes, schema, thresholds)
