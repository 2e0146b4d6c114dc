"""Fixtures for the GUI tests: a tiny project on disk and a main window on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from annotator.core.annotation import Annotation, Source
from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui.main_window import MainWindow
from annotator.gui.qt_timers import qt_timers
from annotator.io.i2b2 import write_i2b2
from annotator.session.annotation_session import AnnotationSession
from annotator.session.workspace import Workspace

# Notes of patient 200 (two records) and 201 (one), with a misspelling for fuzzy matching.
TEXT_200_01 = (
    "Patient John Smith was seen by Dr. Marissa Jones on 2060-01-02.\n"
    "John Smith reports chest pain.\n"
    "Plan discussed with Marissa Jones.\n"
)
TEXT_200_02 = "Follow-up for John Smith.\nSeen by Marrisa Jones today. Smith family present.\n"
TEXT_201_01 = "Patient Ann Lee, seen by Marissa Jones.\n"


# Qt's offscreen platform warns that it cannot pass size hints on to a window system; that
# is a property of the test platform, not a fault of the widgets, so it must not fail tests
# (qt_log_level_fail=WARNING still fails every other warning).
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints\(\)"


def columns_align(font: QFont) -> bool:
    """What a user sees of a monospace font: a medication table's columns stay aligned, i.e.
    the note's characters (digits, letters, spaces, punctuation) are drawn equally wide."""
    metrics = QFontMetrics(font)
    line_widths = {
        metrics.horizontalAdvance(text) for text in ("iiii1111", "WWWWmmmm", "    ....", "|-+-|-+-")
    }
    return len(line_widths) == 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def _user_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The identity file and the demo copy go to the test's folder, never the real home.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def _restore_theme(qapp: QApplication) -> Iterator[None]:
    # Themes are application-wide: a test that switches to dark must not leak it.
    palette = QPalette(qapp.palette())
    style = qapp.style().name()
    yield
    qapp.setStyle(style)
    qapp.setPalette(palette)


def make_project(root: Path) -> Project:
    project = Project.create(root, "Tiny", annotators=["alice"])
    first = Document("200-01", TEXT_200_01)
    second = Document("200-02", TEXT_200_02)
    # An existing annotation over "Smith" in "Smith family": a later "annotate all" of
    # "John Smith" must leave it alone.
    smith = TEXT_200_02.index("Smith family")
    second.add(second.make_annotation("NAME", "PATIENT", smith, smith + len("Smith")))
    third = Document("201-01", TEXT_201_01)
    for document in (first, second, third):
        text_only = Document(
            document.doc_id, document.text, document.annotations if document is second else []
        )
        write_i2b2(text_only, project.source_dir / f"{document.doc_id}.xml")
    # Model suggestions for 200-01: the first "John Smith" and the date, pending review.
    pre = Document("200-01", TEXT_200_01)
    start = TEXT_200_01.index("John Smith")
    pre.add(
        pre.make_annotation(
            "NAME",
            "PATIENT",
            start,
            start + len("John Smith"),
            source=Source.MODEL,
            confidence=0.91,
            pending=True,
        )
    )
    date = TEXT_200_01.index("2060-01-02")
    pre.add(
        pre.make_annotation(
            "DATE", "DATE", date, date + len("2060-01-02"), source=Source.MODEL, confidence=0.88, pending=True
        )
    )
    project.preannotations_dir.mkdir(parents=True, exist_ok=True)
    write_i2b2(pre, project.preannotations_dir / "200-01.xml")
    return project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path / "project")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make_window(
    qtbot: QtBot, path: Path, clock: FakeClock | None = None, annotator: str = "alice"
) -> MainWindow:
    """A main window on a project, folder or file (no document open yet)."""
    session = AnnotationSession(
        Workspace.open(path, annotator), clock=clock or FakeClock(), autosave_delay=0.2, timers=qt_timers()
    )
    main = MainWindow(session)
    main.ask_recovery = lambda doc_id: True
    main.confirm_close = lambda: "save"
    main.confirm_override = lambda holder: True
    main.close_unsaved = lambda reasons: True
    main.tell_edits_not_recovered = lambda line: None
    qtbot.addWidget(main)
    return main


def show(qtbot: QtBot, main: MainWindow) -> None:
    """Show and activate the window with the focus in the note (shortcuts need an active window)."""
    main.show()
    qtbot.waitExposed(main)
    main.activateWindow()
    qtbot.waitUntil(main.isActiveWindow, timeout=2000)
    main.view.setFocus()


@pytest.fixture
def window(qtbot: QtBot, project: Project, clock: FakeClock) -> Iterator[MainWindow]:
    main = make_window(qtbot, project.root, clock)
    session = main.session
    main.open_document("200-01")
    show(qtbot, main)
    yield main
    if session.document is not None:
        session.close()


def open_note(window: MainWindow) -> Document:
    """The window's open document (a test that needs one fails here if none is open)."""
    document = window.session.document
    assert document is not None
    return document


def first_of(document: Document, type_name: str) -> Annotation:
    """The document's first annotation of a type."""
    return next(a for a in document.sorted_annotations() if a.type == type_name)
