"""Highlights: per-category colours, a distinct pending style, and incremental repainting."""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.history import AddAnnotation, History
from annotator.core.schema import load_schema
from annotator.gui.highlighter import SpanIndex
from annotator.gui.main_window import MainWindow
from annotator.gui.note_view import NoteView
from tests.gui.conftest import TEXT_200_01


def formats_at(view: NoteView, offset: int) -> list[QTextCharFormat]:
    block = view.document().findBlock(view.offsets.to_qt(offset))
    inside = view.offsets.to_qt(offset) - block.position()
    ranges = block.layout().formats()
    return [QTextCharFormat(r.format) for r in ranges if r.start <= inside < r.start + r.length]


def test_pending_and_reviewed_annotations_look_different(qtbot: QtBot, window: MainWindow) -> None:
    john = TEXT_200_01.index("John Smith")
    (pending,) = formats_at(window.view, john)
    assert pending.underlineStyle() == QTextCharFormat.UnderlineStyle.DashUnderline
    annotation = window.session.editor.innermost_at(john)  # type: ignore[union-attr]
    assert annotation is not None
    window.session.editor.accept(annotation.id)  # type: ignore[union-attr]
    (accepted,) = formats_at(window.view, john)
    assert accepted.underlineStyle() != QTextCharFormat.UnderlineStyle.DashUnderline
    assert accepted.background().color() != pending.background().color()


def test_an_edit_repaints_only_the_lines_it_touches(qtbot: QtBot) -> None:
    text = "".join(f"line {i} with Name{i}\n" for i in range(2000))
    document = Document("300-01", text)
    view = NoteView(load_schema())
    qtbot.addWidget(view)
    view.set_note(document)
    highlighter = view.highlighter
    highlighter.blocks_highlighted = 0
    start = text.index("Name1500")
    History().push(AddAnnotation(document, document.make_annotation("NAME", "PATIENT", start, start + 8)))
    assert highlighter.blocks_highlighted == 1
    assert len(formats_at(view, start)) == 1
    assert formats_at(view, start - 2) == []


def test_astral_characters_do_not_shift_highlights(qtbot: QtBot) -> None:
    text = "😀 note for 🙂 John Smith today"
    document = Document("300-02", text)
    start = text.index("John")
    document.add(document.make_annotation("NAME", "PATIENT", start, start + len("John Smith")))
    view = NoteView(load_schema())
    qtbot.addWidget(view)
    view.set_note(document)
    block = view.document().firstBlock()
    (painted,) = block.layout().formats()
    utf16_start = len(text[:start].encode("utf-16-le")) // 2
    assert (painted.start, painted.length) == (utf16_start, len("John Smith"))
    view.select_span(start, start + 4)
    assert view.textCursor().selectedText() == "John"
    assert view.selection_span() == (start, start + 4)


def test_span_index_finds_long_and_nested_spans() -> None:
    document = Document("300-03", "x" * 100)
    outer = document.make_annotation("LOCATION", "HOSPITAL", 10, 60)
    inner = document.make_annotation("LOCATION", "CITY", 20, 25)
    far = document.make_annotation("DATE", "DATE", 80, 90)
    index = SpanIndex([outer, inner, far])
    assert index.overlapping(50, 70) == [outer]
    assert index.overlapping(22, 23) == [outer, inner]
    index.remove(outer)
    assert index.overlapping(50, 85) == [far]


def test_lines_are_formatted_when_they_come_into_view(qtbot: QtBot) -> None:
    text = "".join(f"line {i} with Name{i}\n" for i in range(3000))
    document = Document("300-04", text)
    for i in range(3000):
        start = text.index(f"Name{i}\n")
        document.add(document.make_annotation("NAME", "PATIENT", start, start + len(f"Name{i}")))
    view = NoteView(load_schema())
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)
    view.set_note(document)
    # Opening formats what is on screen, not the 3,000 lines.
    first = text.index("Name0")
    assert len(formats_at(view, first)) == 1
    far = text.index("Name2990")
    assert formats_at(view, far) == []
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: len(formats_at(view, far)) == 1, timeout=2000)
    middle = text.index("Name1500")
    assert formats_at(view, middle) == []
