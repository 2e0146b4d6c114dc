"""Recall bias in detail: decoding hand-made token scores, the bias range, and the scores
checked against crfsuite's own Viterbi labels and marginals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from annotator.core.document import Document
from annotator.crf.features import document_features
from annotator.crf.labels import OUTSIDE
from annotator.crf.tagger import (
    MARGINAL_CEILING,
    CrfTagger,
    ScoredDocument,
    TokenScore,
    TrainingCancelled,
    _check_bias,
)
from annotator.crf.tokenizer import tokenize
from annotator.errors import UsageError

TEXT = "Seen by Amy Lee today"
# Seen: O, no PHI alternative; by: O (P(O) 0.6, best B-DOCTOR 0.3); Amy: B-PATIENT 0.8;
# Lee: O (P(O) 0.5, best I-PATIENT 0.45); today: O (P(O) 0.52, best B-DATE 0.4)
SCORES = [
    TokenScore(OUTSIDE, 0.9, 0.9),
    TokenScore(OUTSIDE, 0.6, 0.6, "B-DOCTOR", 0.3),
    TokenScore("B-PATIENT", 0.8, 0.1),
    TokenScore(OUTSIDE, 0.5, 0.5, "I-PATIENT", 0.45),
    TokenScore(OUTSIDE, 0.52, 0.52, "B-DATE", 0.4),
]


def spans_of(recall_bias: float | None) -> list[tuple[str, str, float]]:
    tokens = tokenize(TEXT)
    assert [t.text for t in tokens] == TEXT.split()
    scored = ScoredDocument(Document("1", TEXT), tokens, SCORES)
    return [
        (p.type, TEXT[p.start : p.end], round(p.confidence, 6)) for p in CrfTagger.decode(scored, recall_bias)
    ]


def test_decode_relabels_only_o_tokens_under_the_threshold() -> None:
    assert spans_of(None) == [("PATIENT", "Amy", 0.8)]
    # P(O) must be strictly under T: Lee (0.5) stays O at T = 0.5
    assert spans_of(0.5) == [("PATIENT", "Amy", 0.8)]
    # at 0.51 Lee joins Amy's span, scored with its PHI label's probability
    assert spans_of(0.51) == [("PATIENT", "Amy Lee", round((0.8 + 0.45) / 2, 6))]
    assert spans_of(0.55) == [("PATIENT", "Amy Lee", round((0.8 + 0.45) / 2, 6)), ("DATE", "today", 0.4)]
    # "Seen" has no PHI alternative: it never changes, however high T is
    assert spans_of(0.999) == [
        ("DOCTOR", "by", 0.3),
        ("PATIENT", "Amy Lee", round((0.8 + 0.45) / 2, 6)),
        ("DATE", "today", 0.4),
    ]


@pytest.mark.parametrize("bias", [0.0, -0.5, MARGINAL_CEILING + 1e-6, 1.0, 1.5])
def test_bias_outside_the_range_is_refused(bias: float) -> None:
    with pytest.raises(UsageError, match=rf"^recall bias must be in \(0, {MARGINAL_CEILING}\], got {bias}$"):
        _check_bias(bias)


@pytest.mark.parametrize("bias", [None, 1e-9, 0.5, MARGINAL_CEILING])
def test_bias_inside_the_range_is_accepted(bias: float | None) -> None:
    _check_bias(bias)


@pytest.fixture(scope="module")
def plain_tagger(trained_tagger: CrfTagger, tmp_path_factory: pytest.TempPathFactory) -> CrfTagger:
    """The trained model without post-processing rules (decoding alone)."""
    path = Path(tmp_path_factory.mktemp("model")) / "model.crf"
    trained_tagger.save(path)
    tagger = CrfTagger.load(path)
    tagger.postprocess = False
    return tagger


def reference(crf: Any, document: Document) -> list[str]:
    """crfsuite's Viterbi labels of a document; its marginals are then those of this document."""
    crf.set(document_features(document.text, tokenize(document.text)))
    return list(crf.tag())


def test_scores_are_crfsuite_labels_and_marginals(plain_tagger: CrfTagger, held_out: list[Document]) -> None:
    crf = plain_tagger._tagger  # the crfsuite tagger: the reference for labels and marginals
    document = held_out[0]
    for ceiling in (MARGINAL_CEILING, 0.9):
        scored = plain_tagger.score(document, ceiling)
        viterbi = reference(crf, document)
        labels = [label for label in crf.labels() if label != OUTSIDE]
        assert [s.label for s in scored.scores] == viterbi
        relabelable = 0
        for position, (label, score) in enumerate(zip(viterbi, scored.scores, strict=True)):
            p_outside = crf.marginal(OUTSIDE, position)
            assert score.p_outside == pytest.approx(p_outside)
            if label != OUTSIDE:
                assert (score.probability, score.best_phi) == (
                    pytest.approx(crf.marginal(label, position)),
                    "",
                )
            elif p_outside >= ceiling:
                assert (score.probability, score.best_phi, score.p_best_phi) == (
                    pytest.approx(p_outside),
                    "",
                    0.0,
                )
            else:
                best = max(labels, key=lambda phi: crf.marginal(phi, position))
                assert score.probability == pytest.approx(p_outside)
                assert (score.best_phi, score.p_best_phi) == (
                    best,
                    pytest.approx(crf.marginal(best, position)),
                )
                relabelable += 1
        assert relabelable > 0


def test_scores_without_bias_keep_confidence_and_p_outside(
    plain_tagger: CrfTagger, held_out: list[Document]
) -> None:
    # Without recall bias every token still carries P(O): rule spans are weighed against it.
    crf = plain_tagger._tagger
    scored = plain_tagger.score(held_out[0], None)
    viterbi = reference(crf, held_out[0])
    expected = [
        TokenScore(OUTSIDE, crf.marginal(OUTSIDE, i), crf.marginal(OUTSIDE, i))
        if label == OUTSIDE
        else TokenScore(label, crf.marginal(label, i), crf.marginal(OUTSIDE, i))
        for i, label in enumerate(viterbi)
    ]
    assert len(scored.scores) == len(expected) and any(s.label != OUTSIDE for s in expected)
    for got, want in zip(scored.scores, expected, strict=True):
        assert (got.label, got.best_phi, got.p_best_phi) == (want.label, "", 0.0)
        assert (got.probability, got.p_outside) == (
            pytest.approx(want.probability),
            pytest.approx(want.p_outside),
        )
    assert any(s.label == OUTSIDE and s.p_outside < 1.0 for s in scored.scores)
    blank = Document("0", "   \n")
    empty = plain_tagger.score(blank)
    assert (empty.document, empty.tokens, empty.scores) == (blank, [], [])


def test_predict_spans_decodes_each_document_at_the_bias(
    plain_tagger: CrfTagger, held_out: list[Document]
) -> None:
    calls: list[tuple[int, int]] = []
    spans = plain_tagger.predict_spans(
        held_out, 0.9, progress=lambda done, total: calls.append((done, total))
    )
    # Progress counts characters (a long note moves the bar too): it reaches every document's end.
    total = sum(len(d.text) for d in held_out)
    ends = [sum(len(d.text) for d in held_out[: i + 1]) for i in range(len(held_out))]
    assert {t for _, t in calls} == {total} and [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert set(ends) <= {d for d, _ in calls} and calls[-1] == (total, total)
    expected = {d.doc_id: CrfTagger.decode(plain_tagger.score(d), 0.9) for d in held_out}
    assert spans == expected
    assert spans != {d.doc_id: CrfTagger.decode(plain_tagger.score(d), None) for d in held_out}
    assert plain_tagger.predict_spans(held_out) == {
        d.doc_id: CrfTagger.decode(plain_tagger.score(d, None), None) for d in held_out
    }


def test_predict_spans_can_be_cancelled_before_a_document(
    plain_tagger: CrfTagger, held_out: list[Document]
) -> None:
    calls: list[tuple[int, int]] = []
    first = len(held_out[0].text)

    def cancelled() -> bool:  # cancel once the first document is done (asked between chunks too)
        return bool(calls) and calls[-1][0] >= first

    with pytest.raises(TrainingCancelled, match=r"^pre-annotation cancelled$"):
        plain_tagger.predict_spans(held_out, progress=lambda d, t: calls.append((d, t)), cancelled=cancelled)
    assert calls[-1] == (first, sum(len(d.text) for d in held_out))
    assert plain_tagger.predict_spans(held_out[:1], cancelled=lambda: False) == plain_tagger.predict_spans(
        held_out[:1]
    )


def test_a_token_exactly_at_the_ceiling_gets_no_phi_alternative(
    plain_tagger: CrfTagger, held_out: list[Document]
) -> None:
    document = held_out[0]
    first = plain_tagger.score(document)
    position, at_ceiling = next(
        (i, s.p_outside) for i, s in enumerate(first.scores) if s.label == OUTSIDE and s.best_phi
    )
    again = plain_tagger.score(document, ceiling=at_ceiling)
    # P(O) >= ceiling: no alternative kept; just above the ceiling it is kept again
    assert again.scores[position] == TokenScore(OUTSIDE, at_ceiling, at_ceiling)
    assert plain_tagger.score(document, ceiling=at_ceiling + 1e-9).scores[position] == first.scores[position]


def test_a_model_without_an_o_label_scores_p_outside_zero() -> None:
    # every training token is PHI, so the model knows no O label at all
    gold = Document("1", "Boston Chicago")
    gold.add(gold.make_annotation("LOCATION", "CITY", 0, 6))
    gold.add(gold.make_annotation("LOCATION", "CITY", 7, 14))
    tagger = CrfTagger(max_iterations=3)
    tagger.train([gold])
    scored = tagger.score(Document("2", "Boston Chicago"))
    assert [(s.label, s.p_outside, s.best_phi) for s in scored.scores] == [
        ("B-CITY", 0.0, ""),
        ("B-CITY", 0.0, ""),
    ]
    spans = tagger.predict_spans([Document("2", "Boston Chicago")], 0.9)["2"]
    assert [(p.type, p.start, p.end) for p in spans] == [("CITY", 0, 6), ("CITY", 7, 14)]


def test_a_blank_document_gets_no_prediction(trained_tagger: CrfTagger) -> None:
    assert trained_tagger.predict_spans([Document("0", "  \n ")], 0.9) == {"0": []}
