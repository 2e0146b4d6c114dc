"""The supervisor dashboard: figures that match the files (issue 26), and what they came from."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.dashboard import DashboardDialog, format_duration
from annotator.io.workstate import DONE, IN_PROGRESS, WorkState
from annotator.workflows.progress import project_progress
from tests.evaluation.helpers import at, write_doc

TEXT = "\nAmy Lee met John Smith in Boston.\n"
NAMES = [("NAME", *at(TEXT, "Amy Lee"), "PATIENT"), ("NAME", *at(TEXT, "John Smith"), "PATIENT")]


def _cells(model) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [[model.item(r, c).text() for c in range(model.columnCount())] for r in range(model.rowCount())]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "p", "Dash", annotators=["alice", "bob"])
    for doc_id in ("100-01", "100-02", "100-03"):
        write_doc(project.source_dir, f"{doc_id}.xml", TEXT, [])
    return project


def test_progress_time_and_agreement_from_the_work_state_and_the_copies(
    qtbot: QtBot, project: Project
) -> None:
    write_doc(project.annotations_dir("alice"), "100-01.xml", TEXT, NAMES)
    write_doc(project.annotations_dir("bob"), "100-01.xml", TEXT, NAMES[:1])
    write_doc(project.annotations_dir("alice"), "100-02.xml", TEXT, NAMES)
    state = WorkState.load(project)
    state.set_status("100-01", "alice", DONE)
    state.set_status("100-01", "bob", DONE)
    state.set_status("100-02", "alice", IN_PROGRESS)
    state.add_seconds("100-01", "alice", 1800)
    state.add_seconds("100-02", "alice", 2100)
    state.add_seconds("100-01", "bob", 600)
    state.save()

    dialog = DashboardDialog(project)
    qtbot.addWidget(dialog)
    assert _cells(dialog.progress_model) == [
        ["alice", "2", "1", "1", "1", "4", "0", "1:05 h on 2 doc."],
        ["bob", "1", "1", "0", "2", "1", "0", "0:10 h on 1 doc."],
    ]
    # alice as reference: tp 1, fn 1 -> P 1, R 0.5, F1 0.667
    row = _cells(dialog.agreement_model)[0]
    assert row[:7] == ["alice", "bob", "1", "1", "0.667", "1.000", "0.500"]
    # bob finishes John Smith; Refresh picks it up
    write_doc(project.annotations_dir("bob"), "100-01.xml", TEXT, NAMES)
    dialog.refresh_button.click()
    assert _cells(dialog.agreement_model)[0][4] == "1.000"


def test_copies_made_outside_the_window_count_and_their_time_is_not_recorded(
    qtbot: QtBot, project: Project
) -> None:
    # The demo project's situation: every annotator has annotated files, nobody used the window.
    for name, names in (("alice", NAMES), ("bob", NAMES[:1])):
        for doc_id in ("100-01", "100-02", "100-03"):
            write_doc(project.annotations_dir(name), f"{doc_id}.xml", TEXT, names)
    dialog = DashboardDialog(project)
    qtbot.addWidget(dialog)
    progress = _cells(dialog.progress_model)
    assert progress[0] == ["alice", "3", "0", "3", "0", "6", "0", "not recorded"]
    assert progress[1] == ["bob", "3", "0", "3", "0", "3", "0", "not recorded"]
    assert _cells(dialog.agreement_model)[0][:5] == ["alice", "bob", "3", "0", "0.667"]
    source = dialog.source_label.text()
    assert "alice (annotations/alice/)" in source and "bob (annotations/bob/)" in source
    assert source.startswith("Computed ") and str(project.root) in source


def test_pending_suggestions_are_counted_apart_and_left_out_of_agreement(project: Project) -> None:
    write_doc(project.annotations_dir("alice"), "100-01.xml", TEXT, NAMES)
    bob = project.annotations_dir("bob") / "100-01.xml"
    write_doc(project.annotations_dir("bob"), "100-01.xml", TEXT, NAMES)
    bob.write_text(
        bob.read_text(encoding="utf-8").replace('TYPE="PATIENT"', 'TYPE="PATIENT" pending="yes"', 1)
    )
    when = dt.datetime(2026, 3, 1, 9, 30, tzinfo=dt.UTC)
    figures = project_progress(project, now=when)
    assert figures.computed_at == "2026-03-01 09:30 UTC"
    assert [(a.reviewed, a.pending) for a in figures.annotators] == [(2, 0), (1, 1)]
    [pair] = figures.pairs
    assert (pair.compared, round(pair.recall, 3), pair.precision) == (1, 0.5, 1.0)
    data = figures.to_dict()
    assert data["pairs"][0]["compared"] == 1 and data["computed_at"] == "2026-03-01 09:30 UTC"


def test_a_copy_with_suggestions_only_is_not_yet_compared(qtbot: QtBot, project: Project) -> None:
    # alice tagged 100-01; bob opened it and 100-02 but reviewed nothing, so his copies hold
    # the model's suggestions only: no judgement to agree or disagree with yet.
    write_doc(project.annotations_dir("alice"), "100-01.xml", TEXT, NAMES)
    write_doc(project.annotations_dir("alice"), "100-02.xml", TEXT, NAMES)
    for doc_id in ("100-01", "100-02"):
        bob = project.annotations_dir("bob") / f"{doc_id}.xml"
        write_doc(project.annotations_dir("bob"), f"{doc_id}.xml", TEXT, NAMES)
        bob.write_text(bob.read_text(encoding="utf-8").replace('comment=""', 'comment="" pending="yes"'))
    [pair] = project_progress(project).pairs
    assert (pair.compared, math.isnan(pair.f1)) == (0, True)
    dialog = DashboardDialog(project)
    qtbot.addWidget(dialog)
    assert _cells(dialog.agreement_model)[0][2:5] == ["0", "0", "n/a"]
    # bob accepts one suggestion in 100-02: that copy now holds a judgement, 100-01 still not
    bob = project.annotations_dir("bob") / "100-02.xml"
    bob.write_text(bob.read_text(encoding="utf-8").replace(' pending="yes"', "", 1))
    [pair] = project_progress(project).pairs
    assert (pair.compared, pair.precision, round(pair.recall, 3)) == (1, 1.0, 0.5)
    # A tag "annotate all" put in a record bob never opened is no judgement of that record.
    bob = project.annotations_dir("bob") / "100-01.xml"
    bob.write_text(bob.read_text(encoding="utf-8").replace(' pending="yes"', ' source="propagated"', 1))
    [pair] = project_progress(project).pairs
    assert pair.compared == 1


def test_save_as_json_opens_in_the_reports_folder(
    qtbot: QtBot, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.reports_dir.rmdir()  # a project copied without its empty folders
    asked: list[str] = []

    def choose(parent: object, title: str, directory: str, pattern: str) -> tuple[str, str]:
        asked.append(directory)
        return directory, pattern

    monkeypatch.setattr(QFileDialog, "getSaveFileName", choose)
    dialog = DashboardDialog(project)
    qtbot.addWidget(dialog)
    dialog.save_button.click()
    assert asked == [str(project.reports_dir / "progress.json")]
    saved = json.loads((project.reports_dir / "progress.json").read_text(encoding="utf-8"))
    assert saved["documents"] == 3 and [a["annotator"] for a in saved["annotators"]] == ["alice", "bob"]


def test_format_duration() -> None:
    assert format_duration(0) == "0:00 h"
    assert format_duration(3 * 3600 + 59) == "3:01 h"


def test_effort_tab_shows_the_effort_report_of_the_demo(qtbot: QtBot, tmp_path: Path) -> None:
    from annotator.synth.demo import ensure_demo_project
    from annotator.workflows.effort import EffortRequest, effort_report

    demo = Project.open(ensure_demo_project(tmp_path / "demo"))
    dialog = DashboardDialog(demo)
    qtbot.addWidget(dialog)
    expected = effort_report(EffortRequest(demo))
    time_rows = dialog.effort_tab.cells("time")
    assert [row[0] for row in time_rows] == ["alice", "bob", "all"]
    for row, figures in zip(time_rows, expected["annotators"], strict=False):
        assert row[1] == str(figures["documents"]) and row[3] == str(figures["tags"])
    fates = dialog.effort_tab.cells("fates")
    alice = expected["annotators"][0]["suggestions"]
    assert fates[0][:5] == [
        "alice",
        "all types",
        str(alice["shown"]),
        str(alice["accepted"]),
        str(alice["changed"]),
    ]
    assert dialog.tabs.tabText(1) == "Pre-annotation effort"


def test_effort_tab_says_when_no_history_was_kept(qtbot: QtBot, project: Project) -> None:
    dialog = DashboardDialog(project)
    qtbot.addWidget(dialog)
    assert "No edit histories yet" in dialog.effort_tab.note.text()
    assert dialog.effort_tab.cells("time") == []
