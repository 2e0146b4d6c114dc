"""``annotator adjudicate``: gold files, report, exit codes, --json, finalised files kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.adjudication.decisions import AdjudicationSession, log_path, read_log
from annotator.adjudication.units import align_documents
from annotator.cli.main import main
from annotator.core.annotation import Source
from annotator.io.i2b2 import read_i2b2
from tests.adjudication.helpers import NOTE, at, version, write_versions


@pytest.fixture
def folders(tmp_path: Path) -> list[Path]:
    alice = [
        version(
            "100-01",
            NOTE,
            ("John Smith", "NAME", "DOCTOR"),
            ("2067-05-03", "DATE", "DATE"),
            ("Boston", "LOCATION", "CITY"),
        ),
        version("100-02", NOTE, ("2067-05-03", "DATE", "DATE")),
        version("100-03", NOTE),
    ]
    bob = [
        version(
            "100-01",
            NOTE,
            ("John", "NAME", "DOCTOR"),
            ("Smith", "NAME", "DOCTOR"),
            ("2067-05-03", "DATE", "DATE"),
        ),
        version("100-02", NOTE, ("2067-05-03", "DATE", "DATE")),
    ]
    return write_versions(tmp_path, {"alice": alice, "bob": bob})


def test_adjudicate_writes_agreed_gold_and_reports_json(
    folders: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold_dir = tmp_path / "gold"
    code = main(["adjudicate", *map(str, folders), "-o", str(gold_dir), "--adjudicator", "dana", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["missing"] == {"100-03": ["bob"]}
    by_doc = {d["doc_id"]: d for d in report["documents"]}
    first = by_doc["100-01"]
    # The split name and Boston (only alice) are open; the date is agreed.
    assert first["unresolved"] == {"boundary_conflict": 1, "partial": 1}
    assert [(u["start"], u["end"]) for u in first["unresolved_units"]] == [
        at(NOTE, "John Smith"),
        at(NOTE, "Boston"),
    ]
    # In 100-02 only the date is tagged; the name and Boston were tagged in 100-01 (the longer
    # "John Smith" wins over its parts).
    second = by_doc["100-02"]
    assert second["unresolved"] == {"missed_candidate": 2}
    assert [(u["start"], u["end"]) for u in second["unresolved_units"]] == [
        at(NOTE, "John Smith"),
        at(NOTE, "Boston"),
    ]
    assert "Boston" not in json.dumps(report) and "John" not in json.dumps(report)
    gold = read_i2b2(gold_dir / "100-01.xml")
    [date] = gold.annotations
    assert (date.start, date.end, date.source, date.annotator) == (
        *at(NOTE, "2067-05-03"),
        Source.ADJUDICATED,
        "dana",
    )
    assert dict(date.extra)["agreed_by"] == "alice,bob"
    assert log_path(gold_dir, "100-01").exists()
    assert not (gold_dir / "100-03.xml").exists()


def test_adjudicate_table_output_and_majority_option(
    folders: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["adjudicate", *map(str, folders), "-o", str(tmp_path / "gold"), "--auto-agreements", "off"])
    captured = capsys.readouterr()
    assert code == 0
    assert "100-01" in captured.out and "boundary_conflict 1" in captured.out
    assert "100-03 is missing from bob" in captured.err
    assert len(read_i2b2(tmp_path / "gold" / "100-02.xml")) == 0


def test_adjudicate_keeps_finalised_gold_unless_forced(
    folders: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold_dir = tmp_path / "gold"
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir), "--no-candidates"]) == 0
    versions = [read_i2b2(folder / "100-02.xml") for folder in folders]
    session = AdjudicationSession(
        align_documents(versions, ["alice", "bob"]), log=read_log(log_path(gold_dir, "100-02"))
    )
    session.finalise()
    session.save(gold_dir)
    before = (gold_dir / "100-02.xml").read_bytes(), log_path(gold_dir, "100-02").read_bytes()
    capsys.readouterr()
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir), "--json"]) == 0
    report = {d["doc_id"]: d for d in json.loads(capsys.readouterr().out)["documents"]}
    assert report["100-02"]["status"] == "finalised"
    assert ((gold_dir / "100-02.xml").read_bytes(), log_path(gold_dir, "100-02").read_bytes()) == before
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir), "--force", "--json"]) == 0
    report = {d["doc_id"]: d for d in json.loads(capsys.readouterr().out)["documents"]}
    assert report["100-02"]["status"] == "written"
    assert log_path(gold_dir, "100-02").read_bytes() != before[1]


def test_adjudicate_text_mismatch_exits_1_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folders = write_versions(
        tmp_path,
        {"alice": [version("100-01", NOTE)], "bob": [version("100-01", NOTE.replace("Boston", "Austin"))]},
    )
    code = main(["adjudicate", *map(str, folders), "-o", str(tmp_path / "gold")])
    err = capsys.readouterr().err
    assert code == 1
    assert "100-01" in err and f"offset {at(NOTE, 'Boston')[0]}" in err and "Traceback" not in err
    assert not (tmp_path / "gold").exists()


@pytest.mark.parametrize("argv", [["one"], ["missing_a", "missing_b"]])
def test_adjudicate_usage_errors_exit_2(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "one").mkdir()
    code = main(["adjudicate", *[str(tmp_path / a) for a in argv], "-o", str(tmp_path / "gold")])
    assert code == 2
    assert "error" in capsys.readouterr().err


def test_adjudicate_never_overwrites_gold_it_did_not_write(
    folders: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold_dir = tmp_path / "gold"
    gold_dir.mkdir()
    hand_made = version("100-02", NOTE, ("Boston", "LOCATION", "CITY"))
    write_versions(tmp_path, {"gold": [hand_made]})
    before = (gold_dir / "100-02.xml").read_bytes()
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir), "--json"]) == 0
    report = {d["doc_id"]: d for d in json.loads(capsys.readouterr().out)["documents"]}
    assert report["100-02"]["status"] == "existing"
    assert (gold_dir / "100-02.xml").read_bytes() == before
    assert not log_path(gold_dir, "100-02").exists()
    assert report["100-01"]["status"] == "written"


def test_adjudicate_names_a_damaged_decision_log_and_changes_nothing(
    folders: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold_dir = tmp_path / "gold"
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir), "--no-candidates"]) == 0
    log_path(gold_dir, "100-02").write_bytes(b"\xff\xfe\x00garbage")
    before = {p.name: p.read_bytes() for p in gold_dir.iterdir()}
    capsys.readouterr()
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "100-02.decisions.jsonl" in err and "not UTF-8" in err
    assert {p.name: p.read_bytes() for p in gold_dir.iterdir()} == before


def test_without_adjudicator_the_remembered_name_signs_the_gold(
    folders: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from annotator.io.workstate import save_identity

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    save_identity("carol")  # what the windows remember; the command used the login name
    gold_dir = tmp_path / "gold"
    assert main(["adjudicate", *map(str, folders), "-o", str(gold_dir)]) == 0
    date = next(a for a in read_i2b2(gold_dir / "100-02.xml").annotations if a.type == "DATE")
    assert date.annotator == "carol"


def test_an_annotator_editing_their_copy_after_the_decision_reopens_the_unit_and_says_so(
    folders: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold_dir = tmp_path / "gold"
    args = ["adjudicate", *map(str, folders), "-o", str(gold_dir), "--adjudicator", "dana", "--no-candidates"]
    assert main(args) == 0
    # dana takes alice's "John Smith" and Boston in the window's way (a session on the log).
    from annotator.adjudication.corpus import prepare_corpus

    session = prepare_corpus(folders, gold_dir, candidates=False).open_session("100-01", "dana")
    for unit in session.unresolved():
        session.take(unit.id, 0)
    session.save(gold_dir)
    capsys.readouterr()
    # alice retypes her John Smith afterwards: "take alice" must not put PATIENT in the gold.
    path = folders[0] / "100-01.xml"
    path.write_text(path.read_text(encoding="utf-8").replace('TYPE="DOCTOR"', 'TYPE="PATIENT"', 1))
    assert main(args) == 0
    captured = capsys.readouterr()
    gold = read_i2b2(gold_dir / "100-01.xml")
    assert not any(a.start == at(NOTE, "John Smith")[0] for a in gold.annotations)
    assert any(a.start == at(NOTE, "Boston")[0] for a in gold.annotations)  # unchanged: kept
    john = f"100-01:{at(NOTE, 'John Smith')[0]}-{at(NOTE, 'John Smith')[1]}"
    assert (
        f"warning: document 100-01: the versions changed since 1 decision(s) were made ({john}); "
        "those units are open again" in captured.err
    )
    assert main([*args, "--json"]) == 0
    documents = {d["doc_id"]: d for d in json.loads(capsys.readouterr().out)["documents"]}
    assert documents["100-01"]["stale_units"] == [john]
