"""Pairing annotator folders by file name."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.adjudication.versions import load_versions, version_names
from annotator.errors import TextMismatchError, UsageError
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
