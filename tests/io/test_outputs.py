"""The output planner: refuses to overwrite inputs or existing output, publishes all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.errors import UsageError
from annotator.io.outputs import FolderMode, plan_files, plan_folder, publishing


def test_plan_files_refuses_existing_outputs_without_force(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text("old")
    targets = [tmp_path / "a.xml", tmp_path / "b.xml"]
    with pytest.raises(UsageError, match=r"1 output file\(s\) exist already \(use --force"):
        plan_files(targets)
    plan = plan_files(targets, force=True)
    assert plan.replacing == (tmp_path / "a.xml",)
    plan.publish_text(tmp_path / "a.xml", "new")
    assert (tmp_path / "a.xml").read_text() == "new"


def test_plan_files_never_overwrites_an_input_even_with_force(tmp_path: Path) -> None:
    source = tmp_path / "in.xml"
    source.write_text("input")
    with pytest.raises(UsageError, match="would overwrite an input file"):
        plan_files([tmp_path / "." / "in.xml"], inputs=[source], force=True)
    assert source.read_text() == "input"


def test_publishing_an_unplanned_file_is_a_programming_error(tmp_path: Path) -> None:
    plan = plan_files([tmp_path / "a.txt"])
    with pytest.raises(ValueError, match="not an output of this plan"):
        plan.publish_text(tmp_path / "b.txt", "x")
    assert not (tmp_path / "b.txt").exists()


@pytest.mark.parametrize(
    ("mode", "message"), [(FolderMode.MERGE, "write into it anyway"), (FolderMode.REPLACE, "replace it")]
)
def test_plan_folder_refuses_a_non_empty_folder_without_force(
    tmp_path: Path, mode: FolderMode, message: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    plan_folder(out, mode=mode)  # empty: fine
    (out / "old.xml").write_text("x")
    with pytest.raises(UsageError, match=message):
        plan_folder(out, mode=mode)
    assert plan_folder(out, mode=mode, force=True).replacing == (out,)


@pytest.mark.parametrize("relation", ["same", "inside", "around"])
def test_plan_folder_refuses_to_write_into_or_around_a_protected_folder(
    tmp_path: Path, relation: str
) -> None:
    gold = tmp_path / "data" / "gold"
    gold.mkdir(parents=True)
    out = {"same": gold, "inside": gold / "export", "around": tmp_path / "data"}[relation]
    with pytest.raises(UsageError, match="around"):
        plan_folder(out, mode=FolderMode.REPLACE, force=True, protected=[gold])


def test_plan_folder_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(UsageError, match="not a folder"):
        plan_folder(tmp_path / "f", mode=FolderMode.MERGE, force=True)


def test_a_replaced_folder_is_swapped_in_only_on_success(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.xml").write_text("old")
    plan = plan_folder(out, mode=FolderMode.REPLACE, force=True)
    with pytest.raises(RuntimeError), publishing(plan) as staged:
        (staged(out) / "new.xml").write_text("new")
        raise RuntimeError("the job failed half-way")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left behind
    assert [p.name for p in out.iterdir()] == ["old.xml"]
    with publishing(plan) as staged:
        (staged(out) / "new.xml").write_text("new")
    assert [p.name for p in out.iterdir()] == ["new.xml"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
