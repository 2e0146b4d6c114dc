"""A read-only list of a document's relations and document tags (replaced by the relation
panel)."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from annotator.core.document import Document


class KeptTagsList(QListWidget):
    """Relations and document-level tags of the open document, one line each."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setVisible(False)

    def set_document(self, document: Document | None) -> None:
        self.clear()
        if document is None:
            self.setVisible(False)
            return
        for relation in document.relations:
            detail = " ".join(f"{a.role}→{a.target}" for a in relation.arguments)
            self.addItem(QListWidgetItem(f"{relation.id}  {relation.type}  [link]  {detail}".rstrip()))
        for tag in document.document_tags:
            shown = " ".join(f"{n}={v}" for n, v in tag.attributes if v)
            self.addItem(QListWidgetItem(f"{tag.id}  {tag.tag}  [document]  {shown}".rstrip()))
        self.setVisible(self.count() > 0)
