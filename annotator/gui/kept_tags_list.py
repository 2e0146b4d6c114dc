"""A read-only list of what a MAE / MedTator file holds beyond editable spans.

Links (with their arguments), non-consuming and document-level tags are kept through
load-edit-save (:mod:`annotator.io.mae_layout`) but cannot be edited here yet; listing them
shows they are there. The list hides itself for documents that have none.
"""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from annotator.core.document import Document
from annotator.io.mae_layout import kept_tags

_KIND_LABELS = {"link": "link", "non-consuming": "no span", "document": "document"}


class KeptTagsList(QListWidget):
    """Links and document-level tags of the open document, one line each, not editable."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip("Kept from the file and saved back unchanged; edit them in MAE or MedTator")
        self.setVisible(False)

    def set_document(self, document: Document | None) -> None:
        self.clear()
        kept = kept_tags(document) if document is not None else []
        for tag in kept:
            if tag.kind == "link":
                detail = " ".join(f"{name}→{target}" for name, target in tag.arguments())
            else:
                detail = tag.summary
            line = f"{tag.id or '?'}  {tag.tag}  [{_KIND_LABELS.get(tag.kind, tag.kind)}]  {detail}".rstrip()
            self.addItem(QListWidgetItem(line))
        self.setVisible(bool(kept))
