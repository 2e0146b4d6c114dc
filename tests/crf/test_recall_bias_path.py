"""Recall bias on the path the CLI and the GUI use (predict_spans), and the relabelled confidence."""

from __future__ import annotations

import pytest

from annotator.core.document import Document
from annotator.crf.labels import OUTSIDE
from annotator.crf.tagger import CrfTagger


def tagged_tokens(spans: dict[str, list], documents: list[Document]) -> int:  # type: ignore[type-arg]
    return sum(span.end - span.start for doc_id in spans for span in spans[doc_id])


def test_predict_spans_applies_the_recall_bias(trained_tagger: CrfTagger, held_out: list[Document]) -> None:
    plain = trained_tagger.predict_spans(held_out)
    biased = trained_tagger.predict_spans(held_out, recall_bias=0.99)
    plain_count = sum(len(v) for v in plain.values())
    biased_count = sum(len(v) for v in biased.values())
    # more text is tagged with the bias, and the spans differ from the unbiased ones
    assert tagged_tokens(biased, held_out) > tagged_tokens(plain, held_out)
    assert biased != plain
    assert biased_count != plain_count or any(biased[k] != plain[k] for k in plain)
    corpus = trained_tagger.predict_corpus(held_out, recall_bias=0.99)
    assert sum(len(v) for v in corpus.values()) == biased_count


def test_a_relabelled_token_is_scored_with_its_phi_label_probability(
    trained_tagger: CrfTagger, held_out: list[Document]
) -> None:
    relabelled_spans = 0
    for document in held_out:
        scored = trained_tagger.score(document)
        for span in CrfTagger.decode(scored, recall_bias=0.99):
            inside = [
                score
                for token, score in zip(scored.tokens, scored.scores, strict=True)
                if span.start <= token.start < span.end
            ]
            expected = []
            for score in inside:
                if score.label == OUTSIDE:
                    assert score.best_phi and score.p_outside < 0.99
                    expected.append(score.p_best_phi)
                else:
                    expected.append(score.probability)
            relabelled_spans += any(score.label == OUTSIDE for score in inside)
            assert span.confidence == pytest.approx(sum(expected) / len(expected))
    assert relabelled_spans > 0
