"""Project folders: create, open, plain folders, annotators."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.core.project import PROJECT_FILE, Project
from annotator.errors import InputError, UsageError


def test_create_then_open(tmp_path: Path) -> None:
    created = Project.create(tmp_path / "p", "Study", annotators=["ann_a", "ann_b"])
    for folder in (
        "source",
        "gold",
        "models",
        "reports",
        ".annotator",
        "annotations/ann_a",
        "annotations/ann_b",
    ):
        assert (created.root / folder).is_dir(), folder
    opened = Project.open(created.root / PROJECT_FILE)
    assert (opened.name, opened.schema, opened.annotators, opened.plain_folder) == (
        "Study",
        "i2b2-2014",
        ["ann_a", "ann_b"],
        False,
    )


def test_create_twice_is_refused(tmp_path: Path) -> None:
    Project.create(tmp_path, "A")
    with pytest.raises(UsageError, match="already exists"):
        Project.create(tmp_path, "B")


def test_add_annotator_is_saved(tmp_path: Path) -> None:
    project = Project.create(tmp_path, "A")
    project.add_annotator("kim")
    project.add_annotator("kim")
    assert Project.open(tmp_path).annotators == ["kim"]
    assert project.annotations_dir("kim").is_dir()


def test_plain_folder_is_its_own_source(tmp_path: Path) -> None:
    (tmp_path / "101-02.xml").write_text("<x/>")
    (tmp_path / "101-01.xml").write_text("<x/>")
    project = Project.open(tmp_path)
    assert project.plain_folder and project.source_dir == tmp_path
    assert project.document_ids() == ["101-01", "101-02"]
    assert project.annotations_dir("anyone") == tmp_path


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("name = [", "not a valid project file"),
        ('annotators = "kim"', "must be a list"),
        ('guideline = "hipaa"', "guideline must be one of i2b2-2014, safe-harbor"),
        ('train_with_synthetic = "yes"', "train_with_synthetic must be true or false"),
    ],
)
def test_broken_project_file(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / PROJECT_FILE).write_text(content)
    with pytest.raises(InputError, match=message):
        Project.open(tmp_path)


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a project"):
        Project.open(tmp_path / "nope")


def test_project_names_its_preannotations_folder(tmp_path: Path) -> None:
    (tmp_path / "project.toml").write_text(
        'name = "x"\nschema = "i2b2-2014"\nannotators = []\npreannotations = "preannotated"\n',
        encoding="utf-8",
    )
    project = Project.open(tmp_path)
    assert project.preannotations_dir == tmp_path / "preannotated"
    project.add_annotator("ann")  # saving keeps the key
    assert Project.open(tmp_path).preannotations == "preannotated"


@pytest.mark.parametrize("folder", ["../elsewhere", ".hidden", "a/b", ""])
def test_project_refuses_a_preannotations_folder_outside_it(tmp_path: Path, folder: str) -> None:
    (tmp_path / "project.toml").write_text(f'name = "x"\npreannotations = "{folder}"\n', encoding="utf-8")
    with pytest.raises(InputError, match="preannotations must name a folder"):
        Project.open(tmp_path)


def test_the_gold_guideline_is_the_projects_and_saved_only_when_not_the_default(tmp_path: Path) -> None:
    project = Project.create(tmp_path, "Nursing", annotators=["kim"])
    assert project.guideline == "i2b2-2014"
    assert "guideline" not in (tmp_path / PROJECT_FILE).read_text()
    project.guideline = "safe-harbor"
    project.save()
    assert 'guideline = "safe-harbor"' in (tmp_path / PROJECT_FILE).read_text()
    assert Project.open(tmp_path).guideline == "safe-harbor"


def test_the_site_lists_are_the_projects_and_saved_only_when_set(tmp_path: Path) -> None:
    project = Project.create(tmp_path, "Nursing", annotators=["kim"])
    assert project.site_lists_path is None
    assert "site_lists" not in (tmp_path / PROJECT_FILE).read_text()
    project.site_lists = "site-lists.tsv"
    project.save()
    reopened = Project.open(tmp_path)
    assert reopened.site_lists_path == tmp_path / "site-lists.tsv"
    (tmp_path / PROJECT_FILE).write_text('name = "x"\nsite_lists = 3\n', encoding="utf-8")
    with pytest.raises(InputError, match="site_lists must be the path"):
        Project.open(tmp_path)
