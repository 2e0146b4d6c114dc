"""The dictated-report benchmark reads a table of reports and counts what the model suggests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmarks.bench_dictated import main

REPORTS = [
    "PROCEDURE: The patient was placed in Trendelenburg position. A Kelly clamp and Metzenbaum "
    "scissors were used. Dr. Marguerite Okonkwo-Bell assisted. Transferred to the Postanesthesia "
    "Care Unit on 03/14/2089.",
    "CONSULTATION: Seen at the request of Dr. Radovan Quist. Pathology showed 8/12 cores positive.",
]


def test_suggestions_are_counted_and_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "reports.jsonl"
    table.write_text(
        "".join(json.dumps({"transcription": text}) + "\n" for text in REPORTS), encoding="utf-8"
    )
    assert main(["--reports", str(table), "--show", "DOCTOR,PATIENT,DATE"]) == 0
    out = capsys.readouterr().out.splitlines()
    shown = sorted(line.split("\t")[3] for line in out if "\t" in line)
    # The people and the date; no eponym, generic care unit or count of cores.
    assert shown == ["'03/14/2089'", "'Marguerite Okonkwo-Bell'", "'Radovan Quist'"]
    assert out[-3].startswith("2 reports, ")
    assert ": 3 suggestions (150.0 per 100 reports)" in out[-3]
    assert out[-2] == "by type:   DOCTOR 2, DATE 1"


def test_a_table_without_the_column_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "reports.csv"
    table.write_text("note\nSeen by Dr. Quist.\n", encoding="utf-8")
    assert main(["--reports", str(table)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "no column 'transcription'" in error and str(table) in error


def test_without_the_reports_it_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--reports", str(tmp_path / "absent.csv")]) == 0
    assert capsys.readouterr().out.startswith("skipped: set DICTATED_REPORTS")
