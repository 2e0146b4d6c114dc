"""Pairing annotator folders by file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.adjudication.corpus import adjudicate_corpus, prepare_corpus
from annotator.adjudication.versions import load_versions, version_names
from annotator.core.annotation import Source
from annotator.errors import TextMismatchError, UsageError
from annotator.io.i2b2 import read_i2b2
from tests.adjudication.helpers import NOTE, at, version, write_versions


def test_load_versions_pairs_by_file_name_and_reports_missing(tmp_path: Path) -> None:
    folders = write_versions(
        tmp_path,
        {
            "alice": [version("100-01", NOTE), version("100-02", NOTE), version("101-01", NOTE)],
            "bob": [version("100-01", NOTE), version("101-01", NOTE)],
            "carol": [version("100-01", NOTE), version("101-01", NOTE), version("102-01", NOTE)],
        },
    )
    versions = load_versions(folders)
    assert versions.names == ["alice", "bob", "carol"]
    assert versions.doc_ids == ["100-01", "101-01"]
    assert versions.missing == {"100-02": ["bob", "carol"], "102-01": ["alice", "bob"]}


def test_load_versions_text_mismatch_names_document_versions_offset(tmp_path: Path) -> None:
    folders = write_versions(
        tmp_path,
        {"alice": [version("100-01", NOTE)], "bob": [version("100-01", NOTE.replace("Boston", "Austin"))]},
    )
    with pytest.raises(TextMismatchError) as caught:
        load_versions(folders)
    message = str(caught.value)
    assert "100-01" in message and "bob" in message and "alice" in message
    assert f"offset {at(NOTE, 'Boston')[0]}" in message
    assert "Austin" not in message and "Boston" not in message


def test_load_versions_needs_two_folders(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        load_versions([tmp_path])


def test_version_names_disambiguate_same_folder_names(tmp_path: Path) -> None:
    first = tmp_path / "round1" / "ann"
    second = tmp_path / "round2" / "ann"
    assert version_names([first, second]) == ["round1/ann", "round2/ann"]


def test_pending_suggestions_are_no_annotators_judgement(tmp_path: Path) -> None:
    # A working copy keeps the model's suggestions nobody reviewed as pending="yes". Two
    # copies holding the same unreviewed suggestion are no agreement: it must never be
    # auto-accepted into the gold as "agreed_by alice,bob".
    reviewed = version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))
    unreviewed = version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))
    for document in (reviewed, unreviewed):
        boston = next(a for a in document.annotations if a.type == "CITY")
        document.replace(boston.id, boston.replace(pending=True, source=Source.MODEL))
    bob = version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"))
    folders = write_versions(tmp_path, {"alice": [reviewed], "bob": [unreviewed], "carol": [bob]})
    versions = load_versions(folders)
    assert [len(d.annotations) for d in versions.documents["100-01"]] == [1, 1, 1]
    prepared = prepare_corpus(folders, tmp_path / "gold", candidates=False)
    adjudicate_corpus(prepared, adjudicator="dana")
    gold = read_i2b2(tmp_path / "gold" / "100-01.xml")
    assert [(a.type, a.start, a.end) for a in gold.annotations] == [("DOCTOR", *at(NOTE, "John Smith"))]
