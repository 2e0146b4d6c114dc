"""``annotator deidentify``: exit codes, --json, --map only when asked, nothing written on error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.deid.builders import note


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    folder = tmp_path / "gold"
    write_i2b2(
        note("600-01", "Patient ", ("Ora Hendrickson", "PATIENT"), " seen ", ("05/03/2067", "DATE"), "."),
        folder / "600-01.xml",
    )
    write_i2b2(
        note("600-02", "Follow-up for ", ("Hendrickson", "PATIENT"), " on ", ("some Tuesday", "DATE"), "."),
        folder / "600-02.xml",
    )
    return folder


def test_surrogate_export_table(gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["deidentify", str(gold), "-o", str(out), "--seed", "4"]) == 0
    printed = capsys.readouterr().out
    assert "2 documents of 1 patients" in printed and "masked for review" in printed
    assert "Hendrickson" not in printed
    assert read_i2b2(out / "600-02.xml").annotations[1].text == "[**DATE**]"
    assert not list(tmp_path.rglob("*.json"))


def test_mask_json(gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    argv = [
        "deidentify",
        str(gold),
        "-o",
        str(out),
        "--method",
        "mask",
        "--mask-style",
        "chars",
        "--mask-char",
        "*",
        "--json",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert (
        report["method"] == "mask"
        and report["replaced"] == {"DATE": 2, "PATIENT": 2}
        and report["leaks"] == []
    )
    assert read_i2b2(out / "600-01.xml").text == "Patient *** *********** seen **********."


def test_map_written_when_asked(gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    map_path = tmp_path / "audit" / "map.json"
    assert main(["deidentify", str(gold), "-o", str(tmp_path / "out"), "--map", str(map_path), "--json"]) == 0
    err = capsys.readouterr().err  # announced on stderr, as every command's files, even with --json
    assert (
        "de-identified notes written to" in err
        and f"audit map (holds the original PHI) written to {map_path}" in err
    )
    assert json.loads(map_path.read_text(encoding="utf-8"))["patients"]["600"]["replacements"]


def test_leak_exit_1_names_document(gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_i2b2(
        note("601-01", "Patient ", ("Zebulon Quist", "PATIENT"), ". Quist called."), gold / "601-01.xml"
    )
    out = tmp_path / "out"
    assert main(["deidentify", str(gold), "-o", str(out)]) == 1
    error = capsys.readouterr().err
    assert "601-01" in error and "Quist" not in error and "Traceback" not in error
    assert len(error.strip().splitlines()) == 1
    assert not out.exists()


def test_a_refusal_in_json_lists_every_finding_without_text(
    gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_i2b2(
        note("601-01", "Patient ", ("Zebulon Quist", "PATIENT"), ". Quist called. Quist again."),
        gold / "601-01.xml",
    )
    assert main(["deidentify", str(gold), "-o", str(tmp_path / "out"), "--json"]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["written"] is False
    findings = report["findings"]
    assert findings and {f["doc_id"] for f in findings} == {"601-01"}
    assert {f["type"] for f in findings} == {"PATIENT"} and all(f["rule"] for f in findings)
    assert "Quist" not in captured.out + captured.err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("extra", "code"),
    [(["-o", "{gold}"], 2), (["-o", "{tmp}/out", "--mask-char", "ab"], 2),
     (["-o", "{tmp}/full"], 2),
     # Longer than any line: the check would find nothing and say so.
     (["-o", "{tmp}/out", "--min-leak-length", "99999999999999999999"], 2),
     (["-o", "{tmp}/out", "--min-leak-length", "0"], 2)],
)  # fmt: skip
def test_usage_errors_exit_2(
    gold: Path, tmp_path: Path, extra: list[str], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    argv = ["deidentify", str(gold), *(a.format(gold=gold, tmp=tmp_path) for a in extra)]
    assert main(argv) == code
    assert "Traceback" not in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_bad_choice_exits_2(gold: Path, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["deidentify", str(gold), "-o", str(tmp_path / "out"), "--method", "shuffle"])
    assert caught.value.code == 2
    assert not (tmp_path / "out").exists()


def test_missing_gold_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deidentify", str(tmp_path / "nope"), "-o", str(tmp_path / "out")]) == 1
    assert "not a folder" in capsys.readouterr().err


def test_without_seed_the_surrogates_are_keyed_by_a_secret_seed_kept_in_the_audit_map(
    gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # With a fixed default seed anyone with the code and a file name could redraw a patient's
    # date shift and name letters, and undo them: the default seed is drawn afresh and secret.
    exports = []
    for run in ("a", "b"):
        out, audit = tmp_path / f"out_{run}", tmp_path / f"map_{run}.json"
        assert main(["deidentify", str(gold), "-o", str(out), "--map", str(audit), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["seed"] is None  # the report may be shared
        exports.append((out, json.loads(audit.read_text(encoding="utf-8"))["seed"]))
    (first, first_seed), (second, _) = exports
    assert read_i2b2(first / "600-01.xml").text != read_i2b2(second / "600-01.xml").text
    assert main(["deidentify", str(gold), "-o", str(tmp_path / "again"), "--seed", str(first_seed)]) == 0
    assert (tmp_path / "again" / "600-01.xml").read_bytes() == (first / "600-01.xml").read_bytes()
