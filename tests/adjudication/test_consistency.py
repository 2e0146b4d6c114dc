"""Missed-PHI candidates and the corpus consistency check."""

from __future__ import annotations

from annotator.adjudication.consistency import check_consistency, missed_candidates
from annotator.adjudication.decisions import AdjudicationSession
from annotator.adjudication.units import UnitKind, add_candidates, align_documents
from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from tests.adjudication.helpers import at, version

FIRST = "Patient Ora Hendrickson seen in Boston.\n"
SECOND = "Ora Hendrickson returns. Lives near Boston. Ora is well.\n"
OTHER_PATIENT = "Visit by Hendrickson family.\n"


def test_candidates_from_the_patients_other_records() -> None:
    one = [
        version("100-01", FIRST, ("Ora Hendrickson", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY"))
    ] * 2
    # Nobody tagged anything in the second record; the other patient's note is out of scope.
    two = [version("100-02", SECOND)] * 2
    three = [version("101-01", OTHER_PATIENT)] * 2
    alignments = [align_documents(v, ["a", "b"]) for v in (one, two, three)]
    found = missed_candidates(alignments, scope="patient")
    spans = [(u.start, u.end, u.suggestion.type if u.suggestion else "") for u in found["100-02"]]
    assert spans == [(*at(SECOND, "Ora Hendrickson"), "PATIENT"), (*at(SECOND, "Boston"), "CITY")]
    assert found["101-01"] == []
    evidence = found["100-02"][0].evidence
    assert [(e.doc_id, e.start, e.end) for e in evidence] == [("100-01", *at(FIRST, "Ora Hendrickson"))] * 2


def test_candidates_become_units_and_can_be_accepted_or_dismissed() -> None:
    one = [
        version("100-01", FIRST, ("Ora Hendrickson", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY"))
    ] * 2
    two = [version("100-02", SECOND, ("Boston", "LOCATION", "CITY")), version("100-02", SECOND)]
    alignments = [align_documents(v, ["a", "b"]) for v in (one, two)]
    found = missed_candidates(alignments)
    add_candidates(alignments[1], found["100-02"])
    kinds = [u.kind for u in alignments[1].units]
    assert kinds == [UnitKind.MISSED_CANDIDATE, UnitKind.PARTIAL]
    session = AdjudicationSession(alignments[1], "dana")
    candidate = alignments[1].units[0]
    assert candidate.id.endswith(":missed")
    session.accept(candidate.id)
    assert ("NAME", "PATIENT", *at(SECOND, "Ora Hendrickson")) in {a.key for a in session.gold}
    session.dismiss(candidate.id)
    assert len(session.gold) == 0 and session.is_resolved(candidate.id)


def test_model_suggestions_nobody_kept_become_candidates() -> None:
    versions = [version("100-01", FIRST, ("Boston", "LOCATION", "CITY"))] * 2
    start, end = at(FIRST, "Hendrickson")
    model = Document(
        "100-01",
        FIRST,
        [
            Annotation(
                "P0", "NAME", "PATIENT", start, end, FIRST[start:end], source=Source.MODEL, pending=True
            ),
            Annotation("P1", "LOCATION", "CITY", *at(FIRST, "Boston"), "Boston", source=Source.MODEL),
        ],
    )
    alignment = align_documents(versions, ["a", "b"])
    found = missed_candidates([alignment], suggestions={"100-01": model})["100-01"]
    assert [(u.start, u.end, u.evidence[0].origin) for u in found] == [(start, end, "model")]


def test_consistency_check_finds_unannotated_occurrences_without_text_in_dict() -> None:
    gold = [
        version("100-01", FIRST, ("Ora Hendrickson", "NAME", "PATIENT")),
        version("100-02", SECOND, ("Ora Hendrickson", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY")),
    ]
    findings = check_consistency(gold, scope="patient")
    assert [(f.doc_id, f.start, f.end, f.type) for f in findings] == [
        ("100-01", *at(FIRST, "Boston"), "CITY")
    ]
    data = findings[0].to_dict()
    assert "text" not in data and "Boston" not in str(data)
    assert data["annotated_at"] == [
        {"doc_id": "100-02", "start": at(SECOND, "Boston")[0], "end": at(SECOND, "Boston")[1], "type": "CITY"}
    ]
    assert findings[0].to_dict(include_text=True)["text"] == "Boston"
    assert check_consistency([gold[1]]) == []


def test_a_short_number_is_checked_only_in_a_context_that_makes_it_phi() -> None:
    first = "Ms. Ray is a 62 yo woman.\n"
    second = "HR 62, BP 120/62. At 14:62 she rested. Ray, 62 yo, walked. Age: 62\n"
    documents = [
        version("100-01", first, ("62", "AGE", "AGE"), ("Ray", "NAME", "PATIENT")),
        version("100-02", second, ("Ray", "NAME", "PATIENT")),
    ]
    found = [(f.doc_id, second[f.start : f.end], f.start) for f in check_consistency(documents)]
    # "62 yo" as where it was tagged, and "Age: 62"; not a heart rate, a pressure or a time.
    assert found == [("100-02", "62", second.index("62 yo")), ("100-02", "62", second.rindex("62"))]
