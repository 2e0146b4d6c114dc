"""The annotation table: a thin Qt adapter over one :class:`Document`.

The model keeps only the row order (annotation ids, in the document's own order); every
cell is read from the document on demand, and the document's signals drive the row
inserts, removals and changes. Sorting and the category filter live in
:class:`AnnotationFilterProxy`.
"""

from __future__ import annotations

from operator import attrgetter
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
# Computed once: enum arithmetic in PySide costs microseconds per cell.
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NUMBER_ALIGNMENT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
ID_ROLE = Qt.ItemDataRole.UserRole + 2
# Roles as plain ints, and the set of those the model answers (everything else is None).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ROLES = frozenset((_DISPLAY, _DECORATION, _FOREGROUND, _ALIGNMENT, _TOOLTIP, int(SORT_ROLE), int(ID_ROLE)))
_PENDING_BRUSH = QBrush(QColor("#b36b00"))
_BY_START = attrgetter("start", "end", "id")
_BY_END = attrgetter("end", "start", "id")


def _status(annotation: Annotation) -> str:
    return "pending" if annotation.pending else "reviewed"


def _cell(annotation: Annotation, column: int) -> object:
    if column == 0:
        return annotation.start
    if column == 1:
        return annotation.end
    if column == 2:
        return annotation.text.replace("\n", " ")
    if column == 3:
        return annotation.type
    if column == 4:
        return annotation.tag
    if column == 5:
        return _source(annotation)
    if column == 6:
        return _status(annotation)
    return annotation.comment


def _source(annotation: Annotation) -> str:
    if annotation.confidence is not None:
        return f"{annotation.source.value} {annotation.confidence:.2f}"
    return annotation.source.value


class AnnotationTableModel(QAbstractTableModel):
    """Rows = annotations of a document; columns = :data:`COLUMNS`.

    The model sorts itself (a Python key sort is ~100 times faster than letting a proxy
    compare rows through ``data()``); rows start in offset order and an added annotation is
    inserted where the current sort puts it.

    Parameters
    ----------
    schema:
        Gives each type's colour (shown as the Type cell's decoration).
    """

    def __init__(self, schema: Schema, parent: Any = None) -> None:
        super().__init__(parent)
        self._schema = schema
        self._colours: dict[str, QColor] = {}
        # Cell texts of the rows painted so far, by annotation id, with the annotation they
        # were made from (annotations are immutable: a changed one is a new object).
        self._cells: dict[str, tuple[Annotation, tuple[object, ...]]] = {}
        self.note: Document | None = None
        self._ids: list[str] = []
        self._sort_column = 0
        self._sort_order = Qt.SortOrder.AscendingOrder

    @property
    def schema(self) -> Schema:
        return self._schema

    @schema.setter
    def schema(self, schema: Schema) -> None:
        self._schema = schema
        self._colours.clear()

    def _row_cells(self, annotation: Annotation) -> tuple[object, ...]:
        cached = self._cells.get(annotation.id)
        if cached is not None and cached[0] is annotation:
            return cached[1]
        cells = tuple(_cell(annotation, column) for column in range(len(COLUMNS)))
        self._cells[annotation.id] = (annotation, cells)
        return cells

    def _colour(self, type_name: str) -> QColor:
        colour = self._colours.get(type_name)
        if colour is None:
            colour = self._colours[type_name] = QColor(self._schema.color_of(type_name))
        return colour

    def set_document(self, document: Document | None) -> None:
        self.beginResetModel()
        self._cells.clear()
        if self.note is not None:
            self.note.annotation_added.disconnect(self._on_document_annotation_added)
            self.note.annotation_removed.disconnect(self._on_document_annotation_removed)
            self.note.annotation_replaced.disconnect(self._on_document_annotation_replaced)
        self.note = document
        self._ids = self._sorted_ids(document.annotations) if document is not None else []
        if document is not None:
            document.annotation_added.connect(self._on_document_annotation_added)
            document.annotation_removed.connect(self._on_document_annotation_removed)
            document.annotation_replaced.connect(self._on_document_annotation_replaced)
        self.endResetModel()

    # -- sorting ----------------------------------------------------------------------------------
    def _key(self, annotation: Annotation) -> tuple[Any, ...]:
        column = self._sort_column
        offsets = (annotation.start, annotation.end, annotation.id)
        if column == 0:
            return offsets
        if column == 1:
            return (annotation.end, annotation.start, annotation.id)
        return (str(_cell(annotation, column)).lower(), *offsets)

    def _sorted_ids(self, annotations: list[Annotation]) -> list[str]:
        # The offset orders sort on attributes in C (a document opens in a few milliseconds less).
        key = _BY_START if self._sort_column == 0 else _BY_END if self._sort_column == 1 else self._key
        ordered = sorted(annotations, key=key, reverse=self._sort_order == Qt.SortOrder.DescendingOrder)
        return [a.id for a in ordered]

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        old_ids = list(self._ids)
        self._sort_column, self._sort_order = column, order
        if self.note is not None:
            self._ids = self._sorted_ids([self.note.get(i) for i in self._ids if i in self.note])
        new_rows = {annotation_id: row for row, annotation_id in enumerate(self._ids)}
        moved_from, moved_to = [], []
        for index in self.persistentIndexList():
            if 0 <= index.row() < len(old_ids) and old_ids[index.row()] in new_rows:
                moved_from.append(index)
                moved_to.append(self.index(new_rows[old_ids[index.row()]], index.column()))
        self.changePersistentIndexList(moved_from, moved_to)
        self.layoutChanged.emit()

    def _insert_row(self, annotation: Annotation) -> int:
        """Where an annotation goes in the current order (binary search over the rows)."""
        assert self.note is not None
        key = self._key(annotation)
        descending = self._sort_order == Qt.SortOrder.DescendingOrder
        lo, hi = 0, len(self._ids)
        while lo < hi:
            mid = (lo + hi) // 2
            other = self._key(self.note.get(self._ids[mid]))
            if (other > key) if descending else (other < key):
                lo = mid + 1
            else:
                hi = mid
        return lo

    # -- document signals ---------------------------------------------------------------------
    def _on_document_annotation_added(self, annotation: Annotation) -> None:
        row = self._insert_row(annotation)
        self.beginInsertRows(QModelIndex(), row, row)
        self._ids.insert(row, annotation.id)
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
        if self._key(old) == self._key(new) or len(self._ids) == 1:
            self._ids[row] = new.id
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
            return
        # The sort key changed: move the row where it now belongs. A move, not a removal and an
        # insertion: the view's current row and selection travel with it, where a removal
        # handed them to the neighbour (an undo then made the next annotation current).
        del self._ids[row]
        target = self._insert_row(new)
        self._ids.insert(row, old.id)
        destination = target + 1 if target >= row else target
        if destination not in (row, row + 1):
            self.beginMoveRows(QModelIndex(), row, row, QModelIndex(), destination)
            del self._ids[row]
            self._ids.insert(target, new.id)
            self.endMoveRows()
        self._ids[target] = new.id
        self.dataChanged.emit(self.index(target, 0), self.index(target, len(COLUMNS) - 1))

    # -- Qt model API -----------------------------------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(COLUMNS)
        ):
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
        # Called for every role of every visible cell at each repaint (hundreds per edit):
        # roles the table does not use are answered before anything is looked up.
        if role not in _ROLES:
            return None
        row, column = index.row(), index.column()
        ids = self._ids
        if self.note is None or not 0 <= row < len(ids):
            return None
        annotation = self.note.find(ids[row])
        if annotation is None:
            return None
        if role == _DISPLAY:
            return self._row_cells(annotation)[column]
        if role == _DECORATION:
            return self._colour(annotation.type) if column == 3 else None
        if role == _FOREGROUND:
            return _PENDING_BRUSH if column == 6 and annotation.pending else None
        if role == _ALIGNMENT:
            return _NUMBER_ALIGNMENT if column < 2 else None
        if role == SORT_ROLE:
            if column in (0, 1):
                return annotation.start if column == 0 else annotation.end
            return str(self._row_cells(annotation)[column]).lower()
        if role == ID_ROLE:
            return annotation.id
        return f"{annotation.id}: {annotation.tag}/{annotation.type} {annotation.start}-{annotation.end}"

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        return _ROW_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags


class AnnotationFilterProxy(QSortFilterProxyModel):
    """Filters by category and review state; sorting is passed on to the source model."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)
        self._categories: set[str] | None = None
        self._pending_only = False

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        model = self.sourceModel()
        if isinstance(model, AnnotationTableModel):
            model.sort(column, order)
        else:
            super().sort(column, order)

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
