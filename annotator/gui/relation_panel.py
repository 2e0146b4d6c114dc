"""The links of the open document, listed and edited, and its document-level tags.

One line per link: its id, type and arguments (``link_AE: pain → link_SVRT: mild``), so
what is linked to what reads at a glance; choosing a line makes its first argument the
current annotation (shown in the note). Below the list: a link type (the task's link tags,
or any name), the annotation to link the current one to, and Link / Delete / Set type, each
one undoable step. Document-level tags (no span) are listed after the links.

Signals
-------
annotation_activated(str)   a line was chosen: the id of the annotation to show
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.relations import Relation
from annotator.session.editing import AnnotationEditor
from annotator.session.relation_editing import RelationEditor

_SHOWN_TEXT = 30
# Lines the list shows before it scrolls.
MAX_LINES = 6


class _TargetBox(QComboBox):
    """The annotation to link to, filled only when the user is about to choose from it.

    It lists every tag of the note: refilling it at each edit cost a 5,000-tag record 22 ms
    a keystroke, most of the key-to-repaint time (``bench_gui``).
    """

    def __init__(self, fill: Callable[[], None]) -> None:
        super().__init__()
        self._fill = fill

    def showPopup(self) -> None:
        self._fill()
        super().showPopup()

    def focusInEvent(self, event: QFocusEvent) -> None:
        # Arrow keys and typing choose without the popup: they must see today's tags too.
        self._fill()
        super().focusInEvent(event)


class RelationPanel(QWidget):
    """Links (editable) and document-level tags of the open document."""

    annotation_activated = Signal(str)

    def __init__(
        self,
        editor: Callable[[], AnnotationEditor | None],
        current: Callable[[], Annotation | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._editor = editor
        self._current = current
        self._document: Document | None = None
        self.list = QListWidget()
        self.list.setToolTip("Links between annotations, and tags about the whole document")
        self.type_box = QComboBox()
        self.type_box.setEditable(True)
        self.type_box.setToolTip("The link type (the task's link tags; without a task, type a new one)")
        self.target_box = _TargetBox(self.fill_targets)
        self._targets_stale = True
        self.target_box.setToolTip("Link the current annotation to this one")
        self.link_button = QPushButton("Link")
        self.delete_button = QPushButton("Delete link")
        self.retype_button = QPushButton("Set type")
        # The panel is as tall as its lines (up to MAX_LINES) and no taller: at 1,280x720 an
        # empty list of fixed height left the annotation table above it a row and a half.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.list.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(QLabel("<b>Links</b>"))
        heading.addStretch(1)
        heading.addWidget(self.retype_button)
        heading.addWidget(self.delete_button)
        layout.addLayout(heading)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        row.addWidget(self.type_box, 1)
        row.addWidget(self.target_box, 2)
        row.addWidget(self.link_button)
        layout.addLayout(row)
        self.link_button.clicked.connect(self._on_link_button_clicked)
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        self.retype_button.clicked.connect(self._on_retype_button_clicked)
        self.list.currentItemChanged.connect(self._on_list_current_item_changed)

    # -- following the document ------------------------------------------------------------
    def set_document(self, document: Document | None) -> None:
        if self._document is not None:
            for signal in self._document.change_signals():
                signal.disconnect(self.refresh)
        self._document = document
        if document is not None:
            for signal in document.change_signals():
                signal.connect(self.refresh)
        self.target_box.clear()  # another note's choice means nothing here
        self.refresh()
        self.fill_targets()

    def refresh(self, *_changed: object) -> None:
        """Rebuild the list and the choices from the document."""
        document = self._document
        selected = self.selected_relation()
        self.list.clear()
        self._targets_stale = True
        if self.target_box.hasFocus():
            self.fill_targets()
        editor = self._editor()
        enabled = document is not None and editor is not None and not editor.read_only
        for widget in (
            self.type_box,
            self.target_box,
            self.link_button,
            self.delete_button,
            self.retype_button,
        ):
            widget.setEnabled(enabled)
        if document is None:
            self._fit_list()
            return
        for relation in document.relations:
            item = QListWidgetItem(f"{relation.id}  {relation.type}  {self._arguments(document, relation)}")
            item.setData(Qt.ItemDataRole.UserRole, relation.id)
            self.list.addItem(item)
            if relation.id == selected:
                self.list.setCurrentItem(item)
        for tag in document.document_tags:
            shown = " ".join(f"{n}={v}" for n, v in tag.attributes if v)
            item = QListWidgetItem(f"{tag.id}  {tag.tag}  (whole document)  {shown}".rstrip())
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.list.addItem(item)
        self._fit_list()
        if editor is not None:
            relations = RelationEditor(editor)
            types = relations.types()
            # A task's declared link tags only: a typed name would be an element its DTD lacks.
            self.type_box.setEditable(not relations.fixed_types())
            current_type = self.type_box.currentText()
            self.type_box.clear()
            self.type_box.addItems(types)
            self.type_box.setCurrentText(current_type or (types[0] if types else ""))

    def _fit_list(self) -> None:
        """Size the list to its lines; with none, hide it and the buttons that act on a line
        (the Link row stays, to make the first link)."""
        lines = min(self.list.count(), MAX_LINES)
        for widget in (self.list, self.retype_button, self.delete_button):
            widget.setVisible(lines > 0)
        if lines:
            rows = sum(self.list.sizeHintForRow(row) for row in range(lines))
            # Room for a horizontal scroll bar too: a long line must not hide the last one.
            bar = self.list.horizontalScrollBar().sizeHint().height()
            self.list.setFixedHeight(rows + bar + 2 * self.list.frameWidth())

    def fill_targets(self) -> None:
        """List the note's tags in the target box if they changed since it was last filled,
        keeping the chosen one when it is still there."""
        if not self._targets_stale:
            return
        self._targets_stale = False
        chosen = self.target_box.currentData()
        self.target_box.clear()
        document = self._document
        if document is None:
            return
        for annotation in document.sorted_annotations():
            if not annotation.fragment_of:
                self.target_box.addItem(f"{annotation.id}  {annotation.text[:_SHOWN_TEXT]}", annotation.id)
        if chosen is not None:
            # -1 (nothing) when the chosen tag is gone: Link must not fall back to another.
            self.target_box.setCurrentIndex(self.target_box.findData(chosen))

    def _arguments(self, document: Document, relation: Relation) -> str:
        def shown(item_id: str) -> str:
            if item_id in document:
                return document.get(item_id).text[:_SHOWN_TEXT]
            return item_id

        parts = [f"trigger: {shown(relation.trigger)}"] if relation.trigger else []
        parts += [f"{a.role}: {shown(a.target)}".lstrip(": ") for a in relation.filled]
        return " → ".join(parts)

    def selected_relation(self) -> str | None:
        item = self.list.currentItem()
        value = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return str(value) if value else None

    # -- editing -----------------------------------------------------------------------------
    def _relations(self) -> RelationEditor | None:
        editor = self._editor()
        return RelationEditor(editor) if editor is not None else None

    def _on_link_button_clicked(self) -> None:
        relations = self._relations()
        current = self._current()
        self.fill_targets()  # a tag chosen before an edit may be gone since
        target = self.target_box.currentData()
        if relations is not None and current is not None and target:
            relations.link(self.type_box.currentText(), current.id, str(target))

    def _on_delete_button_clicked(self) -> None:
        relations = self._relations()
        selected = self.selected_relation()
        if relations is not None and selected is not None:
            relations.unlink(selected)

    def _on_retype_button_clicked(self) -> None:
        relations = self._relations()
        selected = self.selected_relation()
        if relations is not None and selected is not None:
            relations.retype(selected, self.type_box.currentText())

    def _on_list_current_item_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        document = self._document
        relation_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if document is None or not relation_id:
            return
        relation = document.get_relation(str(relation_id))
        self.type_box.setCurrentText(relation.type)
        first = relation.trigger or next((a.target for a in relation.filled if a.target in document), "")
        if first in document:
            self.annotation_activated.emit(first)
