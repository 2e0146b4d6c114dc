"""The document list: records grouped by patient, with status, counts and working time.

Signals
-------
document_chosen(str)    a document was activated (the doc id)
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from annotator.errors import printable_path
from annotator.session.workspace import Workspace

STATUS_MARK = {"not started": "○", "in progress": "◐", "done": "●"}
# The document list's filter: what each choice shows (None: every document).
FILTERS: dict[str, frozenset[str] | None] = {
    "All documents": None,
    "Not done": frozenset({"not started", "in progress"}),
    "Not started": frozenset({"not started"}),
    "In progress": frozenset({"in progress"}),
    "Done": frozenset({"done"}),
}
STATUS_COLOUR = {"not started": "#8a8a8a", "in progress": "#d08700", "done": "#1a8f3c"}


def format_seconds(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60}:{minutes % 60:02d}" if seconds >= 60 else ("" if seconds <= 0 else "<1 min")


class DocumentList(QTreeWidget):
    """Patients as top-level items, their records below (in record order)."""

    document_chosen = Signal(str)
    # The documents of each status changed (the progress line above the list follows).
    progress_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(4)
        self.setHeaderLabels(["Document", "Status", "Tags", "Time"])
        self.setRootIsDecorated(True)
        self.setIndentation(12)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self._items: dict[str, QTreeWidgetItem] = {}
        self.statuses: dict[str, str] = {}
        # The statuses shown (None: all); the open record is always shown.
        self.shown_statuses: frozenset[str] | None = None
        self._populating = False
        # The record shown in bold (the open one): set_current unbolds it alone.
        self._bold: QTreeWidgetItem | None = None
        self.itemActivated.connect(self._on_self_item_activated)
        self.itemClicked.connect(self._on_self_item_activated)

    def populate(self, workspace: Workspace, statuses: dict[str, str], seconds: dict[str, float]) -> None:
        self.clear()
        self._items.clear()
        self.statuses.clear()
        self._bold = None
        self._populating = True
        # Every patient is built with its records first, then all are added, spanned and
        # expanded at once: a patient added, spanned and expanded one by one laid the whole
        # tree out again each time (quadratic: 8.5 s for 571 patients and 2,032 records).
        parents: list[QTreeWidgetItem] = []
        for patient, entries in workspace.patients().items():
            # Ids come from file names: shown escaped, as the CLI prints them.
            parent = QTreeWidgetItem([f"Patient {printable_path(patient)}", "", "", ""])
            parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = parent.font(0)
            font.setBold(True)
            parent.setFont(0, font)
            parents.append(parent)
            for entry in entries:
                item = QTreeWidgetItem(parent, [printable_path(entry.doc_id), "", "", ""])
                item.setData(0, Qt.ItemDataRole.UserRole, entry.doc_id)
                # A narrow column elides long ids ("1…"); the tooltip keeps them readable.
                item.setToolTip(0, entry.doc_id)
                item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight)
                item.setTextAlignment(3, Qt.AlignmentFlag.AlignRight)
                self._items[entry.doc_id] = item
                annotations, pending = workspace.counts(entry.doc_id)
                self.update_entry(
                    entry.doc_id,
                    statuses.get(entry.doc_id, "not started"),
                    annotations,
                    pending,
                    seconds.get(entry.doc_id, 0.0),
                )
        self.addTopLevelItems(parents)
        for parent in parents:
            parent.setFirstColumnSpanned(True)
        self.expandAll()
        self._populating = False
        self._apply_filter()
        self.progress_changed.emit()

    # -- what the list shows ---------------------------------------------------------------------
    def set_filter(self, statuses: frozenset[str] | None) -> None:
        """Show only the records of these statuses (None: all), and the open one."""
        self.shown_statuses = statuses
        self._apply_filter()

    def _apply_filter(self) -> None:
        shown = self.shown_statuses
        for index in range(self.topLevelItemCount()):
            parent = self.topLevelItem(index)
            if parent is None:
                continue
            visible = 0
            for row in range(parent.childCount()):
                item = parent.child(row)
                if item is None:
                    continue
                hide = self._hidden(item)
                if item.isHidden() != hide:
                    item.setHidden(hide)
                visible += not hide
            if parent.isHidden() != (visible == 0 and shown is not None):
                parent.setHidden(visible == 0 and shown is not None)

    def _hidden(self, item: QTreeWidgetItem) -> bool:
        if self.shown_statuses is None or item is self._bold:
            return False
        doc_id = str(item.data(0, Qt.ItemDataRole.UserRole))
        return self.statuses.get(doc_id, "not started") not in self.shown_statuses

    def shown_ids(self) -> list[str]:
        """The records the list shows, in its order (every record without a filter)."""
        return [doc_id for doc_id, item in self._items.items() if not self._hidden(item)]

    def progress(self) -> dict[str, int]:
        """How many records have each status."""
        counts = dict.fromkeys(STATUS_MARK, 0)
        for status in self.statuses.values():
            counts[status] = counts.get(status, 0) + 1
        return counts

    def next_unfinished(self, doc_id: str | None, direction: int = 1) -> str | None:
        """The next record not done after ``doc_id`` in list order (going round), or None."""
        ids = list(self._items)
        if not ids:
            return None
        here = ids.index(doc_id) if doc_id in self._items else (-1 if direction > 0 else 0)
        for step in range(1, len(ids) + 1):
            candidate = ids[(here + direction * step) % len(ids)]
            if candidate != doc_id and self.statuses.get(candidate) != "done":
                return candidate
        return None

    def update_entry(self, doc_id: str, status: str, annotations: int, pending: int, seconds: float) -> None:
        item = self._items.get(doc_id)
        if item is None:
            return
        if self.statuses.get(doc_id) != status:
            self.statuses[doc_id] = status
            if self._populating:
                pass  # filtered and counted once, at the end
            elif self.shown_statuses is not None:
                self._apply_filter()
            if not self._populating:
                self.progress_changed.emit()
        # Only what changed is set: each change repaints the list (after every edit otherwise).
        shown = f"{STATUS_MARK.get(status, '?')} {status}"
        if item.text(1) != shown:

            def set_status() -> None:
                item.setText(1, shown)
                item.setToolTip(1, status)
                item.setForeground(1, QBrush(QColor(STATUS_COLOUR.get(status, "#8a8a8a"))))

            self._change_cell(item, 1, set_status)
        counts = f"{annotations}" + (f" ({pending}?)" if pending else "")
        if item.text(2) != counts:

            def set_counts() -> None:
                item.setText(2, counts)
                item.setToolTip(2, f"{annotations} annotations, {pending} pre-annotations to review")

            self._change_cell(item, 2, set_counts)
        time_text = format_seconds(seconds)
        if item.text(3) != time_text:
            self._change_cell(item, 3, lambda: item.setText(3, time_text))

    def mark_waiting_recovery(self, doc_id: str) -> None:
        """Show that a record holds edits of an earlier session to recover (until it is opened)."""
        item = self._items.get(doc_id)
        if item is not None:
            item.setText(0, f"{printable_path(doc_id)} ⚠")
            item.setToolTip(0, f"{doc_id}: unsaved edits of an earlier session; open it to recover them")

    def _change_cell(self, item: QTreeWidgetItem, column: int, change: Callable[[], None]) -> None:
        """Change one cell, and fit its column to the contents again only when it can change.

        Columns 1-3 fit their contents: told of a changed cell, the header measured the cell
        of every row (up to 1,000) again, 6-9 ms for a 2,000-record project, after every
        edit (the count changes). The column's width is the widest cell's: only a cell that
        grows past it, or the widest cell getting narrower, can change it; any other cell is
        just repainted.
        """
        index = self.indexFromItem(item, column)
        before = self.sizeHintForIndex(index).width()
        model = self.model()
        was_blocked = model.blockSignals(True)
        try:
            change()
        finally:
            model.blockSignals(was_blocked)
        width = self.header().sectionSize(column)
        after = self.sizeHintForIndex(index).width()
        if after > width or (after < before and before >= width):
            model.dataChanged.emit(index, index)  # what the change said before: the column fits again
        else:
            self.viewport().update(self.visualRect(index))

    def set_current(self, doc_id: str) -> None:
        item = self._items.get(doc_id)
        if item is None:
            return
        if item.text(0) != printable_path(doc_id):  # opened: its waiting edits were offered
            item.setText(0, printable_path(doc_id))
            item.setToolTip(0, doc_id)
        # Only one record is ever bold: unbolding it alone spares a look at every record.
        other = self._bold
        if other is not None and other is not item:
            font = other.font(0)
            if font.bold():
                font.setBold(False)
                self._change_cell(other, 0, lambda: other.setFont(0, font))
        self._bold = item
        if self.shown_statuses is not None:
            self._apply_filter()  # the open record shows whatever its status; the one left may not
        font = QFont(item.font(0))
        font.setBold(True)
        self._change_cell(item, 0, lambda: item.setFont(0, font))
        self.setCurrentItem(item)
        self.scrollToItem(item)

    def _on_self_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        doc_id = item.data(0, Qt.ItemDataRole.UserRole)
        if doc_id:
            self.document_chosen.emit(str(doc_id))
