"""A small report of what an action did: one sentence, a table of the details, what to do next.

Used where a status-bar line is not enough ("12 suggestions added, 3 skipped: already
rejected" and which types). Not modal: the annotator reads it while going on with the note.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


@dataclass
class ActionReport:
    """What to show: a title, the one-sentence summary, detail rows and a closing note."""

    title: str
    summary: str
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""


class ActionReportDialog(QDialog):
    """Shows an :class:`ActionReport` (closes with Close or Esc)."""

    def __init__(self, report: ActionReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report = report
        self.setWindowTitle(report.title)
        self.summary_label = QLabel(report.summary)
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(len(report.rows), len(report.headers))
        self.table.setHorizontalHeaderLabels(report.headers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, values in enumerate(report.rows):
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column > 0:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setVisible(bool(report.rows))
        self.note_label = QLabel(report.note)
        self.note_label.setWordWrap(True)
        self.note_label.setVisible(bool(report.note))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note_label)
        layout.addWidget(buttons)
        # As tall as its rows (up to a dozen; more scroll), so a short report is a short window.
        shown = min(len(report.rows), 12)
        self.table.setFixedHeight(
            self.table.horizontalHeader().sizeHint().height()
            + shown * self.table.verticalHeader().defaultSectionSize()
            + 2 * self.table.frameWidth()
        )
        self.resize(600, self.sizeHint().height())

    def row_texts(self) -> list[list[str]]:
        """The table as shown (for tests)."""
        rows = []
        for row in range(self.table.rowCount()):
            items = (self.table.item(row, column) for column in range(self.table.columnCount()))
            rows.append([item.text() if item is not None else "" for item in items])
        return rows


def show_report(report: ActionReport, parent: QWidget | None = None) -> ActionReportDialog:
    """Open the report beside the window (not modal) and return it."""
    dialog = ActionReportDialog(report, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
