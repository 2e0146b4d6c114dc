"""The window after a crash, when the note's text changed on disk since the unsaved edits were
made: the edits are not applied to the new text, the user is told in one line, and the edits
stay on disk aside."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from annotator.gui.window_dialogs import tell_edits_not_recovered
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.journal import journal_path, read_journal
from annotator.session.annotation_session import AnnotationSession
from annotator.session.timers import ManualTimers
from annotator.session.workspace import Workspace
from tests.gui.conftest import TEXT_200_01, make_window, open_note, show

# 200-01 re-imported with a title line above it: every offset moved by its length.
NEW_TEXT = "DISCHARGE SUMMARY\n" + TEXT_200_01


def _tag_doctor_and_crash(project: Project) -> Path:
    """A session tags "Marissa Jones" in 200-01 and dies unsaved; the working copy's path."""
    session = AnnotationSession(Workspace.open(project.root, "alice"), timers=ManualTimers())
    session.open_document("200-01")
    start = TEXT_200_01.index("Marissa Jones")
    session.apply_type("DOCTOR", start, start + len("Marissa Jones"), start)
    assert session.workspace.journal.flush()
    for lock in session.workspace.locks.values():
        lock.release()  # what the dead process's lock stands for: stale
    return session.workspace.entry("200-01").working_path


def _window_recording(qtbot: QtBot, project: Project) -> tuple[MainWindow, list[str], list[str]]:
    """A window that records the notes it asks to recover (answering yes) and what it tells."""
    window = make_window(qtbot, project.root)
    asked: list[str] = []
    told: list[str] = []
    window.ask_recovery = lambda doc_id: asked.append(doc_id) or True  # type: ignore[func-returns-value]
    window.tell_edits_not_recovered = told.append
    return window, asked, told


def test_edits_made_over_another_text_are_told_and_kept_not_applied(qtbot: QtBot, project: Project) -> None:
    working = _tag_doctor_and_crash(project)
    write_i2b2(Document("200-01", NEW_TEXT), working)  # a colleague's sync after the crash
    theirs = working.read_bytes()
    window, asked, told = _window_recording(qtbot, project)
    window.open_document("200-01")
    show(qtbot, window)
    assert asked == []
    (kept,) = working.parent.glob(".200-01.xml.journal.stale-*")
    assert len(told) == 1 and "\n" not in told[0] and kept.name in told[0]
    assert kept.name in window.statusBar().currentMessage()
    document = open_note(window)
    assert document.text == NEW_TEXT and document.annotations == []
    assert window.view.toPlainText().startswith("DISCHARGE SUMMARY")
    assert window.table.model.rowCount() == 0
    assert window.session.save_state == "saved"
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    window.close()
    assert working.read_bytes() == theirs
    assert [entry["op"] for entry in read_journal(kept)] == ["add"]
    assert not journal_path(working).exists()


def test_edits_over_the_same_text_are_still_offered_and_recovered(qtbot: QtBot, project: Project) -> None:
    working = _tag_doctor_and_crash(project)
    window, asked, told = _window_recording(qtbot, project)
    window.open_document("200-01")
    assert asked == ["200-01"] and told == []
    assert [a.text for a in open_note(window).annotations if a.type == "DOCTOR"] == ["Marissa Jones"]
    window.session.save()
    window.session.close()
    assert [a.text for a in read_i2b2(working).annotations if a.type == "DOCTOR"] == ["Marissa Jones"]


def test_the_warning_box_says_the_line(qtbot: QtBot, project: Project) -> None:
    window = make_window(qtbot, project.root)
    shown: list[str] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        qtbot.keyClick(box, Qt.Key.Key_Return)

    QTimer.singleShot(100, read_and_close)
    tell_edits_not_recovered(window, "The unsaved edits of 200-01 ... kept in .200-01.xml.journal.stale-1.")
    assert shown == ["The unsaved edits of 200-01 ... kept in .200-01.xml.journal.stale-1."]
