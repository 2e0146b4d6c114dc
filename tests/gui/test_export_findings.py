"""A refused export in the GUI: findings listed, opened in their note, tagged or marked not PHI."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from annotator.core.document import Document
from annotator.core.project import Project
from annotator.gui.export_dialog import ExportDialog
from annotator.gui.main_window import MainWindow
from annotator.io.i2b2 import write_i2b2
from tests.deid.builders import note
from tests.gui.conftest import TEXT_200_01

FIRST = TEXT_200_01.index("John Smith")
SECOND = TEXT_200_01.index("John Smith", FIRST + 1)


def gold_with_missed_name(project: Project) -> None:
    """Gold 200-01 with the first "John Smith" tagged and the second one missed."""
    document = Document("200-01", TEXT_200_01)
    document.add(document.make_annotation("NAME", "PATIENT", FIRST, FIRST + len("John Smith")))
    for text in ("Marissa Jones", "2060-01-02"):
        start = TEXT_200_01.index(text)
        tag, type_ = ("NAME", "DOCTOR") if text[0].isalpha() else ("DATE", "DATE")
        document.add(document.make_annotation(tag, type_, start, start + len(text)))
        later = TEXT_200_01.find(text, start + 1)
        if later >= 0:
            document.add(document.make_annotation(tag, type_, later, later + len(text)))
    write_i2b2(document, project.gold_dir / "200-01.xml")


def refused(qtbot: QtBot, dialog: ExportDialog, out: Path) -> None:
    dialog.out_edit.setText(str(out))
    with qtbot.waitSignal(dialog.failed, timeout=20000):
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)


def test_refusal_lists_each_finding_without_text(qtbot: QtBot, tmp_path: Path) -> None:
    project = Project.create(tmp_path / "proj", "Findings")
    write_i2b2(
        note("701-01", "Patient ", ("Zebulon Quist", "PATIENT"), ". Quist called. Spoke to QUIST."),
        project.gold_dir / "701-01.xml",
    )
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    refused(qtbot, dialog, tmp_path / "out")
    model = dialog.findings.model
    ModelTester(None).check(model)
    rows = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    first = len("Patient Zebulon Quist. ")
    second = len("Patient Zebulon Quist. Quist called. Spoke to ")
    assert rows == [
        ["701-01", first, first + 5, "PATIENT", "unreplaced text"],
        ["701-01", second, second + 5, "PATIENT", "unreplaced text"],
    ]
    assert not dialog.findings.isHidden() and "2 finding(s)" in dialog.findings.summary_label.text()
    assert not (tmp_path / "out").exists()


def test_not_phi_writes_a_private_allow_entry_and_the_next_export_passes(
    qtbot: QtBot, tmp_path: Path
) -> None:
    project = Project.create(tmp_path / "proj", "Findings")
    write_i2b2(note("702-01", "Seen by ", ("Dr. Stone", "DOCTOR"), "."), project.gold_dir / "702-01.xml")
    write_i2b2(note("702-02", "Seen again. Stone passed."), project.gold_dir / "702-02.xml")
    dialog = ExportDialog(project)
    qtbot.addWidget(dialog)
    refused(qtbot, dialog, tmp_path / "out")
    assert dialog.findings.model.rowCount() == 1
    dialog.findings.scope_combo.setCurrentIndex(dialog.findings.scope_combo.findData("patient"))
    with qtbot.waitSignal(dialog.findings.not_phi_marked) as marked:
        qtbot.mouseClick(dialog.findings.not_phi_button, Qt.MouseButton.LeftButton)
    allow = project.root / ExportDialog.ALLOW_FILE
    assert json.loads(allow.read_text(encoding="utf-8"))["allow"] == [marked.args[0].to_dict()]
    assert marked.args[0].to_dict()["text"] == "Stone" and marked.args[0].where == "702"
    assert stat.S_IMODE(allow.stat().st_mode) == 0o600
    assert dialog.findings.model.rowCount() == 0 and dialog.findings.isHidden()
    with qtbot.waitSignal(dialog.exported, timeout=20000) as blocker:
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].leaks_allowed == 1


def test_open_in_note_selects_the_finding_in_the_main_window_to_tag_it(
    qtbot: QtBot, window: MainWindow, project: Project, tmp_path: Path
) -> None:
    gold_with_missed_name(project)
    window.open_document("201-01")
    window.actions_by_name["ExportDialog"].trigger()
    dialog = window.findChild(ExportDialog)
    assert dialog is not None
    refused(qtbot, dialog, tmp_path / "out")
    leaks = dialog.findings.model.leaks
    row = next(n for n, leak in enumerate(leaks) if leak.original_start == SECOND)
    dialog.findings.table.selectRow(row)
    qtbot.mouseClick(dialog.findings.open_button, Qt.MouseButton.LeftButton)
    assert window.session.doc_id == "200-01"
    assert window.view.selection_span() == (SECOND, SECOND + len("John Smith"))
    window.activateWindow()
    window.view.setFocus()
    qtbot.keyClick(window.view, "p")
    document = window.session.document
    assert document is not None
    assert [(a.type, a.text) for a in document.annotations if a.start == SECOND] == [
        ("PATIENT", "John Smith")
    ]
    dialog.close()


def test_tag_it_tags_the_finding_in_the_main_window(
    qtbot: QtBot, window: MainWindow, project: Project, tmp_path: Path
) -> None:
    gold_with_missed_name(project)
    window.actions_by_name["ExportDialog"].trigger()
    dialog = window.findChild(ExportDialog)
    assert dialog is not None
    refused(qtbot, dialog, tmp_path / "out")
    row = next(n for n, leak in enumerate(dialog.findings.model.leaks) if leak.original_start == SECOND)
    dialog.findings.table.selectRow(row)
    qtbot.mouseClick(dialog.findings.tag_button, Qt.MouseButton.LeftButton)
    document = window.session.document
    assert document is not None and document.doc_id == "200-01"
    assert [(a.type, a.text) for a in document.annotations if a.start == SECOND] == [
        ("PATIENT", "John Smith")
    ]
    window.session.history.undo()
    assert [a for a in document.annotations if a.start == SECOND] == []
    dialog.close()
