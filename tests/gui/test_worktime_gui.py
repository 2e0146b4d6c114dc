"""Active working time per document (idle not counted) and the document status."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from tests.gui.conftest import FakeClock


def stored(project: Project) -> dict[str, dict[str, object]]:
    data = json.loads((project.state_dir / "state.json").read_text(encoding="utf-8"))
    return {doc_id: entry["alice"] for doc_id, entry in data["documents"].items()}


def test_working_time_counts_activity_not_idle_time(
    qtbot: QtBot, window: MainWindow, project: Project, clock: FakeClock
) -> None:
    clock.advance(30)
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    clock.advance(3600)  # an hour away: only the idle limit (120 s) counts
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    clock.advance(10)
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-02"
    # Written by itself shortly after the switch.
    qtbot.waitUntil(
        lambda: (project.state_dir / "state.json").exists() and "200-02" in stored(project), timeout=3000
    )
    state = stored(project)
    assert state["200-01"]["seconds"] == 30 + 120 + 10
    assert state["200-01"]["status"] == "in progress"
    assert state["200-02"]["status"] == "in progress"
    assert "201-01" not in state


def test_mark_done_is_recorded(qtbot: QtBot, window: MainWindow, project: Project) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    window.session.flush_state()
    assert stored(project)["200-01"]["status"] == "done"
    item = window.documents._items["200-01"]
    assert "done" in item.text(1)
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    window.session.close()
    assert stored(project)["200-01"]["status"] == "in progress"
