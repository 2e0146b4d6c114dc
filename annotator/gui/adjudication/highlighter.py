"""Colouring every adjudication unit of a note through one span index.

A :class:`QSyntaxHighlighter` asks for one text block (paragraph) at a time; the unit spans,
sorted and disjoint, are found with a binary search, so a note with thousands of units costs
what its visible paragraphs cost, instead of thousands of ExtraSelections repainted together.
"""

from __future__ import annotations

from bisect import bisect_right
from enum import StrEnum

from PySide6.QtGui import QColor, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from annotator.adjudication.decisions import AdjudicationSession
from annotator.adjudication.units import CONFLICT_KINDS, Unit, UnitKind
from annotator.gui.offsets import OffsetMap


class UnitState(StrEnum):
    AGREED = "agreed"
    CONFLICT = "conflict"
    SINGLE = "single"
    CANDIDATE = "candidate"
    DECIDED_PHI = "decided PHI"
    DECIDED_NOT_PHI = "decided not PHI"


# Okabe-Ito-derived tints: distinguishable with the common colour-vision deficiencies.
# A unit decided to be PHI is violet (it will be in the gold standard); one decided not to
# be PHI is grey and struck through (it will not).
STATE_COLOURS = {
    UnitState.AGREED: "#bfe8d6",
    UnitState.CONFLICT: "#f6b8a8",
    UnitState.SINGLE: "#f7e08a",
    UnitState.CANDIDATE: "#b9dcf5",
    UnitState.DECIDED_PHI: "#d7c4ec",
    UnitState.DECIDED_NOT_PHI: "#dcdcdc",
}
STATE_LABELS = {
    UnitState.AGREED: "agreed",
    UnitState.CONFLICT: "conflict",
    UnitState.SINGLE: "only some",
    UnitState.CANDIDATE: "missed?",
    UnitState.DECIDED_PHI: "decided: PHI",
    UnitState.DECIDED_NOT_PHI: "decided: not PHI",
}


def unit_state(session: AdjudicationSession, unit: Unit) -> UnitState:
    """The colour class of a unit: auto-accepted agreements stay green; a decided unit is
    violet when it put PHI into the gold standard, grey when it decided there is none."""
    resolution = session.resolutions.get(unit.id)
    if resolution is not None:
        if resolution.decision.auto:
            return UnitState.AGREED
        return UnitState.DECIDED_PHI if resolution.gold_ids else UnitState.DECIDED_NOT_PHI
    if unit.kind is UnitKind.MISSED_CANDIDATE:
        return UnitState.CANDIDATE
    if unit.kind in CONFLICT_KINDS:
        return UnitState.CONFLICT
    if unit.kind is UnitKind.PARTIAL:
        return UnitState.SINGLE
    return UnitState.AGREED


class UnitHighlighter(QSyntaxHighlighter):
    """Highlights the units of one session in a QTextDocument holding its note."""

    def __init__(self, document: QTextDocument, session: AdjudicationSession) -> None:
        super().__init__(document)
        self._session = session
        self._offsets = OffsetMap(session.alignment.text)
        self._formats = {state: self._format(state) for state in UnitState}
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._units: list[Unit] = []
        self.rebuild(rehighlight=False)

    @staticmethod
    def _format(state: UnitState) -> QTextCharFormat:
        text_format = QTextCharFormat()
        text_format.setBackground(QColor(STATE_COLOURS[state]))
        text_format.setForeground(QColor("#1a1a1a"))
        if state in (UnitState.CONFLICT, UnitState.SINGLE, UnitState.CANDIDATE):
            text_format.setFontUnderline(True)
        if state is UnitState.DECIDED_NOT_PHI:
            text_format.setFontStrikeOut(True)
        return text_format

    def rebuild(self, rehighlight: bool = True) -> None:
        """Re-read the units (after candidates were added)."""
        self._units = list(self._session.units)
        self._starts = [self._offsets.to_qt(u.start) for u in self._units]
        self._ends = [self._offsets.to_qt(u.end) for u in self._units]
        if rehighlight:
            self.rehighlight()

    def refresh_unit(self, unit: Unit) -> None:
        """Repaint the paragraphs of one unit (its state changed)."""
        document = self.document()
        start = document.findBlock(self._offsets.to_qt(unit.start))
        end = document.findBlock(max(self._offsets.to_qt(unit.end) - 1, 0))
        block = start
        while block.isValid():
            self.rehighlightBlock(block)
            if block == end:
                break
            block = block.next()

    def highlightBlock(self, text: str) -> None:
        block = self.currentBlock()
        position = block.position()
        length = block.length()
        # Units are disjoint and sorted, so ends are sorted too: skip those ending before us.
        index = bisect_right(self._ends, position)
        while index < len(self._units) and self._starts[index] < position + length:
            unit = self._units[index]
            text_format = self._formats[unit_state(self._session, unit)]
            for span_start, span_end in self._painted_spans(index):
                start = max(span_start, position) - position
                end = min(span_end, position + length) - position
                if end > start:
                    self.setFormat(start, end - start, text_format)
            index += 1

    def _painted_spans(self, index: int) -> list[tuple[int, int]]:
        """Where a unit is painted: a unit decided as PHI shows what went into the gold
        ("Friday", not the "Friday." one version had); any other unit shows its whole span."""
        unit = self._units[index]
        resolution = self._session.resolutions.get(unit.id)
        gold = self._session.gold
        if resolution is not None and resolution.gold_ids:
            spans = [
                (self._offsets.to_qt(gold.get(i).start), self._offsets.to_qt(gold.get(i).end))
                for i in resolution.gold_ids
                if i in gold
            ]
            if spans:
                return spans
        return [(self._starts[index], self._ends[index])]
