"""``annotator evaluate`` and ``annotator significance`` end to end on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from tests.evaluation.helpers import at, write_doc

TEXT = "\nSeen by Amy Lee on 2069-04-07 in Boston.\n"


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    gold, system = tmp_path / "gold", tmp_path / "system"
    write_doc(
        gold,
        "100-01.xml",
        TEXT,
        [
            ("NAME", *at(TEXT, "Amy Lee"), "DOCTOR"),
            ("DATE", *at(TEXT, "2069-04-07"), "DATE"),
            ("LOCATION", *at(TEXT, "Boston"), "CITY"),
        ],
    )
    write_doc(
        system,
        "100-01.xml",
        TEXT,
        [("NAME", *at(TEXT, "Amy Lee"), "DOCTOR"), ("DATE", *at(TEXT, "2069-04-07"), "DATE")],
    )
    write_doc(gold, "100-02.xml", TEXT, [("NAME", *at(TEXT, "Amy Lee"), "PATIENT")])  # no system file
    return gold, system


def test_json_clean_mode_counts_missing_documents(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = folders
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--json"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["documents"] == 2
    assert (data["micro"]["tp"], data["micro"]["fp"], data["micro"]["fn"]) == (2, 0, 2)
    assert "1 gold document(s) have no system file" in out.err
    # Two documents: doc 1 (tp 2, fn 1: F1 0.8) and doc 2 (fn 1: F1 0) resampled; the ends
    # of the 95% interval are both doc 2 (F1 0) and both doc 1 (F1 0.8).
    assert data["micro_f1_interval"] == [0.0, pytest.approx(0.8)]
    assert main(["evaluate", "--gold", str(gold), "--system", str(system)]) == 0
    assert "micro F1 95% interval: [0.0000, 0.8000] (2,000 bootstrap resamples" in capsys.readouterr().out


def test_filter_map_exclude(folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = folders
    main(["evaluate", "--gold", str(gold), "--system", str(system), "--json", "--filter", "hipaa"])
    data = json.loads(capsys.readouterr().out)
    # HIPAA keeps DATE, LOCATION/CITY and NAME/PATIENT; drops the DOCTOR on both sides
    assert (data["micro"]["tp"], data["micro"]["fp"], data["micro"]["fn"]) == (1, 0, 2)
    main(
        [
            "evaluate",
            "--gold",
            str(gold),
            "--system",
            str(system),
            "--json",
            "--exclude",
            "CITY,PATIENT",
            "--map",
            "merge-names",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert (data["micro"]["tp"], data["micro"]["fp"], data["micro"]["fn"]) == (2, 0, 0)
    assert "NAME/NAME" in data["per_type"]


def test_i2b2_mode_prints_the_official_tables(
    folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = folders
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--mode", "i2b2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Token (1)                Measure")  # only the common document
    assert out.count("Micro (Primary)") == 42
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--mode", "i2b2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    strict = data["runs"][0]["tables"][1]
    assert strict["label"] == "Strict" and (strict["tp"], strict["fn"]) == (2, 1)


def test_clean_format_i2b2_and_outputs(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = folders
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--format", "i2b2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Token (2) ")
    assert "HIPAA Token (2)" in out and "HIPPA" not in out
    html, csv_path = tmp_path / "r.html", tmp_path / "r.csv"
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), "--html", str(html)]) == 0
    assert "data:image/png;base64," in html.read_text()
    assert (
        main(
            [
                "evaluate",
                "--gold",
                str(gold),
                "--system",
                str(system),
                "--csv",
                str(csv_path),
                "--match",
                "token",
            ]
        )
        == 0
    )
    assert csv_path.read_text().startswith("scope,name,tp,fp,fn")


def test_bad_input_is_one_line_without_traceback(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = folders
    (system / "100-03.xml").write_text("<deIdi2b2><TEXT>", encoding="utf-8")
    assert main(["evaluate", "--gold", str(gold), "--system", str(system)]) == 1
    err = capsys.readouterr().err
    assert "100-03.xml" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["evaluate", "--gold", str(gold / "100-01.xml"), "--system", str(system)]) == 2
    assert "must be a folder" in capsys.readouterr().err
    assert (
        main(["evaluate", "--gold", str(gold), "--system", str(system), "--mode", "i2b2", "--match", "token"])
        == 2
    )


def test_significance_cli(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system = folders
    other = tmp_path / "other"
    write_doc(other, "100-01.xml", TEXT, [])
    assert (
        main(["significance", "--gold", str(gold), str(system), str(other), "--shuffles", "999", "--json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["shuffles"] == 999
    assert data["results"][0]["name"] == "overall"
    assert data["bonferroni_threshold"] == pytest.approx(0.05 / data["tests"])
    # Out of range is refused by the argument parser (usage error, exit 2).
    with pytest.raises(SystemExit) as refused:
        main(["significance", "--gold", str(gold), str(system), str(other), "--shuffles", "0"])
    assert refused.value.code == 2


@pytest.mark.parametrize("option", ["--csv", "--html"])
def test_a_report_never_replaces_an_existing_file_without_force(
    folders: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    gold, system = folders
    precious = tmp_path / "export.csv"
    precious.write_text("note_id,text\n1,an EHR export\n", encoding="utf-8")
    argv = ["evaluate", "--gold", str(gold), "--system", str(system), option, str(precious)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists already (use --force to replace it)" in err
    assert precious.read_text(encoding="utf-8") == "note_id,text\n1,an EHR export\n"
    assert main([*argv, "--force"]) == 0
    assert "an EHR export" not in precious.read_text(encoding="utf-8")
    assert main(["evaluate", "--gold", str(gold), "--system", str(system), option, str(tmp_path)]) == 2
    assert "is a folder; give the report a file name" in capsys.readouterr().err
