"""Find, theme switch, context menu and the background job runner."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from annotator.gui.main_window import MainWindow
from annotator.gui.workers import run_with_progress
from tests.gui.conftest import TEXT_200_01


def test_find_selects_the_next_hit_ready_to_tag(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.find_bar.isVisible()
    qtbot.keyClicks(window.find_bar.field, "jones")
    first = TEXT_200_01.index("Jones")
    assert window.view.selection_span() == (first, first + len("Jones"))
    qtbot.keyClick(window.find_bar.field, Qt.Key.Key_Return)
    second = TEXT_200_01.index("Jones", first + 1)
    assert window.view.selection_span() == (second, second + len("Jones"))
    qtbot.keyClick(window.find_bar.field, Qt.Key.Key_Escape)
    assert not window.find_bar.isVisible()
    qtbot.keyClick(window.view, "r")
    document = window.session.document
    assert document is not None
    assert [a.text for a in document.annotations if a.start == second] == ["Jones"]


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Enter], ids=["Return", "keypad Enter"])
def test_find_enter_and_shift_enter_go_to_the_next_and_previous_hit(
    qtbot: QtBot, window: MainWindow, key: Qt.Key
) -> None:
    qtbot.keyClick(window.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    field = window.find_bar.field
    qtbot.keyClicks(field, "jones")
    hits = [i for i in range(len(TEXT_200_01)) if TEXT_200_01.startswith("Jones", i)]
    assert len(hits) == 2
    spans = [(hit, hit + len("Jones")) for hit in hits]
    assert window.view.selection_span() == spans[0]
    qtbot.keyClick(field, key)
    assert window.view.selection_span() == spans[1]
    qtbot.keyClick(field, key, Qt.KeyboardModifier.ShiftModifier)
    assert window.view.selection_span() == spans[0]
    # Back before the first hit wraps round to the last; Enter wraps forward to the first.
    qtbot.keyClick(field, key, Qt.KeyboardModifier.ShiftModifier)
    assert window.view.selection_span() == spans[1]
    qtbot.keyClick(field, key)
    assert window.view.selection_span() == spans[0]
    assert window.find_bar.isVisible() and field.hasFocus()


def test_dark_theme_switch_recolours_highlights(qtbot: QtBot, window: MainWindow) -> None:
    john = TEXT_200_01.index("John")
    block = window.view.document().findBlock(john)
    light = [r.format.background().color().name() for r in block.layout().formats()]
    qtbot.keyClick(
        window.view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert window.dark
    dark = [r.format.background().color().name() for r in block.layout().formats()]
    assert light and len(dark) == len(light) and dark != light
    assert QApplication.palette().window().color().lightness() < 100


def test_context_menu_offers_types_for_the_current_annotation(qtbot: QtBot, window: MainWindow) -> None:
    john = TEXT_200_01.index("John")
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=window.view.point_of(john + 1))
    menu = window._note_menu(john + 1)
    titles = [a.text() for a in menu.actions()]
    assert any(t.startswith("A&ccept") for t in titles) and "Change type to" in titles
    change: QMenu = next(a for a in menu.actions() if a.text() == "Change type to").menu()  # type: ignore[assignment]
    name_menu: QMenu = next(a for a in change.actions() if a.text() == "NAME").menu()  # type: ignore[assignment]
    next(a for a in name_menu.actions() if a.text().startswith("DOCTOR")).trigger()
    current = window.session.current()
    assert current is not None and current.type == "DOCTOR" and not current.pending


def test_run_with_progress_returns_the_result_and_honours_cancel(qtbot: QtBot) -> None:
    seen: list[tuple[int, int]] = []

    def job(progress, cancelled):  # type: ignore[no-untyped-def]
        for i in range(1, 4):
            progress(i, 3)
            seen.append((i, 3))
        return "done" if not cancelled() else "cancelled"

    assert run_with_progress(None, "Working…", job) == (True, "done")
    assert seen == [(1, 3), (2, 3), (3, 3)]

    def failing(progress, cancelled):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    ok, reason = run_with_progress(None, "Working…", failing)
    assert not ok and reason == "internal error (RuntimeError)"


def test_zoom_changes_the_note_font_only(qtbot: QtBot, window: MainWindow) -> None:
    size = window.view.font().pointSizeF()
    qtbot.keyClick(window.view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert window.view.font().pointSizeF() > size
    qtbot.keyClick(window.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.view.font().pointSizeF() == size


def test_project_dialogs_open_from_the_menu(qtbot: QtBot, window: MainWindow) -> None:
    from PySide6.QtWidgets import QDialog

    opened = []
    for name in ("ExportDialog", "ReportsDialog", "DashboardDialog"):
        action = window.actions_by_name.get(name)
        if action is None:
            continue
        action.trigger()
        shown = [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QDialog) and w.isVisible() and type(w).__name__ == name
        ]
        assert len(shown) == 1, window.statusBar().currentMessage()
        shown[0].close()
        opened.append(name)
    assert "Model" in [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert opened


def test_keypad_enter_accepts_all_of_a_type_and_all(qtbot: QtBot, window: MainWindow) -> None:
    document = window.session.document
    assert document is not None
    keypad = Qt.KeyboardModifier.KeypadModifier
    ctrl = Qt.KeyboardModifier.ControlModifier
    window.view.select_span(0, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)  # the pending PATIENT
    qtbot.keyClick(window.view, Qt.Key.Key_Enter, ctrl | Qt.KeyboardModifier.ShiftModifier | keypad)
    assert [a.type for a in document.annotations if a.pending] == ["DATE"]
    qtbot.keyClick(window.view, Qt.Key.Key_Enter, ctrl | Qt.KeyboardModifier.AltModifier | keypad)
    assert [a for a in document.annotations if a.pending] == []


def test_pending_only_box_and_view_menu_item_stay_in_step(qtbot: QtBot, window: MainWindow) -> None:
    box = window.table.pending_box
    item = window.actions_by_name["pending_only"]
    document = window.session.document
    assert document is not None
    all_rows = len(document.annotations)
    window.session.set_current(next(a.id for a in document.annotations if a.type == "DATE"))
    qtbot.keyClick(window.view, Qt.Key.Key_Return)  # accepted: no longer pending
    assert not box.isChecked() and not item.isChecked()
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    assert box.isChecked() and item.isChecked()
    assert window.table.shown.rowCount() == all_rows - 1  # the accepted DATE is filtered out
    item.trigger()  # the menu item unticks the box, and the table shows every row again
    assert not box.isChecked() and not item.isChecked()
    assert window.table.shown.rowCount() == all_rows
    item.trigger()
    assert box.isChecked() and item.isChecked()
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    assert not box.isChecked() and not item.isChecked()
