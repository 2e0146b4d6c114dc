"""``annotator queue``: the waiting notes, most uncertain first, as a table or JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from annotator.cli.main import main
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.crf.parallel import map_shards
from annotator.io.i2b2 import write_i2b2
from annotator.io.workstate import DONE, WorkState
from annotator.workflows import queue as queue_workflow


def _project(root: Path) -> Project:
    project = Project.create(root, "Queue", annotators=["alice", "bob"])
    for doc_id, text in (
        ("700-01", "Seen by Dr. Abernathy-Quist at Lakeside on 12/3.\n"),
        ("700-02", "No change.\n"),
        ("701-01", "Call Ms. Okonkwo at 555-0199.\n"),
    ):
        write_i2b2(Document(doc_id, text), project.source_dir / f"{doc_id}.xml")
    state = WorkState.load(project)
    state.set_status("701-01", "bob", DONE)
    state.save()
    return project


def test_queue_json_lists_waiting_notes_in_rank_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "p")
    assert main(["queue", str(project.root), "--annotator", "alice", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    queue = data["queue"]
    assert sorted(e["doc_id"] for e in queue) == ["700-01", "700-02"]
    assert [e["rank"] for e in queue] == [1, 2]
    assert queue[0]["uncertainty"] >= queue[1]["uncertainty"]
    assert data["claimed"] == ["701-01"]
    assert data["measure"] == "least confidence per token"


def test_queue_table_names_what_was_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = _project(tmp_path / "p")
    assert main(["queue", str(project.root), "--annotator", "alice", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "queue of alice: 2 note(s) not started" in out
    assert "claimed by other annotators: 1 note(s)" in out
    assert out.count("700-0") == 1  # --limit 1


def test_queue_without_an_annotator_name_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    project = _project(tmp_path / "p")
    assert main(["queue", str(project.root)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--annotator" in err


def test_queue_of_a_project_without_notes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "0 note(s) not started" read as a finished project.
    project = Project.create(tmp_path / "p", "Empty", annotators=["alice"])
    assert main(["queue", str(project.root), "--annotator", "alice"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no .xml documents" in err


def test_queue_on_two_processes_gives_the_same_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path / "p")
    sharded: list[int] = []  # the worker counts the real sharded path ran with

    def recording(*args: Any, **kwargs: Any) -> Any:
        sharded.append(args[4])
        return map_shards(*args, **kwargs)

    monkeypatch.setattr(queue_workflow, "map_shards", recording)
    orders = []
    for workers in ("1", "2"):
        assert main(["queue", str(project.root), "--annotator", "alice", "--workers", workers, "--json"]) == 0
        orders.append(json.loads(capsys.readouterr().out)["queue"])
    assert sharded == [2]  # --workers 1 stayed on this process
    assert orders[0] == orders[1]
    assert len(orders[0]) == 2


@pytest.mark.parametrize("option", ["--limit", "--workers"])
def test_queue_refuses_a_count_below_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    project = _project(tmp_path / "p")
    with pytest.raises(SystemExit) as stop:
        main(["queue", str(project.root), "--annotator", "alice", option, "0"])
    assert stop.value.code == 2
    assert "must be at least 1, got 0" in capsys.readouterr().err


def test_queue_of_a_project_without_its_notes_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "p")
    for path in project.source_dir.iterdir():
        path.unlink()
    project.source_dir.rmdir()
    assert main(["queue", str(project.root), "--annotator", "alice"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no source/ folder" in err


@pytest.mark.parametrize("name", ["a:b", "../x", " "])
def test_queue_refuses_an_annotator_name_the_window_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    project = _project(tmp_path / "p")
    assert main(["queue", str(project.root), "--annotator", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "annotator name" in err
