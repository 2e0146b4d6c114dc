"""Which files of a folder are its documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.io.corpus import list_document_files
from annotator.io.i2b2 import write_i2b2


def _note(folder: Path, name: str, tagged: bool) -> None:
    document = Document(name.split(".")[0], "Seen by Dr Smith.")
    if tagged:
        document.add(document.make_annotation("NAME", "DOCTOR", 11, 16))
    folder.mkdir(exist_ok=True)
    write_i2b2(document, folder / name)


def test_an_upper_case_suffix_is_a_document_and_hidden_files_are_not(tmp_path: Path) -> None:
    for name in ("100-01.xml", "100-02.XML", "100-03.Xml", ".100-04.xml", "~100-05.xml", "notes.txt"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    (tmp_path / "sub.xml").mkdir()
    assert [p.name for p in list_document_files(tmp_path)] == ["100-01.xml", "100-02.XML", "100-03.Xml"]


def test_evaluate_scores_a_system_file_named_in_capitals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On Linux ``100-01.XML`` was left out of the system's folder: a missed note, no word."""
    _note(tmp_path / "gold", "100-01.xml", tagged=True)
    _note(tmp_path / "system", "100-01.XML", tagged=True)
    capsys.readouterr()
    assert (
        main(["evaluate", "--gold", str(tmp_path / "gold"), "--system", str(tmp_path / "system"), "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["documents"] == 1, report
