"""A one-line label that elides its text to the space it gets and shows the whole in a tooltip.

Status fields and document ids must never be cut off silently ("Read-only: th"): when the
text does not fit, it ends in "…" and the tooltip holds all of it.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """A plain-text label that shrinks below its text's width, eliding the text.

    Parameters
    ----------
    text:
        The full text.
    minimum_chars:
        The narrowest it gets, in average characters.
    elide:
        Where the "…" goes (document ids keep their start, paths their end).
    """

    def __init__(
        self,
        text: str = "",
        minimum_chars: int = 6,
        elide: Qt.TextElideMode = Qt.TextElideMode.ElideRight,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._full = ""
        self._minimum_chars = minimum_chars
        self._elide = elide
        self._own_tooltip = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        if text == self._full and text:
            return  # the status fields are refreshed after every edit, mostly unchanged
        same_width = bool(self._full) and (
            self.fontMetrics().horizontalAdvance(text) == self.fontMetrics().horizontalAdvance(self._full)
        )
        self._full = text
        self._update_tooltip()
        if same_width:
            # The label paints its own text: a count that changed ("5051" for "5050") needs no
            # new layout of the status bar, whose every field QLabel.setText would repaint.
            self.update()
            return
        super().setText(text)
        self.updateGeometry()

    def text(self) -> str:
        return self._full

    def full_text(self) -> str:
        return self._full

    def set_tooltip_text(self, text: str) -> None:
        """A tooltip of its own (shown above the full text when the text is elided)."""
        self._own_tooltip = text
        self._update_tooltip()

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self._full) > self.contentsRect().width()

    def _update_tooltip(self) -> None:
        parts = [p for p in (self._own_tooltip, self._full if self.is_elided() else "") if p]
        self.setToolTip("\n".join(parts))

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        margins = self.contentsMargins()
        width = self.fontMetrics().horizontalAdvance(self._full) + margins.left() + margins.right() + 2
        return QSize(width, hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        margins = self.contentsMargins()
        width = self.fontMetrics().averageCharWidth() * self._minimum_chars + margins.left() + margins.right()
        return QSize(min(width, self.sizeHint().width()), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_tooltip()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self._full, self._elide, rect.width())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment()) | int(Qt.AlignmentFlag.AlignVCenter), shown)
