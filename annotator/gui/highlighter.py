"""Highlighting annotations in the note view, a line at a time, when the line is shown.

Each line (``QTextBlock``) gets its annotations' formats straight on its text layout,
computed from :class:`SpanIndex` (a bisect over sorted start offsets, O(log n + hits) per
line) the first time the line is about to be painted. Opening a 200,000-character record
therefore formats the fifty lines on screen, not its 3,000 (a ``QSyntaxHighlighter`` pass
over every line took a sixth of the time to open such a record). An edit reformats just
the lines it touches and repaints just those lines: ``QSyntaxHighlighter.rehighlightBlock``
marks the block *and the next one* dirty, which Qt's plain-text layout answers by
repainting the whole view. Thousands of ``ExtraSelection`` objects are avoided on purpose.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right, insort
from itertools import pairwise

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QFont, QTextBlock, QTextCharFormat, QTextLayout
from PySide6.QtWidgets import QPlainTextEdit

from annotator.core.annotation import Annotation
from annotator.core.document import Document
from annotator.core.schema import Schema
from annotator.gui.offsets import OffsetMap
from annotator.gui.theme import highlight_colour

Entry = tuple[int, int, QTextCharFormat]


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


class AnnotationHighlighter(QObject):
    """Paints each annotation with its type's colour; pending ones paler and dash-underlined.

    Parameters
    ----------
    view:
        The text view whose lines are painted (the note view, or a version's column).
    schema:
        Gives each type's colour.
    dark:
        Whether the page is dark (colours are blended into the page colour).
    """

    def __init__(self, view: QPlainTextEdit, schema: Schema, dark: bool = False) -> None:
        super().__init__(view)
        self.view = view
        self.schema = schema
        self.dark = dark
        self.note: Document | None = None
        self.offsets = OffsetMap("")
        self.index = SpanIndex()
        self.current_id: str | None = None
        self._formats: dict[tuple[str, bool, bool], QTextCharFormat] = {}
        # Inline type labels: the last character of each tag gets extra letter spacing, a gap
        # the note view paints the type's name into (offsets stay those of the text).
        self.label_gaps: dict[str, int] = {}
        self._tails: dict[tuple[str, bool, bool], QTextCharFormat] = {}
        # Code-point offset where each line (QTextBlock) starts; the lines formatted so far.
        self._line_starts: list[int] = [0]
        self._formatted: set[int] = set()
        # How many lines an edit reformatted: lets tests check that it touches only its lines.
        self.blocks_highlighted = 0
        view.viewport().installEventFilter(self)

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
        self._line_starts = line_starts(document.text if document is not None else "")
        self._formatted.clear()
        if document is not None:
            document.annotation_added.connect(self._on_document_annotation_added)
            document.annotation_removed.connect(self._on_document_annotation_removed)
            document.annotation_replaced.connect(self._on_document_annotation_replaced)

    def set_labels(self, gaps: dict[str, int]) -> None:
        """Leave a gap of ``gaps[type]`` pixels after each tag (``{}``: no labels)."""
        self.label_gaps = gaps
        self.set_dark(self.dark)

    def set_schema(self, schema: Schema) -> None:
        """New type colours (the user changed them)."""
        self.schema = schema
        self.set_dark(self.dark)

    def set_dark(self, dark: bool) -> None:
        """New page colours: every line is formatted again when it is next shown."""
        self.dark = dark
        self._formats.clear()
        self._tails.clear()
        self._formatted.clear()
        self.format_visible()
        self.view.viewport().update()

    def set_current(self, annotation_id: str | None) -> None:
        """Mark the annotation the annotator is working on (drawn stronger)."""
        if annotation_id == self.current_id:
            return
        previous = self.current_id
        self.current_id = annotation_id
        for ident in (previous, annotation_id):
            found = self.note.find(ident) if ident is not None and self.note is not None else None
            if found is not None:
                self.rehighlight_range(found.start, found.end)

    # -- formats, line by line --------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.format_visible()
        return False

    def format_visible(self) -> None:
        """Format the lines on screen that have not been yet (before they are painted)."""
        block = self.view.firstVisibleBlock()
        if not block.isValid():
            return
        # Without laying lines out (they are laid out once, with their formats): as many lines
        # as the view's height holds at one line each, a few more for safety.
        count = self.view.viewport().height() // max(self.view.fontMetrics().lineSpacing(), 1) + 3
        formatted = self._formatted
        while block.isValid() and count > 0:
            line = block.blockNumber()
            if line not in formatted:
                entries = self._line_entries(line)
                if entries:
                    block.layout().setFormats(_flat_ranges(entries))
                formatted.add(line)
            block = block.next()
            count -= 1

    def _lines_of(self, start: int, end: int) -> range:
        first = bisect_right(self._line_starts, start) - 1
        last = bisect_right(self._line_starts, max(start, end - 1)) - 1
        return range(max(first, 0), max(last, 0) + 1)

    def _line_entries(self, line: int) -> list[Entry]:
        """The line's format ranges (UTF-16, from its start), longest tag first: inner tags win."""
        starts = self._line_starts
        line_start = starts[line]
        line_end = starts[line + 1] - 1 if line + 1 < len(starts) else 1 << 62
        to_qt = self.offsets.to_qt
        base = to_qt(line_start)
        current, gaps = self.current_id, self.label_gaps
        entries: list[Entry] = []
        for annotation in self.index.overlapping(line_start, line_end):  # longest first
            s, e = max(annotation.start, line_start), min(annotation.end, line_end)
            if e <= s:
                continue
            key = (annotation.type, annotation.pending, annotation.id == current)
            entries.append(
                (to_qt(s) - base, to_qt(e) - to_qt(s), self._formats.get(key) or self._format(*key))
            )
            if gaps and e == annotation.end:
                entries.append((to_qt(e - 1) - base, to_qt(e) - to_qt(e - 1), self._tail(*key)))
        return entries

    def rehighlight_range(self, start: int, end: int) -> None:
        """Format again, and repaint, only the lines covering ``[start, end)`` (code points)."""
        text_document = self.view.document()
        changed: list[tuple[QTextBlock, float]] = []
        for line in self._lines_of(start, end):
            block = text_document.findBlockByNumber(line)
            if not block.isValid():
                continue
            layout = block.layout()
            height = layout.boundingRect().height() if layout.lineCount() else -1.0
            layout.setFormats(_flat_ranges(self._line_entries(line)))
            self._formatted.add(line)
            self.blocks_highlighted += 1
            changed.append((block, height))
        self._repaint(changed)

    def _repaint(self, changed: list[tuple[QTextBlock, float]]) -> None:
        """Repaint the lines an edit recoloured; everything when one of them wraps differently."""
        view = self.view
        offset = view.contentOffset()
        viewport = view.viewport()
        rects = []
        for block, height in changed:
            if height < 0:
                continue  # never laid out, so never shown yet: laid out when it comes into view
            geometry = view.blockBoundingGeometry(block)  # lays the block out again
            if geometry.height() != height:
                viewport.update()
                return
            rects.append(geometry.translated(offset).toAlignedRect())
        for rect in rects:
            viewport.update(rect.adjusted(0, -1, 0, 1))

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

    def _tail(self, type_name: str, pending: bool, current: bool) -> QTextCharFormat:
        """The format of a tag's last character when labels are shown: widened by the label's gap."""
        key = (type_name, pending, current)
        fmt = self._tails.get(key)
        if fmt is None:
            fmt = QTextCharFormat(self._formats.get(key) or self._format(*key))
            fmt.setFontLetterSpacingType(QFont.SpacingType.AbsoluteSpacing)
            fmt.setFontLetterSpacing(self.label_gaps.get(type_name, 0))
            self._tails[key] = fmt
        return fmt

    def labels_in(self, start: int, end: int) -> list[Annotation]:
        """The tags whose label is drawn in ``[start, end)``: one per end offset, the innermost."""
        by_end: dict[int, Annotation] = {}
        for annotation in self.index.overlapping(start, end):  # longest first
            if start < annotation.end <= end:
                by_end[annotation.end] = annotation
        return list(by_end.values())


def _flat_ranges(entries: list[Entry]) -> list[QTextLayout.FormatRange]:
    """A line's format ranges made disjoint, a later range winning where they overlap (as
    successive ``setFormat`` calls do in a syntax highlighter), for ``QTextLayout.setFormats``.

    A sweep over the range ends with a heap of the ranges open at each point: O(k log k).
    """
    points = sorted({p for start, length, _ in entries for p in (start, start + length)})
    by_start: dict[int, list[int]] = {}
    for number, (start, _length, _fmt) in enumerate(entries):
        by_start.setdefault(start, []).append(number)
    open_ranges: list[int] = []  # negated entry numbers: the latest entry on top
    flat: list[QTextLayout.FormatRange] = []
    for left, right in pairwise(points):
        for number in by_start.get(left, ()):
            heapq.heappush(open_ranges, -number)
        while open_ranges and entries[-open_ranges[0]][0] + entries[-open_ranges[0]][1] <= left:
            heapq.heappop(open_ranges)
        if not open_ranges:
            continue
        chosen = entries[-open_ranges[0]][2]
        if flat and flat[-1].format == chosen and flat[-1].start + flat[-1].length == left:
            flat[-1].length += right - left
            continue
        piece = QTextLayout.FormatRange()
        piece.start, piece.length, piece.format = left, right - left, chosen
        flat.append(piece)
    return flat


def line_starts(text: str) -> list[int]:
    """Code-point offsets where each line of the text starts (QTextDocument's blocks).

    Qt also starts a block at U+2029 (paragraph separator); it is counted like a line feed.
    """
    starts = [0]
    find = text.find
    for separator in ("\n", "\u2029"):
        position = find(separator)
        while position >= 0:
            starts.append(position + 1)
            position = find(separator, position + 1)
    if len(starts) > 1 and "\u2029" in text:
        starts.sort()
    return starts
