"""Rule spans weighed against the CRF's own belief (annotator.crf.evidence)."""

from __future__ import annotations

import pytest

from annotator.crf.evidence import RULE_GATE, PhiEvidence
from annotator.crf.labels import Prediction
from annotator.crf.tokenizer import tokenize

TEXT = "dr kearns aware of BP STABLE"
# P(O) per token, as the tagger would give it: "kearns" is the only one it suspects.
P_OUTSIDE = {"dr": 0.99, "kearns": 0.4, "aware": 0.999, "of": 0.999, "BP": 0.999, "STABLE": 0.995}


def _evidence() -> PhiEvidence:
    tokens = tokenize(TEXT)
    evidence = PhiEvidence()
    evidence.extend(tokens, [P_OUTSIDE[t.text] for t in tokens])
    return evidence


def _span(words: str, origin: str) -> Prediction:
    start = TEXT.index(words)
    return Prediction("DOCTOR", start, start + len(words), 0.99, origin)


def test_strongest_is_the_most_suspected_token_inside() -> None:
    evidence = _evidence()
    name, vitals = _span("dr kearns aware", "rule"), _span("BP STABLE", "rule")
    assert evidence.strongest(name.start, name.end) == pytest.approx(1.0 - P_OUTSIDE["kearns"])
    assert evidence.strongest(vitals.start, vitals.end) < RULE_GATE
    assert evidence.strongest(len(TEXT), len(TEXT)) == 0.0


def test_a_rule_span_on_words_the_model_is_sure_of_is_dropped() -> None:
    evidence = _evidence()
    assert evidence.gate([_span("BP STABLE", "label-rule")]) == []
    # The model's own spans always stand, whatever a later belief says.
    assert evidence.gate([_span("BP STABLE", "crf")]) == [_span("BP STABLE", "crf")]


def test_a_rule_span_loses_the_edges_the_model_rejects() -> None:
    evidence = _evidence()
    (kept,) = evidence.gate([_span("dr kearns aware", "label-rule")])
    assert TEXT[kept.start : kept.end] == "kearns"
    assert kept.origin == "label-rule"


def test_a_note_the_model_suspects_nowhere_gets_no_rule_span() -> None:
    from annotator.crf.postprocess import postprocess_document

    text = "Seen by John Smith on 3/4/2021."  # no measured pattern: those stand alone
    tokens = tokenize(text)
    assert postprocess_document(text, tokens, [])  # the rules alone find the name and the date
    doubtless = PhiEvidence()
    doubtless.extend(tokens, [0.999] * len(tokens))
    assert doubtless.peak() == pytest.approx(0.001)
    assert postprocess_document(text, tokens, [], evidence=doubtless) == []


@pytest.mark.parametrize(
    ("text", "suspected", "span", "kept"),
    [
        # The model suspects the year; the date rule's span keeps the whole written date.
        ("on 2072.05.31 1049h", "2072", "2072.05.31", "2072.05.31"),
        ("d/w reg kimor7 today", "kimor", "kimor7", "kimor7"),
        # A word's punctuation is no word: "DAVID," loses its comma, "Baker-" its hyphen.
        ("PER SON DAVID, THERE IS", "DAVID", "DAVID,", "DAVID"),
        ("dtr Frances Baker- 212-", "Baker", "Frances Baker-", "Frances Baker"),
        # Whole words are still cut off.
        ("dr kearns aware", "kearns", "dr kearns aware", "kearns"),
    ],
)
def test_a_trimmed_rule_span_never_keeps_part_of_a_word(
    text: str, suspected: str, span: str, kept: str
) -> None:
    tokens = tokenize(text)
    evidence = PhiEvidence()
    evidence.extend(tokens, [0.3 if t.text in (suspected, "Frances") else 0.999 for t in tokens])
    start = text.index(span)
    (trimmed,) = evidence.gate([Prediction("DATE", start, start + len(span), 0.95, "format-rule")])
    assert text[trimmed.start : trimmed.end] == kept


@pytest.mark.parametrize(
    ("text", "p_name", "kept"),
    [
        # In capitals the label's word is a word ("SAID" is also on a surname list): the
        # model's faint suspicion is not enough.
        ("WIFE SAID PT HAD NO OTHER BELONGINGS.", 0.8, False),
        # The same suspicion in a mixed-case line: "Said" is written as a name.
        ("Wife Said visited today and was updated.", 0.8, True),
        # In capitals the label's name stands where the model suspects it.
        ("WIFE SAID PT HAD NO OTHER BELONGINGS.", 0.4, True),
    ],
)
def test_a_label_name_in_capitals_needs_the_model_more(text: str, p_name: float, kept: bool) -> None:
    from annotator.crf.postprocess import CAPITALS_LABEL_GATE, postprocess_document

    assert 1.0 - 0.8 < CAPITALS_LABEL_GATE <= 1.0 - 0.4
    tokens = tokenize(text)
    word = text.split()[1]
    evidence = PhiEvidence()
    evidence.extend(tokens, [p_name if t.text == word else 0.999 for t in tokens])
    found = postprocess_document(text, tokens, [], {"PATIENT", "DOCTOR"}, evidence=evidence)
    names = [text[p.start : p.end] for p in found]
    assert names == ([word] if kept else [])
