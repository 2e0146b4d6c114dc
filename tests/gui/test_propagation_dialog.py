"""Annotate all from the preview dialog: across a patient's records, fuzzy and conflicts."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.annotation import Source
from annotator.core.document import Document
from annotator.gui.main_window import MainWindow
from annotator.gui.propagation_dialog import AnnotateAllDialog
from annotator.io.i2b2 import read_i2b2, write_i2b2
from tests.gui.conftest import TEXT_200_01, TEXT_200_02, make_window, show


def open_dialog_on_doctor(qtbot: QtBot, window: MainWindow) -> AnnotateAllDialog:
    """Tag the first "Marissa Jones" as DOCTOR, then Ctrl+Shift+A."""
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    qtbot.keyClick(
        window.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    dialog = window.last_dialog
    assert isinstance(dialog, AnnotateAllDialog) and dialog.isVisible()
    return dialog


def test_annotate_all_across_the_patients_records_is_one_undo_step(qtbot: QtBot, window: MainWindow) -> None:
    dialog = open_dialog_on_doctor(qtbot, window)
    assert dialog.scope() == "patient"
    exact = dialog.match_items("matches")
    assert [(i.text(0), i.checkState(0)) for i in exact] == [("200-01", Qt.CheckState.Checked)]
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    document = window.session.document
    assert document is not None
    second = TEXT_200_01.index("Marissa Jones", TEXT_200_01.index("Plan"))
    added = [a for a in document.annotations if a.start == second]
    assert [(a.type, a.source, a.annotator) for a in added] == [("DOCTOR", Source.PROPAGATED, "alice")]
    # The fuzzy "Marrisa Jones" in 200-02 was offered, not applied.
    other = window.session.workspace.documents["200-02"]
    assert [a.text for a in other.annotations if a.type == "DOCTOR"] == []
    window.session.history.undo()
    assert [a for a in document.annotations if a.start == second] == []
    # one undo removed every propagated tag and nothing else: tagging the first mention is next
    assert window.session.history.undo_text == "add DOCTOR"
    first = TEXT_200_01.index("Marissa Jones")
    assert [a.type for a in document.annotations if a.start == first] == ["DOCTOR"]


def test_fuzzy_match_is_listed_unticked_and_applied_only_when_ticked(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = open_dialog_on_doctor(qtbot, window)
    fuzzy = dialog.match_items("fuzzy")
    assert [(i.text(0), i.checkState(0)) for i in fuzzy] == [("200-02", Qt.CheckState.Unchecked)]
    assert "Marrisa Jones" in fuzzy[0].text(3)
    fuzzy[0].setCheckState(0, Qt.CheckState.Checked)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    other = window.session.workspace.documents["200-02"]
    start = TEXT_200_02.index("Marrisa Jones")
    assert [(a.start, a.end, a.source) for a in other.annotations if a.type == "DOCTOR"] == [
        (start, start + len("Marrisa Jones"), Source.PROPAGATED)
    ]
    # Both documents changed in one step: one undo reverts both.
    window.session.history.undo()
    assert [a for a in other.annotations if a.type == "DOCTOR"] == []


def test_overlapping_occurrence_is_reported_and_left_alone(qtbot: QtBot, window: MainWindow) -> None:
    window.view.select_span(0, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    source = window.session.current()
    assert source is not None and source.text == "John Smith"
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    dialog = window.annotate_all()
    assert dialog is not None
    dialog.set_scope("patient")
    assert {i.text(0) for i in dialog.match_items("matches")} == {"200-01", "200-02"}
    assert [i.text(0) for i in dialog.match_items("conflicts")] == []
    dialog.word_box.setChecked(False)
    dialog.case_box.setChecked(True)
    dialog.fuzzy_box.setChecked(False)
    dialog.set_scope("project")
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    other = window.session.workspace.documents["200-02"]
    smith = TEXT_200_02.index("Smith family")
    kept = [a for a in other.annotations if a.start == smith]
    assert [(a.type, a.source, a.end - a.start) for a in kept] == [("PATIENT", Source.HUMAN, len("Smith"))]
    john = TEXT_200_02.index("John Smith")
    assert [a.source for a in other.annotations if a.start == john] == [Source.PROPAGATED]


def test_conflict_rows_cannot_be_ticked(qtbot: QtBot, window: MainWindow) -> None:
    other_smith = TEXT_200_02.index("Smith family")
    window.open_document("200-02")
    document = window.session.document
    assert document is not None and document.doc_id == "200-02"
    # Tag "Smith" in "John Smith." and propagate it: the "Smith family" tag is a conflict.
    start = TEXT_200_02.index("Smith")
    window.view.select_span(start, start + len("Smith"))
    qtbot.keyClick(window.view, "r")
    dialog = window.annotate_all()
    assert dialog is not None
    dialog.set_scope("document")
    conflicts = dialog.match_items("conflicts")
    assert [(i.text(1), bool(i.flags() & Qt.ItemFlag.ItemIsUserCheckable)) for i in conflicts] == [
        (f"{other_smith}–{other_smith + len('Smith')}", False)
    ]
    assert not dialog.apply_button.isEnabled()


def test_other_records_changed_by_annotate_all_are_saved_and_not_offered_as_recovery(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = open_dialog_on_doctor(qtbot, window)
    dialog.match_items("fuzzy")[0].setCheckState(0, Qt.CheckState.Checked)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    window.session.autosave_now()
    asked: list[str] = []
    window.ask_recovery = lambda doc_id: asked.append(doc_id) or True  # type: ignore[func-returns-value]
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-02" and asked == []
    document = window.session.document
    assert document is not None and [a.type for a in document.annotations if a.type == "DOCTOR"] == ["DOCTOR"]
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    path = window.session.workspace.entry("200-02").working_path
    assert [a.source for a in read_i2b2(path).annotations if a.type == "DOCTOR"] == [Source.PROPAGATED]
    assert not path.with_name(".200-02.xml.autosave").exists()


def test_document_list_counts_follow_annotate_all_in_other_records(qtbot: QtBot, window: MainWindow) -> None:
    item = window.documents._items["200-02"]
    assert item.text(2) == "1"
    dialog = open_dialog_on_doctor(qtbot, window)
    dialog.match_items("fuzzy")[0].setCheckState(0, Qt.CheckState.Checked)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert item.text(2) == "2"
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert item.text(2) == "1"


def test_project_scope_reads_the_other_records_in_a_worker(qtbot: QtBot, tmp_path: Path) -> None:
    text = "Seen by Dr. Marissa Jones today.\n"
    for patient in range(30):
        write_i2b2(Document(f"{600 + patient}-01", text), tmp_path / f"{600 + patient}-01.xml")
    window = make_window(qtbot, tmp_path)
    window.open_document("600-01")
    show(qtbot, window)
    start = text.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    dialog = window.annotate_all()
    assert dialog is not None
    dialog.set_scope("project")
    assert len(dialog.match_items("matches")) == 29
    assert len(window.session.workspace.documents) == 30
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert sorted(window.session.workspace.dirty()) == [f"{600 + p}-01" for p in range(30)]
    window.session.save()
    assert [a.source for a in read_i2b2(tmp_path / "629-01.xml").annotations] == [Source.PROPAGATED]
    window.session.close()
