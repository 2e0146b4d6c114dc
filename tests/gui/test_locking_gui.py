"""Locks: a document someone else holds opens read-only and is never silently overwritten."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.project import Project
from annotator.io.i2b2 import read_i2b2
from annotator.io.locking import DocumentLock, read_lock_info
from tests.gui.conftest import TEXT_200_01, make_window, show


def test_document_locked_by_someone_else_opens_read_only(qtbot: QtBot, project: Project) -> None:
    path = project.annotations_dir("alice") / "200-01.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    other = DocumentLock(path, "alice", host="ward-pc")
    other.acquire()
    window = make_window(qtbot, project.root)
    window.open_document("200-01")
    show(qtbot, window)
    assert window.session.read_only
    assert window.banner.isVisible()
    assert "alice on ward-pc" in window.banner.label.text()
    before = path.read_bytes() if path.exists() else b""
    start = TEXT_200_01.index("Marissa")
    window.view.select_span(start, start + len("Marissa"))
    qtbot.keyClick(window.view, "r")
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    document = window.session.document
    assert document is not None and [a for a in document.annotations if a.type == "DOCTOR"] == []
    assert (path.read_bytes() if path.exists() else b"") == before
    # The explicit override makes it editable, and the lock is ours.
    qtbot.mouseClick(window.banner.button, Qt.MouseButton.LeftButton)
    assert not window.session.read_only and not window.banner.isVisible()
    info = read_lock_info(path)
    assert info is not None and info.host != "ward-pc"
    window.session.close()


def test_save_refused_after_someone_overrode_our_lock(qtbot: QtBot, project: Project, tmp_path: Path) -> None:
    window = make_window(qtbot, project.root)
    window.open_document("200-01")
    path = project.annotations_dir("alice") / "200-01.xml"
    intruder = DocumentLock(path, "alice", host="night-shift-pc")
    intruder.acquire(force=True)
    their_version = path.read_bytes()
    start = TEXT_200_01.index("Marissa")
    window.view.select_span(start, start + len("Marissa"))
    qtbot.keyClick(window.view, "r")
    failed = window.session.save()
    assert failed == ["200-01"]
    assert path.read_bytes() == their_version
    # Nothing lost either: the edit is still in memory and goes to the recovery file.
    assert window.session.autosave_now() == 1
    assert [
        a.type for a in read_i2b2(path.with_name(".200-01.xml.autosave")).annotations if a.type == "DOCTOR"
    ] == ["DOCTOR"]
    window.session.workspace.documents.clear()
    intruder.release()
