"""Editing a MAE / MedTator task's own attributes (``certainty``, ``severity``...).

The type (``TYPE`` / ``type``) and the comment have their fields in the attribute editor;
this form shows the other attributes the task declares for the current annotation's tag: a
list of values as a combo box, free text as a line. It hides itself when the schema has no
task or the tag no such attribute. Edits go through the session's editor (one undo step each).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QWidget

from annotator.core.annotation import Annotation
from annotator.core.schema import Schema
from annotator.core.task import TYPE_ATTRIBUTES, TaskAttribute
from annotator.session.editing import AnnotationEditor

EditorGetter = Callable[[], AnnotationEditor | None]


class TaskAttributeEditor(QWidget):
    """One row per editable task attribute of the current annotation's tag."""

    def __init__(self, schema: Schema, editor: EditorGetter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._task = schema.task
        self._editor = editor
        self._layout = QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.fields: dict[str, QComboBox | QLineEdit] = {}
        self.annotation_id: str | None = None
        self.setVisible(False)

    def _editable(self, annotation: Annotation | None) -> list[TaskAttribute]:
        task_tag = self._task.tag(annotation.tag) if self._task is not None and annotation else None
        if task_tag is None:
            return []
        return [
            a
            for a in task_tag.attributes
            if not a.idref and a.name not in TYPE_ATTRIBUTES and a.name != "comment"
        ]

    def show_annotation(self, annotation: Annotation | None) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self.fields = {}
        self.annotation_id = annotation.id if annotation is not None else None
        attributes = self._editable(annotation)
        values = dict(annotation.extra) if annotation is not None else {}
        for attribute in attributes:
            current = values.get(attribute.name, attribute.default)
            field: QComboBox | QLineEdit
            if attribute.values:
                field = QComboBox()
                field.addItems(list(attribute.values))
                if current not in attribute.values:
                    field.addItem(current)
                field.setCurrentText(current)
                field.activated.connect(
                    lambda _index, name=attribute.name, box=field: self._set(name, box.currentText())
                )
            else:
                field = QLineEdit(current)
                field.editingFinished.connect(
                    lambda name=attribute.name, line=field: self._set(name, line.text())
                )
            self.fields[attribute.name] = field
            self._layout.addRow(attribute.name, field)
        self.setVisible(bool(attributes))

    def _set(self, name: str, value: str) -> None:
        editor = self._editor()
        if editor is not None and self.annotation_id is not None and self.annotation_id in editor.document:
            editor.set_attribute(self.annotation_id, name, value)
