"""Per-project work state and the remembered annotator identity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.core.project import Project
from annotator.errors import InputError, UsageError
from annotator.io.workstate import (
    DONE,
    IN_PROGRESS,
    NOT_STARTED,
    WorkState,
    identity_path,
    load_identity,
    save_identity,
    state_path,
)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project.create(tmp_path / "proj", "demo", annotators=["alice", "bob"])


def test_status_and_seconds_persist(project: Project) -> None:
    state = WorkState.load(project)
    assert state.status("100-01", "alice") == NOT_STARTED
    state.set_status("100-01", "alice", IN_PROGRESS)
    state.add_seconds("100-01", "alice", 12.5)
    state.add_seconds("100-01", "alice", 7.5)
    state.set_status("100-02", "bob", DONE)
    state.save()
    assert state_path(project) == project.root / ".annotator" / "state.json"
    again = WorkState.load(project.root)
    assert again.status("100-01", "alice") == IN_PROGRESS
    assert again.seconds("100-01", "alice") == pytest.approx(20.0)
    assert again.status("100-01", "bob") == NOT_STARTED
    assert again.statuses("bob") == {"100-02": DONE}
    assert again.total_seconds() == pytest.approx(20.0)


def test_two_processes_saving_do_not_erase_each_other(project: Project) -> None:
    first = WorkState.load(project)
    second = WorkState.load(project)
    first.set_status("100-01", "alice", DONE)
    first.add_seconds("100-01", "alice", 30.0)
    first.save()
    second.set_status("100-02", "bob", IN_PROGRESS)
    second.add_seconds("100-01", "alice", 5.0)
    second.save()
    merged = WorkState.load(project)
    assert merged.status("100-01", "alice") == DONE
    assert merged.status("100-02", "bob") == IN_PROGRESS
    assert merged.seconds("100-01", "alice") == pytest.approx(35.0)


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        json.dumps({"documents": {"100-01": {"alice": {"status": "finished"}}}}),
        json.dumps({"documents": {"100-01": {"alice": {"seconds": -3}}}}),
        # json reads NaN and 1e999 (infinity): they broke the window's time column.
        '{"documents": {"100-01": {"alice": {"seconds": NaN}}}}',
        '{"documents": {"100-01": {"alice": {"seconds": 1e999}}}}',
        json.dumps({"documents": {"100-01": "done"}}),
    ],
)
def test_corrupt_state_is_a_clear_error_and_kept(project: Project, content: str) -> None:
    path = state_path(project)
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        WorkState.load(project)
    assert str(path) in str(caught.value)
    assert path.read_text(encoding="utf-8") == content


def test_bad_status_and_negative_seconds_rejected(project: Project) -> None:
    state = WorkState.load(project)
    with pytest.raises(UsageError):
        state.set_status("100-01", "alice", "finished")
    with pytest.raises(UsageError):
        state.add_seconds("100-01", "alice", -1.0)


def test_identity_remembered_in_xdg_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert load_identity() is None
    save_identity("  alice ")
    assert identity_path() == tmp_path / "config" / "phi-annotator" / "identity.json"
    assert load_identity() == "alice"
    save_identity("bob")
    assert load_identity() == "bob"


@pytest.mark.parametrize(
    "name", ["", "   ", "a/b", "..", ".hidden", "CON", "com\u00b9", "a\x01b", "x" * 300, "dots."]
)
def test_identity_must_be_a_folder_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with pytest.raises(UsageError):
        save_identity(name)
    assert load_identity() is None


def test_corrupt_identity_names_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    identity_path().parent.mkdir(parents=True)
    identity_path().write_text("{}", encoding="utf-8")
    with pytest.raises(InputError, match=r"identity\.json"):
        load_identity()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        # Python refuses an integer of more than 4,300 digits with a ValueError that is no
        # JSONDecodeError: it was an internal error.
        ('{"annotator": ' + "9" * 5000 + "}", "cannot read the annotator identity"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('["alice"]', "no annotator name"),
    ],
    ids=["huge-number", "deep", "list"],
)
def test_a_malformed_identity_file_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, problem: str
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    identity_path().parent.mkdir(parents=True)
    identity_path().write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=problem) as raised:
        load_identity()
    assert "\n" not in raised.value.one_line()


def test_a_folder_in_place_of_the_identity_file_is_named_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    identity_path().mkdir(parents=True)
    with pytest.raises(InputError) as raised:
        load_identity()
    said = raised.value.one_line()
    assert said.count("identity.json") == 1 and "is a directory" in said.lower()
