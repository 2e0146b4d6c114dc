"""Find in the note (Ctrl+F): a bar under the text, Enter / Shift+Enter for next / previous.

Signals
-------
closed()
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextDocument
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from annotator.gui.note_view import NoteView


class FindBar(QWidget):
    """Searches the note view's text; the hit becomes the selection (ready to tag)."""

    closed = Signal()

    def __init__(self, view: NoteView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = view
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(QLabel("Find:"))
        self.field = QLineEdit()
        self.field.setPlaceholderText("text in this note")
        self.field.setClearButtonEnabled(True)
        layout.addWidget(self.field, 1)
        self.case = QCheckBox("Match case")
        layout.addWidget(self.case)
        previous = QToolButton()
        previous.setText("▲")
        previous.setToolTip("Previous (Shift+Enter)")
        following = QToolButton()
        following.setText("▼")
        following.setToolTip("Next (Enter)")
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Close (Esc)")
        layout.addWidget(previous)
        layout.addWidget(following)
        layout.addWidget(close)
        self.status = QLabel("")
        layout.addWidget(self.status)
        # Enter and Shift+Enter are read in eventFilter: returnPressed fires for both.
        self.field.installEventFilter(self)
        self.field.textEdited.connect(self._on_field_text_edited)
        previous.clicked.connect(lambda: self.find_text(-1))
        following.clicked.connect(lambda: self.find_text(+1))
        close.clicked.connect(self.close_bar)

    def open_bar(self) -> None:
        self.show()
        selected = self.view.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.field.setText(selected)
        self.field.setFocus()
        self.field.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.view.setFocus()
        self.closed.emit()

    def _on_field_text_edited(self, _text: str) -> None:
        # Search as you type, starting from the beginning of the current selection.
        cursor = self.view.textCursor()
        cursor.setPosition(cursor.selectionStart())
        self.view.setTextCursor(cursor)
        self.find_text(+1)

    def find_text(self, direction: int) -> bool:
        """Select the next (+1) or previous (-1) hit, wrapping around; False when none."""
        needle = self.field.text()
        if not needle:
            self.status.setText("")
            return False
        flags = QTextDocument.FindFlag(0)
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if direction < 0:
            flags |= QTextDocument.FindFlag.FindBackward
        found = self.view.find(needle, flags)
        if not found:
            cursor = self.view.textCursor()
            cursor.setPosition(0 if direction > 0 else self.view.document().characterCount() - 1)
            self.view.setTextCursor(cursor)
            found = self.view.find(needle, flags)
        self.status.setText("" if found else "not found")
        return found

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # One search per key. The field used to emit returnPressed (next) for Shift+Enter too
        # and pass the key on to the bar (previous): two moves that cancelled out.
        if (
            watched is self.field
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self.find_text(-1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else +1)
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        super().keyPressEvent(event)
