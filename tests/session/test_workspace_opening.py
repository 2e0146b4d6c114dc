"""Opening a project that cannot be opened changes nothing on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.errors import AnnotatorError
from annotator.io.i2b2 import write_i2b2
from annotator.session.workspace import Workspace


def _tree(root: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))
    }


def _project(tmp_path: Path, schema: str, with_note: bool) -> Project:
    project = Project.create(tmp_path / "p", "Tiny", annotators=["alice"])
    if with_note:
        write_i2b2(Document("300-01", "Seen by Dr. Mary Jones."), project.source_dir / "300-01.xml")
    project.schema = schema
    project.save()
    return project


@pytest.mark.parametrize(("schema", "with_note"), [("no-such-schema", True), ("i2b2-2014", False)])
def test_a_refused_project_gains_no_annotator_and_no_folder(
    tmp_path: Path, schema: str, with_note: bool
) -> None:
    project = _project(tmp_path, schema, with_note)
    before = _tree(project.root)
    with pytest.raises(AnnotatorError):
        Workspace.open(project.root, "bob")
    assert _tree(project.root) == before


def test_an_opened_project_lists_its_new_annotator(tmp_path: Path) -> None:
    project = _project(tmp_path, "i2b2-2014", with_note=True)
    workspace = Workspace.open(project.root, "bob")
    assert "bob" in Project.open(project.root).annotators
    assert workspace.project.annotations_dir("bob").is_dir()


def test_an_unknown_schema_in_project_toml_names_that_file(tmp_path: Path) -> None:
    project = _project(tmp_path, "no-such-schema", with_note=True)
    with pytest.raises(AnnotatorError, match="no-such-schema") as error:
        Workspace.open(project.root, "bob")
    assert error.value.path == str(project.root / "project.toml")
