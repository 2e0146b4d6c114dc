"""Day two: the window closed yesterday comes back as it was left (place and size, on a
screen; note text size; theme), driven with the window's own keys."""

from __future__ import annotations

import json

from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QHeaderView, QMessageBox
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.gui import app
from annotator.gui.main_window import MainWindow
from annotator.gui.window_dialogs import ask_recovery
from annotator.io.window_layouts import layouts_path
from tests.gui.conftest import make_window, open_note, show

CTRL = Qt.KeyboardModifier.ControlModifier


def _day(qtbot: QtBot, project: Project) -> MainWindow:
    """A window on the project, on the note last open, shown."""
    main = make_window(qtbot, project.root)
    main.open_document(main.session.last_document() or "200-01")
    show(qtbot, main)
    return main


def test_the_window_reopens_where_and_as_large_as_it_was_left(qtbot: QtBot, project: Project) -> None:
    first = _day(qtbot, project)
    first.resize(720, 540)
    qtbot.wait(50)
    first.resize(720, 540)  # the first is held up by the side-by-side panels' minimum width
    qtbot.waitUntil(lambda: first.width() == 720)
    first.move(30, 40)
    qtbot.waitUntil(lambda: first.pos().x() == 30)
    first.close()
    second = _day(qtbot, project)
    assert (second.width(), second.height()) == (720, 540)
    assert (second.x(), second.y()) == (30, 40)
    second.close()


def test_a_place_off_every_screen_is_brought_back_onto_one(qtbot: QtBot, project: Project) -> None:
    # Yesterday on a large second monitor; today a laptop alone.
    path = layouts_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"version": 1, "windows": {"annotation": {"geometry": [[3500, 2200, 2400, 1300, 0]]}}})
    )
    main = _day(qtbot, project)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.contains(QRect(main.pos(), main.size()))
    main.close()


def test_sizes_no_screen_has_in_the_layouts_file_are_ignored(qtbot: QtBot, project: Project) -> None:
    # Numbers past a C int: Qt refused them with an OverflowError and the window never opened.
    path = layouts_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    huge = 2**31
    layout = {
        "geometry": [[huge, 0, 800, 600, 0]],
        "wide": [[huge, 5, 5, 5], [10**30]],
        "narrow": [[huge, 5]],
    }
    path.write_text(json.dumps({"version": 1, "windows": {"annotation": layout, "adjudication": layout}}))
    main = _day(qtbot, project)  # opens, as on the first day
    assert main.isVisible() and main.width() < huge
    main.close()


def test_a_maximized_window_comes_back_maximized(qtbot: QtBot, project: Project) -> None:
    first = _day(qtbot, project)
    first.showMaximized()
    qtbot.waitUntil(first.isMaximized)
    first.close()
    second = make_window(qtbot, project.root)
    assert second.windowState() & Qt.WindowState.WindowMaximized
    second.session.close()


def test_the_note_text_size_is_kept_across_fonts_and_days(qtbot: QtBot, project: Project) -> None:
    first = _day(qtbot, project)
    default = first.view.font().pointSizeF()
    qtbot.keyClick(first.view, Qt.Key.Key_Plus, CTRL)
    qtbot.keyClick(first.view, Qt.Key.Key_Plus, CTRL)
    assert first.view.font().pointSizeF() == default + 2
    # Switching the note's font used to go back to the default size.
    first.actions_by_name["monospace"].trigger()
    assert first.view.font().pointSizeF() == first.view.zoom + _base_size(first.view.monospace)
    first.actions_by_name["monospace"].trigger()
    assert first.view.font().pointSizeF() == default + 2
    first.close()
    second = _day(qtbot, project)
    assert second.view.font().pointSizeF() == default + 2
    second.close()


def _base_size(monospace: bool) -> float:
    from annotator.gui.theme import note_font

    return note_font(monospace).pointSizeF()


def test_the_theme_chosen_with_the_key_is_the_next_days_theme(
    qtbot: QtBot, project: Project, qapp: QApplication
) -> None:
    system = (QPalette(qapp.palette()), qapp.style().name())
    first = app.build_window(project.root, "alice")
    qtbot.addWidget(first)
    show(qtbot, first)
    dark = first.dark
    qtbot.keyClick(first.view, Qt.Key.Key_T, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert first.dark is not dark
    first.close()
    # The next day is a new process: the application starts with the system's palette.
    qapp.setPalette(system[0])
    qapp.setStyle(system[1])
    second = app.build_window(project.root, "alice")  # --theme auto, the default
    qtbot.addWidget(second)
    assert second.dark is not dark and second.actions_by_name["dark"].isChecked() is not dark
    second.session.close()
    # An explicit --theme still wins.
    third = app.build_window(project.root, "alice", theme="dark" if dark else "light")
    qtbot.addWidget(third)
    assert third.dark is dark
    third.session.close()


def _scroll_text(lines: int) -> str:
    return "".join(
        f"Line {n}: seen by Dr. Marissa Jones on 2060-01-{n % 28 + 1:02d}.\n" for n in range(lines)
    )


def test_each_note_reopens_at_the_selection_and_scroll_it_was_left_at(qtbot: QtBot, project: Project) -> None:
    from annotator.core.document import Document
    from annotator.io.i2b2 import write_i2b2

    long_text = _scroll_text(300)
    write_i2b2(Document("200-02", long_text), project.source_dir / "200-02.xml")
    first = _day(qtbot, project)
    first.open_document("200-02")
    far = long_text.index("Line 250")
    first.view.select_span(far, far + len("Line 250"))
    top = first.view.firstVisibleBlock().position()
    assert top > 0  # scrolled down to it
    # To another note and back (Ctrl+PgDown / Ctrl+PgUp): still there.
    qtbot.keyClick(first.view, Qt.Key.Key_PageDown, CTRL)
    assert first.session.doc_id == "201-01"
    qtbot.keyClick(first.view, Qt.Key.Key_PageUp, CTRL)
    assert first.view.selection_span() == (far, far + len("Line 250"))
    assert first.view.firstVisibleBlock().position() == top
    first.close()
    # The next day.
    second = _day(qtbot, project)
    assert second.session.doc_id == "200-02"
    # Scrolled down to it: at the same top line when the note is as tall as yesterday,
    # else as near as keeps the selection on screen.
    qtbot.waitUntil(lambda: second.view.firstVisibleBlock().position() > 0)
    assert second.view.firstVisibleBlock().position() == top or second.view.height() != first.view.height()
    assert second.view.selection_span() == (far, far + len("Line 250"))
    cursor_rect = second.view.cursorRect()
    assert second.view.viewport().rect().intersects(cursor_rect)
    second.close()


def test_after_a_crash_the_other_notes_with_edits_to_recover_are_named(
    qtbot: QtBot, project: Project
) -> None:
    first = _day(qtbot, project)
    first.open_document("200-02")
    qtbot.keyClick(first.view, Qt.Key.Key_Home, CTRL)
    qtbot.keyClick(first.view, Qt.Key.Key_Right, CTRL | Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(first.view, "d")  # unsaved, in 200-02's edit journal
    first.session.workspace.journal.flush()
    # The crash: no save, no close; the process's locks go with it. The note open next
    # time is another one (say the last-document record was written by another window).
    first.session.workspace.release_all()
    first.hide()
    second = make_window(qtbot, project.root)
    second.open_document("200-01")
    show(qtbot, second)
    message = second.statusBar().currentMessage()
    assert "1 other document: 200-02" in message
    assert "⚠" in _item_text(second, "200-02")
    second.open_document("200-02")  # asked, and recovered (the test's answer is yes)
    assert "DATE" in {a.type for a in open_note(second).annotations}
    assert "⚠" not in _item_text(second, "200-02")
    second.close()


def _item_text(window: MainWindow, doc_id: str) -> str:
    return window.documents._items[doc_id].text(0)


def test_the_annotation_table_is_filtered_and_sorted_as_it_was_left(qtbot: QtBot, project: Project) -> None:
    first = _day(qtbot, project)
    table = first.table
    table.pending_box.setChecked(True)
    table.category_box.setCurrentIndex(table.category_box.findData("DATE"))
    header = table.table.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=_section_centre(header, 3))
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=_section_centre(header, 3))
    order = header.sortIndicatorOrder()
    assert header.sortIndicatorSection() == 3
    first.close()
    second = _day(qtbot, project)
    table = second.table
    assert table.pending_box.isChecked()
    assert table.category_box.currentData() == "DATE"
    assert table.shown.rowCount() == 1  # the pending DATE suggestion alone
    header = table.table.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (3, order)
    second.close()


def _section_centre(header: QHeaderView, section: int) -> QPoint:
    left = header.sectionViewportPosition(section)
    return QPoint(left + header.sectionSize(section) // 2, header.height() // 2)


def test_the_recovery_question_says_what_no_does(qtbot: QtBot, window: MainWindow) -> None:
    shown: list[str] = []

    def answer_no() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append(box.text())
        qtbot.keyClick(box, Qt.Key.Key_Escape)

    QTimer.singleShot(100, answer_no)
    assert ask_recovery(window, "200-01") is False
    assert "set aside" in shown[0] and "not deleted" in shown[0]
