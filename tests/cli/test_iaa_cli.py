"""``annotator iaa`` on real folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
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
