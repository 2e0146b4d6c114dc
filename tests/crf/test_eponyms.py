"""Eponyms in operative notes are no PHI: the instrument, not the person."""

from __future__ import annotations

import pytest

from annotator.crf.eponyms import drop_eponyms, eponym_heads, is_eponym
from annotator.crf.evidence import PhiEvidence
from annotator.crf.labels import Prediction
from annotator.crf.phi_memory import PhiMemory
from annotator.crf.postprocess import postprocess_document, postprocess_patient
from annotator.crf.tokenizer import tokenize


def span_of(text: str, piece: str) -> tuple[int, int]:
    start = text.index(piece)
    return start, start + len(piece)


@pytest.mark.parametrize(
    ("text", "piece"),
    [
        ("The uvula was grasped with the Alice clamp.", "Alice"),
        ("A #15 Bard-Parker scalpel was used.", "Bard-Parker"),
        ("With a #10 Bard Parker blade knife, the incision was made.", "Bard Parker"),
        ("A Kelly-Descemet punch was used.", "Kelly"),  # the head after the hyphenated partner
        ("a Kocher-type clamp was applied", "Kocher"),
        ("the gland was freed to Berry's ligament.", "Berry"),
        ("placed upon the padded Jackson table", "Jackson"),
        ("the patient in Trendelenburg position", "Trendelenburg"),
        ("We then used the Maryland dissector.", "Maryland"),
        ("We used an Epstein curette.", "Epstein curette"),  # the model took the head along
        ("Using a matchstick burr, a trough was made.", "matchstick burr"),
        ("US WITH FLUID IN DOUGLAS POUCH", "DOUGLAS"),
        ("the Austin osteotomy was performed", "Austin"),
        ("placed with the Wilson attachment", "Wilson"),
        ("dressed with a sterile Owen silk", "Owen"),
        ("anesthetize the Medial Branch nerve", "Medial Branch"),
        ("fluid within the knot of Henry.", "Henry"),  # after a head and "of"
        ("the circle of Willis is patent", "Willis"),
    ],
)
def test_a_word_before_or_ending_in_a_clinical_head_noun_is_an_eponym(text: str, piece: str) -> None:
    assert is_eponym(text, *span_of(text, piece))


@pytest.mark.parametrize(
    ("text", "piece"),
    [
        ("Dr. Kelly clamp applied by resident", "Kelly"),  # after a title: the person
        ("Mr Blake drain care discussed", "Blake"),
        ("Patient: Kellie Burr  (709-93-5359)", "Kellie Burr"),  # a surname, capitalised
        ("BROUGHT TO GH CATH LAB TODAY", "GH"),  # a hospital's initials
        ("transferred from Mercy cath lab", "Mercy"),  # a room of the hospital
        ("seen at the Hopkins drain clinic", "Hopkins"),
        ("Lopie Certusi cell# 410-322-1419", "Lopie Certusi"),  # a field, not a cell
        ("Kelly clamped the vessel", "Kelly"),  # a verb, not the head noun
        ("seen on Monday 3/4", "3/4"),  # numbers are never eponyms
        ("Kelly\ndrain removed", "Kelly"),  # not across a line
        ("the son of Henry Ford", "Henry Ford"),  # "of" after no head noun, and two words
        ("the knot of Dr. Henry", "Henry"),  # a title
    ],
)
def test_a_person_or_place_is_no_eponym(text: str, piece: str) -> None:
    assert not is_eponym(text, *span_of(text, piece))


def test_the_list_is_the_leak_checks_and_holds_the_instruments() -> None:
    heads = eponym_heads()
    assert {"drain", "catheter", "sign", "scissors", "retractor", "ligament", "rongeur"} <= set(heads)
    assert list(heads) == sorted(heads, key=lambda head: (-len(head), head))


def test_post_processing_drops_eponyms_of_any_origin_but_keeps_people() -> None:
    text = "Joseph scissors were used. Dr. Joseph aware. We used the Maryland dissector."
    tokens = tokenize(text)
    evidence = PhiEvidence()
    evidence.extend(tokens, [0.9] * len(tokens))
    first, second = span_of(text, "Joseph")[0], text.index("Joseph", 10)
    model = [
        Prediction("PATIENT", first, first + 6, 0.8, "crf"),
        Prediction("DOCTOR", second, second + 6, 0.9, "crf"),
    ]
    memory = PhiMemory({"maryland": "STATE"})
    found = postprocess_document(text, tokens, model, evidence=evidence, memory=memory)
    assert [(p.type, text[p.start : p.end]) for p in found] == [("DOCTOR", "Joseph")]
    assert found[0].start == second


def test_a_name_that_is_a_word_spreads_through_a_patients_notes_but_not_into_an_eponym() -> None:
    # "Brown" is a public word: it spreads as a trusted term (rare names had their own check).
    texts = {"001-01": "daughter Brown visited.", "001-02": "A Brown clamp was used. Brown called."}
    start = texts["001-01"].index("Brown")
    predictions = {"001-01": [Prediction("PATIENT", start, start + 5, 0.99, "crf")], "001-02": []}
    found = postprocess_patient(texts, predictions)
    second = texts["001-02"]
    assert [(second[p.start : p.end], p.start, p.origin) for p in found["001-02"]] == [
        ("Brown", second.rindex("Brown"), "trusted-patient")
    ]


def test_drop_eponyms_keeps_order_and_everything_else() -> None:
    text = "seen 3/4 by Dr. Stone; Fogarty catheter passed; lives in Rome"
    kept = [
        Prediction("DATE", *span_of(text, "3/4"), 0.9, "crf"),
        Prediction("DOCTOR", *span_of(text, "Stone"), 0.9, "crf"),
        Prediction("CITY", *span_of(text, "Rome"), 0.9, "crf"),
    ]
    fogarty = Prediction("PATIENT", *span_of(text, "Fogarty"), 0.9, "crf")
    assert drop_eponyms(text, [kept[0], fogarty, kept[1], kept[2]]) == kept


def test_a_known_phrase_of_two_words_stays_before_a_head_noun_a_single_word_does_not() -> None:
    text = "Rosewood Manor scale reviewed; the Maryland dissector"
    remembered = [
        Prediction("LOCATION-OTHER", *span_of(text, "Rosewood Manor"), 0.95, "memory"),
        Prediction("STATE", *span_of(text, "Maryland"), 0.95, "memory"),
    ]
    assert drop_eponyms(text, remembered, frozenset({"memory"})) == remembered[:1]
    assert drop_eponyms(text, remembered) == []  # from the model, both read as eponyms
