"""Scores of disjoint parts merged equal the scores of the whole corpus."""

from __future__ import annotations

import pytest

from annotator.evaluation.engine import Options, evaluate_pairs
from annotator.evaluation.loading import pair_documents
from annotator.evaluation.merge import merge_results
from annotator.synth.generator import generate_corpus


@pytest.mark.parametrize("match", ["strict", "relaxed", "overlap", "token", "tagblind"])
@pytest.mark.parametrize("cut", [1, 4, 9])
def test_merged_partitions_equal_the_whole(match: str, cut: int) -> None:
    corpus = generate_corpus(patients=6, seed=5)
    pairs = pair_documents(corpus.gold, corpus.annotator_b).pairs
    options = Options(match=match)
    whole = evaluate_pairs(pairs, options)
    parts = [evaluate_pairs(pairs[i : i + cut], options) for i in range(0, len(pairs), cut)]
    merged = merge_results(parts, options)
    assert merged.to_dict(include_text=True) == whole.to_dict(include_text=True)
    assert merged.kappa_labelled.kappa == whole.kappa_labelled.kappa
