"""Keyboard tagging in the note view, asserted on the document (the core state)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.annotation import Source
from annotator.gui.main_window import MainWindow
from tests.gui.conftest import TEXT_200_01, first_of, open_note

DOCTOR = TEXT_200_01.index("Marissa Jones")


def select_words(qtbot: QtBot, window: MainWindow, start: int, words: int) -> None:
    """Put the cursor at ``start`` and extend the selection word by word with the keyboard."""
    window.view.select_span(start, start)
    for _ in range(words):
        qtbot.keyClick(
            window.view,
            Qt.Key.Key_Right,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )


def test_tag_selection_with_type_key(qtbot: QtBot, window: MainWindow) -> None:
    select_words(qtbot, window, DOCTOR, 2)
    assert window.view.selection_span() == (DOCTOR, DOCTOR + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    document = open_note(window)
    tagged = [a for a in document.annotations if a.start == DOCTOR]
    assert [(a.tag, a.type, a.text, a.source, a.annotator) for a in tagged] == [
        ("NAME", "DOCTOR", "Marissa Jones", Source.HUMAN, "alice")
    ]
    assert window.session.current_id == tagged[0].id
    assert window.table.model.rowCount() == 3


def test_shift_arrows_extend_and_alt_arrows_shrink(qtbot: QtBot, window: MainWindow) -> None:
    select_words(qtbot, window, DOCTOR, 2)
    qtbot.keyClick(window.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert window.view.selection_span() == (DOCTOR, DOCTOR + len("Marissa Jone"))
    qtbot.keyClick(window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert window.view.selection_span() == (DOCTOR + 1, DOCTOR + len("Marissa Jone"))
    qtbot.keyClick(
        window.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier
    )
    assert window.view.selection_span() == (DOCTOR + 1, DOCTOR + len("Marissa "))


def test_type_key_on_current_annotation_changes_type_and_undo_restores(
    qtbot: QtBot, window: MainWindow
) -> None:
    select_words(qtbot, window, DOCTOR, 2)
    qtbot.keyClick(window.view, "r")
    document = open_note(window)
    qtbot.keyClick(window.view, "p")
    changed = [a for a in document.annotations if a.start == DOCTOR]
    assert [(a.type, a.end) for a in changed] == [("PATIENT", DOCTOR + len("Marissa Jones"))]
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [a.type for a in document.annotations if a.start == DOCTOR] == ["DOCTOR"]
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [a for a in document.annotations if a.start == DOCTOR] == []
    qtbot.keyClick(window.view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert [a.type for a in document.annotations if a.start == DOCTOR] == ["DOCTOR"]
    qtbot.keyClick(
        window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert [a.type for a in document.annotations if a.start == DOCTOR] == ["PATIENT"]


def test_selection_over_current_annotation_moves_its_boundaries(qtbot: QtBot, window: MainWindow) -> None:
    select_words(qtbot, window, DOCTOR, 1)
    qtbot.keyClick(window.view, "r")
    document = open_note(window)
    qtbot.keyClick(
        window.view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.keyClick(window.view, "r")
    resized = [a for a in document.annotations if a.start == DOCTOR]
    assert [(a.text, a.type) for a in resized] == [("Marissa Jones", "DOCTOR")]
    assert len(document) == 3


def test_delete_removes_current_annotation(qtbot: QtBot, window: MainWindow) -> None:
    select_words(qtbot, window, DOCTOR, 2)
    qtbot.keyClick(window.view, "r")
    document = open_note(window)
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert [a for a in document.annotations if a.start == DOCTOR] == []
    assert window.session.current_id is None


def test_tab_goes_to_next_annotation_and_enter_accepts_it(qtbot: QtBot, window: MainWindow) -> None:
    document = open_note(window)
    window.view.select_span(0, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    first = window.session.current()
    assert first is not None and first.text == "John Smith" and first.pending
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    accepted = document.get(first.id)
    assert (accepted.pending, accepted.source, accepted.confidence, accepted.annotator) == (
        False,
        Source.MODEL,
        0.91,
        "alice",
    )
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    second = window.session.current()
    assert second is not None and second.type == "DATE"
    qtbot.keyClick(window.view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert window.session.current_id == first.id


def test_backspace_rejects_pending_and_f8_finds_the_next_one(qtbot: QtBot, window: MainWindow) -> None:
    document = open_note(window)
    window.view.select_span(0, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_F8)
    first = window.session.current()
    assert first is not None and first.pending and first.text == "John Smith"
    qtbot.keyClick(window.view, Qt.Key.Key_Backspace)
    assert first.id not in document
    qtbot.keyClick(window.view, Qt.Key.Key_F8)
    remaining = window.session.current()
    assert remaining is not None and remaining.type == "DATE"
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.get(first.id).pending


def test_accept_all_of_a_type_is_one_undo_step(qtbot: QtBot, window: MainWindow) -> None:
    document = open_note(window)
    window.view.select_span(0, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    qtbot.keyClick(
        window.view,
        Qt.Key.Key_Return,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert [a.type for a in document.annotations if a.pending] == ["DATE"]
    qtbot.keyClick(
        window.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    )
    assert [a for a in document.annotations if a.pending] == []
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [a.type for a in document.annotations if a.pending] == ["DATE"]


def test_palette_click_tags_the_mouse_selection(qtbot: QtBot, window: MainWindow) -> None:
    view = window.view
    start = view.point_of(DOCTOR)
    end = view.point_of(DOCTOR + len("Marissa"))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), end)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    assert view.selection_span() == (DOCTOR, DOCTOR + len("Marissa"))
    qtbot.mouseClick(window.palette_widget.buttons["DOCTOR"], Qt.MouseButton.LeftButton)
    document = open_note(window)
    assert [(a.text, a.type) for a in document.annotations if a.start == DOCTOR] == [("Marissa", "DOCTOR")]


def test_snap_to_words_widens_a_partial_selection(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(
        window.view, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert window.session.snap_to_words
    window.view.select_span(DOCTOR + 2, DOCTOR + len("Marissa Jo"))
    qtbot.keyClick(window.view, "r")
    document = open_note(window)
    assert [a.text for a in document.annotations if a.type == "DOCTOR"] == ["Marissa Jones"]


def test_arrow_keys_into_an_annotation_make_it_current(qtbot: QtBot, window: MainWindow) -> None:
    john = TEXT_200_01.index("John")
    window.view.select_span(john - 2, john - 2)
    assert window.session.current() is None
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    qtbot.keyClick(window.view, Qt.Key.Key_Right)
    current = window.session.current()
    assert current is not None and current.text == "John Smith"
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert not window.session.document.get(current.id).pending  # type: ignore[union-attr]


def test_triple_clicked_line_is_tagged_without_its_line_break(qtbot: QtBot, window: MainWindow) -> None:
    line = "John Smith reports chest pain."
    start = TEXT_200_01.index(line)
    point = window.view.point_of(start + 3)
    viewport = window.view.viewport()
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=point)
    # Qt selects the line through the start of the next one: the break is in the selection...
    cursor = window.view.textCursor()
    assert cursor.selectionEnd() - cursor.selectionStart() == len(line) + 1
    # ...but not in the tag.
    assert window.view.selection_span() == (start, start + len(line))
    qtbot.keyClick(window.view, "o")
    document = open_note(window)
    assert [(a.start, a.end) for a in document.annotations if a.type == "ORGANIZATION"] == [
        (start, start + len(line))
    ]


def test_undoing_a_resize_keeps_the_annotation_current_and_its_span_selected(
    qtbot: QtBot, window: MainWindow
) -> None:
    # The row of a replaced annotation used to be removed and inserted again: the table handed
    # its current row to the neighbour, which became the current annotation, so the Enter
    # after an undo accepted a suggestion the user never looked at.
    session = window.session
    document = open_note(window)
    smith = first_of(document, "PATIENT")
    date = first_of(document, "DATE")
    window.table.table.setFocus()
    window._on_table_annotation_activated(smith.id)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # "John Smit"
    qtbot.keyClick(window.view, "p")
    assert (document.get(smith.id).start, document.get(smith.id).end) == (smith.start, smith.end - 1)
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.current_id == smith.id and window.table.current_id() == smith.id
    assert window.view.selection_span() == (smith.start, smith.end)
    qtbot.keyClick(window.view, Qt.Key.Key_Return)
    assert not document.get(smith.id).pending and document.get(date.id).pending


def test_a_type_change_that_moves_the_row_keeps_the_annotation_current(
    qtbot: QtBot, window: MainWindow
) -> None:
    session = window.session
    document = open_note(window)
    smith = first_of(document, "PATIENT")
    window.table.table.sortByColumn(3, Qt.SortOrder.AscendingOrder)  # by type: DATE, PATIENT
    assert [window.table.model.data(window.table.model.index(r, 3)) for r in range(2)] == ["DATE", "PATIENT"]
    window._on_table_annotation_activated(smith.id)
    window.view.setFocus()
    qtbot.keyClick(window.view, "a")  # PATIENT -> AGE: its row moves above DATE
    assert document.get(smith.id).type == "AGE"
    assert session.current_id == smith.id and window.table.current_id() == smith.id
    assert window.table.model.data(window.table.model.index(0, 3)) == "AGE"


def test_a_type_key_on_a_span_already_tagged_changes_that_tag_and_never_adds_a_second(
    qtbot: QtBot, window: MainWindow
) -> None:
    session = window.session
    document = open_note(window)
    smith = first_of(document, "PATIENT")
    session.set_current(None)
    # Dragged from the space before it, right to left, without making the suggestion current.
    window.view.select_span(smith.end, smith.start - 1)
    qtbot.keyClick(window.view, "r")
    on_span = [a for a in document.annotations if (a.start, a.end) == (smith.start, smith.end)]
    assert [(a.id, a.type, a.pending) for a in on_span] == [(smith.id, "DOCTOR", False)]
    assert len(document.overlapping(smith.start - 1, smith.end)) == 1
    assert session.current_id == smith.id


def test_a_new_tag_leaves_out_the_spaces_around_the_selection(qtbot: QtBot, window: MainWindow) -> None:
    document = open_note(window)
    window.view.select_span(DOCTOR - 1, DOCTOR + len("Marissa Jones") + 1)  # " Marissa Jones "
    qtbot.keyClick(window.view, "r")
    tagged = [a for a in document.annotations if a.type == "DOCTOR"]
    assert [(a.start, a.text) for a in tagged] == [(DOCTOR, "Marissa Jones")]
