"""BIO labels from annotations and spans back from labels."""

from __future__ import annotations

from annotator.core.document import Document
from annotator.crf.labels import annotations_to_labels, labels_to_spans
from annotator.crf.tokenizer import tokenize


def test_annotations_become_bio_labels() -> None:
    text = "Dr. Beth Peters saw 70yoM on 3/2080."
    document = Document("100-01", text)
    name = text.index("Beth")
    document.add(document.make_annotation("NAME", "DOCTOR", name, name + len("Beth Peters")))
    document.add(document.make_annotation("AGE", "AGE", text.index("70"), text.index("70") + len("70")))
    date = text.index("3/2080")
    document.add(document.make_annotation("DATE", "DATE", date, date + len("3/2080")))
    tokens = tokenize(text)
    labels = dict(
        zip([t.text for t in tokens], annotations_to_labels(tokens, document.annotations), strict=True)
    )
    assert labels["Beth"] == "B-DOCTOR" and labels["Peters"] == "I-DOCTOR"
    assert labels["70"] == "B-AGE" and labels["yo"] == "O" and labels["M"] == "O"
    assert labels["3"] == "B-DATE" and labels["/"] == "I-DATE" and labels["2080"] == "I-DATE"
    assert labels["Dr"] == "O"


def test_spans_from_labels_keep_offsets_and_stop_at_line_breaks() -> None:
    text = "Gallegos, Kirk\nKirk Gallegos rests."
    tokens = tokenize(text)
    labels = ["B-PATIENT", "I-PATIENT", "I-PATIENT", "I-PATIENT", "I-PATIENT", "O", "O"]
    spans = labels_to_spans(tokens, labels, [0.9, 0.8, 0.7, 0.6, 0.5, 1.0, 1.0])
    assert [(text[s.start : s.end], s.type) for s in spans] == [
        ("Gallegos, Kirk", "PATIENT"),
        ("Kirk Gallegos", "PATIENT"),
    ]
    assert abs(spans[0].confidence - 0.8) < 1e-9


def test_inside_label_of_another_type_starts_a_new_span() -> None:
    text = "Boston MA"
    tokens = tokenize(text)
    spans = labels_to_spans(tokens, ["B-CITY", "I-STATE"], [1.0, 1.0])
    assert [(s.type, text[s.start : s.end]) for s in spans] == [("CITY", "Boston"), ("STATE", "MA")]
