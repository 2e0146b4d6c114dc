"""Narrowing and widening both windows, again and again: every panel comes back, and works.

Issue 26: after the window had been narrower than the side-by-side threshold, widening it
left a blank strip where the side panels were (a tab widget hides its pages, a splitter
keeps hidden widgets hidden). Here each window goes through wide and narrow sizes several
times; at every step each panel must be on screen with a real size (wide) or be a tab whose
page shows when chosen (narrow), and clicking in it must still do its job.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QSplitter, QWidget
from pytestqt.qtbot import QtBot

from annotator.adjudication.corpus import prepare_corpus
from annotator.core.project import Project
from annotator.gui.adaptive_layout import AdaptiveBody, Panel
from annotator.gui.adjudication.window import AdjudicationWindow
from annotator.gui.main_window import MainWindow
from tests.adjudication.helpers import NOTE, version, write_versions
from tests.gui.conftest import TEXT_200_01, make_window

# Wide, narrow, wider, narrow, desktop, half a screen, laptop: both directions, twice over.
CYCLE = [(1280, 720), (860, 720), (1920, 1080), (900, 1000), (1280, 720), (960, 1000), (1600, 900)]


def resize_to(window: QWidget, width: int, height: int) -> None:
    window.resize(width, height)
    QApplication.processEvents()
    window.resize(width, height)
    QApplication.processEvents()


def assert_every_panel_usable(body: AdaptiveBody) -> None:
    """Wide: every panel visible beside the note with room to use. Narrow: each one a tab that shows."""
    assert body.centre.isVisible() and body.centre.width() > 300
    if not body.narrow:
        assert body.tabs is None
        for panel in body.panels:
            assert panel.isVisible(), panel.title
            assert panel.widget.isVisible(), panel.title
            assert panel.width() >= 100 and panel.height() >= 60, (panel.title, panel.size())
            assert panel.title_label.isVisible()
        return
    tabs = body.tabs
    assert tabs is not None and tabs.isVisible() and tabs.count() == len(body.panels)
    front = tabs.currentIndex()
    for index, panel in enumerate(body.panels):
        tabs.setCurrentIndex(index)
        QApplication.processEvents()
        assert panel.isVisible() and panel.widget.isVisible(), panel.title
        assert panel.height() >= 40, (panel.title, panel.size())
    tabs.setCurrentIndex(front)


def drag_handle(qtbot: QtBot, splitter: QSplitter, index: int, dx: int, dy: int) -> None:
    handle = splitter.handle(index)
    centre = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=centre)
    qtbot.mouseMove(handle, centre + QPoint(dx // 2, dy // 2))
    qtbot.mouseMove(handle, centre + QPoint(dx, dy))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=centre + QPoint(dx, dy))
    QApplication.processEvents()


def test_annotation_window_panels_survive_every_resize(qtbot: QtBot, project: Project) -> None:
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    main.show()
    qtbot.waitExposed(main)
    narrow_seen = wide_seen = 0
    for size in CYCLE:
        resize_to(main, *size)
        assert main.body.narrow == (size[0] < 1100)
        narrow_seen += bool(main.body.narrow)
        wide_seen += not main.body.narrow
        assert_every_panel_usable(main.body)
    assert narrow_seen >= 2 and wide_seen >= 3
    # Usable, not just visible: the palette tags, the document list opens, the table jumps.
    start = TEXT_200_01.index("Marissa")
    main.view.select_span(start, start + len("Marissa Jones"))
    qtbot.mouseClick(main.palette_widget.buttons["DOCTOR"], Qt.MouseButton.LeftButton)
    document = main.session.document
    assert document is not None
    assert [(a.type, a.text) for a in document.annotations if a.start == start] == [
        ("DOCTOR", "Marissa Jones")
    ]
    item = main.documents._items["201-01"]
    main.documents.scrollToItem(item)
    qtbot.mouseClick(
        main.documents.viewport(), Qt.MouseButton.LeftButton, pos=main.documents.visualItemRect(item).center()
    )
    assert main.session.doc_id == "201-01"
    main.session.close()


def test_splitter_positions_are_kept_per_arrangement_and_reset(qtbot: QtBot, project: Project) -> None:
    main = make_window(qtbot, project.root)
    main.open_document("200-01")
    main.show()
    qtbot.waitExposed(main)
    resize_to(main, 1400, 860)
    outer = main.body.splitters[0]
    before = outer.sizes()
    drag_handle(qtbot, outer, 1, 120, 0)  # widen the document list
    wide = outer.sizes()
    assert wide[0] >= before[0] + 60
    resize_to(main, 880, 900)
    narrow_splitter = main.body.splitters[0]
    drag_handle(qtbot, narrow_splitter, 1, 0, -150)  # give the tabs more room
    narrow = narrow_splitter.sizes()
    resize_to(main, 1400, 860)
    assert abs(main.body.splitters[0].sizes()[0] - wide[0]) <= 2
    resize_to(main, 880, 900)
    assert abs(main.body.splitters[0].sizes()[1] - narrow[1]) <= 2
    resize_to(main, 1400, 860)
    main.actions_by_name["reset_layout"].trigger()
    QApplication.processEvents()
    assert abs(main.body.splitters[0].sizes()[0] - before[0]) <= 2
    assert_every_panel_usable(main.body)
    main.session.close()


def test_splitter_positions_come_back_in_the_next_session(qtbot: QtBot, project: Project) -> None:
    first = make_window(qtbot, project.root)
    first.open_document("200-01")
    first.show()
    resize_to(first, 1400, 860)
    drag_handle(qtbot, first.body.splitters[0], 1, 150, 0)
    chosen = first.body.splitters[0].sizes()[0]
    first.close()
    second: MainWindow = make_window(qtbot, project.root)
    second.open_document("200-01")
    second.show()
    resize_to(second, 1400, 860)
    assert abs(second.body.splitters[0].sizes()[0] - chosen) <= 2
    second.session.close()


def test_adjudication_window_panels_survive_every_resize(qtbot: QtBot, tmp_path: Path) -> None:
    alice = [version("100-01", NOTE, ("John Smith", "NAME", "DOCTOR"), ("Boston", "LOCATION", "CITY"))]
    bob = [version("100-01", NOTE, ("John Smith", "NAME", "PATIENT"))]
    folders = write_versions(tmp_path, {"alice": alice, "bob": bob})
    window = AdjudicationWindow(prepare_corpus(folders, tmp_path / "gold"), adjudicator="dana")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    for side_by_side in (False, True):
        window.set_side_by_side(side_by_side)
        for size in CYCLE:
            resize_to(window, *size)
            assert_every_panel_usable(window.body)
            panels: list[Panel] = window.body.panels
            assert [p.title for p in panels] == ["Documents", "Current unit"]
    # The unit panel still follows the keys after all that.
    resize_to(window, 1600, 900)
    window.set_side_by_side(False)
    first = window.current_unit
    qtbot.keyClick(window, Qt.Key.Key_J)
    assert window.current_unit is not None and window.current_unit is not first
    assert window.unit_panel.isVisible() and window.unit_panel.toPlainText()
    window.close()
