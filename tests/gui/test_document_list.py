"""The document list: patients spanned and expanded, counts in columns that fit their contents.

The list fills at once and changes one cell per edit without measuring every row again
(tests/benchmarks/bench_scale.py measures it on 2,000 records); what it shows must be what
it showed when each change measured every row.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidgetItem

from annotator.gui.document_list import DocumentList
from annotator.gui.main_window import MainWindow


def fitted_width(documents: DocumentList, column: int) -> int:
    """The width a column that fits its contents takes: its widest cell or its title."""
    header = documents.header()
    return max(
        documents.sizeHintForColumn(column), header.sectionSizeHint(column), header.minimumSectionSize()
    )


def patients(documents: DocumentList) -> list[QTreeWidgetItem]:
    items = [documents.topLevelItem(i) for i in range(documents.topLevelItemCount())]
    return [item for item in items if item is not None]


def records(patient: QTreeWidgetItem) -> list[str]:
    children = [patient.child(i) for i in range(patient.childCount())]
    return [child.text(0) for child in children if child is not None]


def widths(documents: DocumentList) -> list[int]:
    return [documents.header().sectionSize(column) for column in (1, 2, 3)]


def test_every_patient_is_spanned_expanded_and_in_order(window: MainWindow) -> None:
    documents = window.documents
    tops = patients(documents)
    assert [p.text(0) for p in tops] == ["Patient 200", "Patient 201"]
    for patient in tops:
        assert patient.isFirstColumnSpanned()
        assert patient.isExpanded()
        assert patient.font(0).bold()
    assert [records(p) for p in tops] == [["200-01", "200-02"], ["201-01"]]
    # Populating again (after a model job) gives the same tree, not a second copy.
    window.populate_documents()
    assert [records(p) for p in patients(documents)] == [["200-01", "200-02"], ["201-01"]]
    assert all(p.isExpanded() and p.isFirstColumnSpanned() for p in patients(documents))
