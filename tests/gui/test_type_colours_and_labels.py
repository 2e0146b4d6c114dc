"""Per-type colours in the note and palette, the settings dialog, inline type labels, monospace."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from annotator.core.colours import highlight
from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from annotator.io.preferences import load_preferences
from tests.gui.conftest import TEXT_200_01, columns_align, make_window, show

DOCTOR = TEXT_200_01.index("Marissa Jones")


def tag(qtbot: QtBot, window: MainWindow, start: int, text: str, key: str) -> None:
    window.view.select_span(start, start + len(text))
    qtbot.keyClick(window.view, key)


def background_at(window: MainWindow, offset: int) -> str:
    block = window.view.document().findBlock(offset)
    for fmt_range in block.layout().formats():
        if fmt_range.start <= offset - block.position() < fmt_range.start + fmt_range.length:
            return fmt_range.format.background().color().name()
    return ""


def test_patient_and_doctor_are_painted_in_different_colours(qtbot: QtBot, window: MainWindow) -> None:
    patient = TEXT_200_01.index("John Smith")
    tag(qtbot, window, DOCTOR, "Marissa Jones", "r")
    window.session.set_current(None)
    document = window.session.document
    assert document is not None
    for annotation in list(document.annotations):
        if annotation.pending:
            window.session.set_current(annotation.id)
            window.session.accept_current()
    window.session.set_current(None)
    schema = window.session.schema
    assert background_at(window, DOCTOR) == highlight(schema.color_of("DOCTOR"), "light")
    assert background_at(window, patient) == highlight(schema.color_of("PATIENT"), "light")
    assert background_at(window, DOCTOR) != background_at(window, patient)
    # The palette (the legend) shows each type in its own colour too.
    doctor_style = window.palette_widget.buttons["DOCTOR"].styleSheet()
    assert QColor(schema.color_of("DOCTOR")).name() in doctor_style
    assert QColor(schema.color_of("PATIENT")).name() not in doctor_style


def test_settings_dialog_changes_colour_and_key_and_remembers_them(
    qtbot: QtBot, project: Project, window: MainWindow
) -> None:
    dialog = window.open_type_settings()
    dialog.set_colour("DOCTOR", "#aa00ff")
    dialog.set_key("DOCTOR", "q")
    assert dialog.problems() == [] or all("look alike" in p for p in dialog.problems())
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert load_preferences().colours == {"DOCTOR": "#aa00ff"}
    assert load_preferences().keys == {"DOCTOR": "q"}
    # The new key tags, the old one no longer does; the palette shows the new colour and key.
    tag(qtbot, window, DOCTOR, "Marissa", "q")
    document = window.session.document
    assert document is not None
    assert [a.type for a in document.annotations if a.start == DOCTOR] == ["DOCTOR"]
    assert "[q]" in window.palette_widget.buttons["DOCTOR"].text()
    assert "#aa00ff" in window.palette_widget.buttons["DOCTOR"].styleSheet()
    assert background_at(window, DOCTOR).startswith("#")
    assert window.view.highlighter.schema.color_of("DOCTOR") == "#aa00ff"
    # The next window, for any project, starts with them.
    window.session.close()
    again = make_window(qtbot, project.root)
    assert again.palette_widget.buttons["DOCTOR"].text() == "DOCTOR  [q]"


def test_settings_dialog_refuses_a_key_two_types_share(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.open_type_settings()
    dialog.set_key("DOCTOR", "p")  # PATIENT's key
    assert any("key 'p'" in p for p in dialog.problems())
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    dialog.set_colour("CITY", dialog.colours["STATE"])
    assert any("look alike" in p and "CITY" in p for p in dialog.problems())
    dialog.restore_defaults()
    assert dialog.problems() == []
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_type_labels_leave_a_gap_after_each_tag_and_are_remembered(
    qtbot: QtBot, project: Project, window: MainWindow
) -> None:
    tag(qtbot, window, DOCTOR, "Marissa Jones", "r")
    end = DOCTOR + len("Marissa Jones")
    x_before = window.view.cursorRect(_cursor_at(window, end)).left()
    window.actions_by_name["type_labels"].trigger()
    assert window.view.type_labels
    # The tag's last character is widened by the label's width: the text after it moves right.
    x_after = window.view.cursorRect(_cursor_at(window, end)).left()
    assert x_after - x_before >= window.view.highlighter.label_gaps["DOCTOR"] - 1
    assert [a.type for a in window.view.highlighter.labels_in(DOCTOR, end + 1)] == ["DOCTOR"]
    window.view.viewport().repaint()  # the label painting runs without errors
    assert load_preferences().type_labels is True
    window.session.close()
    again = make_window(qtbot, project.root)
    assert again.view.type_labels and again.actions_by_name["type_labels"].isChecked()


def test_monospace_option_is_remembered(qtbot: QtBot, project: Project, window: MainWindow) -> None:
    assert columns_align(window.view.font())
    window.actions_by_name["monospace"].trigger()
    assert not columns_align(window.view.font())
    window.session.close()
    again = make_window(qtbot, project.root)
    again.open_document("200-01")
    show(qtbot, again)
    assert not columns_align(again.view.font())
    assert again.view.font().pointSize() >= 10
    assert isinstance(again.view.font(), QFont)
    again.session.close()


def _cursor_at(window: MainWindow, offset: int):  # type: ignore[no-untyped-def]
    cursor = window.view.textCursor()
    cursor.setPosition(window.view.offsets.to_qt(offset))
    return cursor


def test_a_desktop_monospace_font_that_breaks_columns_is_replaced(
    qapp: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A desktop whose "monospace" is a proportional font still gets columns that align."""
    from PySide6.QtGui import QFontDatabase

    from annotator.gui import theme

    class ProportionalDesktop:
        SystemFont = QFontDatabase.SystemFont
        families = staticmethod(QFontDatabase.families)

        @staticmethod
        def systemFont(_which: object) -> QFont:
            return QFont("DejaVu Sans")

    monkeypatch.setattr(theme, "QFontDatabase", ProportionalDesktop)
    assert not columns_align(QFont("DejaVu Sans"))
    font = theme.note_font(True)
    assert columns_align(font) and font.family() in theme.FIXED_WIDTH_FAMILIES
    assert font.pointSize() >= 10
