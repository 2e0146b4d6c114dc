"""Patterns that stand on real notes without the model (annotator.crf.measured_rules)."""

from __future__ import annotations

import pytest

from annotator.crf.evidence import PhiEvidence
from annotator.crf.labels import Prediction
from annotator.crf.measured_rules import MEASURED_ORIGIN, add_measured_spans, measured_rule_predictions
from annotator.crf.postprocess import postprocess_document
from annotator.crf.tokenizer import tokenize


def found(text: str) -> list[tuple[str, str]]:
    return [(p.type, text[p.start : p.end]) for p in measured_rule_predictions(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PMH: MI '92, CABG X3 '95, DDD pacer", [("DATE", "92"), ("DATE", "95")]),
        ("s/p cabg/mvr '95\n", [("DATE", "95")]),
        ("grew up in the '60s and 70's", []),  # decades
        ("pt said 'ok' and 'no'", []),  # quotations
        ("3-24-17 B: \n \nNeuro: alert", [("DATE", "3-24-17")]),
        ("  10/15/2019 csru progress note", [("DATE", "10/15/2019")]),
        ("Neuro: 3-24-17 alert", []),  # a date inside a line is the model's to weigh
        ("13-45-17 units given", []),  # no month/day reading
        ("dtr Frances- 212- 476- 8356.", [("PHONE", "212- 476- 8356")]),
        ("reached at (301) 944 5032 today", [("PHONE", "(301) 944 5032")]),
        ("BP 120/80, shift 1900-0700, 20-30'S, HR 88-110", []),
        ("lytes 135 104 22 / 4.1 28 1.2", []),
    ],
)
def test_what_the_patterns_find(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_a_measured_span_stands_where_the_model_suspects_nothing() -> None:
    text = "PMH: MI '92. call son 212- 476- 8356."
    tokens = tokenize(text)
    doubtless = PhiEvidence()
    doubtless.extend(tokens, [0.9999] * len(tokens))
    spans = postprocess_document(text, tokens, [], evidence=doubtless)
    assert [(text[p.start : p.end], p.origin) for p in spans] == [
        ("92", MEASURED_ORIGIN),
        ("212- 476- 8356", MEASURED_ORIGIN),
    ]
    # ... and survives the patient-level weighing too.
    assert doubtless.gate(spans) == spans


def test_a_measured_span_never_overrides_what_is_already_found() -> None:
    text = "call 212- 476- 8356"
    start = text.index("212")
    model = Prediction("PHONE", start, start + 3, 0.7)
    assert add_measured_spans(text, [model]) == [model]
    assert add_measured_spans(text, [], allowed={"DATE"}) == []
