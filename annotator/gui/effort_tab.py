"""The dashboard's "Pre-annotation effort" tab: the effort report's tables, as in the terminal.

It shows the dict of :func:`annotator.workflows.effort.effort_report` with the rows of
:mod:`annotator.evaluation.effort_report`, so the tab, ``annotator report effort`` and the HTML
page never disagree.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from annotator.evaluation.effort_report import effort_tables

# Only the tables' names and titles are read from it, before any report is computed.
EMPTY_REPORT: dict[str, Any] = {"annotators": [], "all_annotators": None}


class EffortTab(QWidget):
    """Time, suggestion fates per type, agreement by origin, with against without suggestions."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: dict[str, Any] | None = None
        self.note = QLabel("", self)
        self.note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        self.models: dict[str, QStandardItemModel] = {}
        for name, title, _headers, _rows in effort_tables(EMPTY_REPORT):
            model = QStandardItemModel(self)
            view = QTableView(self)
            view.setModel(model)
            view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            view.verticalHeader().setVisible(False)
            layout.addWidget(QLabel(f"<b>{title}</b>", self))
            layout.addWidget(view, 3 if name == "fates" else 1)
            self.models[name] = model

    def show_report(self, report: dict[str, Any]) -> None:
        self.report = report
        if not report["annotators"]:
            self.note.setText(
                "No edit histories yet: they are kept from the first edit made in the window "
                "(.annotator/history/)."
            )
        else:
            self.note.setText(
                f"From the edit histories kept in .annotator/history/ and the active time the window "
                f"counted; computed {report['generated']}. No note text is shown."
            )
        for name, _title, headers, rows in effort_tables(report):
            model = self.models[name]
            model.clear()
            model.setHorizontalHeaderLabels(headers)
            for row in rows:
                model.appendRow(_items(row))

    def cells(self, name: str) -> list[list[str]]:
        """The text of a table (for tests and screenshots)."""
        model = self.models[name]
        return [
            [model.item(r, c).text() for c in range(model.columnCount())] for r in range(model.rowCount())
        ]


def _items(values: list[str]) -> list[QStandardItem]:
    items = []
    for column, value in enumerate(values):
        item = QStandardItem(value)
        item.setEditable(False)
        if column > 0 and value[:1] in "0123456789-–":  # figures line up; names do not
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        items.append(item)
    return items
