"""Inter-annotator agreement with the same engine as model evaluation.

* every ordered pair of annotators: A as reference and B as prediction gives P, R and F1;
  exchanging them swaps P and R, and F1 (the symmetric figure) stays the same;
* every annotator against the gold standard, and the average of those scores, which is how
  the 2014 i2b2 corpus paper (seed 001, section 6) reports agreement;
* a 95% confidence interval of each micro F1, resampling documents
  (:mod:`annotator.evaluation.bootstrap`);
* Cohen's kappa on tokens with true negatives (every token of the text counts, so kappa is
  not degenerate the way a kappa over annotated spans only is). F1 stays the primary
  measure for span annotation: the number of non-PHI tokens is arbitrary and large, so
  kappa mostly reflects how much unannotated text a note has.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from annotator.core.document import Document
from annotator.core.mapping import Mapping as TagMapping
from annotator.evaluation.counts import NAN, none_if_nan
from annotator.evaluation.engine import EvaluationResult, Options, evaluate_pairs
from annotator.evaluation.loading import pair_documents


@dataclass
class PairAgreement:
    """Annotator ``reference`` taken as reference, ``predicted`` as prediction."""

    reference: str
    predicted: str
    result: EvaluationResult
    #: ids of the documents left out because the two sides' TEXT differs
    text_differs: list[str] = field(default_factory=list)

    @cached_property
    def f1_interval(self) -> tuple[float, float] | None:
        """The 95% bootstrap interval of the micro F1 (documents resampled), or None."""
        return self.result.micro_f1_interval()

    def to_dict(self) -> dict[str, object]:
        micro = self.result.micro
        return {
            "reference": self.reference,
            "predicted": self.predicted,
            "documents": len(self.result.documents),
            **micro.to_dict(self.result.options.beta),
            "f1_interval": list(self.f1_interval) if self.f1_interval is not None else None,
            "kappa_tokens": none_if_nan(self.result.kappa_labelled.kappa),
            "kappa_tokens_tagblind": none_if_nan(self.result.kappa_tagblind.kappa),
            "macro": self.result.macro_dict(),
            "per_category": {
                name: counts.to_dict(self.result.options.beta)
                for name, counts in self.result.per_category.items()
            },
            "skipped": list(self.result.skipped),
        }


@dataclass
class AgreementReport:
    """Pairwise agreement between annotators, and each against gold when given."""

    annotators: list[str]
    options: Options
    pairs: list[PairAgreement] = field(default_factory=list)
    versus_gold: list[PairAgreement] = field(default_factory=list)

    def pair(self, a: str, b: str) -> PairAgreement:
        for item in self.pairs:
            if (item.reference, item.predicted) == (a, b):
                return item
        raise KeyError((a, b))

    def matrix(self) -> list[list[float]]:
        """Symmetric micro-F1 matrix in annotator order (1.0 on the diagonal)."""
        index = {name: i for i, name in enumerate(self.annotators)}
        size = len(self.annotators)
        out = [[1.0 if i == j else NAN for j in range(size)] for i in range(size)]
        for item in self.pairs:
            f1 = item.result.micro.f1
            out[index[item.reference]][index[item.predicted]] = f1
            out[index[item.predicted]][index[item.reference]] = f1
        return out

    def average_versus_gold(self) -> dict[str, float]:
        """Mean of the annotators' micro P, R, F1 (and F-beta) against gold."""
        if not self.versus_gold:
            return {}
        beta = self.options.beta
        keys = {"precision": [], "recall": [], "f1": [], "f_beta": []}  # type: dict[str, list[float]]
        for item in self.versus_gold:
            micro = item.result.micro
            keys["precision"].append(micro.precision)
            keys["recall"].append(micro.recall)
            keys["f1"].append(micro.f1)
            keys["f_beta"].append(micro.f_beta(beta))
        if beta == 1.0:
            del keys["f_beta"]
        return {
            k: (math.fsum(v) / len(v) if not any(math.isnan(x) for x in v) else NAN) for k, v in keys.items()
        }

    def average_pairwise_f1(self) -> float:
        values = [item.result.micro.f1 for item in self.pairs]
        return math.fsum(values) / len(values) if values and not any(math.isnan(v) for v in values) else NAN

    def to_dict(self) -> dict[str, object]:
        return {
            "schema": "phi-annotator/iaa/1",
            "annotators": list(self.annotators),
            "options": {"match": self.options.match, "level": self.options.level, "beta": self.options.beta},
            "pairs": [p.to_dict() for p in self.pairs],
            "f1_matrix": [[none_if_nan(v) for v in row] for row in self.matrix()],
            "average_pairwise_f1": none_if_nan(self.average_pairwise_f1()),
            "versus_gold": [p.to_dict() for p in self.versus_gold],
            "average_versus_gold": {k: none_if_nan(v) for k, v in self.average_versus_gold().items()},
        }


def agreement(
    annotations: Mapping[str, Sequence[Document]],
    gold: Sequence[Document] | None = None,
    options: Options | None = None,
    mapping: TagMapping | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> AgreementReport:
    """Pairwise agreement of two or more annotators, and each against gold.

    Every comparison is on the documents both sides have: a document an annotator has not
    done yet is no disagreement with another annotator, nor a miss against gold (an
    unfinished annotator would otherwise score as if they had found nothing there; the
    workflow says how many gold documents each annotator lacks).
    """
    options = options or Options()
    names = list(annotations)
    report = AgreementReport(names, options)
    jobs = len(names) * (len(names) - 1) // 2 + (len(names) if gold is not None else 0)
    done = 0
    for a, b in itertools.combinations(names, 2):
        loaded = pair_documents(annotations[a], annotations[b], mapping, intersection_only=True)
        result = evaluate_pairs(loaded.pairs, options)
        result.skipped = list(loaded.skipped)
        report.pairs.append(PairAgreement(a, b, result, list(loaded.text_differs)))
        done += 1
        if progress is not None:
            progress(done, jobs)
    if gold is not None:
        gold_ids = {d.doc_id for d in gold}
        for name in names:
            docs = [d for d in annotations[name] if d.doc_id in gold_ids]
            loaded = pair_documents(gold, docs, mapping, intersection_only=True)
            result = evaluate_pairs(loaded.pairs, options)
            result.skipped = list(loaded.skipped)
            report.versus_gold.append(PairAgreement("gold", name, result, list(loaded.text_differs)))
            done += 1
            if progress is not None:
                progress(done, jobs)
    return report
