"""The keyboard shortcuts, as data: shown in Help > Keyboard shortcuts and in docs/gui.md.

The sheet is a scrolling page in a dialog no taller than the screen leaves room for (a
message box grew to 976 pixels and did not fit a 720-pixel laptop screen).
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from annotator.core.schema import Schema

# The tallest the sheet gets: a 720-pixel screen less a title bar, a panel and some air.
MAX_SHEET_HEIGHT = 600

SHORTCUTS: tuple[tuple[str, str], ...] = (
    (
        "a type's key (p, r, d, h …)",
        "tag the selection; with no selection, or on the selected annotation: change its type",
    ),
    (
        "select + a type's key over the current annotation",
        "move its boundaries to the selection (and set the type)",
    ),
    ("Shift+Left / Shift+Right", "extend the selection by one character"),
    ("Ctrl+Shift+Left / Ctrl+Shift+Right", "extend the selection by one word"),
    ("Alt+Left / Alt+Right", "shrink the selection by one character from the end / the start"),
    ("Ctrl+Alt+Left / Ctrl+Alt+Right", "shrink the selection by one word from the end / the start"),
    ("Ctrl+Shift+W", "snap selections to word boundaries (on/off)"),
    ("Tab / Shift+Tab", "next / previous annotation"),
    ("F8 / Shift+F8", "next / previous unreviewed pre-annotation"),
    ("Enter", "accept the current pre-annotation"),
    ("Delete or Backspace", "delete the current annotation (rejects a pre-annotation)"),
    ("Ctrl+Shift+Enter", "accept all pending pre-annotations of the current annotation's type"),
    ("Ctrl+Alt+Enter", "accept all pending pre-annotations of the document"),
    ("Ctrl+Shift+A", "annotate all occurrences of the current annotation (preview first)"),
    ("Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y", "undo / redo (every change, including annotate all)"),
    ("Ctrl+F", "find in the note (Enter / Shift+Enter: next / previous, Esc: close)"),
    ("Ctrl+PgDown / Ctrl+PgUp", "next / previous document (the current one is saved first)"),
    ("Ctrl+Shift+PgDown / Ctrl+Shift+PgUp", "next / previous document not done"),
    ("Ctrl+Shift+N", "next by priority: the waiting note the model is least sure of"),
    ("Ctrl+S", "save (atomic; removes the recovery file)"),
    ("Ctrl+D", "mark the document done (again: back to in progress)"),
    ("Ctrl++ / Ctrl+-", "larger / smaller note text"),
    ("Ctrl+Shift+L", "type labels after tags (on/off)"),
    ("Ctrl+Shift+M", "monospace note font (on/off)"),
    ("Ctrl+Shift+T", "dark / light theme"),
    ("Ctrl+Q", "quit"),
    ("Esc", "clear the selection and the current annotation"),
    ("F1", "this list"),
)


def shortcuts_html(schema: Schema) -> str:
    rows = "".join(f"<tr><td><b>{keys}</b></td><td>{what}</td></tr>" for keys, what in SHORTCUTS)
    tags = ", ".join(f"{t.key} {t.name}" for t in schema.types if t.key)
    return f"<table cellspacing=4>{rows}</table><p><b>Tag keys:</b> {tags}</p>"


class ShortcutsDialog(QDialog):
    """Help > Keyboard shortcuts (F1): the list, scrolling inside a dialog that fits the screen."""

    def __init__(self, schema: Schema, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.browser = QTextBrowser()
        self.browser.setHtml(shortcuts_html(schema))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        screen = QGuiApplication.primaryScreen()
        room = screen.availableGeometry().height() - 80 if screen is not None else MAX_SHEET_HEIGHT
        self.resize(720, max(320, min(MAX_SHEET_HEIGHT, room)))
