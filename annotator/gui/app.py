"""Starting the GUI: the application object, the theme, the window, and screenshot mode.

``launch`` is what ``annotator gui`` and ``annotator demo`` call. Without a display Qt would
abort the process, so the display is checked first and a one-line hint printed instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QMessageLogContext,
    Qt,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication, QWidget

from annotator.core.annotation import Annotation
from annotator.core.propagation import find_occurrences
from annotator.errors import AnnotatorError, UsageError, printable_path
from annotator.gui.identity_dialog import choose_identity
from annotator.gui.main_window import MainWindow
from annotator.gui.memory import opening_a_record
from annotator.gui.qt_timers import qt_timers
from annotator.gui.screenshot import write_screenshot
from annotator.gui.screenshot_views import REPORT_VIEWS, report_screenshot
from annotator.gui.theme import ThemeName, apply_theme
from annotator.io.preferences import load_preferences
from annotator.session.annotation_session import AnnotationSession
from annotator.session.workspace import Workspace

NO_DISPLAY_HINT = (
    "no display available: use --screenshot FILE.png to render offscreen, or set QT_QPA_PLATFORM=offscreen"
)


def display_available() -> bool:
    """False on a Linux machine with no X11 or Wayland display and no Qt platform chosen."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def get_application(offscreen: bool = False) -> QApplication:
    """The QApplication (created once); ``offscreen`` renders without any display."""
    if offscreen and QApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = QApplication.instance()
    if app is None:
        if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
            _quiet_offscreen_noise()
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication(sys.argv[:1])
        app.setApplicationName("PHI Annotator")
        app.setOrganizationName("phi-annotator")
    assert isinstance(app, QApplication)
    return app


OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)


def _quiet_offscreen_noise() -> None:
    """Drop the offscreen platform's harmless warnings, pass every other message on.

    A screenshot run then prints nothing but its own result or one error line.
    """
    previous: list[Callable[..., None] | None] = []

    def handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if message in OFFSCREEN_NOISE:
            return
        if previous and previous[0] is not None:
            previous[0](mode, context, message)
        else:
            print(message, file=sys.stderr)

    previous.append(qInstallMessageHandler(handler))


def build_window(
    path: Path,
    annotator: str | None = None,
    document: str | None = None,
    theme: ThemeName = "auto",
    ask: bool = True,
    schema: str | None = None,
) -> MainWindow:
    """Open a project, folder or file in a new main window (not shown yet).

    The document shown is ``document``, else the one the annotator had open last, else the
    first one not done. With ``ask=False`` (screenshots) nothing is asked and nothing is
    recorded: no identity dialog, no recovery question (a recovery file is kept for later),
    no status or time.
    A first document that cannot be read raises, with every lock released.
    """
    app = get_application()
    chosen = load_preferences().theme
    # --theme auto: the theme last chosen with Ctrl+Shift+T, else the system's.
    if theme == "auto" and chosen in ("light", "dark"):
        theme = "dark" if chosen == "dark" else "light"
    dark = apply_theme(app, theme)
    name = choose_identity(None, annotator, ask=ask)
    workspace = Workspace.open(path, name, schema, looking_only=not ask)
    if document is not None and document not in workspace.doc_ids():
        raise UsageError(f"no document '{printable_path(document)}' in {printable_path(path)}")
    session = AnnotationSession(workspace, track=ask, timers=qt_timers())
    window = MainWindow(session, dark, open_project=_open_project)
    if not ask:
        window.ask_recovery = lambda doc_id: None
    try:
        first = document or session.last_document() or _first_unfinished(session)
        with opening_a_record():
            session.open_document(first, window.ask_recovery)
    except AnnotatorError:
        session.close()
        window.deleteLater()
        raise
    return window


def _open_project(path: Path, annotator: str, theme: ThemeName) -> MainWindow:
    """File > Open: the next window, for the same annotator, in the same theme."""
    return build_window(path, annotator, theme=theme)


def _first_unfinished(session: AnnotationSession) -> str:
    for doc_id in session.workspace.doc_ids():
        if session.status(doc_id) != "done":
            return doc_id
    return session.workspace.doc_ids()[0]


def save_screenshot(widget: QWidget, target: Path, size: tuple[int, int] | None = None) -> None:
    """Render a widget (offscreen works) to a PNG file, private to its owner."""
    get_application()
    write_screenshot(widget, target, size)


def screenshot(
    window: MainWindow, target: Path, view: str = "main", size: tuple[int, int] | None = None
) -> None:
    """Render the window, or a dialog over it, to ``target``.

    ``view``: ``main`` (the first pending pre-annotation selected, to show the review
    style), ``annotate-all`` (the preview dialog for the first name in the document), or a
    report (:data:`~annotator.gui.screenshot_views.REPORT_VIEWS`).
    """
    if view in REPORT_VIEWS:
        report_screenshot(window, view, target)
        return
    window.step(+1, pending_only=True)
    if window.session.current() is None:
        window.step(+1)
    if view == "annotate-all":
        # Show a name that recurs in the patient's other records, so the preview has rows.
        session = window.session
        document = session.document
        names = [a for a in (document.sorted_annotations() if document else []) if a.tag == "NAME"]
        scope = session.load_scope("patient")
        if names and document is not None:

            def rows(annotation: Annotation) -> tuple[int, int]:
                found = find_occurrences(annotation, scope, origin_doc_id=document.doc_id, fuzzy=True)
                return len(found.matches) + len(found.fuzzy), len(found.conflicts)

            session.set_current(max(names, key=rows).id)
        dialog = window.annotate_all()
        if dialog is None:
            raise UsageError("no annotation to propagate in this document")
        dialog.set_scope("patient")
        save_screenshot(dialog, target)
        dialog.reject()
    else:
        save_screenshot(window, target, size)


def _report_internal_error(kind: type[BaseException], error: BaseException, traceback: object) -> None:
    """An exception escaping a slot: one line, no traceback and no message (it may quote data).

    The window stays open; autosave keeps running, so nothing is lost.
    """
    print(
        f"annotator gui: internal error ({kind.__name__}); run with --debug for the traceback",
        file=sys.stderr,
    )


def launch(
    path: Path,
    annotator: str | None = None,
    screenshot_path: Path | None = None,
    document: str | None = None,
    theme: ThemeName = "auto",
    view: str = "main",
    debug: bool = False,
    size: tuple[int, int] | None = None,
    schema: str | None = None,
) -> int:
    """Run the GUI (or render a screenshot and return). Returns the exit code."""
    if screenshot_path is None and not display_available():
        print(f"annotator gui: {NO_DISPLAY_HINT}", file=sys.stderr)
        return 1
    app = get_application(offscreen=screenshot_path is not None)
    window = build_window(path, annotator, document, theme, ask=screenshot_path is None, schema=schema)
    if screenshot_path is not None:
        try:
            screenshot(window, screenshot_path, view, size)
        finally:
            window.session.workspace.documents.clear()
            window.close()
        return 0
    previous = sys.excepthook
    if not debug:
        sys.excepthook = _report_internal_error
    try:
        window.show()
        return int(app.exec())
    finally:
        sys.excepthook = previous
