"""A MedTator folder in the window: its task's palette, its links listed and edited."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from annotator.core.relations import Argument
from annotator.gui.main_window import MainWindow
from tests.gui.conftest import make_window

MAE_DATA = Path(__file__).resolve().parent.parent / "data" / "mae"


def _vax_note(qtbot: QtBot, tmp_path: Path) -> tuple[Path, MainWindow]:
    """A copy of the VAX task's folder (its DTD beside the note), the note open in a window."""
    folder = tmp_path / "A"
    shutil.copytree(MAE_DATA / "A", folder)
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", folder)
    main = make_window(qtbot, folder)
    main.open_document("A_note-01")
    return folder, main


def test_medtator_folder_opens_with_its_task_and_lists_links(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "A"
    shutil.copytree(MAE_DATA / "A", folder)
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", folder)
    main = make_window(qtbot, folder)
    assert main.session.workspace.schema.name == "VAX_TASK"
    main.open_document("A_note-01")
    panel = main.relations.list
    lines = [panel.item(row).text() for row in range(panel.count())]
    assert lines[0] == "L0  LK_AE_SVRT  link_AE: headache → link_SVRT: Mild"
    assert [line.split()[0] for line in lines] == ["L0", "A3", "F0"]
    assert "(whole document)" in lines[1] and not main.relations.isHidden()


def test_medtator_layout_finds_the_task_two_folders_up(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "VAX" / "ann_xml" / "Annotator_A"
    shutil.copytree(MAE_DATA / "A", folder)
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", tmp_path / "VAX")
    main = make_window(qtbot, folder / "A_note-01.xml")
    assert main.session.workspace.schema.name == "VAX_TASK"
    assert sorted(main.palette_widget.buttons) == ["FEVER_DOC", "SVRT", "sign", "symptom"]


def test_a_link_is_added_undone_and_saved_with_the_task_roles(qtbot: QtBot, tmp_path: Path) -> None:
    folder, main = _vax_note(qtbot, tmp_path)
    document = main.session.document
    assert document is not None
    main.session.set_current("A0")
    panel = main.relations
    panel.type_box.setCurrentText("LK_AE_SVRT")
    panel.target_box.setCurrentIndex(panel.target_box.findData("S0"))
    qtbot.mouseClick(panel.link_button, Qt.MouseButton.LeftButton)
    (added,) = [r for r in document.relations if r.id != "L0"]
    assert added.arguments == (Argument("link_AE", "A0"), Argument("link_SVRT", "S0"))
    # The task's prefix for the link tag, with a number no tag of the file has.
    assert added.id.startswith("L") and int(added.id[1:]) > 3
    assert panel.list.count() == 4
    main.session.history.undo()
    assert [r.id for r in document.relations] == ["L0"]
    main.session.history.redo()
    main.session.workspace.save("A_note-01")
    saved = etree.fromstring((folder / "A_note-01.xml").read_bytes())
    link = next(e for e in saved.findall("TAGS/*") if e.get("id") == added.id)
    assert (link.tag, link.get("link_AEID"), link.get("link_AEText"), link.get("link_SVRTID")) == (
        "LK_AE_SVRT",
        "A0",
        "Fever",
        "S0",
    )


def test_deleting_a_tag_deletes_its_links_in_one_step(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "A"
    shutil.copytree(MAE_DATA / "A", folder)
    main = make_window(qtbot, folder)
    main.open_document("A_note-01")
    document = main.session.document
    assert document is not None
    main.session.set_current("A2")
    main.session.delete_current()
    assert "A2" not in document and not document.relations
    main.session.history.undo()
    assert "A2" in document and [r.id for r in document.relations] == ["L0"]
    panel = main.relations
    panel.list.setCurrentRow(0)
    current = main.session.current()
    assert current is not None and current.id == "A2"
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert not document.relations and "A2" in document


def test_project_toml_names_a_dtd_task(tmp_path: Path) -> None:
    from annotator.core.project import Project
    from annotator.session.workspace import Workspace

    project = Project.create(tmp_path / "p", "VAX", schema="VAX_TASK.dtd", annotators=["alice"])
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", tmp_path / "p")
    shutil.copy(MAE_DATA / "A" / "A_note-01.xml", project.source_dir / "note-01.xml")
    schema = Workspace.open(tmp_path / "p", "alice").schema
    assert schema.category_names == ["AE", "SVRT", "FEVER_DOC"]
    assert schema.task is not None and schema.task.tag("AE") is not None


def test_task_attribute_is_editable_and_saved_as_mae(qtbot: QtBot, tmp_path: Path) -> None:
    folder, main = _vax_note(qtbot, tmp_path)
    main.session.set_current("A0")
    box = main.task_attributes.fields["certainty"]
    assert isinstance(box, QComboBox) and main.session.editor is not None
    assert not main.task_attributes.isHidden() and box.currentText() == "positive"
    assert box.count() == 3
    box.setCurrentIndex(box.findText("negated"))
    box.activated.emit(box.currentIndex())
    document = main.session.editor.document
    assert dict(document.get("A0").extra)["certainty"] == "negated"
    main.session.editor.history.undo()
    assert dict(document.get("A0").extra)["certainty"] == "positive"
    main.session.editor.history.redo()
    main.session.workspace.save("A_note-01")
    saved = etree.fromstring((folder / "A_note-01.xml").read_bytes())
    fever = next(e for e in saved.findall("TAGS/*") if e.get("id") == "A0")
    assert saved.tag == "VAX_TASK" and fever.get("certainty") == "negated" and fever.get("type") == "symptom"


# The offscreen platform cannot raise a popup or grab the keyboard, and says so.
@pytest.mark.qt_log_ignore("This plugin does not support")
def test_link_targets_follow_edits_and_a_deleted_target_links_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    _folder, main = _vax_note(qtbot, tmp_path)
    editor = main.session.editor
    assert editor is not None
    document = editor.document
    word = next(m for m in re.finditer(r"[A-Za-z]{4,}", document.text) if not document.overlapping(*m.span()))
    added = editor.tag(word.start(), word.end(), "symptom")
    assert added is not None
    panel = main.relations
    # Opening the list (what a click does) shows the tag made since the note was opened.
    panel.target_box.showPopup()
    panel.target_box.hidePopup()
    assert panel.target_box.findData(added.id) >= 0
    panel.target_box.setCurrentIndex(panel.target_box.findData(added.id))
    main.session.set_current("A0")
    links = len(document.relations)
    # The chosen target is deleted: Link must not fall back to another tag.
    editor.delete(added.id)
    qtbot.mouseClick(panel.link_button, Qt.MouseButton.LeftButton)
    assert len(document.relations) == links
    assert panel.target_box.findData(added.id) == -1 and panel.target_box.currentIndex() == -1


def test_a_new_tag_gets_the_tasks_defaults_and_no_undeclared_link_type_is_written(
    qtbot: QtBot, tmp_path: Path
) -> None:
    folder, main = _vax_note(qtbot, tmp_path)
    document = main.session.document
    assert document is not None
    start = document.text.index("dose two")
    main.session.apply_type("symptom", start, start + len("dose two"), start)
    # Linked tags take the task's link tags only: a typed name would be an element the DTD lacks.
    panel = main.relations
    assert not panel.type_box.isEditable()
    panel.list.setCurrentRow(0)
    panel.type_box.setEditText("LK_NEW")  # what an editable box would have let through
    qtbot.mouseClick(panel.retype_button, Qt.MouseButton.LeftButton)
    assert {r.type for r in document.relations} == {"LK_AE_SVRT"}
    main.save()
    written = (folder / "A_note-01.xml").read_text(encoding="utf-8")
    new_tag = next(line for line in written.splitlines() if 'text="dose two"' in line)
    # certainty="positive" is the DTD's default, as MAE gives a new tag (it was written empty).
    assert 'certainty="positive"' in new_tag and 'type="symptom"' in new_tag
    assert "<LK_NEW" not in written
