"""``annotator consistency``: exit 1 when unannotated occurrences exist, text only on request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from tests.adjudication.helpers import at, version, write_versions

FIRST = "Patient Ora Hendrickson seen in Boston.\n"
SECOND = "Ora Hendrickson returns. Lives near Boston.\n"


def test_consistency_reports_findings_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    [gold] = write_versions(
        tmp_path,
        {
            "gold": [
                version(
                    "100-01", FIRST, ("Ora Hendrickson", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY")
                ),
                version("100-02", SECOND, ("Ora Hendrickson", "NAME", "PATIENT")),
            ]
        },
    )
    assert main(["consistency", str(gold), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["count"] == 1 and report["includes_text"] is False
    [finding] = report["findings"]
    assert (finding["doc_id"], finding["start"], finding["end"], finding["type"]) == (
        "100-02",
        *at(SECOND, "Boston"),
        "CITY",
    )
    assert finding["annotated_at"][0]["doc_id"] == "100-01"
    assert "Boston" not in json.dumps(report)

    assert main(["consistency", str(gold)]) == 1
    out = capsys.readouterr().out
    assert "100-02" in out and "100-01:" in out and "Boston" not in out

    assert main(["consistency", str(gold), "--include-text"]) == 1
    out = capsys.readouterr().out
    assert "includes PHI text" in out and "Boston" in out


def test_consistency_clean_corpus_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    [gold] = write_versions(
        tmp_path,
        {
            "gold": [
                version(
                    "100-01", FIRST, ("Ora Hendrickson", "NAME", "PATIENT"), ("Boston", "LOCATION", "CITY")
                ),
                version("101-01", SECOND, ("Ora Hendrickson", "NAME", "PATIENT")),
            ]
        },
    )
    # Boston is unannotated in 101-01, but that is another patient: only the corpus scope sees it.
    assert main(["consistency", str(gold)]) == 0
    assert "0 unannotated" in capsys.readouterr().out
    assert main(["consistency", str(gold), "--scope", "corpus"]) == 1


def test_consistency_missing_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["consistency", str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err
