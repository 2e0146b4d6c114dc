"""Majority auto-accept takes the majority's tags even when the first version is the minority."""

from __future__ import annotations

from annotator.adjudication.decisions import AdjudicationSession
from annotator.adjudication.units import align_documents
from tests.adjudication.helpers import NOTE, at, version

DOC = "100-01"


def test_majority_of_the_second_and_third_versions_wins_over_the_first() -> None:
    minority = version(
        DOC, NOTE, ("Springfield Medical Center", "LOCATION", "HOSPITAL"), ("Boston", "LOCATION", "HOSPITAL")
    )
    majority = version(
        DOC, NOTE, ("Springfield Medical Center", "LOCATION", "HOSPITAL"), ("Boston", "LOCATION", "CITY")
    )
    alignment = align_documents([minority, majority, majority.copy()], ["alice", "bob", "carol"])
    session = AdjudicationSession(alignment, "dana", auto="majority")
    boston = at(NOTE, "Boston")
    hospital = at(NOTE, "Springfield Medical Center")
    assert {a.key for a in session.gold} == {
        ("LOCATION", "HOSPITAL", *hospital),
        ("LOCATION", "CITY", *boston),
    }
    city = next(a for a in session.gold if a.start == boston[0])
    assert dict(city.extra)["agreed_by"] == "bob,carol"
    assert session.progress() == (2, 2)


def test_no_majority_between_three_different_answers() -> None:
    a = version(DOC, NOTE, ("Boston", "LOCATION", "HOSPITAL"))
    b = version(DOC, NOTE, ("Boston", "LOCATION", "CITY"))
    c = version(DOC, NOTE, ("Boston", "LOCATION", "STATE"))
    session = AdjudicationSession(align_documents([a, b, c], ["alice", "bob", "carol"]), auto="majority")
    assert len(session.gold) == 0
    assert session.progress() == (0, 1)
