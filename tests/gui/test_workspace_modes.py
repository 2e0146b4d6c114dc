"""Opening a project, a plain folder or one file; working copies; identity; closing safely."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui.identity_dialog import choose_identity
from annotator.gui.main_window import MainWindow
from annotator.io.i2b2 import read_i2b2, write_i2b2
from annotator.io.workstate import load_identity
from annotator.session.workspace import Workspace
from tests.gui.conftest import TEXT_200_01, TEXT_200_02, make_window, show


def test_working_copy_starts_from_preannotations_else_source(project: Project) -> None:
    workspace = Workspace.open(project.root, "bob")
    assert "bob" in Project.open(project.root).annotators
    workspace.prepare("200-01")
    workspace.prepare("200-02")
    first = read_i2b2(project.annotations_dir("bob") / "200-01.xml")
    second = read_i2b2(project.annotations_dir("bob") / "200-02.xml")
    assert [(a.type, a.pending) for a in first.annotations] == [("PATIENT", True), ("DATE", True)]
    assert [(a.type, a.pending) for a in second.annotations] == [("PATIENT", False)]
    # The source and the suggestions are never written.
    assert read_i2b2(project.source_dir / "200-01.xml").annotations == []
    workspace.release_all()


def test_single_file_is_edited_in_place(qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "notes" / "300-01.xml"
    path.parent.mkdir()
    write_i2b2(Document("300-01", TEXT_200_02), path)
    write_i2b2(Document("300-02", TEXT_200_02), path.with_name("300-02.xml"))
    window = make_window(qtbot, path)
    assert window.session.workspace.doc_ids() == ["300-01"]
    window.open_document("300-01")
    show(qtbot, window)
    start = TEXT_200_02.index("Marrisa Jones")
    window.view.select_span(start, start + len("Marrisa Jones"))
    qtbot.keyClick(window.view, "r")
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert [(a.start, a.type) for a in read_i2b2(path).annotations] == [(start, "DOCTOR")]
    assert not (tmp_path / "notes" / "annotations").exists()
    window.session.close()


def test_plain_folder_lists_every_file(qtbot: QtBot, tmp_path: Path) -> None:
    for doc_id in ("300-01", "300-02", "301-01"):
        write_i2b2(Document(doc_id, TEXT_200_01), tmp_path / f"{doc_id}.xml")
    workspace = Workspace.open(tmp_path, "alice")
    assert [(p, [e.doc_id for e in entries]) for p, entries in workspace.patients().items()] == [
        ("300", ["300-01", "300-02"]),
        ("301", ["301-01"]),
    ]


def test_closing_with_unsaved_changes_asks_and_saves(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    asked: list[str] = []
    window.confirm_close = lambda: asked.append("close") or "save"  # type: ignore[func-returns-value]
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    window.close()
    assert asked == ["close"]
    saved = read_i2b2(project.annotations_dir("alice") / "200-01.xml")
    assert [a.start for a in saved.annotations if a.type == "DOCTOR"] == [start]
    assert not (project.annotations_dir("alice") / ".200-01.xml.lock").exists()


def test_cancelled_close_keeps_the_window(qtbot: QtBot, window: MainWindow) -> None:
    window.confirm_close = lambda: "cancel"
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    window.close()
    assert window.isVisible()
    assert window.session.workspace.dirty() == ["200-01"]


def test_switching_documents_saves_the_one_left(qtbot: QtBot, window: MainWindow, project: Project) -> None:
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    qtbot.keyClick(window.view, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-02"
    saved = read_i2b2(project.annotations_dir("alice") / "200-01.xml")
    assert [a.type for a in saved.annotations if a.start == start] == ["DOCTOR"]
    qtbot.keyClick(window.view, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc_id == "200-01"


@pytest.mark.parametrize("given", ["carol", None])
def test_identity_is_chosen_once_and_remembered(given: str | None) -> None:
    if given is None:
        assert choose_identity(None, None, ask=False)  # the login name, not remembered
        assert load_identity() is None
    else:
        assert choose_identity(None, given) == given
        assert load_identity() == given
        assert choose_identity(None, None, ask=False) == given


def test_tag_outside_the_text_is_refused_and_the_current_document_stays(
    qtbot: QtBot, window: MainWindow, project: Project
) -> None:
    from annotator.errors import OffsetError

    path = project.source_dir / "201-01.xml"
    data = path.read_bytes().replace(
        b"<TAGS>", b'<TAGS>\n<DATE id="P9" start="5" end="999" text="x" TYPE="DATE" comment="" />', 1
    )
    path.write_bytes(data)
    with pytest.raises(OffsetError, match="P9"):
        window.session.open_document("201-01")
    assert window.session.doc_id == "200-01"
    assert not (project.annotations_dir("alice") / ".201-01.xml.lock").exists()
    assert not (project.annotations_dir("alice") / "201-01.xml").exists()
    assert (project.annotations_dir("alice") / ".200-01.xml.lock").exists()


def test_reopening_the_current_document_changes_nothing(qtbot: QtBot, window: MainWindow) -> None:
    document = window.session.document
    start = TEXT_200_01.index("Marissa Jones")
    window.view.select_span(start, start + len("Marissa Jones"))
    qtbot.keyClick(window.view, "r")
    item = window.documents._items["200-01"]
    qtbot.mouseClick(
        window.documents.viewport(),
        Qt.MouseButton.LeftButton,
        pos=window.documents.visualItemRect(item).center(),
    )
    assert window.session.document is document
    assert window.session.current() is not None
    qtbot.keyClick(window.view, Qt.Key.Key_Delete)
    assert document is not None and [a for a in document.annotations if a.start == start] == []


def test_brat_document_is_tagged_by_key_and_saved_as_brat(qtbot: QtBot, tmp_path: Path) -> None:
    txt = tmp_path / "brat" / "300-01.txt"
    txt.parent.mkdir()
    txt.write_text(TEXT_200_02, encoding="utf-8")
    (txt.parent / "300-01.ann").write_text("", encoding="utf-8")
    window = make_window(qtbot, txt.parent)
    window.open_document("300-01")
    show(qtbot, window)
    start = TEXT_200_02.index("Marrisa Jones")
    window.view.select_span(start, start + len("Marrisa Jones"))
    qtbot.keyClick(window.view, "r")
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    ann = (txt.parent / "300-01.ann").read_text(encoding="utf-8").splitlines()
    assert ann[0] == f"T1\tDOCTOR {start} {start + len('Marrisa Jones')}\tMarrisa Jones"
    assert not list(txt.parent.glob("*.xml"))
    window.session.close()
