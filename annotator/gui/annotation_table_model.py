"""The annotation table: a thin Qt adapter over one :class:`Document`.

The model keeps only the row order (annotation ids, in the document's own order); every
cell is read from the document on demand, and the document's signals drive the row
inserts, removals and changes. Sorting and the category filter live in
:class:`AnnotationFilterProxy`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import Schema

ModelIndex = QModelIndex | QPersistentModelIndex

COLUMNS = ("Start", "End", "Text", "Type", "Category", "Source", "Status", "Comment")
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2


def _status(annotation: Annotation) -> str:
    return "pending" if annotation.pending else "reviewed"


def _source(annotation: Annotation) -> str:
    if annotation.confidence is not None:
        return f"{annotation.source.value} {annotation.confidence:.2f}"
    return annotation.source.value


class AnnotationTableModel(QAbstractTableModel):
    """Rows = annotations of a document; columns = :data:`COLUMNS`.

    Parameters
    ----------
    schema:
        Gives each type's colour (shown as the Type cell's decoration).
    """

    def __init__(self, schema: Schema, parent: Any = None) -> None:
        super().__init__(parent)
        self.schema = schema
        self.note: Document | None = None
        self._ids: list[str] = []

    def set_document(self, document: Document | None) -> None:
        self.beginResetModel()
        if self.note is not None:
            self.note.annotation_added.disconnect(self._on_document_annotation_added)
            self.note.annotation_removed.disconnect(self._on_document_annotation_removed)
            self.note.annotation_replaced.disconnect(self._on_document_annotation_replaced)
        self.note = document
        self._ids = [a.id for a in document.annotations] if document is not None else []
        if document is not None:
            document.annotation_added.connect(self._on_document_annotation_added)
            document.annotation_removed.connect(self._on_document_annotation_removed)
            document.annotation_replaced.connect(self._on_document_annotation_replaced)
        self.endResetModel()

    # -- document signals ---------------------------------------------------------------------
    def _on_document_annotation_added(self, annotation: Annotation) -> None:
        row = len(self._ids)
        self.beginInsertRows(QModelIndex(), row, row)
        self._ids.append(annotation.id)
        self.endInsertRows()

    def _on_document_annotation_removed(self, annotation: Annotation) -> None:
        try:
            row = self._ids.index(annotation.id)
        except ValueError:
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._ids[row]
        self.endRemoveRows()

    def _on_document_annotation_replaced(self, old: Annotation, new: Annotation) -> None:
        try:
            row = self._ids.index(old.id)
        except ValueError:
            return
        self._ids[row] = new.id
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    # -- Qt model API -----------------------------------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def annotation_at(self, row: int) -> Annotation | None:
        if self.note is None or not 0 <= row < len(self._ids):
            return None
        annotation_id = self._ids[row]
        return self.note.get(annotation_id) if annotation_id in self.note else None

    def row_of(self, annotation_id: str) -> int:
        try:
            return self._ids.index(annotation_id)
        except ValueError:
            return -1

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        annotation = self.annotation_at(index.row())
        if annotation is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            values = (
                annotation.start,
                annotation.end,
                annotation.text.replace("\n", " "),
                annotation.type,
                annotation.tag,
                _source(annotation),
                _status(annotation),
                annotation.comment,
            )
            return values[column]
        if role == SORT_ROLE:
            if column in (0, 1):
                return annotation.start if column == 0 else annotation.end
            return str(self.data(index, Qt.ItemDataRole.DisplayRole)).lower()
        if role == ID_ROLE:
            return annotation.id
        if role == Qt.ItemDataRole.DecorationRole and column == 3:
            return QColor(self.schema.color_of(annotation.type))
        if role == Qt.ItemDataRole.ForegroundRole and annotation.pending and column == 6:
            return QBrush(QColor("#b36b00"))
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 1):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{annotation.id}: {annotation.tag}/{annotation.type} {annotation.start}-{annotation.end}"
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class AnnotationFilterProxy(QSortFilterProxyModel):
    """Sorts by any column (numbers as numbers) and filters by category and review state."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)
        self._categories: set[str] | None = None
        self._pending_only = False

    def set_categories(self, categories: set[str] | None) -> None:
        """Show only these categories (``None``: all)."""
        self.beginFilterChange()
        self._categories = categories
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_pending_only(self, pending_only: bool) -> None:
        self.beginFilterChange()
        self._pending_only = pending_only
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: ModelIndex) -> bool:
        model = self.sourceModel()
        if not isinstance(model, AnnotationTableModel):
            return True
        annotation = model.annotation_at(source_row)
        if annotation is None:
            return False
        if self._categories is not None and annotation.tag not in self._categories:
            return False
        return not (self._pending_only and not annotation.pending)
