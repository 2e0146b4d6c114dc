"""The current annotation's details: type, offsets, provenance, review state, comment.

Edits go to the core through the :class:`~annotator.session.editing.AnnotationEditor` the
window passes in; the editor re-reads the annotation when the document changes.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from annotator.core.annotation import Annotation
from annotator.core.schema import Schema
from annotator.gui.elided_label import ElidedLabel
from annotator.session.editing import AnnotationEditor

EditorGetter = Callable[[], AnnotationEditor | None]


class TypeComboBox(QComboBox):
    """The type chooser: changed by choosing from its list, never by a stray key or wheel turn.

    A closed combo box searches its items as letters are typed and steps through them with
    the arrow keys and the wheel; with the focus left there by a click, every stray letter
    meant for the note retyped the current tag (issue 26). Here only the open list, opened
    by a click, Space, F4 or Alt+Down, changes the type.
    """

    OPENING_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_F4, Qt.Key.Key_Down)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in self.OPENING_KEYS and (
            event.key() != Qt.Key.Key_Down or event.modifiers() & Qt.KeyboardModifier.AltModifier
        ):
            self.showPopup()
            return
        event.ignore()  # letters, arrows, Home/End: not for the type (the window may use them)

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()  # scrolling the panel must not retype the tag under the pointer


class AttributeEditor(QWidget):
    """A form for one annotation.

    Its Accept and Delete buttons ask (``accept_requested``, ``delete_requested``): the window
    accepts or deletes the current annotation as the Enter and Delete keys do, with their
    status messages.

    Parameters
    ----------
    schema:
        The tag set (the type list).
    editor:
        Returns the current document's editor (None when no document is open).
    """

    accept_requested = Signal()
    delete_requested = Signal()

    def __init__(self, schema: Schema, editor: EditorGetter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.schema = schema
        self._editor = editor
        self.annotation_id: str | None = None
        # The comment as last shown or kept: the field differs from it while an edit is pending.
        self._comment_shown = ""
        form = QFormLayout(self)
        form.setContentsMargins(4, 4, 4, 4)
        self.type_box = TypeComboBox()
        for type_def in schema.types:
            self.type_box.addItem(f"{type_def.category} / {type_def.name}", type_def.name)
        # Labels that paint their own text: the offsets change with every edit, and a QLabel
        # would lay the whole form out again each time.
        self.span_label = ElidedLabel("–", minimum_chars=8)
        self.source_label = ElidedLabel("–", minimum_chars=8)
        self.status_label = ElidedLabel("–", minimum_chars=8)
        self.comment = QLineEdit()
        self.comment.setPlaceholderText("comment (Enter to keep)")
        buttons = QHBoxLayout()
        self.accept_button = QPushButton("Accept")
        self.accept_button.setToolTip("Accept this pre-annotation (Enter in the text)")
        self.delete_button = QPushButton("Delete")
        self.delete_button.setToolTip("Delete, or reject a pre-annotation (Delete in the text)")
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.delete_button)
        form.addRow("Type", self.type_box)
        form.addRow("Offsets", self.span_label)
        form.addRow("Source", self.source_label)
        form.addRow("Status", self.status_label)
        form.addRow("Comment", self.comment)
        form.addRow(buttons)
        self.type_box.activated.connect(self._on_type_box_activated)
        self.comment.editingFinished.connect(self._on_comment_editing_finished)
        self.accept_button.clicked.connect(self._on_accept_button_clicked)
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        self.show_annotation(None)

    def commit_comment(self) -> None:
        """Keep a comment typed and not yet confirmed with Enter on the annotation it was typed
        for: a key that moves on (F8, Tab, Ctrl+PgDown) gives the field no editingFinished."""
        if self.comment.text() != self._comment_shown:
            self._on_comment_editing_finished()

    def show_annotation(self, annotation: Annotation | None) -> None:
        new_id = annotation.id if annotation is not None else None
        if new_id != self.annotation_id:
            self.commit_comment()
        same = new_id is not None and new_id == self.annotation_id
        self.annotation_id = new_id
        editor = self._editor()
        # A read-only (locked) note: the form shows the annotation but offers no edit it would drop.
        enabled = annotation is not None and not (editor is not None and editor.read_only)
        for widget in (self.type_box, self.comment, self.accept_button, self.delete_button):
            widget.setEnabled(enabled)
        if annotation is None:
            self.type_box.setCurrentIndex(-1)  # no type shown for no annotation
            self.span_label.setText("–")
            self.source_label.setText("–")
            self.status_label.setText("no annotation selected")
            self.comment.clear()
            self._comment_shown = ""
            return
        index = self.type_box.findData(annotation.type)
        self.type_box.setCurrentIndex(index)
        self.span_label.setText(f"{annotation.start}–{annotation.end}  ({annotation.id})")
        source = annotation.source.value
        if annotation.confidence is not None:
            source += f"  (confidence {annotation.confidence:.2f})"
        if annotation.annotator:
            source += f"  by {annotation.annotator}"
        self.source_label.setText(source)
        self.status_label.setText("pending review" if annotation.pending else "reviewed")
        self.accept_button.setEnabled(enabled and annotation.pending)
        self.delete_button.setText("Reject" if annotation.pending else "Delete")
        if not (same and self.comment.hasFocus()):
            # Another annotation's comment replaces the field even while it has the focus; the
            # same annotation changed (its type, its bounds) keeps what is being typed.
            self.comment.setText(annotation.comment)
            self._comment_shown = annotation.comment

    def _target(self) -> tuple[AnnotationEditor, str] | None:
        editor = self._editor()
        if editor is None or self.annotation_id is None or self.annotation_id not in editor.document:
            return None
        return editor, self.annotation_id

    def _on_type_box_activated(self, index: int) -> None:
        target = self._target()
        if target is not None:
            target[0].change(target[1], type_name=str(self.type_box.itemData(index)))

    def _on_comment_editing_finished(self) -> None:
        target = self._target()
        if target is not None:
            self._comment_shown = self.comment.text()
            target[0].set_comment(target[1], self._comment_shown)

    def _on_accept_button_clicked(self) -> None:
        if self._target() is not None:
            self.accept_requested.emit()

    def _on_delete_button_clicked(self) -> None:
        if self._target() is not None:
            self.delete_requested.emit()
