"""The status bar (document, annotator, counts, save state, time) and the lock banner.

Signals (LockBanner)
--------------------
override_requested()    the "Override lock" button was pressed
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStatusBar, QWidget

from annotator.errors import printable_path
from annotator.gui.document_list import format_seconds
from annotator.gui.elided_label import ElidedLabel

# Only glyphs that DejaVu Sans (Debian's fonts-dejavu-core) has: a symbol missing from the
# user's fonts is drawn as an empty box (the padlock U+1F512 was).
SAVE_STATE_TEXT = {
    "saved": "✓ saved",
    "unsaved": "● unsaved changes",
    "autosaved": "✓ autosaved (recovery file)",
    "read-only": "⚠ read-only",
}


class MessageStatusBar(QStatusBar):
    """A status bar whose messages are elided (whole text in the tooltip), never clipped.

    QStatusBar paints its own message clipped behind the permanent fields ("Read-only: th");
    here messages go to an elided label of their own.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message_label = ElidedLabel(minimum_chars=12)
        self.addWidget(self.message_label, 1)
        self._clear_timer = QTimer(self)
        self._clear_timer.setSingleShot(True)
        self._clear_timer.timeout.connect(self.clearMessage)

    def add_field(self, minimum_chars: int) -> ElidedLabel:
        """A permanent field on the right, elided when space is short."""
        label = ElidedLabel(minimum_chars=minimum_chars)
        label.setContentsMargins(6, 0, 6, 0)
        self.addPermanentWidget(label)
        return label

    def showMessage(self, message: str, timeout: int | None = 0) -> None:
        self.message_label.setText(message)
        if timeout:
            self._clear_timer.start(timeout)
        else:
            self._clear_timer.stop()

    def clearMessage(self) -> None:
        self.message_label.setText("")

    def currentMessage(self) -> str:
        return self.message_label.full_text()


class SessionStatusBar(MessageStatusBar):
    """Permanent fields: document, annotator, counts, save state, working time (each elided
    when the window is narrow, with the whole text in its tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document_label = self.add_field(10)
        self.annotator_label = self.add_field(8)
        self.counts_label = self.add_field(8)
        self.time_label = self.add_field(6)
        self.save_label = self.add_field(8)

    def show_fields(
        self, doc_id: str, annotator: str, annotations: int, pending: int, seconds: float, status: str
    ) -> None:
        self.document_label.setText(
            f"Document {printable_path(doc_id)} ({status})" if doc_id else "No document"
        )
        self.annotator_label.setText(f"Annotator: {annotator}")
        self.counts_label.setText(f"{annotations} annotations, {pending} to review")
        self.time_label.setText(f"Time: {format_seconds(seconds) or '0:00'}")

    def show_save_state(self, state: str) -> None:
        self.save_label.setText(SAVE_STATE_TEXT.get(state, state))


class LockBanner(QFrame):
    """A banner above the note when it is open read-only because someone else holds the lock."""

    override_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lockBanner")
        self.setStyleSheet(
            "#lockBanner { background: #fff3cd; border: 1px solid #d39e00; }"
            "#lockBanner QLabel { color: #5c4400; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        layout.addWidget(self.label, 1)
        self.button = QPushButton("Override lock")
        self.button.setToolTip("Take the document over; the other person's unsaved edits to it may be lost")
        layout.addWidget(self.button)
        self.button.clicked.connect(self.override_requested.emit)
        self.hide()

    def show_lock(self, read_only: bool, holder: str) -> None:
        if read_only:
            self.label.setText(
                f"Read-only: this document is {holder.removeprefix('document is ')}. "
                "Your changes cannot be saved unless you override the lock."
            )
        self.setVisible(read_only)
