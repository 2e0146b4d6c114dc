"""The smaller things a second day in the windows turned up (issue 26), each checked on real widgets."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from annotator.adjudication.corpus import prepare_corpus
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui import app
from annotator.gui.adjudication.window import AdjudicationWindow
from annotator.gui.main_window import MainWindow
from annotator.gui.shortcuts import MAX_SHEET_HEIGHT, SHORTCUTS, ShortcutsDialog
from annotator.io.i2b2 import write_i2b2
from tests.adjudication.helpers import NOTE, version, write_versions
from tests.gui.conftest import TEXT_200_01, make_window, show


def test_the_shortcuts_sheet_fits_a_720_pixel_screen_and_scrolls(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_F1)
    sheet = window.keys_dialog
    assert isinstance(sheet, ShortcutsDialog)
    qtbot.waitExposed(sheet)
    assert sheet.height() <= MAX_SHEET_HEIGHT < 720 - 60
    text = sheet.browser.toPlainText()
    assert SHORTCUTS[-1][1] in text and "k MEDICALRECORD" in text
    # Everything is reachable: what does not fit scrolls.
    bar = sheet.browser.verticalScrollBar()
    content = sheet.browser.document().size().height()
    assert content <= sheet.browser.viewport().height() or bar.maximum() > 0
    sheet.close()


def test_type_labels_are_capitals_big_enough_to_read(qtbot: QtBot, window: MainWindow) -> None:
    window.actions_by_name["type_labels"].trigger()
    label_font = window.view._label_font
    assert label_font.capitalization() == QFont.Capitalization.MixedCase
    # Small capitals of the old size were about 5 pixels tall.
    assert QFontMetricsF(label_font).capHeight() >= 7
    assert QFontMetricsF(label_font).capHeight() < QFontMetricsF(window.view.font()).height()
    window.actions_by_name["type_labels"].trigger()


def test_the_table_shows_the_longest_type_name_whole_at_1280(qtbot: QtBot, project: Project) -> None:
    note = Document("200-01", TEXT_200_01)
    start = TEXT_200_01.index("2060-01-02")
    note.add(note.make_annotation("ID", "MEDICALRECORD", start, start + 10))
    write_i2b2(note, project.annotations_dir("alice") / "200-01.xml")
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    main.resize(1280, 720)
    show(qtbot, main)
    table = main.table.table
    row = next(
        r
        for r in range(main.table.model.rowCount())
        if main.table.model.index(r, 3).data() == "MEDICALRECORD"
    )
    index = main.table.model.index(row, 3)
    assert table.sizeHintForIndex(index).width() <= table.columnWidth(3)
    category = main.table.model.index(row, 4)
    assert table.sizeHintForIndex(category).width() <= table.columnWidth(4)
    # ... and the type column is inside the panel, not cut off by its edge.
    table.scrollTo(index)
    assert table.visualRect(index).right() <= table.viewport().width()
    assert table.horizontalScrollBar().value() == 0
    main.session.close()


def test_a_stray_key_or_wheel_turn_on_the_type_box_does_not_retype_the_tag(
    qtbot: QtBot, window: MainWindow
) -> None:
    john = TEXT_200_01.index("John")
    window.view.select_span(john, john + len("John Smith"))
    qtbot.keyClick(window.view, "r")  # DOCTOR
    current = window.session.current()
    assert current is not None and current.type == "DOCTOR"
    undo_before = window.session.history.undo_text
    box = window.attributes.type_box
    box.setFocus()
    for key in "ppppphhhh":
        qtbot.keyClick(box, key)
    qtbot.keyClick(box, Qt.Key.Key_Down)
    qtbot.keyClick(box, Qt.Key.Key_End)
    centre = QPointF(box.rect().center())
    wheel = QWheelEvent(
        centre,
        QPointF(box.mapToGlobal(QPoint(int(centre.x()), int(centre.y())))),
        QPoint(0, 0),
        QPoint(0, -120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(box, wheel)
    after = window.session.current()
    assert after is not None and after.type == "DOCTOR"
    assert window.session.history.undo_text == undo_before
    # Choosing from the open list still works.
    box.setCurrentIndex(box.findData("PATIENT"))
    box.activated.emit(box.currentIndex())
    changed = window.session.current()
    assert changed is not None and changed.type == "PATIENT"


def test_reopening_goes_to_the_document_worked_on_last(qtbot: QtBot, project: Project) -> None:
    first = app.build_window(project.root, "alice")
    qtbot.addWidget(first)
    assert first.session.doc_id == "200-01"  # nothing known yet: the first not done
    first.open_document("201-01")
    first.close()
    again = app.build_window(project.root, "alice")
    qtbot.addWidget(again)
    assert again.session.doc_id == "201-01"
    again.close()
    # Someone else's last document is theirs.
    bob = app.build_window(project.root, "bob")
    qtbot.addWidget(bob)
    assert bob.session.doc_id == "200-01"
    bob.close()


def _adjudication(qtbot: QtBot, tmp_path: Path) -> AdjudicationWindow:
    second = "Seen Friday. Back on Monday with Dr Quist.\n"
    alice = [
        version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY")),
        version("100-02", second, ("Friday.", "DATE", "DATE"), ("Quist", "NAME", "DOCTOR")),
    ]
    bob = [
        version("100-01", NOTE, ("John Smith", "NAME", "PATIENT")),
        version("100-02", second, ("Friday", "DATE", "DATE"), ("Monday", "DATE", "DATE")),
    ]
    folders = write_versions(tmp_path, {"alice": alice, "bob": bob})
    window = AdjudicationWindow(prepare_corpus(folders, tmp_path / "gold"), adjudicator="dana")
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    return window


def test_j_goes_on_to_the_next_document_and_k_comes_back(qtbot: QtBot, tmp_path: Path) -> None:
    window = _adjudication(qtbot, tmp_path)
    assert window.session is not None and window.session.doc_id == "100-01"
    first_doc_units = len(window.session.unresolved())
    for _ in range(first_doc_units - 1):
        qtbot.keyClick(window.note_view, Qt.Key.Key_J)
        assert window.session.doc_id == "100-01"
    qtbot.keyClick(window.note_view, Qt.Key.Key_J)
    assert window.session.doc_id == "100-02"
    assert window.current_unit is window.session.unresolved()[0]
    assert "100-02" in window.statusBar().currentMessage()
    qtbot.keyClick(window.note_view, Qt.Key.Key_K)
    assert window.session.doc_id == "100-01"
    assert window.current_unit is window.session.unresolved()[-1]
    window.close()


def test_the_merged_view_paints_what_went_into_the_gold(qtbot: QtBot, tmp_path: Path) -> None:
    window = _adjudication(qtbot, tmp_path)
    window.open_document("100-02")
    session = window.session
    assert session is not None
    text = session.alignment.text
    friday = next(u for u in session.units if text[u.start : u.end] == "Friday.")
    window.go_to(friday)
    qtbot.keyClick(window.note_view, Qt.Key.Key_2)  # bob's "Friday", without the full stop
    [gold] = [a for a in session.gold.annotations if a.start == friday.start]
    assert gold.text == "Friday"
    block = window.note_view.document().findBlock(friday.start)
    painted = [
        (r.start, r.start + r.length)
        for r in block.layout().formats()
        if r.start <= friday.start - block.position() < r.start + r.length
    ]
    assert painted == [(friday.start - block.position(), friday.start - block.position() + len("Friday"))]
    window.close()


def test_the_current_unit_is_outlined_side_by_side(qtbot: QtBot, tmp_path: Path) -> None:
    window = _adjudication(qtbot, tmp_path)
    window.set_side_by_side(True)
    QApplication.processEvents()
    unit = window.current_unit
    assert unit is not None
    for column in window.side_by_side.columns:
        [rect] = column.view.outline_rects()
        assert rect.width() > 20 and rect.height() >= column.view.fontMetrics().height() - 1
        image = column.view.viewport().grab().toImage()
        colour = column.view.outline_colour
        # The box's left and right edges are painted in the outline colour, top to bottom.
        for x in (int(rect.left()) - 1, int(rect.right()) + 1):
            y = int(rect.center().y())
            found = [QColor(image.pixel(x + dx, y)) for dx in (-1, 0, 1)]
            assert any(abs(c.red() - colour.red()) + abs(c.green() - colour.green()) < 90 for c in found)
    window.close()


def test_every_action_says_what_it_did(qtbot: QtBot, window: MainWindow) -> None:
    status = window.statusBar()
    document = window.session.document
    assert document is not None
    pending = [a for a in document.annotations if a.pending]
    date = next(a for a in pending if a.type == "DATE")
    window.session.set_current(date.id)
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert status.currentMessage() == "Rejected the DATE suggestion; it will not be suggested here again."
    qtbot.keyClick(window.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert status.currentMessage() == "Undid reject DATE."
    qtbot.keyClick(
        window.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    )
    assert status.currentMessage() == f"Accepted {len(pending)} pending suggestions."
    qtbot.keyClick(
        window.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    )
    assert status.currentMessage() == "No pending suggestions to accept."
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert status.currentMessage() == "Saved 1 document."
    qtbot.keyClick(window.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert status.currentMessage() == "200-01 marked done."
    window.actions_by_name["reset_layout"].trigger()
    assert status.currentMessage().startswith("Layout reset")
    window.actions_by_name["snap"].trigger()
    assert status.currentMessage().startswith("Snap to word boundaries on")
    window.actions_by_name["snap"].trigger()
    assert status.currentMessage().startswith("Snap to word boundaries off")
    # Annotate all: how many tags went where.
    john = next(a for a in document.annotations if a.text == "John Smith")
    window.session.set_current(john.id)
    dialog = window.annotate_all()
    assert dialog is not None
    dialog.set_scope("patient")
    dialog.apply()
    assert status.currentMessage().startswith("Annotate all: 2 PATIENT tags added in 2 documents")
