"""Post-processing rules and the rules-only baseline."""

from __future__ import annotations

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.crf.labels import Prediction
from annotator.crf.postprocess import (
    postprocess_document,
    postprocess_patient,
    propagate,
    rule_predictions,
    rules_only_tagger,
    split_extensions,
    trim,
)
from annotator.crf.tokenizer import tokenize


def _typed(text: str, predictions: list[Prediction]) -> set[tuple[str, str]]:
    return {(p.type, text[p.start : p.end]) for p in predictions}


def test_rules_find_rare_categories() -> None:
    text = "Mail jo@clinic.org or see www.example.com; host 10.2.33.4; SSN 123-45-6789; fax (617) 555-0101; call 617-555-0199."
    found = _typed(text, rule_predictions(text))
    assert ("EMAIL", "jo@clinic.org") in found
    assert ("URL", "www.example.com") in found
    assert ("IPADDR", "10.2.33.4") in found
    assert ("SSN", "123-45-6789") in found
    assert ("FAX", "(617) 555-0101") in found
    assert ("PHONE", "617-555-0199") in found
    assert not any(kind == "URL" and "clinic.org" in value for kind, value in found)


def test_rules_never_override_a_prediction() -> None:
    # No label before the number ("SSN 123-45-6789" would settle its type: test_id_rules).
    text = "Code 123-45-6789"
    start = text.index("123")
    model = [Prediction("MEDICALRECORD", start, len(text), 0.7)]
    result = postprocess_document(text, tokenize(text), model)
    assert _typed(text, result) == {("MEDICALRECORD", "123-45-6789")}


def test_trim_strips_edge_punctuation_but_keeps_brackets_and_initials() -> None:
    text = "Call (617) 555-0101, Dr. J. Smith."
    phone = Prediction("PHONE", text.index("("), text.index(","), 0.9)
    name = Prediction("DOCTOR", text.index("J."), len(text), 0.9)
    trimmed = trim(text, [phone, name])
    assert _typed(text, trimmed) == {("PHONE", "(617) 555-0101"), ("DOCTOR", "J. Smith")}


def test_trusted_name_is_propagated_within_the_note() -> None:
    text = "Patient Ora Hendrickson came in. Later Ora Hendrickson left. Hendrickson was fine."
    first = text.index("Ora")
    model = [Prediction("PATIENT", first, first + len("Ora Hendrickson"), 0.95)]
    found = _typed(text, postprocess_document(text, tokenize(text), model))
    assert found == {("PATIENT", "Ora Hendrickson"), ("PATIENT", "Hendrickson")}
    assert len(postprocess_document(text, tokenize(text), model)) == 3


def test_low_confidence_name_is_not_propagated() -> None:
    text = "Patient Ora Hendrickson came in. Later Ora Hendrickson left."
    first = text.index("Ora")
    model = [Prediction("PATIENT", first, first + len("Ora Hendrickson"), 0.4)]
    assert len(postprocess_document(text, tokenize(text), model)) == 1


def test_census_surname_after_title_becomes_a_doctor() -> None:
    text = "Seen by Dr. Gonzalez today."
    found = _typed(text, postprocess_document(text, tokenize(text), []))
    assert found == {("DOCTOR", "Gonzalez")}


def test_census_name_next_to_a_name_extends_it() -> None:
    text = "Contact Xavi Gonzalez now."
    start = text.index("Xavi")
    model = [Prediction("PATIENT", start, start + len("Xavi"), 0.5)]
    found = _typed(text, postprocess_document(text, tokenize(text), model))
    assert found == {("PATIENT", "Xavi Gonzalez")}


def test_patient_records_share_trusted_names() -> None:
    texts = {"100-01": "Hospital: Calder Health Center.", "100-02": "Back at Calder Health Center today."}
    start = texts["100-01"].index("Calder")
    predictions = {
        "100-01": [Prediction("HOSPITAL", start, start + len("Calder Health Center"), 0.97)],
        "100-02": [],
    }
    result = postprocess_patient(texts, predictions)
    assert _typed(texts["100-02"], result["100-02"]) == {("HOSPITAL", "Calder Health Center")}


def test_rules_only_tagger_makes_pending_model_annotations() -> None:
    text = "Seen 2067-05-03 by Dr. Gonzalez. MRN: 1234567. Call 617-555-0199. 70 yo man."
    document = Document("100-01", text)
    annotations = rules_only_tagger(document)
    kinds = {(a.type, a.text) for a in annotations}
    assert {
        ("DATE", "2067-05-03"),
        ("DOCTOR", "Gonzalez"),
        ("MEDICALRECORD", "1234567"),
        ("PHONE", "617-555-0199"),
        ("AGE", "70"),
    } <= kinds
    assert all(a.source is Source.MODEL and a.pending for a in annotations)
    assert len(document) == 0


def test_propagation_falls_back_to_a_shorter_free_term() -> None:
    text = "Sonya R. Dvorak signed. Later Dvorak called."
    taken = [Prediction("DOCTOR", 0, len("Sonya"), 0.95)]
    terms = {"Sonya R. Dvorak": ("DOCTOR", 0.95), "Dvorak": ("DOCTOR", 0.95)}
    result = propagate(text, taken, terms, "test")
    found = sorted((p.start, text[p.start : p.end]) for p in result)
    assert found == [
        (0, "Sonya"),
        (len("Sonya R. "), "Dvorak"),
        (text.index("Later Dvorak") + len("Later "), "Dvorak"),
    ]


def test_propagation_respects_word_boundaries() -> None:
    text = "Lee met Leeds staff and Lee left."
    result = propagate(text, [], {"Lee": ("PATIENT", 0.9)}, "test")
    assert [p.start for p in result] == [0, text.index("and Lee") + len("and ")]


def test_propagation_by_first_word_equals_the_regex_scan() -> None:
    """The look-up by first word finds what one alternation of all terms finds."""
    text = "John Smith saw Smith, then JOHN SMITH; Smithson and Smith_2 are other words. Smith's O'Brien"
    terms = {
        "John Smith": ("PATIENT", 0.9),
        "Smith": ("PATIENT", 0.85),
        "JOHN SMITH": ("PATIENT", 0.9),
        "O'Brien": ("DOCTOR", 0.8),
    }
    taken = [Prediction("DOCTOR", 0, 4, 0.7)]  # "John" is taken: "John Smith" there cannot be added
    fast = propagate(text, taken, terms, "t")
    # A term that starts with punctuation sends every term through the regex scan; it matches nothing.
    slow = propagate(text, taken, {**terms, "-Smith": ("PATIENT", 0.9)}, "t")
    assert sorted((p.start, p.end, p.type) for p in fast) == sorted((p.start, p.end, p.type) for p in slow)
    assert {text[p.start : p.end] for p in fast[1:]} == {"Smith", "JOHN SMITH", "O'Brien"}


def test_a_numbers_extension_is_a_phone_of_its_own_however_the_model_drew_it() -> None:
    text = "NOK 1-289-555-4372 ext 319; Ph 371-555-4046 x112; fax (942) 555-2474 ext. 26; 410 392 0780 x45."

    def at(kind: str, piece: str) -> Prediction:
        start = text.index(piece)
        return Prediction(kind, start, start + len(piece), 0.9, "crf")

    predictions = [
        at("PHONE", "1-289-555-4372 ext 319"),  # the extension inside the number
        at("PHONE", "371-555-4046"),  # left out
        at("PHONE", "112"),  # and found alone as well
        at("FAX", "(942) 555-2474"),
        at("PHONE", "410 392 0780"),
    ]
    assert [(p.type, text[p.start : p.end]) for p in split_extensions(text, predictions)] == [
        ("PHONE", "1-289-555-4372"),
        ("PHONE", "319"),
        ("PHONE", "371-555-4046"),
        ("PHONE", "112"),
        ("FAX", "(942) 555-2474"),
        ("PHONE", "26"),
        ("PHONE", "410 392 0780"),
        ("PHONE", "45"),
    ]
    # A decimal or a dose after a number is no extension.
    text = "call 617-555-0199 x2.5 mg"
    number = Prediction("PHONE", 5, 17, 0.9, "crf")
    assert split_extensions(text, [number]) == [number]
