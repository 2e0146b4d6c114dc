"""The tenth day: most notes done. What remains is counted, can be listed alone, and the next
one is a key away."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from tests.gui.conftest import make_window, show

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _shown_records(window: MainWindow) -> list[str]:
    tree = window.documents
    shown = []
    for index in range(tree.topLevelItemCount()):
        parent = tree.topLevelItem(index)
        assert parent is not None
        for row in range(parent.childCount()):
            item = parent.child(row)
            assert item is not None
            if not item.isHidden() and not parent.isHidden():
                shown.append(item.text(0))
    return shown


def test_the_next_note_not_done_is_one_key_away(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)  # 200-01 done
    assert window.progress_label.text() == "● 1/3 done  ◐ 0  ○ 2"
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, CTRL_SHIFT)
    assert window.session.doc_id == "200-02"
    assert "1 of 3 done, 1 in progress, 1 not started" in window.progress_label.toolTip()
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    # Going round, past the done ones.
    qtbot.keyClick(window.view, Qt.Key.Key_PageUp, CTRL_SHIFT)
    assert window.session.doc_id == "201-01"
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert window.progress_label.text() == "● 3/3 done  ◐ 0  ○ 0"
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, CTRL_SHIFT)
    assert window.session.doc_id == "201-01"
    assert window.statusBar().currentMessage() == "Every document is done."


def test_the_list_shows_only_what_is_left_and_keeps_that_choice(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)  # 200-01 done
    window.document_filter.setCurrentText("Not done")
    # The open note stays listed, done or not.
    assert _shown_records(window) == ["200-01", "200-02", "201-01"]
    window.open_document("200-02")
    assert _shown_records(window) == ["200-02", "201-01"]
    window.document_filter.setCurrentText("Done")
    assert _shown_records(window) == ["200-01", "200-02"]
    window.document_filter.setCurrentText("Not done")
    window.close()
    # The next day the list still shows what is left.
    again = make_window(qtbot, project.root)
    again.open_document("200-02")
    show(qtbot, again)
    assert again.document_filter.currentText() == "Not done"
    assert _shown_records(again) == ["200-02", "201-01"]
    assert "1 of 3 done" in again.progress_label.toolTip()
    again.close()


def test_next_document_goes_to_the_next_one_the_list_shows(qtbot: QtBot, window: MainWindow) -> None:
    window.open_document("200-02")
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)  # 200-02 done
    window.open_document("200-01")
    window.document_filter.setCurrentText("Not done")
    assert _shown_records(window) == ["200-01", "201-01"]
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "201-01"  # 200-02, done and not listed, is skipped
    qtbot.keyClick(window.view, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-01"
