"""The edit decision: a custom type and span for a unit's gold tag."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from annotator.core.schema import Schema

AnnotationKey = tuple[str, str, int, int]


class EditUnitDialog(QDialog):
    """Choose type, start and end of the gold tag (prefilled from a version or a selection)."""

    def __init__(
        self,
        schema: Schema,
        text: str,
        start: int,
        end: int,
        type_name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit gold tag")
        self._schema = schema
        self._text = text
        layout = QFormLayout(self)
        self.type_box = QComboBox()
        for type_def in schema.types:
            self.type_box.addItem(f"{type_def.category} / {type_def.name}", type_def.name)
        index = self.type_box.findData(type_name)
        self.type_box.setCurrentIndex(max(index, 0))
        self.start_box = QSpinBox()
        self.end_box = QSpinBox()
        for box in (self.start_box, self.end_box):
            box.setRange(0, len(text))
        self.start_box.setValue(start)
        self.end_box.setValue(end)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        layout.addRow("Type", self.type_box)
        layout.addRow("Start", self.start_box)
        layout.addRow("End", self.end_box)
        layout.addRow("Text", self.preview)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addRow(buttons)
        self.start_box.valueChanged.connect(self._on_span_changed)
        self.end_box.valueChanged.connect(self._on_span_changed)
        self._on_span_changed()

    def _on_span_changed(self) -> None:
        start, end = self.start_box.value(), self.end_box.value()
        self.preview.setText(self._text[start:end] if start < end else "(empty)")

    def key(self) -> AnnotationKey:
        """The chosen ``(category, type, start, end)``."""
        type_name = str(self.type_box.currentData())
        return (self._schema.category_of(type_name), type_name, self.start_box.value(), self.end_box.value())
