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


def test_a_two_two_tie_among_four_versions_is_left_to_the_adjudicator() -> None:
    city = version(DOC, NOTE, ("Boston", "LOCATION", "CITY"))
    hospital = version(DOC, NOTE, ("Boston", "LOCATION", "HOSPITAL"))
    names = ["alice", "bob", "carol", "dave"]
    session = AdjudicationSession(
        align_documents([city, hospital, city.copy(), hospital.copy()], names), auto="majority"
    )
    assert len(session.gold) == 0
    assert session.progress() == (0, 1)
    # Three of four is a majority: the same unit is then taken.
    session = AdjudicationSession(
        align_documents([city, hospital, city.copy(), city.copy()], names), auto="majority"
    )
    assert [(a.type, a.start) for a in session.gold] == [("CITY", at(NOTE, "Boston")[0])]


def test_two_of_four_tagging_is_no_majority_for_the_tag() -> None:
    tagged = version(DOC, NOTE, ("Boston", "LOCATION", "CITY"))
    untagged = version(DOC, NOTE)
    session = AdjudicationSession(
        align_documents([tagged, untagged, tagged.copy(), untagged.copy()], ["a", "b", "c", "d"]),
        auto="majority",
    )
    assert len(session.gold) == 0 and session.progress() == (0, 1)
