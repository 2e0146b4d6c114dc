"""The supervisor dashboard: progress and time from the work state, running agreement."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.dashboard import DashboardDialog, format_duration
from annotator.io.workstate import DONE, IN_PROGRESS, WorkState
from tests.evaluation.helpers import at, write_doc

TEXT = "\nAmy Lee met John Smith in Boston.\n"


def _cells(model) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [[model.item(r, c).text() for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_progress_time_and_agreement(qtbot: QtBot, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "p", "Dash", annotators=["alice", "bob"])
    for doc_id in ("100-01", "100-02", "100-03"):
        write_doc(project.source_dir, f"{doc_id}.xml", TEXT, [])
    names = [("NAME", *at(TEXT, "Amy Lee"), "PATIENT"), ("NAME", *at(TEXT, "John Smith"), "PATIENT")]
    write_doc(project.annotations_dir("alice"), "100-01.xml", TEXT, names)
    write_doc(project.annotations_dir("bob"), "100-01.xml", TEXT, names[:1])
    write_doc(project.annotations_dir("alice"), "100-02.xml", TEXT, names)
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
        ["alice", "1", "1", "1", "1:05 h"],
        ["bob", "1", "0", "2", "0:10 h"],
    ]
    # alice as reference: tp 1, fn 1 -> P 1, R 0.5, F1 0.667
    row = _cells(dialog.agreement_model)[0]
    assert row[:6] == ["alice", "bob", "1", "0.667", "1.000", "0.500"]

    # bob finishes John Smith; Refresh picks it up
    write_doc(project.annotations_dir("bob"), "100-01.xml", TEXT, names)
    dialog.refresh_button.click()
    assert _cells(dialog.agreement_model)[0][3] == "1.000"


def test_format_duration() -> None:
    assert format_duration(0) == "0:00 h"
    assert format_duration(3 * 3600 + 59) == "3:01 h"
