"""A MedTator folder in the window: its task's palette, its links listed read-only."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from tests.gui.conftest import make_window

MAE_DATA = Path(__file__).resolve().parent.parent / "data" / "mae"


def test_medtator_folder_opens_with_its_task_and_lists_kept_tags(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "A"
    shutil.copytree(MAE_DATA / "A", folder)
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", folder)
    main = make_window(qtbot, folder)
    assert main.session.workspace.schema.name == "VAX_TASK"
    main.open_document("A_note-01")
    lines = [main.kept_tags.item(row).text() for row in range(main.kept_tags.count())]
    assert lines[0].startswith("L0  LK_AE_SVRT  [link]") and "link_AE→A2" in lines[0]
    assert [line.split()[0] for line in lines] == ["L0", "A3", "F0"]
    assert not main.kept_tags.isHidden()
    assert all("headache" not in line for line in lines)  # no note text in the list


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
    from lxml import etree

    folder = tmp_path / "A"
    shutil.copytree(MAE_DATA / "A", folder)
    shutil.copy(MAE_DATA / "VAX_TASK.dtd", folder)
    main = make_window(qtbot, folder)
    main.open_document("A_note-01")
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
