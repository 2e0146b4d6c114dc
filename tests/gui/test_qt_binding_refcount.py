"""PySide6 regression guard: void Qt calls must not leak references to None.

PySide6 6.12.0 on Python < 3.12 decrements None's reference count on every call of a Qt
method returning void; after a few thousand calls the interpreter dies ("none_dealloc").
The GUI makes such calls constantly (QTextCursor.setPosition per selection change), so the
installed binding is checked here.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QTextCursor, QTextDocument


def test_void_qt_calls_keep_none_refcount() -> None:
    document = QTextDocument()
    document.setPlainText("x" * 100)
    cursor = QTextCursor(document)
    before = sys.getrefcount(None)
    for i in range(100_000):
        cursor.setPosition(i % 100)
    after = sys.getrefcount(None)
    # Immortal None (3.12+) reports a constant; otherwise allow a little noise from the loop.
    assert after >= before - 100
