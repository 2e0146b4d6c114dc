"""Both windows at laptop, half-screen and desktop sizes: a readable note, nothing clipped silently."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QMainWindow, QPlainTextEdit
from pytestqt.qtbot import QtBot

from annotator.adjudication.corpus import prepare_corpus
from annotator.core.project import Project
from annotator.gui.adjudication.window import AdjudicationWindow
from annotator.gui.elided_label import ElidedLabel
from annotator.gui.main_window import MainWindow
from tests.adjudication.helpers import NOTE, version, write_versions
from tests.gui.conftest import make_window

SIZES = [(1280, 720), (960, 1000), (1920, 1080), (780, 1000)]
MAE_DATA = Path(__file__).resolve().parent.parent / "data" / "mae"
MIN_CHARS = 60


def chars_wide(view: QPlainTextEdit) -> float:
    """How many average characters of the view's font fit on one line of its viewport."""
    metrics = QFontMetrics(view.font())
    return view.viewport().width() / (metrics.horizontalAdvance("0" * 100) / 100)


def _plain(text: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", text.replace("&nbsp;", " ")))


def silently_clipped(window: QMainWindow) -> list[str]:
    """Visible one-line labels and buttons whose text is wider than they are and has no tooltip."""
    found = []
    for widget in window.findChildren(QLabel) + window.findChildren(QAbstractButton):
        if not widget.isVisibleTo(window) or not widget.isVisible():
            continue
        if isinstance(widget, ElidedLabel):
            if widget.is_elided() and widget.full_text() not in widget.toolTip():
                found.append(widget.full_text())
            continue
        if isinstance(widget, QLabel) and widget.wordWrap():
            continue
        text = _plain(widget.text()).replace("&", "")
        if not text:
            continue
        font = QFont(widget.font())
        if "<b>" in widget.text():
            font.setBold(True)
        needed = QFontMetrics(font).horizontalAdvance(text)
        room = widget.contentsRect().width() - (16 if isinstance(widget, QAbstractButton) else 0)
        if needed > room and not widget.toolTip():
            found.append(f"{type(widget).__name__} {text!r}: {needed} > {room}")
    return found


def settle_at(qtbot: QtBot, window: QMainWindow, size: tuple[int, int]) -> None:
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    # The first resize can be held up by the wide arrangement's minimum size; once the
    # window has switched to its narrow arrangement, the next one lands.
    for _ in range(5):
        QApplication.processEvents()
        window.resize(*size)
    QApplication.processEvents()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_annotation_window_fits_and_keeps_a_readable_note(
    qtbot: QtBot, project: Project, size: tuple[int, int]
) -> None:
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    settle_at(qtbot, main, size)
    assert (main.width(), main.height()) == size
    assert chars_wide(main.view) >= MIN_CHARS
    assert main.body.narrow == (size[0] < 1100)
    # Every panel is still reachable: beside the note, or in a tab under it.
    for widget in (main.documents, main.palette_widget, main.table, main.attributes):
        assert widget.isVisible() or (main.body.tabs is not None and main.body.tabs.isAncestorOf(widget))
    main.statusBar().showMessage("Read-only: this document is locked by someone else. " * 3)
    QApplication.processEvents()
    assert silently_clipped(main) == []
    main.session.close()


def rows_shown(main: MainWindow) -> float:
    table = main.table.table
    return table.viewport().height() / table.rowHeight(0)


def settle_on_annotations(qtbot: QtBot, main: MainWindow, size: tuple[int, int]) -> None:
    settle_at(qtbot, main, size)
    tabs = main.body.tabs
    if tabs is not None:  # narrow: the table is in a tab under the note
        tabs.setCurrentIndex([tabs.tabText(i) for i in range(tabs.count())].index("Annotations"))
        QApplication.processEvents()
    assert main.table.table.isVisible()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 700)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_annotation_table_keeps_the_height_an_empty_links_panel_does_not_need(
    qtbot: QtBot, project: Project, size: tuple[int, int]
) -> None:
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    settle_on_annotations(qtbot, main, size)
    # No links: the Links panel is its heading and the row that makes a link, no empty list;
    # the table has the rest (it had a row and a half at 1,280x720).
    assert not main.relations.list.isVisible() and main.relations.link_button.isVisible()
    assert main.relations.height() < 3 * main.relations.link_button.height()
    assert rows_shown(main) >= 6
    main.session.close()


def test_links_panel_is_as_tall_as_its_links_at_1280x720(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "A"
    shutil.copytree(MAE_DATA / "A", folder)
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", folder)
    main = make_window(qtbot, folder)
    main.open_document("A_note-01")
    settle_on_annotations(qtbot, main, (1280, 720))
    links = main.relations.list
    assert links.isVisible() and links.count() == 3
    # Every line shows without scrolling, and the table still shows several rows.
    assert links.visualItemRect(links.item(2)).bottom() < links.viewport().height()
    assert rows_shown(main) >= 3
    main.session.close()


@pytest.fixture
def prepared_versions(tmp_path: Path) -> list[Path]:
    long_id = "100-01-with-a-rather-long-document-identifier"
    alice = [version(long_id, NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))]
    bob = [version(long_id, NOTE, ("John Smith", "NAME", "PATIENT"))]
    return write_versions(tmp_path, {"alice": alice, "bob": bob})


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("side_by_side", [False, True], ids=["merged", "side-by-side"])
def test_adjudication_window_fits_and_keeps_a_readable_note(
    qtbot: QtBot, prepared_versions: list[Path], tmp_path: Path, size: tuple[int, int], side_by_side: bool
) -> None:
    window = AdjudicationWindow(prepare_corpus(prepared_versions, tmp_path / "gold"), adjudicator="dana")
    qtbot.addWidget(window)
    window.set_side_by_side(side_by_side)
    settle_at(qtbot, window, size)
    assert (window.width(), window.height()) == size
    if side_by_side:
        # Two versions share the note's width; each column still shows a readable line.
        assert len(window.side_by_side.columns) == 2
        assert all(chars_wide(c.view) >= 40 for c in window.side_by_side.columns)
    else:
        assert chars_wide(window.note_view) >= MIN_CHARS
    assert silently_clipped(window) == []
    window.close()
