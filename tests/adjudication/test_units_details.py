"""Units in detail: JSON form, counts, ids, zero-length tags, candidates merged in offset order."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.adjudication.units import (
    Alignment,
    Evidence,
    Unit,
    UnitKind,
    add_candidates,
    align_documents,
    check_same_text,
    unit_id,
)
from annotator.core.annotation import Annotation
from annotator.core.document import Document, Origin
from annotator.core.span import Span
from annotator.errors import TextMismatchError, UsageError
from tests.adjudication.helpers import NOTE, at, version

DOC = "100-01"
TEXT = "0123456789abcdefghijklmnopqrstuvwxyz"  # offsets readable at a glance


def test_unit_dictionary_names_versions_and_hides_text_unless_asked() -> None:
    a = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"))
    b = version(DOC, NOTE, ("John Smith", "NAME", "PATIENT"))
    unit = align_documents([a, b], ["ann", "bob"]).units[0]
    start, end = at(NOTE, "John Smith")
    tag_a = {"tag": "NAME", "type": "DOCTOR", "start": start, "end": end}
    tag_b = {"tag": "NAME", "type": "PATIENT", "start": start, "end": end}
    assert unit.to_dict(["ann", "bob"]) == {
        "id": f"{DOC}:{start}-{end}",
        "kind": "type_conflict",
        "start": start,
        "end": end,
        "versions": {"ann": [tag_a], "bob": [tag_b]},
    }
    # without names the versions are numbered from 0; with include_text each tag has its text
    assert unit.to_dict(include_text=True)["versions"] == {
        "0": [{**tag_a, "text": "John Smith"}],
        "1": [{**tag_b, "text": "John Smith"}],
    }


def test_candidate_dictionary_has_suggestion_and_evidence() -> None:
    start, end = at(NOTE, "Boston")
    suggestion = Annotation("", "LOCATION", "CITY", start, end, "Boston")
    evidence = (
        Evidence("100-02", 4, 10, "LOCATION", "CITY"),
        Evidence("100-03", 7, 13, "LOCATION", "CITY", "model"),
    )
    candidate = Unit(
        unit_id(DOC, start, end, UnitKind.MISSED_CANDIDATE),
        DOC,
        UnitKind.MISSED_CANDIDATE,
        Span(start, end),
        ((), ()),
        suggestion,
        evidence,
    )
    assert candidate.to_dict(["a", "b"]) == {
        "id": f"{DOC}:{start}-{end}:missed",
        "kind": "missed_candidate",
        "start": start,
        "end": end,
        "versions": {"a": [], "b": []},
        "suggestion": {"tag": "LOCATION", "type": "CITY", "start": start, "end": end},
        "evidence": [
            {"doc_id": "100-02", "start": 4, "end": 10, "type": "CITY", "origin": "annotated"},
            {"doc_id": "100-03", "start": 7, "end": 13, "type": "CITY", "origin": "model"},
        ],
    }
    assert candidate.to_dict(include_text=True)["suggestion"] == {
        "tag": "LOCATION",
        "type": "CITY",
        "start": start,
        "end": end,
        "text": "Boston",
    }


def test_counts_lists_every_kind_with_its_number() -> None:
    two = version(DOC, NOTE, ("Boston", "LOCATION", "CITY"), ("617-555-0199", "CONTACT", "PHONE"))
    assert align_documents([two, two.copy()]).counts()["agreement"] == 2
    a = version(
        DOC, NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"), ("67", "AGE", "AGE")
    )
    b = version(DOC, NOTE, ("John Smith", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY"))
    c = version(DOC, NOTE, ("John Smith", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY"))
    alignment = align_documents([a, b, c])
    assert alignment.counts() == {
        "agreement": 1,
        "type_conflict": 1,
        "boundary_conflict": 0,
        "partial": 1,
        "missed_candidate": 0,
    }
    assert align_documents([version(DOC, NOTE), version(DOC, NOTE)]).counts() == dict.fromkeys(
        ("agreement", "type_conflict", "boundary_conflict", "partial", "missed_candidate"), 0
    )


def test_unit_lookup_by_id() -> None:
    a = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))
    alignment = align_documents([a, a.copy()])
    start, end = at(NOTE, "Boston")
    assert alignment.unit(f"{DOC}:{start}-{end}") is alignment.units[1]
    with pytest.raises(UsageError, match=rf"document {DOC}: no unit '{DOC}:0-1'"):
        alignment.unit(f"{DOC}:0-1")


def test_agreement_units_carry_document_id_span_and_id() -> None:
    # the fast path (one identical tag per version) and the general path give the same fields
    a = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))
    b = version(
        DOC, NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"), ("Boston", "NAME", "X")
    )
    units = align_documents([a, b]).units
    js, je = at(NOTE, "John Smith")
    bs, be = at(NOTE, "Boston")
    assert [(u.id, u.doc_id, u.kind, u.span) for u in units] == [
        (f"{DOC}:{js}-{je}", DOC, UnitKind.AGREEMENT, Span(js, je)),
        (f"{DOC}:{bs}-{be}", DOC, UnitKind.TYPE_CONFLICT, Span(bs, be)),
    ]
    assert units[0].versions == ((a.annotations[0],), (b.annotations[0],))


def test_a_tag_doubled_in_one_version_is_partial_not_agreement() -> None:
    # as many tags as versions, all with one key, but both in the first version
    start, end = at(NOTE, "Boston")
    doubled = [Annotation(f"P{i}", "LOCATION", "CITY", start, end, "Boston") for i in range(2)]
    (unit,) = align_documents([Document(DOC, NOTE, doubled), version(DOC, NOTE)]).units
    assert unit.kind is UnitKind.PARTIAL
    assert unit.versions == (tuple(doubled), ())


def test_the_first_version_names_the_document() -> None:
    a = version("first", NOTE, ("Boston", "LOCATION", "CITY"))
    b = version("second", NOTE, ("Boston", "LOCATION", "CITY"))
    alignment = align_documents([a, b])
    assert alignment.doc_id == "first" and alignment.text == NOTE
    assert alignment.units[0].id.startswith("first:") and alignment.units[0].doc_id == "first"


def test_default_version_names_count_from_one() -> None:
    documents = [version(DOC, NOTE) for _ in range(3)]
    assert align_documents(documents).names == ["v1", "v2", "v3"]


def test_usage_errors_say_what_is_wrong() -> None:
    with pytest.raises(UsageError, match=r"^adjudication needs at least two versions of a document$"):
        align_documents([version(DOC, NOTE)])
    with pytest.raises(UsageError, match=r"^2 versions but 3 names$"):
        align_documents([version(DOC, NOTE), version(DOC, NOTE)], ["a", "b", "c"])


def test_text_mismatch_names_the_file_of_the_differing_version(tmp_path: Path) -> None:
    first = Document(DOC, NOTE, (), Origin(path=tmp_path / "a" / "x.xml"))
    other = Document(DOC, NOTE + "!", (), Origin(path=tmp_path / "b" / "x.xml"))
    with pytest.raises(TextMismatchError) as error:
        check_same_text([first, first, other], ["a", "a2", "b"])
    assert error.value.path == str(tmp_path / "b" / "x.xml")
    assert f"version 'b' differs from version 'a' at offset {len(NOTE)}" in error.value.message


def test_a_boundary_conflict_sharing_the_end_is_not_a_type_conflict() -> None:
    a = version(DOC, NOTE, ("Dr John Smith", "NAME", "DOCTOR"))
    b = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"))
    assert [u.kind for u in align_documents([a, b]).units] == [UnitKind.BOUNDARY_CONFLICT]


def zero(doc_id: str, position: int, *more: tuple[int, int]) -> Document:
    """A document of TEXT with a zero-length tag at ``position`` and tags at ``more``."""
    annotations = [Annotation("Z", "DATE", "DATE", position, position, "")]
    annotations += [Annotation(f"T{i}", "DATE", "DATE", s, e, TEXT[s:e]) for i, (s, e) in enumerate(more)]
    return Document(doc_id, TEXT, annotations)


def test_zero_length_tags_at_one_position_form_one_unit() -> None:
    units = align_documents([zero(DOC, 5), zero(DOC, 5, (7, 9))]).units
    assert [(u.kind, u.start, u.end) for u in units] == [(UnitKind.AGREEMENT, 5, 5), (UnitKind.PARTIAL, 7, 9)]
    units = align_documents([zero(DOC, 5), zero(DOC, 6)]).units
    assert [(u.kind, u.start, u.end) for u in units] == [(UnitKind.PARTIAL, 5, 5), (UnitKind.PARTIAL, 6, 6)]


def candidate(start: int, end: int) -> Unit:
    suggestion = Annotation("", "DATE", "DATE", start, end, TEXT[start:end])
    return Unit(
        unit_id(DOC, start, end, UnitKind.MISSED_CANDIDATE),
        DOC,
        UnitKind.MISSED_CANDIDATE,
        Span(start, end),
        ((), ()),
        suggestion,
    )


def alignment_with(*spans: tuple[int, int]) -> Alignment:
    tags = [Annotation(f"T{i}", "DATE", "DATE", s, e, TEXT[s:e]) for i, (s, e) in enumerate(spans)]
    return align_documents([Document(DOC, TEXT, tags), Document(DOC, TEXT, list(tags))])


def merged(alignment: Alignment, *candidates: tuple[int, int]) -> list[tuple[int, int, UnitKind]]:
    add_candidates(alignment, [candidate(s, e) for s, e in candidates])
    return [(u.start, u.end, u.kind) for u in alignment.units]


AGREE, MISSED = UnitKind.AGREEMENT, UnitKind.MISSED_CANDIDATE


def test_candidates_overlapping_annotation_units_are_dropped() -> None:
    # overlapping the first unit (0-5), the second unit (10-15); touching a unit's end is no overlap
    assert merged(alignment_with((0, 5), (10, 15)), (2, 8), (12, 20), (5, 9), (15, 18)) == [
        (0, 5, AGREE),
        (5, 9, MISSED),
        (10, 15, AGREE),
        (15, 18, MISSED),
    ]


def test_longer_candidates_win_and_a_dropped_one_stops_nothing() -> None:
    # 0-10 is the longest and is kept; 8-12 overlaps it (dropped) although its end is later;
    # 20-26 overlaps unit 22-24 (dropped) and the shorter 30-32 after both is still kept
    assert merged(alignment_with((22, 24)), (8, 12), (0, 10), (20, 26), (30, 32)) == [
        (0, 10, MISSED),
        (22, 24, AGREE),
        (30, 32, MISSED),
    ]
    # the first candidate considered (longest) overlaps a unit, the rest are still considered
    assert merged(alignment_with((0, 4)), (0, 9), (10, 12)) == [(0, 4, AGREE), (10, 12, MISSED)]
