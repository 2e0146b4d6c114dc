"""A note changed on disk outside the tool (another annotator's sync, a git pull, a file
replaced or deleted) while the window has it: noticed, and neither version lost."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from annotator.gui.window_dialogs import ask_outside_change
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.gui.conftest import TEXT_200_01, open_note


def _working_copy(project: Project, doc_id: str = "200-01") -> Path:
    return project.annotations_dir("alice") / f"{doc_id}.xml"


def _their_edit(path: Path) -> None:
    """Someone else's version lands: a DOCTOR tag on "Marissa Jones"."""
    theirs = read_i2b2(path)
    start = TEXT_200_01.index("Marissa Jones")
    theirs.add(theirs.make_annotation("NAME", "DOCTOR", start, start + len("Marissa Jones")))
    write_i2b2(theirs, path)


def _types(path: Path) -> list[str]:
    return sorted(a.type for a in read_i2b2(path).annotations)


def _tag_chest(qtbot: QtBot, window: MainWindow) -> None:
    start = TEXT_200_01.index("chest")
    window.view.select_span(start, start + len("chest"))
    qtbot.keyClick(window.view, "o")  # ORGANIZATION: any type will do


def test_a_note_read_earlier_and_changed_on_disk_is_read_again_not_saved_over(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    path = _working_copy(project)
    window.open_document("200-02")
    _their_edit(path)  # a git pull while alice is on the next record
    qtbot.keyClick(window.view, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-01"
    assert "DOCTOR" in {a.type for a in open_note(window).annotations}
    assert "changed outside" in window.statusBar().currentMessage()
    _tag_chest(qtbot, window)
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert {"DOCTOR", "ORGANIZATION"} <= set(_types(path))


def test_the_open_note_unedited_here_is_read_again_when_changed_on_disk(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    path = _working_copy(project)
    _their_edit(path)
    window.check_outside_change()  # what the window does every few seconds and on activation
    assert "DOCTOR" in {a.type for a in open_note(window).annotations}
    assert window.table.model.rowCount() == len(open_note(window).annotations)
    assert "read again" in window.statusBar().currentMessage()
    # Undo does not reach into the old reading.
    assert not window.session.history.can_undo


def test_unsaved_edits_against_a_changed_file_keep_mine_keeps_theirs_beside(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    path = _working_copy(project)
    _tag_chest(qtbot, window)
    _their_edit(path)
    asked: list[str] = []

    def keep_mine(doc_id: str) -> str:
        asked.append(doc_id)
        return "mine"

    window.ask_outside_change = keep_mine
    window.check_outside_change()
    assert asked == ["200-01"]
    assert "ORGANIZATION" in _types(path) and "DOCTOR" not in _types(path)
    kept = list(path.parent.glob("200-01.xml.outside-*"))
    assert len(kept) == 1 and "DOCTOR" in _types(kept[0])
    assert kept[0].name in window.statusBar().currentMessage()
    window.check_outside_change()  # settled: not asked again
    assert asked == ["200-01"]


def test_unsaved_edits_against_a_changed_file_take_theirs_keeps_mine_beside(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    path = _working_copy(project)
    _tag_chest(qtbot, window)
    _their_edit(path)
    window.ask_outside_change = lambda doc_id: "theirs"
    window.check_outside_change()
    shown = {a.type for a in open_note(window).annotations}
    assert "DOCTOR" in shown and "ORGANIZATION" not in shown
    mine = list(path.parent.glob("200-01.xml.mine-*"))
    assert len(mine) == 1 and "ORGANIZATION" in _types(mine[0])
    assert mine[0].name in window.statusBar().currentMessage()
    assert window.session.save_state == "saved"
    # Closing writes nothing over theirs, and nothing is offered for recovery next time.
    window.close()
    assert "DOCTOR" in _types(path) and "ORGANIZATION" not in _types(path)
    assert not list(path.parent.glob(".200-01.xml.journal"))


def test_saving_over_a_file_changed_unseen_keeps_the_other_version(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    path = _working_copy(project)
    _tag_chest(qtbot, window)
    _their_edit(path)
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # before any check
    kept = list(path.parent.glob("200-01.xml.outside-*"))
    assert len(kept) == 1 and "DOCTOR" in _types(kept[0])
    assert "ORGANIZATION" in _types(path)
    assert kept[0].name in window.statusBar().currentMessage()


def test_a_note_deleted_on_disk_stays_open_and_saving_writes_it_back(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    path = _working_copy(project)
    _tag_chest(qtbot, window)
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    path.unlink()
    window.check_outside_change()
    assert "deleted outside" in window.statusBar().currentMessage()
    assert window.session.save_state == "unsaved"
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "ORGANIZATION" in _types(path)


def test_the_copy_made_for_a_record_annotate_all_changed_is_not_a_change_from_outside(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    # "Annotate all" tags 200-02, never opened (no working copy yet); opening it makes the copy.
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    qtbot.keyClick(
        window.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    dialog = window.last_dialog
    dialog.match_items("fuzzy")[0].setCheckState(0, Qt.CheckState.Checked)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert not _working_copy(project, "200-02").exists()
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-02"
    asked: list[str] = []

    def answer(doc_id: str) -> str:
        asked.append(doc_id)
        return "mine"

    window.ask_outside_change = answer
    window.check_outside_change()
    assert asked == []
    assert not list(_working_copy(project, "200-02").parent.glob("200-02.xml.outside-*"))


def test_the_question_closed_without_a_choice_keeps_what_is_on_screen(
    qtbot: QtBot, window: MainWindow
) -> None:
    def press_escape() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        assert "Keep mine" in [b.text() for b in box.buttons()]
        qtbot.keyClick(box, Qt.Key.Key_Escape)

    QTimer.singleShot(100, press_escape)
    assert ask_outside_change(window, "200-01") == "mine"
