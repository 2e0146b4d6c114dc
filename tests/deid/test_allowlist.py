"""Allow entries: each passes findings in its own scope only (document, patient, corpus)."""

from __future__ import annotations

import pytest

from annotator.deid.allowlist import AllowEntry, without_allowed
from annotator.deid.findings import Leak
from tests.deid.builders import note

NOTES = [
    note("601-01", "Blake drain out."),
    note("601-02", "Blake drain in."),
    note("602-01", "Blake agreed."),
]


def finding(doc_id: str) -> Leak:
    return Leak(doc_id, "601-01", "P0", "DOCTOR", "unreplaced text", 0, len("Blake"))


@pytest.mark.parametrize(
    ("entry", "passed"),
    [
        (AllowEntry("Blake", "document", "601-01"), {"601-01"}),
        (AllowEntry("Blake", "patient", "601"), {"601-01", "601-02"}),  # never another patient's
        (AllowEntry("Blake", "corpus"), {"601-01", "601-02", "602-01"}),
        (AllowEntry("Blak", "corpus"), set()),  # the finding's whole text, nothing less
    ],
    ids=["document", "patient", "corpus", "other-text"],
)
def test_an_entry_passes_findings_in_its_scope_only(entry: AllowEntry, passed: set[str]) -> None:
    leaks = [finding(d.doc_id) for d in NOTES]
    remaining, allowed = without_allowed(leaks, NOTES, [entry])
    assert {leak.doc_id for leak in allowed} == passed
    assert {leak.doc_id for leak in remaining} == {d.doc_id for d in NOTES} - passed
