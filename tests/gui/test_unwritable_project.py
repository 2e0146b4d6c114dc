"""A project folder the window cannot write to (read-only, full disk): said, never raised
out of a timer or out of closing, and nothing the user did is dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

import annotator.io.workstate as workstate
from annotator.core.atomic import atomic_write_text
from annotator.core.project import Project
from annotator.errors import StorageError
from annotator.gui.main_window import MainWindow
from annotator.io.locking import DocumentLock
from annotator.io.workstate import WorkState
from tests.gui.conftest import TEXT_200_01, make_window, show

CTRL = Qt.KeyboardModifier.ControlModifier


def _refuse_state(monkeypatch: pytest.MonkeyPatch) -> None:
    real = atomic_write_text

    def refuse(path: str | Path, text: str) -> None:
        if Path(path).name == "state.json":
            raise StorageError("read-only file system", path)
        real(path, text)

    monkeypatch.setattr(workstate, "atomic_write_text", refuse)


def test_a_status_that_cannot_be_recorded_is_said_and_kept(
    qtbot: QtBot, window: MainWindow, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    _refuse_state(monkeypatch)
    qtbot.keyClick(window.view, Qt.Key.Key_D, CTRL)
    qtbot.waitUntil(lambda: "not recorded" in window.statusBar().currentMessage())
    assert "read-only file system" in window.statusBar().currentMessage()
    # Once the folder can be written again, the next change writes what was kept.
    monkeypatch.undo()
    qtbot.keyClick(window.view, Qt.Key.Key_S, CTRL)
    assert WorkState.load(project).status("200-01", "alice") == "done"


def test_closing_on_an_unwritable_project_releases_the_locks_and_keeps_the_edits(
    qtbot: QtBot, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    show(qtbot, main)
    _refuse_state(monkeypatch)
    qtbot.keyClick(main.view, Qt.Key.Key_D, CTRL)
    main.close()  # raised out of closeEvent before: locks kept, layout not saved
    assert not main.isVisible()
    assert not main.session.workspace.locks
    lock = project.annotations_dir("alice") / ".200-01.xml.lock"
    assert not lock.exists()


def test_closing_when_the_save_fails_says_so_and_can_stay_open(qtbot: QtBot, project: Project) -> None:
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    show(qtbot, main)
    start = TEXT_200_01.index("chest")
    main.view.select_span(start, start + len("chest"))
    qtbot.keyClick(main.view, "o")
    # Someone overrides the lock meanwhile: the save on closing is refused.
    DocumentLock(project.annotations_dir("alice") / "200-01.xml", "alice", host="night-shift-pc").acquire(
        force=True
    )
    asked: list[list[str]] = []

    def stay(reasons: list[str]) -> bool:
        asked.append(reasons)
        return False

    main.close_unsaved = stay
    main.close()
    assert main.isVisible()
    assert asked and "taken over" in asked[0][0]
    main.close_unsaved = lambda reasons: True
    main.close()
    assert not main.isVisible()
