"""The annotation table: a thin model (qtmodeltester), sorting, filtering, selection sync."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.history import AddAnnotation, History, RemoveAnnotation
from annotator.core.schema import load_schema
from annotator.gui.annotation_table_model import AnnotationFilterProxy, AnnotationTableModel
from annotator.gui.main_window import MainWindow
from tests.gui.conftest import TEXT_200_01


def test_table_model_passes_the_model_tester_through_edits(qtmodeltester: ModelTester) -> None:
    document = Document("200-01", TEXT_200_01)
    model = AnnotationTableModel(load_schema())
    model.set_document(document)
    qtmodeltester.check(model)
    history = History()
    date = TEXT_200_01.index("2060")
    name = TEXT_200_01.index("John")
    added = document.make_annotation("DATE", "DATE", date, date + 10)
    history.push(AddAnnotation(document, added))
    history.push(AddAnnotation(document, document.make_annotation("NAME", "PATIENT", name, name + 4)))
    assert model.rowCount() == 2
    history.push(RemoveAnnotation(document, added.id))
    history.undo()
    qtmodeltester.check(model)
    model.sort(3, Qt.SortOrder.DescendingOrder)
    assert [model.data(model.index(r, 3)) for r in range(model.rowCount())] == ["PATIENT", "DATE"]
    third = TEXT_200_01.index("Marissa")
    history.push(AddAnnotation(document, document.make_annotation("NAME", "DOCTOR", third, third + 7)))
    assert [model.data(model.index(r, 3)) for r in range(model.rowCount())] == ["PATIENT", "DOCTOR", "DATE"]
    qtmodeltester.check(model)


def test_proxy_sorts_by_offset_and_filters_by_category() -> None:
    document = Document("200-01", TEXT_200_01)
    date = TEXT_200_01.index("2060")
    name = TEXT_200_01.index("John")
    document.add(document.make_annotation("DATE", "DATE", date, date + 10))
    document.add(document.make_annotation("NAME", "PATIENT", name, name + 4))
    model = AnnotationTableModel(load_schema())
    model.set_document(document)
    proxy = AnnotationFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(0, Qt.SortOrder.AscendingOrder)
    assert [proxy.data(proxy.index(r, 3)) for r in range(proxy.rowCount())] == ["PATIENT", "DATE"]
    proxy.set_categories({"DATE"})
    assert [proxy.data(proxy.index(r, 3)) for r in range(proxy.rowCount())] == ["DATE"]
    assert proxy.rowCount(QModelIndex()) == 1


def test_clicking_a_row_selects_the_text_and_clicking_text_selects_the_row(
    qtbot: QtBot, window: MainWindow
) -> None:
    table = window.table.table
    proxy = window.table.shown
    row = next(r for r in range(proxy.rowCount()) if proxy.data(proxy.index(r, 3)) == "DATE")
    rect = table.visualRect(proxy.index(row, 2))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    date = TEXT_200_01.index("2060-01-02")
    assert window.view.selection_span() == (date, date + len("2060-01-02"))
    current = window.session.current()
    assert current is not None and current.type == "DATE"
    john = TEXT_200_01.index("John")
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=window.view.point_of(john + 2))
    current = window.session.current()
    assert current is not None and current.text == "John Smith"
    selected = table.selectionModel().selectedRows()
    assert [proxy.data(i.siblingAtColumn(2)) for i in selected] == ["John Smith"]


def test_header_click_sorts_and_keeps_the_selection(qtbot: QtBot, window: MainWindow) -> None:
    window.view.select_span(0, 0)
    qtbot.keyClick(window.view, Qt.Key.Key_Tab)
    header = window.table.table.horizontalHeader()
    shown = window.table.shown

    def click_type_header() -> list[str]:
        qtbot.mouseClick(
            header.viewport(),
            Qt.MouseButton.LeftButton,
            pos=header.rect().topLeft() + QPoint(header.sectionPosition(3) + 10, 5),
        )
        assert header.sortIndicatorSection() == 3
        return [shown.data(shown.index(r, 3)) for r in range(shown.rowCount())]

    first = click_type_header()
    first_order = header.sortIndicatorOrder()
    second = click_type_header()
    assert len(set(first)) > 1  # otherwise any order would pass
    # each click sorts by the indicated order, and the second click reverses the first
    for types, order in ((first, first_order), (second, header.sortIndicatorOrder())):
        assert types == sorted(types, reverse=order == Qt.SortOrder.DescendingOrder)
    assert header.sortIndicatorOrder() != first_order
    assert second == sorted(first, reverse=True) or second == sorted(first)
    assert second != first
    assert window.table.current_id() == window.session.current_id


def test_category_filter_combo_hides_other_rows(qtbot: QtBot, window: MainWindow) -> None:
    combo = window.table.category_box
    combo.setCurrentIndex(combo.findData("DATE"))
    proxy = window.table.shown
    assert [proxy.data(proxy.index(r, 4)) for r in range(proxy.rowCount())] == ["DATE"]
    combo.setCurrentIndex(0)
    assert window.table.shown.rowCount() == 2
