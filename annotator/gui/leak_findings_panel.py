"""The leak-check findings of a refused export, each one something the user can act on.

The table lists document, offsets in the gold note, type and rule (never the text). "Show"
selects the finding in the dialog's before/after preview; "Tag it" asks for the span to be
tagged in the gold with the finding's type (the export dialog does it, in the files the
export reads); "Undo tag" takes the last one back; "Not PHI here" records an allow entry
(document, patient or whole corpus) in the project's allow file, which the export reads.

Signals
-------
finding_shown(object): the :class:`~annotator.deid.findings.Leak` to show.
tag_requested(object): the finding to tag in the gold.
undo_requested(): take the last tag back.
not_phi_marked(object): the :class:`~annotator.deid.allowlist.AllowEntry` just written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from annotator.core.document import Document
from annotator.deid.allowlist import AllowEntry, add_allow_entry
from annotator.deid.findings import Leak
from annotator.errors import AnnotatorError

_COLUMNS = ("Document", "Start", "End", "Type", "Rule")
_Index = QModelIndex | QPersistentModelIndex


class LeakTableModel(QAbstractTableModel):
    """A thin table over a list of findings (the list is the panel's; no copy is kept)."""

    def __init__(self, leaks: list[Leak], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.leaks = leaks

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.leaks)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(_COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:  # Qt override
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        leak = self.leaks[index.row()]
        values = (leak.doc_id, leak.original_start, leak.original_end, leak.type, leak.rule)
        return values[index.column()]

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:  # Qt override
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return _COLUMNS[section]
        return None

    def reset(self, leaks: list[Leak]) -> None:
        self.beginResetModel()
        self.leaks = leaks
        self.endResetModel()

    def remove(self, rows: list[int]) -> None:
        for row in sorted(rows, reverse=True):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self.leaks[row]
            self.endRemoveRows()


class LeakFindingsPanel(QWidget):
    """The findings of a refused export, with "Show", "Tag it", "Undo tag" and "Not PHI here".

    Parameters
    ----------
    allow_path:
        The allow file "Not PHI here" writes to (created private if missing).
    gold:
        Returns the gold documents, to read the finding's string for the allow entry.
    """

    finding_shown = Signal(object)
    tag_requested = Signal(object)
    undo_requested = Signal()
    not_phi_marked = Signal(object)

    def __init__(
        self, allow_path: Path, gold: Callable[[], list[Document]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.allow_path = allow_path
        self._gold = gold
        self.model = LeakTableModel([], self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.open_button = QPushButton("Show")
        self.open_button.setToolTip("Select the finding in the before and after preview")
        self.tag_button = QPushButton("Tag it")
        self.tag_button.setToolTip("Tag this place in the gold with the finding's type, then check again")
        self.undo_button = QPushButton("Undo tag")
        self.undo_button.setEnabled(False)
        self.scope_combo = QComboBox()
        self.scope_combo.addItem("in this document", "document")
        self.scope_combo.addItem("in this patient's notes", "patient")
        self.scope_combo.addItem("anywhere in the corpus", "corpus")
        self.not_phi_button = QPushButton("Not PHI here")
        self.actions_row = QWidget()
        buttons = QHBoxLayout(self.actions_row)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.tag_button)
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        buttons.addWidget(self.not_phi_button)
        buttons.addWidget(self.scope_combo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.table)
        layout.addWidget(self.actions_row)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.table.doubleClicked.connect(self._on_open_button_clicked)
        self.tag_button.clicked.connect(self._on_tag_button_clicked)
        self.undo_button.clicked.connect(self.undo_requested)
        self.not_phi_button.clicked.connect(self._on_not_phi_button_clicked)
        self.checking = False
        self.show_findings([])

    def show_findings(self, leaks: list[Leak], summary: str = "") -> None:
        """List the findings (the panel shows while there are any, or a summary to give)."""
        self.model.reset(list(leaks))
        self.checking = False
        self._update(summary)
        if leaks:
            self.table.selectRow(0)

    def set_checking(self, checking: bool, summary: str = "") -> None:
        """While the export checks again no finding can be acted on (the list is about to change)."""
        self.checking = checking
        self._update(summary)

    def current_row(self) -> int:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def _update(self, summary: str = "") -> None:
        count = self.model.rowCount()
        if not summary and count:
            summary = (
                f"{count} finding(s) left: tag each one in the gold (Tag it) or mark it not PHI; "
                "the export checks again after each."
            )
        self.summary_label.setText(summary)
        ready = count > 0 and not self.checking
        self.open_button.setEnabled(count > 0)
        self.tag_button.setEnabled(ready)
        self.not_phi_button.setEnabled(ready)
        # Without findings the panel is just its sentence (a finished export's review list);
        # the buttons stay while a tag can still be taken back.
        self.table.setVisible(count > 0)
        self.actions_row.setVisible(count > 0 or self.undo_button.isEnabled())
        self.setVisible(count > 0 or bool(summary))

    def set_undo_available(self, available: bool) -> None:
        self.undo_button.setEnabled(available)
        self._update(self.summary_label.text() if not self.model.rowCount() else "")

    def current_leak(self) -> Leak | None:
        row = self.current_row()
        return self.model.leaks[row] if row >= 0 else None

    def _on_open_button_clicked(self) -> None:
        leak = self.current_leak()
        if leak is not None:
            self.finding_shown.emit(leak)

    def _on_tag_button_clicked(self) -> None:
        leak = self.current_leak()
        if leak is not None and not self.checking:
            self.tag_requested.emit(leak)

    def _on_not_phi_button_clicked(self) -> None:
        row = self.current_row()
        if row < 0:
            return
        leak = self.model.leaks[row]
        document = next((d for d in self._gold() if d.doc_id == leak.doc_id), None)
        if document is None:
            return
        text = document.text[leak.original_start : leak.original_end]
        scope = str(self.scope_combo.currentData())
        where = {"document": leak.doc_id, "patient": document.patient_id, "corpus": ""}[scope]
        entry = AllowEntry(text, scope, where, reason=f"reviewed in the export dialog ({leak.rule})")
        try:
            add_allow_entry(self.allow_path, entry)
        except AnnotatorError as error:
            self.summary_label.setText(error.one_line())
            return
        # Every finding this decision covers goes from the list: the next export passes them.
        covered = [
            n
            for n, other in enumerate(self.model.leaks)
            if (gold := next((d for d in self._gold() if d.doc_id == other.doc_id), None)) is not None
            and entry.covers(gold.text[other.original_start : other.original_end], other.doc_id)
        ]
        self.model.remove(covered)
        self._update()
        self.not_phi_marked.emit(entry)
