"""Autosave, then a killed process, then recovery offered with nothing lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.io.i2b2 import read_i2b2
from annotator.io.journal import journal_path
from annotator.io.locking import read_lock_info
from tests.gui.conftest import TEXT_200_01, make_window, show

CHILD = textwrap.dedent(
    """
    import sys, time
    from PySide6.QtWidgets import QApplication
    from annotator.gui.qt_timers import qt_timers
    from annotator.session.annotation_session import AnnotationSession
    from annotator.session.workspace import Workspace

    app = QApplication([])
    session = AnnotationSession(Workspace.open(sys.argv[1], "alice"), autosave_delay=0.1, timers=qt_timers())
    session.open_document("200-01")
    start = int(sys.argv[2])
    session.apply_type("DOCTOR", start, start + len("Marissa Jones"), start)
    recovery = session.workspace.entry("200-01").working_path.with_name(".200-01.xml.autosave")
    deadline = time.monotonic() + 20
    while not recovery.exists() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    print("autosaved" if recovery.exists() else "timeout", flush=True)
    time.sleep(60)
    """
)


def test_killed_session_is_recovered_with_nothing_lost(qtbot: QtBot, project: Project) -> None:
    start = TEXT_200_01.index("Marissa Jones")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(project.root), str(start)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "autosaved"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    path = project.annotations_dir("alice") / "200-01.xml"
    # The crash left the saved file without the edit, and a lock nobody holds any more.
    assert [a for a in read_i2b2(path).annotations if a.type == "DOCTOR"] == []
    info = read_lock_info(path)
    assert info is not None and info.is_stale()
    asked: list[str] = []
    window = make_window(qtbot, project.root)
    window.ask_recovery = lambda doc_id: asked.append(doc_id) or True  # type: ignore[func-returns-value]
    window.open_document("200-01")
    show(qtbot, window)
    assert asked == ["200-01"]
    document = window.session.document
    assert document is not None
    assert [(a.start, a.type) for a in document.annotations if a.type == "DOCTOR"] == [(start, "DOCTOR")]
    assert sum(a.pending for a in document.annotations) == 2
    assert not window.session.read_only
    assert window.session.save_state == "unsaved"
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert [a.start for a in read_i2b2(path).annotations if a.type == "DOCTOR"] == [start]
    assert not path.with_name(".200-01.xml.autosave").exists()
    window.session.close()


def test_autosave_writes_recovery_a_few_seconds_after_an_edit(qtbot: QtBot, window: object) -> None:
    from annotator.gui.main_window import MainWindow

    assert isinstance(window, MainWindow)
    clock = window.session.clock
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    recovery = window.session.workspace.entry("200-01").working_path.with_name(".200-01.xml.autosave")
    assert not recovery.exists()
    clock.advance(1.0)  # type: ignore[attr-defined]
    with qtbot.waitSignal(window.session.save_state_changed, timeout=2000):
        pass
    assert recovery.exists()
    assert window.status.save_label.text().startswith("✓ autosaved")


def test_an_unwritable_journal_is_said_in_the_status_bar_and_the_edit_is_kept(
    qtbot: QtBot, project: Project
) -> None:
    working = project.annotations_dir("alice") / "200-01.xml"
    journal_path(working).mkdir()  # a folder where the journal file should be: writing fails
    window = make_window(qtbot, project.root)
    window.open_document("200-01")
    show(qtbot, window)
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    message = window.statusBar().currentMessage()
    assert message.startswith("The edit journal could not be written (.200-01.xml.journal: Is a directory)")
    # The file is written, but the journal cannot be emptied: the save is refused, with why.
    said: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        said.append(box.text())
        box.accept()

    QTimer.singleShot(0, answer)
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: said != [], timeout=3000)
    assert "200-01.xml.journal: saved, but the edit journal cannot be removed: Is a directory" in said[0]
    assert [a.start for a in read_i2b2(working).annotations if a.type == "DOCTOR"] == [start]
    window.session.workspace.documents.clear()
    window.session.close()
