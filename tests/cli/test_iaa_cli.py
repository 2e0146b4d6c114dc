"""``annotator iaa`` on real folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.project import Project
from annotator.workflows.progress import project_progress
from tests.evaluation.helpers import at, write_doc

TEXT = "\nAmy Lee met John Smith in Boston.\n"


def test_iaa_three_annotators_with_gold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tags = {
        "gold": ["Amy Lee", "John Smith", "Boston"],
        "anna": ["Amy Lee", "John Smith", "Boston"],
        "ben": ["Amy Lee"],
        "cleo": ["Amy Lee", "John Smith"],
    }
    for name, needles in tags.items():
        write_doc(tmp_path / name, "100-01.xml", TEXT, [("NAME", *at(TEXT, n), "PATIENT") for n in needles])
    args = [
        "iaa",
        str(tmp_path / "anna"),
        str(tmp_path / "ben"),
        str(tmp_path / "cleo"),
        "--gold",
        str(tmp_path / "gold"),
    ]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["annotators"] == ["anna", "ben", "cleo"]
    assert data["pairs"][0]["reference"] == "anna" and data["pairs"][0]["recall"] == pytest.approx(1 / 3)
    assert data["f1_matrix"][0][1] == pytest.approx(0.5)
    assert data["average_versus_gold"]["f1"] == pytest.approx((1.0 + 0.5 + 0.8) / 3)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "F1 matrix" in out and "average of annotators vs gold" in out


def test_an_unfinished_annotator_is_scored_against_gold_on_what_they_did_and_told_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    everything = [("NAME", *at(TEXT, n), "PATIENT") for n in ("Amy Lee", "John Smith")]
    for doc_id in ("100-01", "100-02", "100-03"):
        write_doc(tmp_path / "gold", f"{doc_id}.xml", TEXT, everything)
        write_doc(tmp_path / "anna", f"{doc_id}.xml", TEXT, everything)
    write_doc(tmp_path / "ben", "100-01.xml", TEXT, everything)  # two notes still to do
    args = ["iaa", str(tmp_path / "anna"), str(tmp_path / "ben"), "--gold", str(tmp_path / "gold")]
    assert main([*args, "--json"]) == 0
    captured = capsys.readouterr()
    ben = json.loads(captured.out)["versus_gold"][1]
    # the two notes ben has not done are no misses: recall 1.0 over his one note, not 1/3
    assert (ben["predicted"], ben["documents"], ben["recall"]) == ("ben", 1, 1.0)
    assert "ben has no copy of 2 gold document(s)" in captured.err


def test_iaa_needs_two_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_doc(tmp_path / "a", "100-01.xml", TEXT, [])
    assert main(["iaa", str(tmp_path / "a")]) == 2
    assert "at least two" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--csv", "--html"])
def test_iaa_report_never_replaces_an_existing_file_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    for name in ("anna", "ben"):
        write_doc(tmp_path / name, "100-01.xml", TEXT, [("NAME", *at(TEXT, "Amy Lee"), "PATIENT")])
    precious = tmp_path / "thesis.html"
    precious.write_text("my thesis", encoding="utf-8")
    argv = ["iaa", str(tmp_path / "anna"), str(tmp_path / "ben"), option, str(precious)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists already (use --force to replace it)" in err
    assert precious.read_text(encoding="utf-8") == "my thesis"
    assert main([*argv, "--force"]) == 0
    assert precious.read_text(encoding="utf-8") != "my thesis"


def test_the_csv_and_html_reports_hold_the_averages_the_terminal_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tags = {"gold": ["Amy Lee", "John Smith"], "anna": ["Amy Lee", "John Smith"], "ben": ["Amy Lee"]}
    for name, needles in tags.items():
        write_doc(tmp_path / name, "100-01.xml", TEXT, [("NAME", *at(TEXT, n), "PATIENT") for n in needles])
    args = ["iaa", str(tmp_path / "anna"), str(tmp_path / "ben"), "--gold", str(tmp_path / "gold")]
    assert main(args) == 0
    out = capsys.readouterr().out
    average = next(line for line in out.splitlines() if line.startswith("average of annotators vs gold"))
    assert average == "average of annotators vs gold: precision 1.0000, recall 0.7500, f1 0.8333"
    assert main([*args, "--csv", str(tmp_path / "iaa.csv")]) == 0
    rows = (tmp_path / "iaa.csv").read_text(encoding="utf-8").splitlines()
    assert rows[-2:] == [
        "average pairwise,,,,,,,,0.6667,,,",
        "gold,average of annotators,,,,,1.0000,0.7500,0.8333,,,",
    ]
    assert main([*args, "--html", str(tmp_path / "iaa.html")]) == 0
    page = (tmp_path / "iaa.html").read_text(encoding="utf-8")
    assert "Average of annotators vs gold: precision 1.0000, recall 0.7500, f1 0.8333" in page


def test_significance_compares_two_systems_on_the_documents_both_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    everything = [("NAME", *at(TEXT, n), "PATIENT") for n in ("Amy Lee", "John Smith")]
    for doc_id in ("100-01", "100-02", "100-03", "100-04"):
        write_doc(tmp_path / "gold", f"{doc_id}.xml", TEXT, everything)
        write_doc(tmp_path / "whole", f"{doc_id}.xml", TEXT, everything)
    write_doc(tmp_path / "half", "100-01.xml", TEXT, everything)  # the same tags, three notes to go
    args = ["significance", "--gold", str(tmp_path / "gold"), str(tmp_path / "whole"), str(tmp_path / "half")]
    assert main([*args, "--json", "--shuffles", "99"]) == 0
    captured = capsys.readouterr()
    overall = json.loads(captured.out)["results"][0]
    # Compared on 100-01 alone they agree exactly: no difference, nothing significant.
    assert (overall["name"], overall["a"]["tp"], overall["b"]["tp"]) == ("overall", 2, 2)
    assert overall["f1_difference"] == 0.0 and not overall["significant"]
    assert "half has no file for 3 gold document(s): left out for both systems" in captured.err
    write_doc(tmp_path / "other", "100-02.xml", TEXT, everything)
    write_doc(tmp_path / "rest", "100-01.xml", TEXT, everything)
    args = ["significance", "--gold", str(tmp_path / "gold"), str(tmp_path / "other"), str(tmp_path / "rest")]
    assert main(args) == 1
    assert "no gold document in common" in capsys.readouterr().err


def test_pending_suggestions_are_left_out_as_the_dashboard_leaves_them_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both working copies still hold the model's unreviewed suggestion for John Smith: that
    # is nobody's judgement, so it is no agreement (the dashboard says the same).
    project = Project.create(tmp_path / "p", "IAA", annotators=["alice", "bob"])
    write_doc(project.source_dir, "100-01.xml", TEXT, [])
    tags = {"alice": ["Amy Lee", "John Smith"], "bob": ["Amy Lee", "John Smith", "Boston"]}
    for name, needles in tags.items():
        path = write_doc(
            project.annotations_dir(name),
            "100-01.xml",
            TEXT,
            [("NAME", *at(TEXT, n), "PATIENT") for n in needles],
        )
        path.write_text(
            path.read_text(encoding="utf-8").replace('comment="" />', 'comment="" pending="yes" />', 2)
        )
        path.write_text(
            path.read_text(encoding="utf-8").replace('comment="" pending="yes" />', 'comment="" />', 1)
        )
    folders = [str(project.annotations_dir(name)) for name in tags]
    assert main(["iaa", *folders, "--json"]) == 0
    [pair] = json.loads(capsys.readouterr().out)["pairs"]
    assert (pair["tp"], pair["fp"], pair["fn"]) == (1, 1, 0)
    [shown] = project_progress(project).pairs
    assert (pair["precision"], pair["recall"], pair["f1"]) == (shown.precision, shown.recall, shown.f1)
