"""A window body that rearranges its panels with the window's width.

Wide (a laptop or desktop screen): side panel | note | stacked panels, side by side.
Narrow (half a screen, under :data:`NARROW_BELOW` pixels): the note on top at full width,
every other panel in tabs underneath, so the note never shrinks to a word per line.

The panels are the same widgets in both arrangements (they keep their state); only the
splitters and the tab widget around them are rebuilt. A tab widget hides the pages that are
not in front, and a splitter keeps a hidden widget hidden, so every panel is shown again
when it moves back beside the note (otherwise it would leave a blank strip for good). The
splitter positions the user chose are kept per arrangement: narrowing and widening the
window brings each arrangement back as it was left; :meth:`AdaptiveBody.reset` forgets them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

# Below this width the panels move into tabs under the note.
NARROW_BELOW = 1100
# The note must show at least this many characters per line in every arrangement.
MIN_NOTE_CHARS = 60
# Keys of :meth:`AdaptiveBody.state`: one entry per arrangement.
WIDE, NARROW = "wide", "narrow"


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
        self._defaults = sizes
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._arrangement: QWidget | None = None
        self.splitters: list[QSplitter] = []
        self.tabs: QTabWidget | None = None
        self.narrow: bool | None = None
        # Splitter sizes the user chose, per arrangement (and the tab in front when narrow).
        self._chosen: dict[str, list[list[int]]] = {}
        self._front_tab = len(left) if right else 0
        self.arrange(narrow=False)

    @property
    def panels(self) -> list[Panel]:
        return [*self.left, *self.right]

    def arrange(self, narrow: bool, rebuild: bool = False) -> None:
        """Put the panels side by side (``narrow=False``) or in tabs under the note."""
        if narrow == self.narrow and not rebuild:
            return
        if self.tabs is not None:
            self._front_tab = self.tabs.currentIndex()
        self.narrow = narrow
        old = self._arrangement
        outer = self._build_narrow() if narrow else self._build_wide()
        self._layout.addWidget(outer)
        self._arrangement = outer
        self.centre.show()
        if not narrow:
            # Shown explicitly: a page that was behind another tab was hidden by the tab widget.
            for panel in self.panels:
                panel.show()
        for splitter in self.splitters:
            splitter.splitterMoved.connect(self._on_splitter_splitter_moved)
        if old is not None:
            old.hide()
            old.deleteLater()

    def _build_narrow(self) -> QSplitter:
        outer = QSplitter(Qt.Orientation.Vertical)
        outer.setChildrenCollapsible(False)
        outer.addWidget(self.centre)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for panel in self.panels:
            panel.set_titled(False)
            self.tabs.addTab(panel, panel.title.split(" (")[0])
        # The tab the user had in front (at first: what they work on most, the first right panel).
        self.tabs.setCurrentIndex(min(self._front_tab, self.tabs.count() - 1))
        outer.addWidget(self.tabs)
        outer.setStretchFactor(0, 3)
        outer.setStretchFactor(1, 2)
        self.splitters = [outer]
        chosen = self._chosen.get(NARROW)
        if chosen:
            outer.setSizes(chosen[0])
        return outer

    def _build_wide(self) -> QSplitter:
        outer = QSplitter(Qt.Orientation.Horizontal)
        outer.setChildrenCollapsible(False)
        for panel in self.left:
            panel.set_titled(True)
            outer.addWidget(panel)
        outer.addWidget(self.centre)
        column = QSplitter(Qt.Orientation.Vertical)
        column.setChildrenCollapsible(False)
        for panel in self.right:
            panel.set_titled(True)
            column.addWidget(panel)
        outer.addWidget(column)
        outer.setStretchFactor(len(self.left), 1)
        self.tabs = None
        self.splitters = [outer, column]
        chosen = self._chosen.get(WIDE) or [self._defaults[0], self._defaults[1]]
        for splitter, sizes in zip(self.splitters, chosen, strict=True):
            if sizes:
                splitter.setSizes(sizes)
        return outer

    def _on_splitter_splitter_moved(self, _position: int, _index: int) -> None:
        self._chosen[NARROW if self.narrow else WIDE] = [s.sizes() for s in self.splitters]

    # -- the user's layout ----------------------------------------------------------------------
    def state(self) -> dict[str, list[list[int]]]:
        """The splitter sizes the user chose, per arrangement (to remember between sessions)."""
        return {name: [list(s) for s in sizes] for name, sizes in self._chosen.items()}

    def restore(self, state: dict[str, list[list[int]]]) -> None:
        """Take splitter sizes saved by :meth:`state`; ones that do not fit these panels are ignored."""
        expected = {WIDE: [len(self.left) + 2, len(self.right)], NARROW: [2]}
        for name, counts in expected.items():
            sizes = state.get(name)
            if (
                isinstance(sizes, list)
                and [len(s) if isinstance(s, list) else -1 for s in sizes] == counts
                and all(isinstance(v, int) and v > 0 for s in sizes for v in s)
            ):
                self._chosen[name] = [list(s) for s in sizes]
        if self._chosen:
            self.arrange(bool(self.narrow), rebuild=True)

    def reset(self) -> None:
        """Forget the user's splitter positions and lay the panels out as at the start."""
        self._chosen.clear()
        self._front_tab = len(self.left) if self.right else 0
        self.tabs = None
        self.arrange(bool(self.narrow), rebuild=True)

    def wide_minimum(self) -> int:
        """The narrowest the side-by-side arrangement can be without squeezing any panel."""
        panels = [*self.left, self.centre, *self.right[:1]]
        return sum(p.minimumSizeHint().width() for p in panels) + 8 * len(panels)

    def fit_width(self, width: int) -> None:
        """Side by side from NARROW_BELOW up, unless the panels' own minimums need more (the
        versions side by side in the adjudication window do): then tabs until they fit."""
        self.arrange(narrow=width < max(NARROW_BELOW, self.wide_minimum()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.fit_width(event.size().width())
        super().resizeEvent(event)
