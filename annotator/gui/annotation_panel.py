"""The annotation table with its category filter; clicking a row jumps to the annotation.

Signals
-------
annotation_activated(str)   a row was selected by the user (the annotation id)
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from annotator.core.document import Document
from annotator.core.schema import Schema
from annotator.gui.annotation_table_model import ID_ROLE, AnnotationFilterProxy, AnnotationTableModel


class AnnotationPanel(QWidget):
    """Table of the current document's annotations, sortable and filterable."""

    annotation_activated = Signal(str)

    def __init__(self, schema: Schema, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = AnnotationTableModel(schema, self)
        self.proxy = AnnotationFilterProxy(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Show:"))
        self.category_box = QComboBox()
        self.category_box.addItem("all categories", None)
        for name in schema.category_names:
            self.category_box.addItem(name, name)
        bar.addWidget(self.category_box)
        self.pending_box = QCheckBox("pending only")
        bar.addWidget(self.pending_box)
        bar.addStretch(1)
        layout.addLayout(bar)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        # A highlighted section would repaint the header at every selection change (every edit).
        self.table.horizontalHeader().setHighlightSections(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.fit_columns(schema)
        layout.addWidget(self.table)
        self._syncing = False
        self.category_box.currentIndexChanged.connect(self._on_category_box_current_index_changed)
        self.pending_box.toggled.connect(self._on_pending_box_toggled)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_row_changed)

    def fit_columns(self, schema: Schema) -> None:
        """Column widths that show every type and category name whole ("MEDICALRECORD", not
        "MEDICALR…"), with the colour swatch before the type; at 1,280 pixels the offsets, the
        text and the type fit the panel without scrolling sideways."""
        metrics = self.table.fontMetrics()
        style = self.table.style()
        # The delegate's text margins, the swatch and the gap after it.
        padding = 4 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1)
        swatch = style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize) + padding // 2
        type_width = max((metrics.horizontalAdvance(t.name) for t in schema.types), default=60)
        category_width = max((metrics.horizontalAdvance(c) for c in schema.category_names), default=60)
        widths = (
            metrics.horizontalAdvance("000000") + padding,
            metrics.horizontalAdvance("000000") + padding,
            metrics.horizontalAdvance("0" * 16) + padding,
            type_width + swatch + padding,
            category_width + padding,
            metrics.horizontalAdvance("model 0.00") + padding,
            metrics.horizontalAdvance("reviewed") + padding,
        )
        for column, width in enumerate(widths):
            self.table.setColumnWidth(column, width)

    @property
    def shown(self) -> AnnotationTableModel | AnnotationFilterProxy:
        """What the table shows: the model itself, or the filter proxy while a filter is on."""
        model = self.table.model()
        assert isinstance(model, AnnotationTableModel | AnnotationFilterProxy)
        return model

    def _use_proxy(self, wanted: bool) -> None:
        # Without a filter the table shows the model directly: a proxy would call back into
        # Python for every row each time a document opens.
        if wanted == (self.table.model() is self.proxy):
            return
        current = self.current_id()
        self.proxy.setSourceModel(self.model if wanted else None)  # type: ignore[arg-type]
        self.table.setModel(self.proxy if wanted else self.model)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_row_changed)
        self.select_annotation(current)

    def current_id(self) -> str | None:
        index = self.table.selectionModel().currentIndex()
        value = self.shown.data(index, ID_ROLE) if index.isValid() else None
        return str(value) if value else None

    def set_document(self, document: Document | None) -> None:
        self.model.set_document(document)

    def select_annotation(self, annotation_id: str | None) -> None:
        """Select the row of an annotation (without emitting annotation_activated)."""
        self._syncing = True
        try:
            selection = self.table.selectionModel()
            row = self.model.row_of(annotation_id) if annotation_id else -1
            proxy_index = self.model.index(row, 0) if row >= 0 else QModelIndex()
            if proxy_index.isValid() and self.shown is self.proxy:
                proxy_index = self.proxy.mapFromSource(proxy_index)
            if proxy_index.isValid():
                selection.setCurrentIndex(
                    proxy_index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.table.scrollTo(proxy_index)
            else:
                selection.clearSelection()
                selection.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.Clear)
        finally:
            self._syncing = False

    def _on_category_box_current_index_changed(self, index: int) -> None:
        name = self.category_box.itemData(index)
        self.proxy.set_categories({name} if name else None)
        self._use_proxy(bool(name) or self.pending_box.isChecked())

    def _on_pending_box_toggled(self, pending_only: bool) -> None:
        self.proxy.set_pending_only(pending_only)
        self._use_proxy(pending_only or self.category_box.currentData() is not None)

    def _on_table_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        annotation_id = self.shown.data(current, ID_ROLE)
        if annotation_id:
            self.annotation_activated.emit(str(annotation_id))
