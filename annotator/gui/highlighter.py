"""Incremental highlighting of annotations in the note view.

A :class:`QSyntaxHighlighter` asks for one text block (line) at a time; :class:`SpanIndex`
answers "which annotations touch this block" with a bisect over sorted start offsets, so a
block costs O(log n + hits). When an annotation is added, removed or replaced only the
blocks it covers are re-highlighted; thousands of ``ExtraSelection`` objects (rebuilt on
every edit) are avoided on purpose.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import Schema
from annotator.gui.offsets import OffsetMap
from annotator.gui.theme import highlight_colour


class SpanIndex:
    """Annotations sorted by start offset, for fast "what overlaps [start, end)" queries.

    Parameters
    ----------
    annotations:
        The initial annotations.
    """

    def __init__(self, annotations: list[Annotation] | None = None) -> None:
        items = sorted((a.start, a.id) for a in annotations or [])
        self._keys: list[tuple[int, str]] = items
        self._by_id: dict[str, Annotation] = {a.id: a for a in annotations or []}
        self._max_length = max((a.end - a.start for a in annotations or []), default=0)

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, annotation: Annotation) -> None:
        insort(self._keys, (annotation.start, annotation.id))
        self._by_id[annotation.id] = annotation
        self._max_length = max(self._max_length, annotation.end - annotation.start)

    def remove(self, annotation: Annotation) -> None:
        key = (annotation.start, annotation.id)
        i = bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            del self._keys[i]
        self._by_id.pop(annotation.id, None)

    def overlapping(self, start: int, end: int) -> list[Annotation]:
        """Annotations sharing a code point with ``[start, end)``, longest first."""
        keys = self._keys
        lo = bisect_left(keys, (start - self._max_length, ""))
        hi = bisect_left(keys, (end, ""))
        by_id = self._by_id
        found = [by_id[i] for _, i in keys[lo:hi]]
        found = [a for a in found if a.end > start]
        if len(found) > 1:
            found.sort(key=lambda a: a.start - a.end)
        return found


class AnnotationHighlighter(QSyntaxHighlighter):
    """Paints each annotation with its category colour; pending ones paler and dash-underlined.

    Parameters
    ----------
    text_document:
        The note view's QTextDocument.
    schema:
        Gives each type's colour.
    dark:
        Whether the page is dark (colours are blended into the page colour).
    """

    def __init__(self, text_document: QTextDocument, schema: Schema, dark: bool = False) -> None:
        super().__init__(text_document)
        self.schema = schema
        self.dark = dark
        self.note: Document | None = None
        self.offsets = OffsetMap("")
        self.index = SpanIndex()
        self.current_id: str | None = None
        self._formats: dict[tuple[str, bool, bool], QTextCharFormat] = {}
        # How many blocks were painted: lets tests check that an edit repaints only its lines.
        self.blocks_highlighted = 0

    # -- wiring -------------------------------------------------------------------------------
    def set_document(self, document: Document | None, offsets: OffsetMap) -> None:
        """Follow a new document; call before the text is put into the view."""
        if self.note is not None:
            self.note.annotation_added.disconnect(self._on_document_annotation_added)
            self.note.annotation_removed.disconnect(self._on_document_annotation_removed)
            self.note.annotation_replaced.disconnect(self._on_document_annotation_replaced)
        self.note = document
        self.offsets = offsets
        self.current_id = None
        self.index = SpanIndex(document.annotations if document is not None else [])
        if document is not None:
            document.annotation_added.connect(self._on_document_annotation_added)
            document.annotation_removed.connect(self._on_document_annotation_removed)
            document.annotation_replaced.connect(self._on_document_annotation_replaced)

    def set_dark(self, dark: bool) -> None:
        self.dark = dark
        self._formats.clear()
        self.rehighlight()

    def set_current(self, annotation_id: str | None) -> None:
        """Mark the annotation the annotator is working on (drawn stronger)."""
        if annotation_id == self.current_id:
            return
        previous = self.current_id
        self.current_id = annotation_id
        for ident in (previous, annotation_id):
            if ident is not None and self.note is not None and ident in self.note:
                annotation = self.note.get(ident)
                self.rehighlight_range(annotation.start, annotation.end)

    # -- document signals -----------------------------------------------------------------------
    def _on_document_annotation_added(self, annotation: Annotation) -> None:
        self.index.add(annotation)
        self.rehighlight_range(annotation.start, annotation.end)

    def _on_document_annotation_removed(self, annotation: Annotation) -> None:
        self.index.remove(annotation)
        self.rehighlight_range(annotation.start, annotation.end)

    def _on_document_annotation_replaced(self, old: Annotation, new: Annotation) -> None:
        self.index.remove(old)
        self.index.add(new)
        if self.current_id == old.id:
            self.current_id = new.id
        self.rehighlight_range(min(old.start, new.start), max(old.end, new.end))

    def rehighlight_range(self, start: int, end: int) -> None:
        """Re-highlight only the blocks covering ``[start, end)`` (code points)."""
        text_document = self.document()
        if text_document is None:
            return
        block = text_document.findBlock(self.offsets.to_qt(start))
        last = text_document.findBlock(self.offsets.to_qt(max(start, end - 1))).blockNumber()
        while block.isValid() and block.blockNumber() <= last:
            self.rehighlightBlock(block)
            block = block.next()

    # -- painting -------------------------------------------------------------------------------
    def _format(self, type_name: str, pending: bool, current: bool) -> QTextCharFormat:
        key = (type_name, pending, current)
        fmt = self._formats.get(key)
        if fmt is None:
            fmt = QTextCharFormat()
            colour = self.schema.color_of(type_name)
            background = highlight_colour(colour, self.dark, pending and not current)
            if current:
                background = highlight_colour(colour, self.dark, False).darker(115 if not self.dark else 90)
                fmt.setFontUnderline(True)
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
                fmt.setFontWeight(QFont.Weight.Bold)
            elif pending:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
                fmt.setUnderlineColor(QColor(colour))
                fmt.setFontItalic(True)
            fmt.setBackground(background)
            self._formats[key] = fmt
        return fmt

    def highlightBlock(self, text: str) -> None:
        self.blocks_highlighted += 1
        if not self.index:
            return
        block = self.currentBlock()
        position = block.position()
        offsets = self.offsets
        start = offsets.from_qt(position)
        end = offsets.from_qt(position + block.length() - 1)
        # An empty line still gets painted when a tag spans it: nothing to do then.
        found = self.index.overlapping(start, max(end, start + 1))
        if not found:
            return
        current = self.current_id
        for annotation in found:
            s = max(annotation.start, start)
            e = min(annotation.end, end)
            if e <= s:
                continue
            qs = offsets.to_qt(s) - position
            qe = offsets.to_qt(e) - position
            self.setFormat(qs, qe - qs, self._format(annotation.type, annotation.pending, annotation.id == current))
