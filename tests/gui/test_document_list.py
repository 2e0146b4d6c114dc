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


def test_columns_fit_their_contents_as_cells_grow_and_shrink(window: MainWindow) -> None:
    documents = window.documents
    documents.update_entry("200-02", "not started", 3, 0, 0.0)
    assert widths(documents) == [fitted_width(documents, c) for c in (1, 2, 3)]
    # A cell wider than its column widens it; a status, count or time of every width.
    documents.update_entry("200-02", "in progress", 123456, 78901, 7 * 3600.0)
    item = documents._items["200-02"]
    assert (item.text(1), item.text(2), item.text(3)) == ("◐ in progress", "123456 (78901?)", "7:00")
    assert item.toolTip(2) == "123456 annotations, 78901 pre-annotations to review"
    assert item.toolTip(1) == "in progress"
    wide = widths(documents)
    assert wide == [fitted_width(documents, c) for c in (1, 2, 3)]
    # A narrower cell elsewhere leaves the columns as they are, and shows its new text.
    documents.update_entry("201-01", "done", 2, 1, 0.0)
    other = documents._items["201-01"]
    assert (other.text(1), other.text(2), other.text(3)) == ("● done", "2 (1?)", "")
    assert widths(documents) == wide == [fitted_width(documents, c) for c in (1, 2, 3)]
    # The widest cell getting narrower narrows its column again.
    documents.update_entry("200-02", "in progress", 4, 0, 0.0)
    assert widths(documents) == [fitted_width(documents, c) for c in (1, 2, 3)]
    assert widths(documents)[1] < wide[1]


def test_only_the_open_record_is_bold(window: MainWindow) -> None:
    documents = window.documents

    def bold() -> list[str]:
        items: list[QTreeWidgetItem] = list(documents._items.values())
        return [item.text(0) for item in items if item.font(0).bold()]

    assert bold() == ["200-01"]
    for doc_id in ("200-02", "201-01", "201-01", "200-01"):
        window.open_document(doc_id)
        assert bold() == [doc_id]
        assert documents.currentItem() is documents._items[doc_id]
    window.populate_documents()
    assert bold() == ["200-01"]
    window.open_document("201-01")
    assert bold() == ["201-01"]
