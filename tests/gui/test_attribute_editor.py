"""The current annotation's form: a comment lands on the annotation it was typed for, and a
locked note's form offers no edit it would drop."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from annotator.io.i2b2 import read_i2b2
from annotator.io.locking import DocumentLock
from tests.gui.conftest import first_of, make_window, open_note, show


def _type(qtbot: QtBot, window: MainWindow, text: str) -> None:
    window.attributes.comment.setFocus()
    qtbot.keyClicks(window.attributes.comment, text)  # no Enter: the user moves on by a key


def test_a_comment_typed_then_left_by_a_navigation_key_stays_on_its_annotation(
    qtbot: QtBot, window: MainWindow
) -> None:
    document = open_note(window)
    first, second = sorted(document.annotations, key=lambda a: a.start)
    window._on_table_annotation_activated(first.id)
    _type(qtbot, window, "check the spelling")
    window.step(+1)  # F8's work: the next annotation becomes current
    assert window.session.current_id == second.id
    assert document.get(first.id).comment == "check the spelling"
    # The field now shows the second annotation's (empty) comment, not the text typed for the first.
    assert window.attributes.comment.text() == ""
    qtbot.keyClick(window.attributes.comment, Qt.Key.Key_Return)
    assert document.get(second.id).comment == ""


def test_a_comment_typed_then_left_for_the_next_record_is_saved_with_its_record(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    document = open_note(window)
    date = first_of(document, "DATE")
    window._on_table_annotation_activated(date.id)
    _type(qtbot, window, "check this date")
    window.step_document(+1)  # Ctrl+PgDown: the record is saved, the next one opens
    assert window.session.doc_id == "200-02"
    saved = read_i2b2(project.annotations_dir("alice") / "200-01.xml")
    assert [a.comment for a in saved.annotations if a.type == "DATE"] == ["check this date"]


def test_no_type_is_shown_for_no_annotation(qtbot: QtBot, window: MainWindow) -> None:
    window.session.set_current(None)
    assert window.attributes.type_box.currentIndex() == -1 and window.attributes.type_box.currentText() == ""


def test_a_locked_notes_form_offers_no_edit(qtbot: QtBot, project: Project, tmp_path: Path) -> None:
    path = project.annotations_dir("alice") / "200-01.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    DocumentLock(path, "alice", host="ward-pc").acquire()
    window = make_window(qtbot, project.root)
    window.open_document("200-01")
    show(qtbot, window)
    document = window.session.document
    assert window.session.read_only and document is not None
    pending = next(a for a in document.annotations if a.pending)
    window._on_table_annotation_activated(pending.id)
    form = window.attributes
    assert form.status_label.text() == "pending review"  # shown ...
    assert not any(
        w.isEnabled() for w in (form.type_box, form.comment, form.accept_button, form.delete_button)
    )
    qtbot.mouseClick(window.banner.button, Qt.MouseButton.LeftButton)  # take the lock over
    assert not window.session.read_only
    window._on_table_annotation_activated(pending.id)
    assert form.comment.isEnabled() and form.accept_button.isEnabled()  # ... and editable now
    window.session.close()


def test_the_status_bar_never_shows_an_older_actions_message_as_this_ones(
    qtbot: QtBot, window: MainWindow
) -> None:
    document = open_note(window)
    bar = window.statusBar()
    date = first_of(document, "DATE")
    window._on_table_annotation_activated(date.id)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert bar.currentMessage() == "Undid reject DATE."
    start = document.text.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    assert bar.currentMessage() == ""  # not "Undid reject DATE."
    # The form's Accept button does what Enter does, and says so.
    patient = first_of(document, "PATIENT")
    window._on_table_annotation_activated(patient.id)
    qtbot.mouseClick(window.attributes.accept_button, Qt.MouseButton.LeftButton)
    assert not document.get(patient.id).pending
    assert bar.currentMessage() == f"Accepted the PATIENT suggestion at {patient.start}-{patient.end}."


def test_enter_delete_and_type_keys_act_on_a_row_clicked_in_the_table(
    qtbot: QtBot, window: MainWindow
) -> None:
    document = open_note(window)
    patient = first_of(document, "PATIENT")
    date = first_of(document, "DATE")
    table = window.table.table
    for annotation in (patient, date):
        row = window.table.model.row_of(annotation.id)
        rect = table.visualRect(window.table.model.index(row, 0))
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert window.session.current_id == annotation.id and table.hasFocus()
        if annotation is patient:
            qtbot.keyClick(table, Qt.Key.Key_Return)
            assert not document.get(patient.id).pending
        else:
            qtbot.keyClick(table, "a")  # the date becomes an AGE
            assert document.get(date.id).type == "AGE"
            assert window.view.hasFocus()


def test_undo_of_a_step_made_in_another_record_opens_that_record_first(
    qtbot: QtBot, window: MainWindow
) -> None:
    session = window.session
    document = open_note(window)
    start = document.text.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    window.step_document(+1)
    assert session.doc_id == "200-02"
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    # The change happens where the user sees it, not in a record left behind.
    assert session.doc_id == "200-01" and window.view.toPlainText().startswith("Patient John Smith")
    assert [a for a in document.annotations if a.type == "DOCTOR"] == []
    assert window.statusBar().currentMessage() == "Undid add DOCTOR."
