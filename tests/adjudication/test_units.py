"""Aligning versions into units: every unit kind, nesting, splits, N versions, stable ids."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.adjudication.units import UnitKind, align_documents, check_same_text, first_difference
from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.errors import TextMismatchError, UsageError
from tests.adjudication.helpers import NOTE, at, version

DOC = "100-01"


def kinds(documents: list[Document]) -> list[tuple[UnitKind, int, int]]:
    return [(u.kind, u.start, u.end) for u in align_documents(documents).units]


def test_units_exact_agreement() -> None:
    a = version(DOC, NOTE, ("2067-05-03", "DATE", "DATE"))
    b = version(DOC, NOTE, ("2067-05-03", "DATE", "DATE"))
    assert kinds([a, b]) == [(UnitKind.AGREEMENT, *at(NOTE, "2067-05-03"))]


def test_units_type_conflict_same_span() -> None:
    a = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"))
    b = version(DOC, NOTE, ("John Smith", "NAME", "PATIENT"))
    assert kinds([a, b]) == [(UnitKind.TYPE_CONFLICT, *at(NOTE, "John Smith"))]


def test_units_boundary_conflict_shifted_overlap() -> None:
    a = version(DOC, NOTE, ("Springfield Medical Center", "LOCATION", "HOSPITAL"))
    b = version(DOC, NOTE, ("Springfield Medical", "LOCATION", "HOSPITAL"))
    start, end = at(NOTE, "Springfield Medical Center")
    assert kinds([a, b]) == [(UnitKind.BOUNDARY_CONFLICT, start, end)]


def test_units_split_tag_is_one_boundary_conflict() -> None:
    a = version(DOC, NOTE, ("John", "NAME", "DOCTOR"), ("Smith", "NAME", "DOCTOR"))
    b = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"))
    units = align_documents([a, b], ["alice", "bob"]).units
    assert [(u.kind, u.start, u.end) for u in units] == [
        (UnitKind.BOUNDARY_CONFLICT, *at(NOTE, "John Smith"))
    ]
    assert [len(v) for v in units[0].versions] == [2, 1]


def test_units_nested_tags_cluster_together() -> None:
    # Alice tags the hospital and, nested in it, the city; Bob only the city.
    a = version(
        DOC, NOTE, ("Springfield Medical Center", "LOCATION", "HOSPITAL"), ("Springfield", "LOCATION", "CITY")
    )
    b = version(DOC, NOTE, ("Springfield", "LOCATION", "CITY"))
    assert kinds([a, b]) == [(UnitKind.BOUNDARY_CONFLICT, *at(NOTE, "Springfield Medical Center"))]


def test_units_identical_nested_tags_agree() -> None:
    tags = (("Springfield Medical Center", "LOCATION", "HOSPITAL"), ("Springfield", "LOCATION", "CITY"))
    assert kinds([version(DOC, NOTE, *tags), version(DOC, NOTE, *tags)]) == [
        (UnitKind.AGREEMENT, *at(NOTE, "Springfield Medical Center"))
    ]


def test_units_transitive_chain_of_overlaps_is_one_unit() -> None:
    # "Dr John" (A) overlaps "John Smith" (B) which overlaps "Smith on" (C): one cluster.
    a = version(DOC, NOTE, ("Dr John", "NAME", "DOCTOR"))
    b = version(DOC, NOTE, ("John Smith", "NAME", "DOCTOR"))
    c = version(DOC, NOTE, ("Smith on", "NAME", "DOCTOR"))
    start = at(NOTE, "Dr John")[0]
    end = at(NOTE, "Smith on")[1]
    assert kinds([a, b, c]) == [(UnitKind.BOUNDARY_CONFLICT, start, end)]


def test_units_partial_only_in_one_version() -> None:
    a = version(DOC, NOTE, ("Boston", "LOCATION", "CITY"))
    b = version(DOC, NOTE)
    units = align_documents([a, b]).units
    assert [(u.kind, u.start, u.end) for u in units] == [(UnitKind.PARTIAL, *at(NOTE, "Boston"))]
    assert units[0].versions[1] == ()


def test_units_adjacent_tags_stay_separate() -> None:
    text = "MRN 12345678 Boston"
    a = version(DOC, text, ("12345678", "ID", "MEDICALRECORD"), (" Boston", "LOCATION", "CITY"))
    b = version(DOC, text, ("12345678", "ID", "MEDICALRECORD"), (" Boston", "LOCATION", "CITY"))
    assert [k for k, _, _ in kinds([a, b])] == [UnitKind.AGREEMENT, UnitKind.AGREEMENT]


@pytest.mark.parametrize(
    ("third", "expected"),
    [
        (("Ora Hendrickson", "NAME", "PATIENT"), UnitKind.AGREEMENT),
        (None, UnitKind.PARTIAL),
        (("Ora Hendrickson", "NAME", "DOCTOR"), UnitKind.TYPE_CONFLICT),
        (("Ora", "NAME", "PATIENT"), UnitKind.BOUNDARY_CONFLICT),
    ],
)
def test_units_three_versions(third: tuple[str, str, str] | None, expected: UnitKind) -> None:
    a = version(DOC, NOTE, ("Ora Hendrickson", "NAME", "PATIENT"))
    b = version(DOC, NOTE, ("Ora Hendrickson", "NAME", "PATIENT"))
    c = version(DOC, NOTE, *([third] if third else []))
    units = align_documents([a, b, c], ["a", "b", "c"]).units
    assert [u.kind for u in units] == [expected]
    assert len(units[0].versions) == 3


def test_units_majority_of_three() -> None:
    a = version(DOC, NOTE, ("Ora Hendrickson", "NAME", "PATIENT"))
    b = version(DOC, NOTE, ("Ora Hendrickson", "NAME", "PATIENT"))
    c = version(DOC, NOTE, ("Ora Hendrickson", "NAME", "DOCTOR"))
    unit = align_documents([a, b, c]).units[0]
    majority = unit.majority()
    assert majority is not None
    assert majority[1] == [0, 1]
    assert align_documents([a, c]).units[0].majority() is None


def test_units_ids_are_stable_and_unique() -> None:
    a = version(
        DOC,
        NOTE,
        ("John Smith", "NAME", "DOCTOR"),
        ("Boston", "LOCATION", "CITY"),
        ("617-555-0199", "CONTACT", "PHONE"),
    )
    b = version(DOC, NOTE, ("John", "NAME", "DOCTOR"), ("2067-05-03", "DATE", "DATE"))
    first = [u.id for u in align_documents([a, b]).units]
    # A reread gives other Python objects and another order of tags: same ids.
    again = [u.id for u in align_documents([b.copy(), a.copy()]).units]
    assert first == again
    assert len(set(first)) == len(first)
    start, end = at(NOTE, "John Smith")
    assert first[0] == f"{DOC}:{start}-{end}"


def test_units_text_mismatch_names_document_versions_and_offset() -> None:
    changed = NOTE.replace("Boston", "Bostan")
    a = Document(DOC, NOTE)
    b = Document(DOC, changed)
    with pytest.raises(TextMismatchError) as caught:
        align_documents([a, b], ["alice", "bob"])
    message = str(caught.value)
    assert DOC in message and "'alice'" in message and "'bob'" in message
    assert f"offset {at(NOTE, 'Boston')[0] + len('Bost')}" in message
    assert "Bost" not in message.replace("'bob'", "")


def test_units_text_mismatch_when_one_is_a_prefix() -> None:
    with pytest.raises(TextMismatchError, match=f"offset {len(NOTE)}"):
        check_same_text([Document(DOC, NOTE), Document(DOC, NOTE + "more")], ["a", "b"])


@pytest.mark.parametrize(
    ("a", "b", "expected"), [("abc", "abc", -1), ("abc", "abd", 2), ("", "x", 0), ("xy", "x", 1)]
)
def test_first_difference(a: str, b: str, expected: int) -> None:
    assert first_difference(a, b) == expected


def test_units_need_two_versions() -> None:
    with pytest.raises(UsageError):
        align_documents([Document(DOC, NOTE)])


_spans = st.lists(
    st.tuples(st.integers(0, 60), st.integers(1, 12), st.sampled_from(["DATE", "AGE", "CITY"])), max_size=12
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_spans, min_size=2, max_size=4))
def test_units_partition_every_tag_into_disjoint_sorted_units(
    versions: list[list[tuple[int, int, str]]],
) -> None:
    text = "x" * 80
    category = {"DATE": "DATE", "AGE": "AGE", "CITY": "LOCATION"}
    documents = [
        Document(
            DOC,
            text,
            [
                Annotation(f"P{i}", category[t], t, s, s + n, text[s : s + n])
                for i, (s, n, t) in enumerate(spans)
            ],
        )
        for spans in versions
    ]
    units = align_documents(documents).units
    for version_index, document in enumerate(documents):
        placed = [a for u in units for a in u.versions[version_index]]
        assert sorted(a.id for a in placed) == sorted(a.id for a in document)
        for unit in units:
            assert all(unit.start <= a.start and a.end <= unit.end for a in unit.versions[version_index])
    # Units are sorted and disjoint: tags of different units never overlap.
    for left, right in itertools.pairwise(units):
        assert left.end <= right.start
    for unit in units:
        sets = [unit.keys_of(i) for i in range(len(documents))]
        assert (unit.kind is UnitKind.AGREEMENT) == (all(sets) and len(set(sets)) == 1)
