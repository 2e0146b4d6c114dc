"""Incremental highlighting of annotations in the note view.

A :class:`QSyntaxHighlighter` asks for one text block (line) at a time; :class:`SpanIndex`
answers "which annotations touch this block" with a bisect over sorted start offsets, so a
block costs O(log n + hits). When an annotation is added, removed or replaced only the
blocks it covers are re-highlighted; thousands of ``ExtraSelection`` objects (rebuilt on
every edit) are avoided on purpose.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort

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
    """Paints each annotation with its type's colour; pending ones paler and dash-underlined.

    The format ranges of every line are computed in one pass when a document is set (a
    bisect per annotation over the line starts), so ``highlightBlock`` only looks its line
    up; an edit recomputes and repaints just the lines it touches.

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
        # Inline type labels: the last character of each tag gets extra letter spacing, a gap
        # the note view paints the type's name into (offsets stay those of the text).
        self.label_gaps: dict[str, int] = {}
        self._tails: dict[tuple[str, bool, bool], QTextCharFormat] = {}
        # Code-point offset where each line (QTextBlock) starts, and its format ranges.
        self._line_starts: list[int] = [0]
        self._ranges: dict[int, list[tuple[int, int, QTextCharFormat]]] = {}
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
        annotations = document.annotations if document is not None else []
        self.index = SpanIndex(annotations)
        text = document.text if document is not None else ""
        self._line_starts = line_starts(text)
        self._build_ranges(annotations)
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
        self.dark = dark
        self._formats.clear()
        self._tails.clear()
        self._build_ranges(self.note.annotations if self.note is not None else [])
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

    # -- format ranges per line ----------------------------------------------------------------------
    def _lines_of(self, start: int, end: int) -> range:
        first = bisect_right(self._line_starts, start) - 1
        last = bisect_right(self._line_starts, max(start, end - 1)) - 1
        return range(max(first, 0), max(last, 0) + 1)

    def _build_ranges(self, annotations: list[Annotation]) -> None:
        ranges: dict[int, list[tuple[int, int, QTextCharFormat]]] = {}
        starts = self._line_starts
        n_lines = len(starts)
        to_qt = self.offsets.to_qt
        identity = self.offsets.identity
        current = self.current_id
        formats = self._formats
        gaps = self.label_gaps
        ordered = sorted(annotations, key=lambda a: a.start - a.end)  # longest first: inner tags win
        for annotation in ordered:
            key = (annotation.type, annotation.pending, annotation.id == current)
            fmt = formats.get(key) or self._format(*key)
            a_start, a_end = annotation.start, annotation.end
            line = bisect_right(starts, a_start) - 1
            line_start = starts[line]
            next_start = starts[line + 1] if line + 1 < n_lines else a_end + 1
            if a_end < next_start and identity:
                # The usual case: the annotation sits on one line.
                entry = (a_start - line_start, a_end - a_start, fmt)
                found = ranges.get(line)
                if found is None:
                    ranges[line] = found = [entry]
                else:
                    found.append(entry)
                if gaps and a_end > a_start:
                    found.append((a_end - 1 - line_start, 1, self._tail(*key)))
                continue
            for line in self._lines_of(a_start, a_end):
                line_start = starts[line]
                line_end = starts[line + 1] - 1 if line + 1 < n_lines else a_end
                s, e = max(a_start, line_start), min(a_end, line_end)
                if e <= s:
                    continue
                base = to_qt(line_start)
                entries = ranges.setdefault(line, [])
                entries.append((to_qt(s) - base, to_qt(e) - to_qt(s), fmt))
                if gaps and e == a_end:
                    entries.append((to_qt(e - 1) - base, to_qt(e) - to_qt(e - 1), self._tail(*key)))
        self._ranges = ranges

    def _rebuild_lines(self, lines: range) -> None:
        if not lines:
            return
        first, last = lines[0], lines[-1]
        start = self._line_starts[first]
        end = self._line_starts[last + 1] if last + 1 < len(self._line_starts) else start + 1 + 10**9
        touching = self.index.overlapping(start, end)
        for line in lines:
            self._ranges.pop(line, None)
        saved = self._ranges
        self._ranges = {}
        self._build_ranges(touching)
        rebuilt = {line: r for line, r in self._ranges.items() if first <= line <= last}
        self._ranges = saved
        self._ranges.update(rebuilt)

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
        """Recompute and repaint only the lines covering ``[start, end)`` (code points)."""
        lines = self._lines_of(start, end)
        self._rebuild_lines(lines)
        text_document = self.document()
        if text_document is None:
            return
        for line in lines:
            block = text_document.findBlockByNumber(line)
            if block.isValid():
                self.rehighlightBlock(block)

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

    def highlightBlock(self, text: str) -> None:
        self.blocks_highlighted += 1
        ranges = self._ranges.get(self.currentBlock().blockNumber())
        if ranges:
            set_format = self.setFormat
            for start, length, fmt in ranges:
                set_format(start, length, fmt)


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
