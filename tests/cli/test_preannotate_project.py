"""`annotator preannotate default PROJECT`: a project's notes, guideline and site lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.io.i2b2 import read_i2b2, write_i2b2

NOTE = "58 yo man seen Monday by Dr. Amy Lee. Wife Quortney Blandish visited."


def _project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "proj", "proj")
    write_i2b2(Document("100-01", NOTE), project.source_dir / "100-01.xml")
    (project.root / "site-lists.tsv").write_text("PATIENT\tQuortney Blandish\t100\n", encoding="utf-8")
    project.guideline = "safe-harbor"
    project.site_lists = "site-lists.tsv"
    project.save()
    return project


def _suggested(path: Path) -> set[str]:
    document = read_i2b2(path)
    return {document.text[a.start : a.end] for a in document.annotations}


def test_a_project_gives_its_notes_guideline_and_site_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path)
    assert main(["preannotate", "default", str(project.root), "-o", str(tmp_path / "out")]) == 0
    assert "(guideline: safe-harbor); site lists: " in capsys.readouterr().out
    found = _suggested(tmp_path / "out" / "100-01.xml")
    assert "Amy Lee" in found and "Quortney Blandish" in found
    assert not {"58", "Monday"} & found  # Safe Harbor tags neither an age under 90 nor a weekday
    # Given on the command line, the guideline is that one.
    argv = [
        "preannotate",
        "default",
        str(project.root),
        "-o",
        str(tmp_path / "i2b2"),
        "--guideline",
        "i2b2-2014",
    ]
    assert main(argv) == 0
    assert {"58", "Monday"} <= _suggested(tmp_path / "i2b2" / "100-01.xml")


def test_a_project_s_notes_are_never_written_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = _project(tmp_path)
    before = (project.source_dir / "100-01.xml").read_bytes()
    assert main(["preannotate", "default", str(project.root), "-o", str(project.source_dir), "--force"]) == 2
    assert "never overwrites its input" in capsys.readouterr().err
    assert (project.source_dir / "100-01.xml").read_bytes() == before


@pytest.mark.parametrize("command", [["stats"], ["deidentify", "-o", "{out}"], ["consistency"]])
def test_a_project_where_a_folder_of_notes_is_wanted_is_told_which_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    project = _project(tmp_path)
    write_i2b2(Document("100-01", NOTE), project.gold_dir / "100-01.xml")
    argv = [command[0], str(project.root), *(a.format(out=tmp_path / "out") for a in command[1:])]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"this is a project; give {project.gold_dir} or {project.source_dir}" in err
    assert not (tmp_path / "out").exists()
