"""A window body that rearranges its panels with the window's width.

Wide (a laptop or desktop screen): side panel | note | stacked panels, side by side.
Narrow (half a screen, under :data:`NARROW_BELOW` pixels): the note on top at full width,
every other panel in tabs underneath, so the note never shrinks to a word per line.

The panels are the same widgets in both arrangements (they keep their state); only the
splitters and the tab widget around them are rebuilt.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

# Below this width the panels move into tabs under the note.
NARROW_BELOW = 1100
# The note must show at least this many characters per line in every arrangement.
MIN_NOTE_CHARS = 60


def note_min_width(font: QFont, widget: QWidget, chars: int = MIN_NOTE_CHARS) -> int:
    """Pixels a text view needs to show ``chars`` characters of ``font`` (plus its frame and scroll bar)."""

    metrics = QFontMetrics(font)
    scroll_bar = widget.style().pixelMetric(widget.style().PixelMetric.PM_ScrollBarExtent)
    return (
        metrics.horizontalAdvance("0" * chars)
        + scroll_bar
        + 2 * widget.style().pixelMetric(widget.style().PixelMetric.PM_DefaultFrameWidth)
        + 12
    )


class Panel(QWidget):
    """A titled box around a widget (the title is dropped when it sits in a tab)."""

    def __init__(self, title: str, widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.widget = widget
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        self.title_label = QLabel(f"<b>{title}</b>")
        layout.addWidget(self.title_label)
        layout.addWidget(widget, 1)

    def set_titled(self, titled: bool) -> None:
        self.title_label.setVisible(titled)


class AdaptiveBody(QWidget):
    """The body of a main window: ``left`` | ``centre`` | ``right`` panels, or tabs when narrow.

    Parameters
    ----------
    centre:
        The note (always visible, at least :data:`MIN_NOTE_CHARS` wide).
    left, right:
        The panels beside it when wide; tabs under it when narrow (left ones first).
    sizes:
        Wide arrangement's initial widths (left, centre, right) and the right column's heights.
    """

    def __init__(
        self,
        centre: QWidget,
        left: list[Panel],
        right: list[Panel],
        sizes: tuple[list[int], list[int]] = ([300, 700, 420], []),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.centre = centre
        self.left = left
        self.right = right
        self._sizes = sizes
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._arrangement: QWidget | None = None
        self.tabs: QTabWidget | None = None
        self.narrow: bool | None = None
        self.arrange(narrow=False)

    def arrange(self, narrow: bool) -> None:
        """Put the panels side by side (``narrow=False``) or in tabs under the note."""
        if narrow == self.narrow:
            return
        self.narrow = narrow
        old = self._arrangement
        if narrow:
            outer = QSplitter(Qt.Orientation.Vertical)
            outer.addWidget(self.centre)
            self.tabs = QTabWidget()
            self.tabs.setDocumentMode(True)
            for panel in self.left + self.right:
                panel.set_titled(False)
                self.tabs.addTab(panel, panel.title.split(" (")[0])
            # The tab with what the user works on most (the first right panel) in front.
            self.tabs.setCurrentIndex(len(self.left) if self.right else 0)
            outer.addWidget(self.tabs)
            outer.setStretchFactor(0, 3)
            outer.setStretchFactor(1, 2)
            outer.setCollapsible(0, False)
        else:
            outer = QSplitter(Qt.Orientation.Horizontal)
            for panel in self.left:
                panel.set_titled(True)
                outer.addWidget(panel)
            outer.addWidget(self.centre)
            column = QSplitter(Qt.Orientation.Vertical)
            for panel in self.right:
                panel.set_titled(True)
                column.addWidget(panel)
            if self._sizes[1]:
                column.setSizes(self._sizes[1])
            outer.addWidget(column)
            outer.setSizes(self._sizes[0])
            outer.setStretchFactor(len(self.left), 1)
            outer.setCollapsible(len(self.left), False)
            self.tabs = None
        self._layout.addWidget(outer)
        self._arrangement = outer
        if old is not None:
            old.hide()
            old.deleteLater()

    def wide_minimum(self) -> int:
        """The narrowest the side-by-side arrangement can be without squeezing any panel."""
        panels = [*self.left, self.centre, *self.right[:1]]
        return sum(p.minimumSizeHint().width() for p in panels) + 8 * len(panels)

    def resizeEvent(self, event: QResizeEvent) -> None:
        # Side by side from NARROW_BELOW up, unless the panels' own minimums need more (the
        # versions side by side in the adjudication window do): then tabs until they fit.
        self.arrange(narrow=event.size().width() < max(NARROW_BELOW, self.wide_minimum()))
        super().resizeEvent(event)
