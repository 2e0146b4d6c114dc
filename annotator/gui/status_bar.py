"""The status bar (document, annotator, counts, save state, time) and the lock banner.

Signals (LockBanner)
--------------------
override_requested()    the "Override lock" button was pressed
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStatusBar, QWidget

from annotator.errors import printable_path
from annotator.gui.document_list import format_seconds

SAVE_STATE_TEXT = {
    "saved": "✓ saved",
    "unsaved": "● unsaved changes",
    "autosaved": "✓ autosaved (recovery file)",
    "read-only": "🔒 read-only",
}


class SessionStatusBar(QStatusBar):
    """Permanent fields: document, annotator, counts, save state, working time."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document_label = QLabel()
        self.annotator_label = QLabel()
        self.counts_label = QLabel()
        self.save_label = QLabel()
        self.time_label = QLabel()
        for label in (
            self.document_label,
            self.annotator_label,
            self.counts_label,
            self.time_label,
            self.save_label,
        ):
            label.setContentsMargins(6, 0, 6, 0)
            self.addPermanentWidget(label)

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
