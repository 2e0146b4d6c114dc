"""The note text: read-only, selectable, highlighted, driven from the keyboard.

Keys (see docs/gui.md): a type's key tags the selection (or changes the current
annotation's type); Shift+arrows / Ctrl+Shift+arrows extend the selection by character /
word; Alt+Left / Alt+Right shrink it from the end / start (Ctrl+Alt: by word); Enter
accepts, Delete or Backspace deletes (rejects a pending pre-annotation); Tab / Shift+Tab go
to the next / previous annotation; Esc clears the selection.

Signals
-------
tag_key_pressed(str)      a type's key was pressed (the type name)
accept_pressed()          Enter
delete_pressed()          Delete or Backspace
navigate_pressed(int)     Tab (+1) or Shift+Tab (-1)
position_clicked(int)     a click without a selection, at a code-point offset
caret_moved(int)          the caret moved with no selection (arrow keys, clicks), code points
escape_pressed()
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QTextCursor,
)
from PySide6.QtWidgets import QMenu, QPlainTextEdit, QWidget

from annotator.core.document import Document
from annotator.core.schema import Schema
from annotator.gui.adaptive_layout import note_min_width
from annotator.gui.highlighter import AnnotationHighlighter
from annotator.gui.offsets import OffsetMap
from annotator.gui.theme import note_font
from annotator.session.editing import word_step

MenuFactory = Callable[[int], QMenu | None]
LINE_BREAKS = "\n\r\u2028\u2029\x0b\x0c\x85"
# Inline type labels: capitals at this fraction of the note's point size.
LABEL_SCALE = 0.75


class NoteView(QPlainTextEdit):
    """Shows one document's text with its annotations highlighted.

    Parameters
    ----------
    schema:
        Gives the tag keys and the colours.
    dark:
        Whether the page is dark.
    monospace:
        A fixed-width font (the default) or the proportional one.
    """

    tag_key_pressed = Signal(str)
    accept_pressed = Signal()
    delete_pressed = Signal()
    navigate_pressed = Signal(int)
    position_clicked = Signal(int)
    caret_moved = Signal(int)
    escape_pressed = Signal()

    def __init__(
        self, schema: Schema, dark: bool = False, monospace: bool = True, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.schema = schema
        self.setReadOnly(True)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.monospace = monospace
        # Points added to the note font's size (Ctrl++ / Ctrl+-), kept across font switches.
        self.zoom = 0
        self.setFont(note_font(monospace))
        self.setCursorWidth(2)
        self.offsets = OffsetMap("")
        self.note: Document | None = None
        self.highlighter = AnnotationHighlighter(self, schema, dark)
        self.menu_factory: MenuFactory | None = None
        self._keys = {t.key: t.name for t in schema.types if t.key}
        self.type_labels = False
        self._label_font = QFont(self.font())
        self.cursorPositionChanged.connect(self._on_self_cursor_position_changed)

    # -- inline type labels ---------------------------------------------------------------------
    def set_type_labels(self, on: bool) -> None:
        """Show each tag's type in capitals right after it (or not).

        Capitals at three quarters of the note's size: small capitals of that size were
        about 5 pixels tall, too small to read at a glance.
        """
        self.type_labels = on
        self._label_font = QFont(self.font())
        self._label_font.setPointSizeF(max(self.font().pointSizeF() * LABEL_SCALE, 7.5))
        metrics = QFontMetrics(self._label_font)
        gaps = {t.name: metrics.horizontalAdvance(t.name) + 6 for t in self.schema.types} if on else {}
        self.highlighter.set_labels(gaps)
        self.viewport().update()

    def set_monospace(self, on: bool) -> None:
        """Fixed-width note text (tables keep their columns) or the proportional font."""
        self.monospace = on
        base = note_font(on)
        self.setMinimumWidth(note_min_width(base, self))
        self.set_zoom(self.zoom)

    def set_zoom(self, zoom: int) -> None:
        """The note text ``zoom`` points larger than the default (smaller when negative); the
        least width the note asks for stays that of the default size."""
        self.zoom = zoom
        font = note_font(self.monospace)
        font.setPointSizeF(max(font.pointSizeF() + zoom, 4.0))
        self.setFont(font)
        self.set_type_labels(self.type_labels)

    def set_schema(self, schema: Schema) -> None:
        """New colours or keys for the types (the user's settings)."""
        self.schema = schema
        self._keys = {t.key: t.name for t in schema.types if t.key}
        self.highlighter.set_schema(schema)
        self.set_type_labels(self.type_labels)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.type_labels and self.note is not None:
            self._paint_labels()

    def _paint_labels(self) -> None:
        """Draw the type names into the gaps the highlighter left after each visible tag."""
        painter = QPainter(self.viewport())
        painter.setFont(self._label_font)
        metrics = QFontMetrics(self._label_font)
        bottom = self.viewport().height()
        offset = self.contentOffset()
        block = self.firstVisibleBlock()
        from_qt, to_qt = self.offsets.from_qt, self.offsets.to_qt
        cursor = QTextCursor(self.document())
        while block.isValid() and self.blockBoundingGeometry(block).translated(offset).top() <= bottom:
            start = from_qt(block.position())
            end = from_qt(block.position() + block.length() - 1)
            for annotation in self.highlighter.labels_in(start, end):
                cursor.setPosition(to_qt(annotation.end))
                rect = self.cursorRect(cursor)
                label = annotation.type
                width = metrics.horizontalAdvance(label)
                colour = QColor(self.schema.color_of(annotation.type))
                painter.setPen(colour.lighter(160) if self.highlighter.dark else colour.darker(220))
                painter.drawText(
                    QRect(rect.left() - width - 3, rect.top(), width + 2, rect.height()),
                    int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                    label,
                )
            block = block.next()
        painter.end()

    def _on_self_cursor_position_changed(self) -> None:
        if not self.textCursor().hasSelection():
            self.caret_moved.emit(self.cursor_offset())

    # -- content ----------------------------------------------------------------------------
    def set_note(self, document: Document | None) -> None:
        """Show a document (or nothing)."""
        self.note = document
        text = document.text if document is not None else ""
        self.offsets = OffsetMap(text)
        self.highlighter.set_document(document, self.offsets)
        self.setPlainText(text)
        self.highlighter.format_visible()

    # -- selection in code points ---------------------------------------------------------------
    def selection_span(self) -> tuple[int, int]:
        """The selection in code points, without line breaks at its ends.

        A triple-click selects a whole line up to the start of the next, so the line break
        would end up inside the tag (25-58 for a line 25-57).
        """
        cursor = self.textCursor()
        start, end = (
            self.offsets.from_qt(cursor.selectionStart()),
            self.offsets.from_qt(cursor.selectionEnd()),
        )
        text = self.note.text if self.note is not None else ""
        while end > start and text[end - 1] in LINE_BREAKS:
            end -= 1
        while start < end and text[start] in LINE_BREAKS:
            start += 1
        return start, end

    def place(self) -> tuple[int, int, int]:
        """Where the user is in the note: (selection anchor, caret, first character on screen)."""
        cursor = self.textCursor()
        top = self.firstVisibleBlock().position() if self.note is not None else 0
        return (
            self.offsets.from_qt(cursor.anchor()),
            self.offsets.from_qt(cursor.position()),
            self.offsets.from_qt(top),
        )

    def go_to_place(self, anchor: int, caret: int, top: int) -> None:
        """Put the selection and the scroll back where :meth:`place` found them (clamped to
        the note: it may have changed since)."""
        length = len(self.note.text) if self.note is not None else 0
        anchor, caret, top = (min(max(v, 0), length) for v in (anchor, caret, top))
        # The top line first: from the end of the note, bringing it into view scrolls up
        # until it is the first line shown (the scroll bar counts wrapped lines, which
        # depend on the width, so its value is not what is kept).
        cursor = self.textCursor()
        blocked = self.blockSignals(True)  # the caret passes through; only where it stops counts
        try:
            cursor.movePosition(QTextCursor.MoveOperation.End)
            self.setTextCursor(cursor)
            self.ensureCursorVisible()
            cursor.setPosition(self.offsets.to_qt(top))
            self.setTextCursor(cursor)
            self.ensureCursorVisible()
        finally:
            self.blockSignals(blocked)
        cursor.setPosition(self.offsets.to_qt(anchor))
        cursor.setPosition(self.offsets.to_qt(caret), QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        if not self.viewport().rect().intersects(self.cursorRect()):
            self.ensureCursorVisible()

    def cursor_offset(self) -> int:
        return self.offsets.from_qt(self.textCursor().position())

    def select_span(self, start: int, end: int, anchor_at_start: bool = True) -> None:
        """Select ``[start, end)`` and scroll it into view."""
        cursor = self.textCursor()
        first, last = self.offsets.to_qt(start), self.offsets.to_qt(end)
        if anchor_at_start:
            cursor.setPosition(first)
            cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        else:
            cursor.setPosition(last)
            cursor.setPosition(first, QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def clear_selection(self) -> None:
        cursor = self.textCursor()
        cursor.clearSelection()
        self.setTextCursor(cursor)

    def shrink_selection(self, from_end: bool, by_word: bool) -> None:
        """Move the selection's end left, or its start right, by a character or a word."""
        start, end = self.selection_span()
        if start >= end or self.note is None:
            return
        text = self.note.text
        if from_end:
            end = max(start, word_step(text, end, -1) if by_word else end - 1)
        else:
            start = min(end, word_step(text, start, +1) if by_word else start + 1)
        self.select_span(start, end)

    def extend_by_word(self, direction: int) -> None:
        """Move the selection's moving end to the next word end (Qt's own step would
        include the space after the word, which nobody wants inside a tag)."""
        if self.note is None:
            return
        cursor = self.textCursor()
        position = word_step(self.note.text, self.offsets.from_qt(cursor.position()), direction)
        cursor.setPosition(self.offsets.to_qt(position), QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)

    # -- events ------------------------------------------------------------------------------------
    def focusNextPrevChild(self, next: bool) -> bool:
        # Tab and Shift+Tab move between annotations, not between widgets.
        return False

    def acts_on(self, event: QKeyEvent) -> bool:
        """Whether the key is one the note acts on for the current annotation (Enter, Delete,
        Backspace, a type's key): the annotation table hands these on to it."""
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods == Qt.KeyboardModifier.NoModifier and key in (
            Qt.Key.Key_Return,
            Qt.Key.Key_Enter,
            Qt.Key.Key_Delete,
            Qt.Key.Key_Backspace,
        ):
            return True
        text = event.text()
        return mods in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier) and bool(
            text and text.lower() in self._keys
        )

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        no_mods = mods == Qt.KeyboardModifier.NoModifier
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and not mods & Qt.KeyboardModifier.ControlModifier:
            backwards = key == Qt.Key.Key_Backtab or bool(mods & Qt.KeyboardModifier.ShiftModifier)
            self.navigate_pressed.emit(-1 if backwards else 1)
            return
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right) and mods & Qt.KeyboardModifier.AltModifier:
            self.shrink_selection(
                from_end=key == Qt.Key.Key_Left, by_word=bool(mods & Qt.KeyboardModifier.ControlModifier)
            )
            return
        word_extend = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right) and mods == word_extend:
            self.extend_by_word(+1 if key == Qt.Key.Key_Right else -1)
            return
        if no_mods and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.accept_pressed.emit()
            return
        if no_mods and key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.delete_pressed.emit()
            return
        if no_mods and key == Qt.Key.Key_Escape:
            self.clear_selection()
            self.escape_pressed.emit()
            return
        text = event.text()
        if (no_mods or mods == Qt.KeyboardModifier.ShiftModifier) and text and text.lower() in self._keys:
            self.tag_key_pressed.emit(self._keys[text.lower()])
            return
        super().keyPressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.position_clicked.emit(self.cursor_offset())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        cursor = self.cursorForPosition(event.pos())
        position = self.offsets.from_qt(cursor.position())
        if not self.textCursor().hasSelection():
            self.setTextCursor(cursor)
            self.position_clicked.emit(position)
        menu = self.menu_factory(position) if self.menu_factory is not None else None
        if menu is not None:
            menu.exec(event.globalPos())

    def point_of(self, offset: int) -> QPoint:
        """Where a code-point offset is drawn, in viewport coordinates (for tests and menus)."""
        cursor = self.textCursor()
        cursor.setPosition(self.offsets.to_qt(offset))
        return self.cursorRect(cursor).center()
