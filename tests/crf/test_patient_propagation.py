"""Trusted terms spread across one patient's records, never into another patient's."""

from __future__ import annotations

from annotator.core.document import Document
from annotator.crf.labels import Prediction
from annotator.crf.tagger import CrfTagger

HOSPITAL = "Calder Health Center"


def test_a_trusted_term_reaches_the_same_patients_records_only() -> None:
    documents = [
        Document("100-01", f"Hospital: {HOSPITAL}."),
        Document("100-02", f"Back at {HOSPITAL} today."),
        Document("200-01", f"Back at {HOSPITAL} today."),  # another patient, the same words
        Document("200-02", "Nothing else."),  # so that patient 200 has records to pool too
    ]
    start = documents[0].text.index(HOSPITAL)
    found: dict[str, list[Prediction]] = {d.doc_id: [] for d in documents}
    found["100-01"] = [Prediction("HOSPITAL", start, start + len(HOSPITAL), 0.97)]
    result = CrfTagger.propagate_patients(documents, found)
    texts = {d.doc_id: d.text for d in documents}
    tagged = {doc_id: {texts[doc_id][p.start : p.end] for p in spans} for doc_id, spans in result.items()}
    assert tagged["100-02"] == {HOSPITAL}
    assert tagged["200-01"] == set()
    assert tagged["200-02"] == set()


def test_a_rare_name_stands_where_it_recurs_a_common_word_only_where_the_model_suspects_it() -> None:
    from annotator.crf.evidence import PhiEvidence
    from annotator.crf.tokenizer import tokenize

    documents = [
        Document("300-01", "social: dtr suzette in contact. dr foley aware. dr blake here"),
        Document("300-02", "case manager spoke with suzette today. foley draining; 15 Fr blake drain"),
    ]
    first = documents[0].text
    found = {
        "300-01": [
            Prediction("PATIENT", first.index("suzette"), first.index("suzette") + 7, 0.95, "measured-rule"),
            Prediction("DOCTOR", first.index("foley"), first.index("foley") + 5, 0.95, "measured-rule"),
            Prediction("DOCTOR", first.index("blake"), first.index("blake") + 5, 0.95, "measured-rule"),
        ],
        "300-02": [],
    }
    # The model suspects no word of the second record; "blake drain" is an eponym there.
    doubtless = {}
    for document in documents:
        tokens = tokenize(document.text)
        doubtless[document.doc_id] = PhiEvidence()
        doubtless[document.doc_id].extend(tokens, [0.999] * len(tokens))
    result = CrfTagger.propagate_patients(documents, found, doubtless)
    second = documents[1].text
    assert [(p.type, second[p.start : p.end]) for p in result["300-02"]] == [("PATIENT", "suzette")]
