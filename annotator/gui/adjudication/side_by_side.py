"""Every annotator's version of the note side by side, one column each, scrolled together.

The versions share one text, so columns of equal width wrap the same way and their lines
line up; each column paints its own version's tags in the type colours (the note view's
highlighter), and the current unit is outlined (a box drawn around its text, over the tag
colours it must not hide) in every column at the same height.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen, QTextCursor, QTextLine
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from annotator.adjudication.decisions import AdjudicationSession
from annotator.adjudication.units import Unit
from annotator.core.schema import Schema
from annotator.gui.adaptive_layout import note_min_width
from annotator.gui.elided_label import ElidedLabel
from annotator.gui.highlighter import AnnotationHighlighter
from annotator.gui.offsets import OffsetMap

# Each version's column shows at least this many characters per line.
COLUMN_MIN_CHARS = 40


# The outline's pen, in pixels.
OUTLINE_WIDTH = 2


class OutlinedNote(QPlainTextEdit):
    """A read-only note that draws a box around one span (the current unit), line by line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._outline: tuple[int, int] | None = None
        self.outline_colour = QColor("#000000")

    def set_outline(self, span: tuple[int, int] | None, colour: QColor) -> None:
        """Outline ``[start, end)`` (Qt positions), or nothing."""
        self._outline = span
        self.outline_colour = colour
        self.viewport().update()

    def outline_rects(self) -> list[QRectF]:
        """One rectangle per line the outlined span covers, in viewport coordinates."""
        if self._outline is None:
            return []
        start, end = self._outline
        rects = []
        offset = self.contentOffset()
        block = self.document().findBlock(start)
        while block.isValid() and block.position() < max(end, start + 1):
            layout = block.layout()
            origin = self.blockBoundingGeometry(block).translated(offset).topLeft()
            first, last = start - block.position(), end - block.position()
            for number in range(layout.lineCount()):
                line = layout.lineAt(number)
                line_start, line_end = line.textStart(), line.textStart() + line.textLength()
                if line_end < first or line_start > last or (line_start == last and last > first):
                    continue
                left = _x_of(line, max(first, line_start))
                right = _x_of(line, min(last, line_end))
                rects.append(QRectF(left, line.y(), max(right - left, 1.0), line.height()).translated(origin))
            block = block.next()
        return rects

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        rects = self.outline_rects()
        if not rects:
            return
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.outline_colour, OUTLINE_WIDTH))
        for rect in rects:
            painter.drawRoundedRect(rect.adjusted(-1, 0, 1, 0), 3, 3)
        painter.end()


def _x_of(line: QTextLine, position: int) -> float:
    """Where a position of the block is drawn on its line (PySide returns ``(x, position)``)."""
    found = cast(tuple[float, int], line.cursorToX(position))
    return float(found[0])


class VersionColumn(QWidget):
    """One version: a header (its key and name) over the note with that version's tags."""

    def __init__(self, schema: Schema, dark: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.header = ElidedLabel(minimum_chars=4)
        self.view = OutlinedNote()
        self.view.setReadOnly(True)
        self.view.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.highlighter = AnnotationHighlighter(self.view, schema, dark)
        layout.addWidget(self.header)
        layout.addWidget(self.view, 1)


class SideBySideView(QWidget):
    """The versions of the current document in columns, with synchronised scrolling.

    Parameters
    ----------
    schema:
        Type colours.
    dark:
        Whether the page is dark.
    """

    def __init__(self, schema: Schema, dark: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.schema = schema
        self.dark = dark
        self.columns: list[VersionColumn] = []
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self._offsets = OffsetMap("")
        self._syncing = False
        self._font: QFont | None = None
        self._session: AdjudicationSession | None = None

    def set_session(self, session: AdjudicationSession) -> None:
        """Show the versions of one document (columns are added or removed to match)."""
        self._session = session
        alignment = session.alignment
        while len(self.columns) < len(alignment.versions):
            column = VersionColumn(self.schema, self.dark)
            if self._font is not None:
                self._set_column_font(column, self._font)
            column.view.verticalScrollBar().valueChanged.connect(self._on_column_scrolled)
            self._layout.addWidget(column, 1)
            self.columns.append(column)
        while len(self.columns) > len(alignment.versions):
            column = self.columns.pop()
            column.highlighter.set_document(None, OffsetMap(""))
            column.deleteLater()
        self._offsets = OffsetMap(alignment.text)
        # Numbered by their keys: the folders' places, also when an annotator lacks the document.
        for number, column, name, version in zip(
            session.key_numbers, self.columns, alignment.names, alignment.versions, strict=True
        ):
            column.header.setText(f"{number}: {name}")
            column.header.set_tooltip_text(f"Version {number} ({name}): press {number} to take it")
            column.highlighter.set_document(version, self._offsets)
            column.view.setPlainText(alignment.text)
            column.highlighter.format_visible()

    def set_note_font(self, font: QFont) -> None:
        """The note font of every column (and the columns' minimum width with it)."""
        self._font = font
        for column in self.columns:
            self._set_column_font(column, font)

    @staticmethod
    def _set_column_font(column: VersionColumn, font: QFont) -> None:
        column.view.setFont(font)
        column.view.setMinimumWidth(note_min_width(font, column.view, COLUMN_MIN_CHARS))

    def show_unit(self, unit: Unit | None, colour: str) -> None:
        """Outline ``unit`` in every column and bring it to the same height in each."""
        for column in self.columns:
            selections = []
            span = None
            if unit is not None:
                span = (self._offsets.to_qt(unit.start), self._offsets.to_qt(unit.end))
                cursor = QTextCursor(column.view.document())
                cursor.setPosition(span[0])
                cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor  # type: ignore[misc]
                selection.format.setFontWeight(700)
                selections.append(selection)
            column.view.setExtraSelections(selections)
            column.view.set_outline(span, QColor(colour))
        if unit is not None and self.columns:
            first = self.columns[0].view
            caret = QTextCursor(first.document())
            caret.setPosition(self._offsets.to_qt(unit.start))
            first.setTextCursor(caret)
            first.centerCursor()
            self._on_column_scrolled(first.verticalScrollBar().value())

    def _on_column_scrolled(self, value: int) -> None:
        # One column scrolled: the others follow (the guard stops them echoing back).
        if self._syncing:
            return
        self._syncing = True
        try:
            for column in self.columns:
                column.view.verticalScrollBar().setValue(value)
        finally:
            self._syncing = False
